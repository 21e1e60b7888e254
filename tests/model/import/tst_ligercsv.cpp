// SPDX-License-Identifier: Apache-2.0
// The Liger CSV import read as CSV: the seed row, CSV syntax, bad rows and columns, file detection, hostile bytes
// and the shared CSV (tests/model/import/ligercsvrows.h holds the rows; tst_ligercsvmapping what fields become).
#include "kix/config.h"
#include "model/import/ligercsv.h"
#include "model/read/documentparser.h"

#include "tests/model/import/ligercsvrows.h"
#include "tests/support/testmain.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTest>

#include <set>
#include <utility>

using kix::Diagnostic;
using kix::LigerImport;
using nlohmann::json;
using namespace kixtest::ligercsv;

namespace {

const char kSeedName[]
    = "liger-group-norm-backward-huggingface-nvidia-b200-batch128-channels2048-channels-per-group4-hidden51";
const char kSeedNotes[]
    = "Timed: the backward pass of the module output given a random upstream gradient, via triton.testing.do_bench "
      "with quantiles 0.5/0.2/0.8 (median with p20/p80 spread). The upstream CSV records no CUDA, driver, or torch "
      "version; the Liger release rides each run's labels. Comparable only within one kernel, workload, timed pass, "
      "and GPU.";

// 1-based byte column where field `index` of the row starts.
int fieldColumn(const QByteArrayList& fields, int index)
{
    int column = 1;
    for (int i = 0; i < index; ++i)
        column += int(csvField(fields[i]).size()) + 1;
    return column;
}

QList<int> lines(const LigerImport& imported)
{
    return QList<int>(imported.documentLines.begin(), imported.documentLines.end());
}

} // namespace

class TestLigerCsv : public QObject
{
    Q_OBJECT

private slots:
    void seedRow();
    void seedRowMatchesSeedDocument();
    void csvSyntax_data();
    void csvSyntax();
    void badRows_data();
    void badRows();
    void unterminatedQuote();
    void missingColumn_data();
    void missingColumn();
    void optionalColumns();
    void emptyInput();
    void looksLikeLigerCsv_data();
    void looksLikeLigerCsv();
    void arbitraryBytes();
    void sharedCsv();
};

void TestLigerCsv::seedRow()
{
    const LigerImport imported = kix::importLigerCsv(csvText({ ::seedRow() }), QStringLiteral("seed.csv"));
    QVERIFY2(imported.diagnostics.isEmpty(), qPrintable(describeDiagnostics(imported.diagnostics)));
    QCOMPARE(imported.documents.size(), size_t(1));
    QCOMPARE(lines(imported), QList<int> { 2 });
    const json& doc = imported.documents.front();

    QCOMPARE(externalId(doc), QLatin1String(kSeedId));
    QVERIFY(get(doc, "/run/spec/timing/latencyNs/median").is_number_integer());
    QCOMPARE(get(doc, "/run/spec/timing/latencyNs/median").get<qint64>(), qint64(1315872));
    QCOMPARE(str(doc, "/run/spec/timing/primaryStatistic"), QStringLiteral("median"));
    COMPARE_JSON(measurementEntry(doc, "latency", "p20"),
        json({ { "unit", "ns" }, { "value", 1315744 }, { "metric", "latency" }, { "statistic", "p20" } }));
    COMPARE_JSON(measurementEntry(doc, "latency", "p80"),
        json({ { "unit", "ns" }, { "value", 1317760 }, { "metric", "latency" }, { "statistic", "p80" } }));
    QCOMPARE(str(doc, "/run/spec/observedAt"), QStringLiteral("2026-02-28T00:23:31.000Z"));
    QCOMPARE(str(doc, "/run/spec/status"), QStringLiteral("passed"));
    QCOMPARE(str(doc, "/run/metadata/title"), QStringLiteral("GroupNorm \u00b7 huggingface \u00b7 backward"));
    QCOMPARE(str(doc, "/run/metadata/name"), QLatin1String(kSeedName));
    COMPARE_JSON(get(doc, "/run/metadata/labels"), json({ { "liger_version", "0.7.0" } }));
    QCOMPARE(str(doc, "/run/spec/sourceNative/source"), QStringLiteral("liger-kernel-bench"));
    QCOMPARE(str(doc, "/run/spec/sourceNative/benchmark"), QStringLiteral("group_norm/backward"));
    QCOMPARE(get(doc, "/run/spec/sourceNative/metrics/ms_50").get<double>(), 1.3158719539642334);
    QCOMPARE(str(doc, "/protocol/spec/comparability/notes"), QLatin1String(kSeedNotes));
    QCOMPARE(str(doc, "/protocol/spec/comparability/family"), QStringLiteral("liger_kernel_bench"));
    QCOMPARE(str(doc, "/protocol/metadata/name"), QStringLiteral("liger-bench-do-bench-backward"));
    QCOMPARE(str(doc, "/environment/spec/hardware/architecture"), QStringLiteral("sm_100"));
    for (const char* key : { "/run/spec/protocolDigest", "/run/spec/workloadDigest", "/run/spec/environmentDigest",
             "/run/spec/implementationDigest" }) {
        const QString digest = str(doc, key);
        QVERIFY2(digest.startsWith(QLatin1String("sha256:")) && digest.size() == 7 + 64, key);
    }
    // Digests depend on content only: the same row imported again gives the same ones.
    const LigerImport again = kix::importLigerCsv(csvText({ ::seedRow() }), QStringLiteral("other.csv"));
    COMPARE_JSON(again.documents.front(), doc);
}

void TestLigerCsv::seedRowMatchesSeedDocument()
{
    QFile file(QStringLiteral(KIX_SOURCE_DIR "/resources/runs/group_norm-backward-huggingface-nvidia-b200.json"));
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
    json seed = json::parse(file.readAll().toStdString());
    json doc = importOne({});
    // The seed's protocol and environment digests are the format's (sha256 of the RFC 8785 JSON of apiVersion, kind
    // and spec) and must come out the same; its workload and implementation resources are not in the document, so
    // what their digests were taken over is unknown. Everything else must be identical.
    for (const char* key : { "workloadDigest", "implementationDigest" }) {
        seed["run"]["spec"].erase(key);
        doc["run"]["spec"].erase(key);
    }
    QVERIFY2(doc == seed, json::diff(seed, doc).dump(2).c_str());
}

void TestLigerCsv::csvSyntax_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QList<int>>("expectedLines");
    QTest::addColumn<QString>("firstId");

    const auto add
        = [](const char* name, const QByteArray& bytes, const QList<int>& lines,
              const QString& firstId = QLatin1String(kSeedId)) { QTest::newRow(name) << bytes << lines << firstId; };
    const QByteArray seed = ::seedRow();
    const QByteArray other = ::seedRow({ { XValue, "4096" } });
    add("LF", kHeader + '\n' + seed + '\n' + other + '\n', { 2, 3 });
    add("CRLF", kHeader + "\r\n" + seed + "\r\n" + other + "\r\n", { 2, 3 });
    add("CR", kHeader + '\r' + seed + '\r' + other + '\r', { 2, 3 });
    add("BOM", "\xEF\xBB\xBF" + kHeader + '\n' + seed + '\n', { 2 });
    add("BOM and CRLF", "\xEF\xBB\xBF" + kHeader + "\r\n" + seed + "\r\n", { 2 });
    add("no final line end", kHeader + '\n' + seed, { 2 });
    add("blank lines", kHeader + "\n\n" + seed + "\n\n\n" + other + '\n', { 3, 6 });

    // A line break inside a quoted field: the row spans two lines, the next row starts one line later.
    const QByteArray twoLineConfig = ::seedRow(
        { { Config, "{\"M\": 128, \"H\": 512,\n \"channels_per_group\": 4, \"dtype\": \"torch.float32\"}" } });
    add("line break in quotes", csvText({ twoLineConfig, seed }), { 2, 4 });
    add("CRLF in quotes", csvText({ QByteArray(twoLineConfig).replace('\n', "\r\n"), seed }), { 2, 4 });

    QByteArrayList allQuoted;
    for (const QByteArray& f : kSeedFields)
        allQuoted.append('"' + QByteArray(f).replace("\"", "\"\"") + '"');
    add("every field quoted", csvText({ allQuoted.join(',') }), { 2 });
    add("comma and quotes in a field", csvText({ ::seedRow({ { Gpu, "NVIDIA B200, \"SXM\"" } }) }), { 2 },
        QStringLiteral("group_norm/backward/huggingface/nvidia-b200-sxm/"
                       "batch128-channels2048-channels_per_group4-hidden512-fp32/2026-02-28-00-23-31"));

    // Columns are found by name: any order, unknown columns ignored.
    QByteArrayList header = kHeader.split(',');
    QByteArrayList fields = kSeedFields;
    std::reverse(header.begin(), header.end());
    std::reverse(fields.begin(), fields.end());
    header.append("notes");
    fields.append("rerun, see log");
    add("reordered columns", header.join(',') + '\n' + joinRow(fields) + '\n', { 2 });
}

void TestLigerCsv::csvSyntax()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QList<int>, expectedLines);
    QFETCH(QString, firstId);

    const LigerImport imported = kix::importLigerCsv(bytes, QStringLiteral("syntax.csv"));
    QVERIFY2(imported.diagnostics.isEmpty(), qPrintable(describeDiagnostics(imported.diagnostics)));
    QCOMPARE(lines(imported), expectedLines);
    QCOMPARE(int(imported.documents.size()), expectedLines.size());
    QCOMPARE(externalId(imported.documents.front()), firstId);
    // No stray CR reaches a value.
    COMPARE_JSON(get(imported.documents.front(), "/run/metadata/labels/liger_version"), json("0.7.0"));
    COMPARE_JSON(get(imported.documents.front(), "/run/spec/timing/latencyNs/median"), json(1315872));
}

void TestLigerCsv::badRows_data()
{
    QTest::addColumn<QByteArrayList>("fields");
    QTest::addColumn<int>("column"); // 1-based byte column of the diagnostic
    QTest::addColumn<QString>("message");

    const auto add = [](const char* name, std::initializer_list<std::pair<int, QByteArray>> changes, int badField,
                         const char* message) {
        const QByteArrayList fields = seedFieldsWith(changes);
        QTest::newRow(name) << fields << (badField < 0 ? 1 : fieldColumn(fields, badField))
                            << QString::fromUtf8(message);
    };
    add("non-numeric median", { { Y50, "fast" } }, Y50, "y_value_50");
    add("empty p20", { { Y20, "" } }, Y20, "y_value_20");
    add("NaN p80", { { Y80, "nan" } }, Y80, "y_value_80");
    add("negative median", { { Y50, "-1.5" } }, Y50, "y_value_50");
    add("implausible latency", { { Y50, "1e300" } }, Y50, "y_value_50");
    add("config is not JSON", { { Config, "{\"M\": 128," } }, Config, "not a JSON object");
    add("config is an array", { { Config, "[1, 2]" } }, Config, "not a JSON object");
    add("config nested too deeply", { { Config, QByteArray(100, '[') + QByteArray(100, ']') } }, Config, "nested");
    add("impossible date", { { Stamp, "2026-13-01 00:00:00" } }, Stamp, "timestamp");
    add("not a timestamp", { { Stamp, "yesterday" } }, Stamp, "timestamp");
    add("timestamp with zone", { { Stamp, "2026-02-28 00:23:31+02:00" } }, Stamp, "timestamp");
    add("unknown metric", { { Metric, "throughput" } }, Metric, "metric_name");
    add("speed not in ms", { { Unit, "s" } }, Unit, "metric_unit");
    add("memory not in MB", { { Metric, "memory" }, { Unit, "ms" } }, Unit, "metric_unit");
    add("empty kernel", { { Kernel, "" } }, Kernel, "kernel_name");
    add("empty GPU", { { Gpu, " " } }, Gpu, "gpu_name");

    QByteArrayList shortRow = kSeedFields.mid(0, 14);
    QTest::newRow("too few fields") << shortRow << 1 << QStringLiteral("found 14");
    QTest::newRow("too many fields") << QByteArrayList(kSeedFields) + QByteArrayList { "extra" } << 1
                                     << QStringLiteral("found 16");
}

void TestLigerCsv::badRows()
{
    QFETCH(QByteArrayList, fields);
    QFETCH(int, column);
    QFETCH(QString, message);

    // Good row on line 2, the bad one on line 3, another good one on line 4.
    const QByteArray bytes = csvText({ ::seedRow(), joinRow(fields), ::seedRow({ { XValue, "4096" } }) });
    const LigerImport imported = kix::importLigerCsv(bytes, QStringLiteral("bad.csv"));
    QCOMPARE(imported.documents.size(), size_t(2));
    QCOMPARE(lines(imported), (QList<int> { 2, 4 }));
    QCOMPARE(int(imported.diagnostics.size()), 1);
    const Diagnostic& d = imported.diagnostics.front();
    QVERIFY(d.isError());
    QCOMPARE(d.file, QStringLiteral("bad.csv"));
    QCOMPARE(d.line, 3);
    QCOMPARE(d.column, column);
    QCOMPARE(d.pointer, QStringLiteral("/rows/1"));
    QVERIFY2(d.message.contains(message), qPrintable(d.message));
    QVERIFY2(d.toString().contains(QLatin1String("bad.csv")) && d.toString().contains(QLatin1String("line 3")),
        qPrintable(d.toString()));
}

void TestLigerCsv::unterminatedQuote()
{
    const QByteArray bytes
        = csvText({ ::seedRow() }) + "group_norm,liger,forward,speed,ms,C,x,32,1,1,1,\"{\"\"M\"\": 128";
    const LigerImport imported = kix::importLigerCsv(bytes, QStringLiteral("cut.csv"));
    QCOMPARE(imported.documents.size(), size_t(1));
    QCOMPARE(int(imported.diagnostics.size()), 1);
    QCOMPARE(imported.diagnostics.front().line, 3);
    QVERIFY(imported.diagnostics.front().message.contains(QLatin1String("never closed")));
}

void TestLigerCsv::missingColumn_data()
{
    QTest::addColumn<QString>("column");
    for (const char* name :
        { "kernel_name", "kernel_provider", "kernel_operation_mode", "metric_name", "metric_unit", "x_name", "x_value",
            "y_value_50", "y_value_20", "y_value_80", "extra_benchmark_config_str", "gpu_name", "timestamp" })
        QTest::newRow(name) << QString::fromLatin1(name);
}

void TestLigerCsv::missingColumn()
{
    QFETCH(QString, column);
    QByteArrayList header = kHeader.split(',');
    QByteArrayList fields = kSeedFields;
    const int index = int(header.indexOf(column.toLatin1()));
    header.removeAt(index);
    fields.removeAt(index);

    const LigerImport imported
        = kix::importLigerCsv(header.join(',') + '\n' + joinRow(fields) + '\n', QStringLiteral("cols.csv"));
    QVERIFY(imported.documents.empty());
    QCOMPARE(int(imported.diagnostics.size()), 1);
    QVERIFY(imported.diagnostics.front().isError());
    QCOMPARE(imported.diagnostics.front().line, 1);
    QVERIFY2(imported.diagnostics.front().message.contains(column), qPrintable(imported.diagnostics.front().message));
}

void TestLigerCsv::optionalColumns()
{
    // x_label is unused and liger_version only labels the run: older CSVs without them still import.
    QByteArrayList header = kHeader.split(',');
    QByteArrayList fields = kSeedFields;
    for (const int column : { Version, XLabel }) {
        header.removeAt(column);
        fields.removeAt(column);
    }
    const LigerImport imported
        = kix::importLigerCsv(header.join(',') + '\n' + joinRow(fields) + '\n', QStringLiteral("old.csv"));
    QVERIFY2(imported.diagnostics.isEmpty(), qPrintable(describeDiagnostics(imported.diagnostics)));
    QCOMPARE(imported.documents.size(), size_t(1));
    QCOMPARE(externalId(imported.documents.front()), QLatin1String(kSeedId));
    // no liger_version: no labels at all (an empty labels object says nothing the format needs)
    QVERIFY(get(imported.documents.front(), "/run/metadata/labels").is_null());
}

void TestLigerCsv::emptyInput()
{
    const LigerImport empty = kix::importLigerCsv(QByteArray(), QStringLiteral("empty.csv"));
    QVERIFY(empty.documents.empty());
    QCOMPARE(int(empty.diagnostics.size()), 1);
    QVERIFY(empty.diagnostics.front().isError());

    const LigerImport headerOnly = kix::importLigerCsv(kHeader + "\r\n", QStringLiteral("header.csv"));
    QVERIFY(headerOnly.documents.empty());
    QVERIFY(headerOnly.diagnostics.isEmpty());
}

void TestLigerCsv::looksLikeLigerCsv_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<bool>("expected");
    QTest::newRow("header") << QByteArray(kHeader + '\n') << true;
    QTest::newRow("header and rows") << csvText({ ::seedRow() }) << true;
    QTest::newRow("BOM, CRLF") << QByteArray("\xEF\xBB\xBF" + kHeader + "\r\n") << true;
    QTest::newRow("quoted names") << QByteArray("\"kernel_name\",\"metric_name\",\"y_value_50\"\n") << true;
    QTest::newRow("other CSV") << QByteArray("name,value\nkernel_name,metric_name\n") << false;
    QTest::newRow("names on line two") << QByteArray("x\n" + kHeader) << false;
    QTest::newRow("JSON") << QByteArray(R"({"run": {"kernel_name": 1, "metric_name": 2, "y_value_50": 3}})") << false;
    QTest::newRow("empty") << QByteArray() << false;
    QTest::newRow("BOM only") << QByteArray("\xEF\xBB\xBF") << false;
}

void TestLigerCsv::looksLikeLigerCsv()
{
    QFETCH(QByteArray, bytes);
    QFETCH(bool, expected);
    QCOMPARE(kix::looksLikeLigerCsv(bytes), expected);
}

void TestLigerCsv::arbitraryBytes()
{
    // Every prefix of a small valid file, then noise made of CSV's special characters: no crash, and the two
    // result vectors always stay in step.
    const QByteArray valid
        = "\xEF\xBB\xBF" + csvText({ ::seedRow(), ::seedRow({ { Metric, "memory" }, { Unit, "MB" } }) });
    for (qsizetype n = 0; n <= valid.size(); ++n) {
        const LigerImport imported = kix::importLigerCsv(valid.left(n), QStringLiteral("cut.csv"));
        QCOMPARE(imported.documents.size(), imported.documentLines.size());
        kix::looksLikeLigerCsv(valid.left(n));
    }
    QRandomGenerator random(20260228);
    const char alphabet[] = ",\"\r\n{}[]:-.0123456789abcdeMBms \xEF\xBB\xBF\xFF";
    for (int round = 0; round < 200; ++round) {
        QByteArray noise(int(random.bounded(1, 400)), '\0');
        for (char& c : noise)
            c = alphabet[random.bounded(int(sizeof(alphabet)) - 1)];
        const LigerImport imported = kix::importLigerCsv(kHeader + '\n' + noise, QStringLiteral("noise.csv"));
        QCOMPARE(imported.documents.size(), imported.documentLines.size());
        for (const json& doc : imported.documents)
            QVERIFY(!doc.dump(-1, ' ', false, json::error_handler_t::strict).empty()); // valid UTF-8 throughout
        kix::importLigerCsv(noise, QStringLiteral("noise.csv"));
    }
    // Invalid UTF-8 in text fields still gives a document whose JSON dumps cleanly.
    const json doc = importOne({ { Provider, "hugging\xFF\xFE" }, { Gpu, "NVIDIA \xC3" } });
    QVERIFY(!doc.dump().empty());
    // A NUL byte never reaches an identifier.
    const json nul = importOne({ { Provider, QByteArray("hug\0face", 8) } });
    QCOMPARE(externalId(nul).section(QLatin1Char('/'), 2, 2), QStringLiteral("hug_face"));
    // A file of bad rows lists a bounded number of problems.
    QByteArrayList bad(5000, "x,y");
    const LigerImport flood = kix::importLigerCsv(csvText(bad), QStringLiteral("flood.csv"));
    QVERIFY(flood.documents.empty());
    QVERIFY(flood.diagnostics.size() > 100 && flood.diagnostics.size() < 5000);
}

void TestLigerCsv::sharedCsv()
{
    const QString shared = qEnvironmentVariable("KIX_SHARED_DIR");
    const QString path = shared + QStringLiteral("/data/liger/all_benchmark_data.csv");
    if (shared.isEmpty() || !QFile::exists(path))
        QSKIP("the shared Liger CSV is not available (set KIX_SHARED_DIR to the project's shared/ folder)");
    QFile file(path);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
    const QByteArray bytes = file.readAll();
    QVERIFY(kix::looksLikeLigerCsv(bytes));

    const LigerImport imported = kix::importLigerCsv(bytes, path);
    QVERIFY2(imported.diagnostics.isEmpty(), qPrintable(describeDiagnostics(imported.diagnostics.mid(0, 10))));
    QCOMPARE(imported.documents.size(), size_t(2448));
    QCOMPARE(imported.documentLines.size(), size_t(2448));
    QCOMPARE(imported.documentLines.front(), 2);
    QCOMPARE(imported.documentLines.back(), 2449);

    std::set<QString> ids;
    int seedIndex = -1;
    int memoryRuns = 0;
    for (size_t i = 0; i < imported.documents.size(); ++i) {
        const json& doc = imported.documents[i];
        const QString id = externalId(doc);
        QVERIFY2(ids.insert(id).second, qPrintable(QStringLiteral("duplicate externalId ") + id));
        if (id == QLatin1String(kSeedId))
            seedIndex = int(i);

        kix::Diagnostics diagnostics;
        const QString pointer = QStringLiteral("/rows/%1").arg(i);
        const kix::RunPtr run = kix::runFromDocument(doc, path, pointer, diagnostics);
        for (const Diagnostic& d : diagnostics)
            QVERIFY2(!d.isError(), qPrintable(d.toString()));
        QVERIFY2(run, qPrintable(id));
        QCOMPARE(run->externalId, id);
        if (id.endsWith(QLatin1String("/memory"))) {
            ++memoryRuns;
            QVERIFY(run->metric == kix::Run::Metric::Memory);
            QCOMPARE(run->unit, QStringLiteral("MB"));
        } else {
            QVERIFY(run->metric == kix::Run::Metric::Latency);
        }
    }
    QCOMPARE(memoryRuns, 799);

    QVERIFY2(seedIndex >= 0, "the seed row is missing");
    const json& seed = imported.documents[size_t(seedIndex)];
    QCOMPARE(imported.documentLines[size_t(seedIndex)], 1843);
    COMPARE_JSON(get(seed, "/run/spec/timing/latencyNs/median"), json(1315872));
    COMPARE_JSON(get(measurementEntry(seed, "latency", "p20"), "/value"), json(1315744));
    COMPARE_JSON(get(measurementEntry(seed, "latency", "p80"), "/value"), json(1317760));
    QCOMPARE(str(seed, "/run/spec/observedAt"), QStringLiteral("2026-02-28T00:23:31.000Z"));

    kix::Diagnostics diagnostics;
    const kix::RunPtr run = kix::runFromDocument(seed, path, QString(), diagnostics);
    QVERIFY(run);
    QCOMPARE(run->median, 1315872.0);
    QCOMPARE(run->p20, 1315744.0);
    QCOMPARE(run->p80, 1317760.0);
    QCOMPARE(run->observedAt, QDateTime(QDate(2026, 2, 28), QTime(0, 23, 31), Qt::UTC));

    // The same file through the generic entry point.
    const kix::ParseResult parsed = kix::parseBytes(bytes, path);
    QVERIFY2(!parsed.hasErrors(), qPrintable(describeDiagnostics(parsed.diagnostics.mid(0, 10))));
    QCOMPARE(int(parsed.runs.size()), 2448);
}

KIX_TEST_GUILESS_MAIN(TestLigerCsv)
#include "tst_ligercsv.moc"
