// SPDX-License-Identifier: Apache-2.0
// The kernelindex reader: round-trips, every accepted shape, and each refused or warned document.
#include "model/read/documentparser.h"
#include "model/write/runwriter.h"

#include "kix/config.h"

#include "tests/support/testfiles.h"
#include "tests/support/testmain.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix;

namespace {

QString seedPath()
{
    return QStringLiteral(KIX_SOURCE_DIR "/resources/runs/group_norm-backward-huggingface-nvidia-b200.json");
}

nlohmann::json readJsonFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    QByteArray bytes = f.readAll();
    if (bytes.startsWith("\xEF\xBB\xBF"))
        bytes.remove(0, 3);
    return nlohmann::json::parse(bytes.constData(), bytes.constData() + bytes.size());
}

int errors(const Diagnostics& ds)
{
    int n = 0;
    for (const Diagnostic& d : ds)
        n += d.isError();
    return n;
}

} // namespace

class TestDocumentParser : public QObject
{
    Q_OBJECT
private slots:
    void seedTypedView();
    void seedRoundTripsEqual();
    void acceptedShapes_data();
    void acceptedShapes();
    void unknownFieldsSurviveExport();
    void refused_data();
    void refused();
    void warned_data();
    void warned();
    void workloadSlug_data();
    void workloadSlug();
    void randomBytesNeverCrash();
};

void TestDocumentParser::seedTypedView()
{
    const ParseResult r = parseFile(seedPath());
    QVERIFY2(r.diagnostics.isEmpty(), qPrintable(kixtest::dumpDiagnostics(r.diagnostics)));
    QCOMPARE(r.runs.size(), 1);
    const Run& run = *r.runs.first();
    QCOMPARE(run.kernel, QStringLiteral("group_norm"));
    QCOMPARE(run.pass, QStringLiteral("backward"));
    QCOMPARE(run.provider, QStringLiteral("huggingface"));
    QCOMPARE(run.gpuSlug, QStringLiteral("nvidia-b200"));
    QCOMPARE(run.gpuProduct, QStringLiteral("NVIDIA B200"));
    QCOMPARE(run.gpuVendor, QStringLiteral("nvidia"));
    QCOMPARE(run.gpuArchitecture, QStringLiteral("sm_100"));
    QCOMPARE(run.paramNumber(QStringLiteral("batch")), 128.0);
    QCOMPARE(run.paramNumber(QStringLiteral("channels")), 2048.0);
    QCOMPARE(run.paramNumber(QStringLiteral("channels_per_group")), 4.0);
    QCOMPARE(run.paramNumber(QStringLiteral("hidden")), 512.0);
    QCOMPARE(run.dtype, QStringLiteral("fp32"));
    QCOMPARE(run.median, 1315872.0);
    QCOMPARE(run.p20, 1315744.0);
    QCOMPARE(run.p80, 1317760.0);
    QCOMPARE(run.status, QStringLiteral("passed"));
    QCOMPARE(run.observedAt, QDateTime(QDate(2026, 2, 28), QTime(0, 23, 31), Qt::UTC));
    QCOMPARE(run.source, QStringLiteral("liger-kernel-bench"));
    QCOMPARE(run.protocolFamily, QStringLiteral("liger_kernel_bench"));
    QCOMPARE(run.links().timer, QStringLiteral("cuda_events"));
    QVERIFY(run.protocolNotes.contains(QStringLiteral("Comparable only within one kernel")));
    QCOMPARE(
        run.protocolDigest, QStringLiteral("sha256:080e6e66e4ec75a131aa0c9121c74b8e8eed64e7b6d621d567c6a28f79548be8"));
    QCOMPARE(run.implementationDigest,
        QStringLiteral("sha256:e8c7d555b6002524eb04f3e8a91c03603172925143b51877f4050be074e9e025"));
    QCOMPARE(run.labels.size(), 1);
    QCOMPARE(run.labels.first().key, QStringLiteral("liger_version"));
    QCOMPARE(run.labels.first().value, QStringLiteral("0.7.0"));
    QVERIFY(run.isLatency());
    QVERIFY(qAbs(run.spread() - (1317760.0 - 1315744.0) / 1315872.0) < 1e-12);
}

void TestDocumentParser::seedRoundTripsEqual()
{
    const ParseResult r = parseFile(seedPath());
    QCOMPARE(r.runs.size(), 1);
    const QByteArray exported = serializeRuns(r.runs, ExportFormat::Json);
    const auto array = nlohmann::json::parse(exported.constData(), exported.constData() + exported.size());
    QVERIFY(array.is_array());
    QCOMPARE(array.size(), std::size_t(1));
    QVERIFY(array[0] == readJsonFile(seedPath()));
    // and the export loads again to the same typed view
    const ParseResult again = parseBytes(exported, QStringLiteral("again.json"));
    QCOMPARE(again.runs.size(), 1);
    QCOMPARE(again.runs.first()->identityKey(), r.runs.first()->identityKey());
    QCOMPARE(again.runs.first()->median, r.runs.first()->median);
}

void TestDocumentParser::acceptedShapes_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("runs");
    QTest::addColumn<QString>("firstPointer");
    QTest::newRow("bare BenchmarkRun") << QStringLiteral("good/bare_run.json") << 1 << QString();
    QTest::newRow("array of documents") << QStringLiteral("good/array.json") << 2 << QStringLiteral("/0");
    QTest::newRow("JSON Lines with CRLF") << QStringLiteral("good/bundle.jsonl") << 2 << QStringLiteral("/0");
    QTest::newRow("BOM and CRLF") << QStringLiteral("good/bom_crlf.json") << 1 << QString();
}

void TestDocumentParser::acceptedShapes()
{
    QFETCH(QString, file);
    QFETCH(int, runs);
    QFETCH(QString, firstPointer);
    const ParseResult r = parseFile(kixtest::modelDataPath(file));
    QVERIFY2(r.diagnostics.isEmpty(), qPrintable(kixtest::dumpDiagnostics(r.diagnostics)));
    QCOMPARE(r.runs.size(), runs);
    QCOMPARE(r.runs.first()->pointer, firstPointer);
    QVERIFY(r.runs.first()->median > 0);
}

void TestDocumentParser::unknownFieldsSurviveExport()
{
    for (const QString& name : { QStringLiteral("good/array.json"), QStringLiteral("good/bom_crlf.json") }) {
        const ParseResult r = parseFile(kixtest::modelDataPath(name));
        QVERIFY(!r.runs.isEmpty());
        nlohmann::json original = readJsonFile(kixtest::modelDataPath(name));
        if (!original.is_array())
            original = nlohmann::json::array({ original });
        for (const ExportFormat format : { ExportFormat::Json, ExportFormat::JsonLines }) {
            const QByteArray bytes = serializeRuns(r.runs, format);
            nlohmann::json back = nlohmann::json::array();
            if (format == ExportFormat::Json) {
                back = nlohmann::json::parse(bytes.toStdString());
            } else {
                for (const QByteArray& line : bytes.split('\n')) {
                    if (!line.isEmpty())
                        back.push_back(nlohmann::json::parse(line.toStdString()));
                }
            }
            QVERIFY2(back == original, qPrintable(name));
            QCOMPARE(back[0]["x-extra"]["note"].get<std::string>(), std::string("unknown fields survive"));
        }
    }
}

void TestDocumentParser::refused_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("message");
    QTest::addColumn<int>("line"); // 0: not checked

    auto row = [](const char* file, const char* pointer, const char* message, int line = 0) {
        QTest::newRow(file) << QString::fromLatin1(file) << QString::fromLatin1(pointer) << QString::fromUtf8(message)
                            << line;
    };
    row("not_json.json", "", "not valid JSON", 1);
    row("truncated.json", "", "not valid JSON", 18);
    row("empty.json", "", "the file is empty");
    row("number_root.json", "", "expected an object, found number");
    row("wrong_kind.json", "/run/kind", "kind is \"BenchmarkProtocol\"");
    row("no_run.json", "/kind", "no \"run\" member");
    row("run_array.json", "/run", "expected an object, found array");
    row("no_spec.json", "/run/spec", "the run has no spec");
    row("spec_string.json", "/run/spec", "expected an object, found string");
    row("median_string.json", "/run/spec/timing/latencyNs/median", "\"fast\" is not a duration");
    row("median_negative.json", "/run/spec/timing/latencyNs/median", "cannot be negative");
    row("median_absurd.json", "/run/spec/timing/latencyNs/median", "not a plausible latency");
    row("measurements_object.json", "/run/spec/measurements", "expected an array, found object");
    row("measurement_value_string.json", "/run/spec/measurements/0/value", "expected a number, found string");
    row("measurement_negative.json", "/run/spec/measurements/0/value", "cannot be negative");
    row("measurement_unit.json", "/run/spec/measurements/0/unit", "unknown latency unit \"furlongs\"");
    row("measurement_no_value.json", "/run/spec/measurements/0/value", "has no value");
    row("status_number.json", "/run/spec/status", "expected a string, found number");
    row("too_deep.json", "", "nesting deeper than 64 levels");
    row("binary.json", "", "the file holds binary data");
    // Zstandard (the public catalog's compression) is read: this one holds a line that is not a run
    row("compressed.jsonl.zst", "/0/kind", "not a kernelindex run: kind is \"not a run, compressed\"", 1);
    row("compressed.json.gz", "", "a gzip-compressed file");
    row("bad_utf8.json", "", "not valid JSON");
    row("samples_object.json", "/run/spec/timing/samplesNs", "expected an array of numbers");
    row("samples_negative.json", "/run/spec/timing/samplesNs/1", "cannot be negative");
    row("ms50_string.json", "/run/spec/sourceNative/metrics/ms_50", "expected a number, found string");
    row("external_id_number.json", "/run/spec/sourceNative/externalId", "expected a string, found number");
    row("labels_array.json", "/run/metadata/labels", "expected an object, found array");
    row("empty_array.json", "", "an empty array holds no runs");
    row("array_of_numbers.json", "/0", "expected an object, found number");
    row("environment_string.json", "/environment", "expected an object, found string");
    row("nan_literal.json", "", "not valid JSON", 8);
    row("infinite_median.json", "", "number overflow", 8);
    row("bad_line.jsonl", "/1", "not valid JSON", 2);
}

void TestDocumentParser::refused()
{
    QFETCH(QString, file);
    QFETCH(QString, pointer);
    QFETCH(QString, message);
    QFETCH(int, line);
    const QString path = kixtest::modelDataPath(QStringLiteral("malformed/") + file);
    QVERIFY2(QFile::exists(path), qPrintable(path));
    const ParseResult r = parseFile(path);
    QVERIFY2(r.hasErrors(), qPrintable(kixtest::dumpDiagnostics(r.diagnostics)));
    const Diagnostic* found = nullptr;
    for (const Diagnostic& d : r.diagnostics) {
        if (d.isError() && d.message.contains(message)) {
            found = &d;
            break;
        }
    }
    QVERIFY2(found,
        qPrintable(QStringLiteral("no error containing \"%1\" in:\n%2")
                       .arg(message, kixtest::dumpDiagnostics(r.diagnostics))));
    QCOMPARE(found->file, path);
    QCOMPARE(found->pointer, pointer);
    if (line > 0)
        QCOMPARE(found->line, line);
    // every refusal names the file in its printed form
    QVERIFY(found->toString().startsWith(path + QStringLiteral(": error: ")));
    // a JSON Lines file keeps its good line
    if (file.endsWith(QLatin1String(".jsonl")))
        QCOMPARE(r.runs.size(), 1);
    else
        QVERIFY(r.runs.isEmpty());
}

void TestDocumentParser::warned_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("message");
    QTest::newRow("quantiles") << QStringLiteral("quantiles_out_of_order.json")
                               << QStringLiteral("/run/spec/measurements") << QStringLiteral("quantiles out of order");
    QTest::newRow("apiVersion") << QStringLiteral("unknown_api_version.json") << QStringLiteral("/run/apiVersion")
                                << QStringLiteral("unknown apiVersion \"kernelindex.dev/v2\"");
    QTest::newRow("observedAt") << QStringLiteral("bad_observed_at.json") << QStringLiteral("/run/spec/observedAt")
                                << QStringLiteral("not an ISO-8601 time");
    QTest::newRow("duplicate key") << QStringLiteral("duplicate_key.json") << QStringLiteral("/run/spec/status")
                                   << QStringLiteral("duplicate key");
    // every schema-valid run loads: one without timing or measurements has no value, and says so
    QTest::newRow("no headline") << QStringLiteral("no_headline.json") << QStringLiteral("/run/spec")
                                 << QStringLiteral("no headline measurement");
    QTest::newRow("digest") << QStringLiteral("bad_digest.json") << QStringLiteral("/run/spec/workloadDigest")
                            << QStringLiteral("not a sha256: digest");
}

void TestDocumentParser::warned()
{
    QFETCH(QString, file);
    QFETCH(QString, pointer);
    QFETCH(QString, message);
    const ParseResult r = parseFile(kixtest::modelDataPath(QStringLiteral("warnings/") + file));
    QCOMPARE(errors(r.diagnostics), 0);
    QCOMPARE(r.runs.size(), 1);
    QCOMPARE(r.diagnostics.size(), 1);
    const Diagnostic& d = r.diagnostics.first();
    QCOMPARE(d.severity, Diagnostic::Severity::Warning);
    QCOMPARE(d.pointer, pointer);
    QVERIFY2(d.message.contains(message), qPrintable(d.message));
}

void TestDocumentParser::workloadSlug_data()
{
    QTest::addColumn<QString>("slug");
    QTest::addColumn<QStringList>("keys");
    QTest::addColumn<QStringList>("values");
    QTest::addColumn<QString>("dtype");
    QTest::newRow("seed") << QStringLiteral("batch128-channels2048-channels_per_group4-hidden512-fp32")
                          << QStringList { QStringLiteral("batch"), QStringLiteral("channels"),
                                 QStringLiteral("channels_per_group"), QStringLiteral("hidden") }
                          << QStringList { QStringLiteral("128"), QStringLiteral("2048"), QStringLiteral("4"),
                                 QStringLiteral("512") }
                          << QStringLiteral("fp32");
    QTest::newRow("other kernel") << QStringLiteral("b8-t2048-v4096-bf16")
                                  << QStringList { QStringLiteral("b"), QStringLiteral("t"), QStringLiteral("v") }
                                  << QStringList { QStringLiteral("4096").left(0) + QStringLiteral("8"),
                                         QStringLiteral("2048"), QStringLiteral("4096") }
                                  << QStringLiteral("bf16");
    QTest::newRow("bare value") << QStringLiteral("model_namellama_2_7b")
                                << QStringList { QStringLiteral("model_namellama_") }
                                << QStringList { QStringLiteral("2_7b") } << QString();
    QTest::newRow("empty") << QString() << QStringList {} << QStringList {} << QString();
}

void TestDocumentParser::workloadSlug()
{
    QFETCH(QString, slug);
    QFETCH(QStringList, keys);
    QFETCH(QStringList, values);
    QFETCH(QString, dtype);
    QVector<WorkloadParam> params;
    QString parsedDtype;
    parseWorkloadSlug(slug, params, parsedDtype);
    QCOMPARE(parsedDtype, dtype);
    QCOMPARE(params.size(), keys.size());
    for (int i = 0; i < keys.size(); ++i) {
        QCOMPARE(params[i].key, keys[i]);
        QCOMPARE(params[i].value, values[i]);
    }
}

// Whatever the bytes, the reader answers with diagnostics: no crash, no hang, no exception.
void TestDocumentParser::randomBytesNeverCrash()
{
    QFile f(seedPath());
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray seed = f.readAll();
    QRandomGenerator rng(20261129);
    for (int i = 0; i < 400; ++i) {
        QByteArray bytes = seed;
        const int flips = 1 + rng.bounded(8);
        for (int k = 0; k < flips; ++k)
            bytes[rng.bounded(bytes.size())] = static_cast<char>(rng.bounded(256));
        if (i % 3 == 0)
            bytes.truncate(rng.bounded(bytes.size()));
        const ParseResult r = parseBytes(bytes, QStringLiteral("fuzz.json"));
        QVERIFY(!r.runs.isEmpty() || r.hasErrors());
    }
}

KIX_TEST_GUILESS_MAIN(TestDocumentParser)
#include "tst_documentparser.moc"
