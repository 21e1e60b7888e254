// SPDX-License-Identifier: Apache-2.0
// kix validate --strict's rules (model/format/strictcheck.h): the official examples (valid ones accepted, invalid
// ones refused), deviations made here one at a time (each found at its JSON pointer), and the same deviations
// checked against the official validator when the format's schemas are at hand (python3 with jsonschema).
#include "model/format/strictcheck.h"
#include "model/read/manifesttrees.h"
#include "model/read/yamlreader.h"

#include "tests/support/testmain.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace kix;
using json = nlohmann::json;

namespace {

QString sharedDataDir()
{
    const QString dir = qEnvironmentVariable("KIX_SHARED_DIR");
    return dir.isEmpty() || !QDir(dir + QStringLiteral("/data/kernelindex")).exists() ? QString() : dir;
}

format::StrictReport check(const json& value)
{
    format::StrictReport report;
    format::checkStrict(value, {}, report);
    return report;
}

QString describeReport(const format::StrictReport& r)
{
    QStringList lines;
    for (const auto& f : r.findings)
        lines << f.pointer + QLatin1String(": ") + f.message;
    return lines.join(QLatin1Char('\n'));
}

json goodDocument()
{
    const json digest = "sha256:" + std::string(64, 'a');
    return {
        { "run",
            { { "apiVersion", "kernelindex.dev/v1alpha1" }, { "kind", "BenchmarkRun" },
                { "metadata", { { "name", "strict-run" }, { "labels", { { "worker", "w1" } } } } },
                { "spec",
                    { { "implementationDigest", digest }, { "workloadDigest", digest }, { "protocolDigest", digest },
                        { "environmentDigest", digest }, { "status", "passed" },
                        { "observedAt", "2026-08-01T12:00:00.123Z" },
                        { "timing",
                            { { "primaryStatistic", "median" }, { "samples", 10 },
                                { "latencyNs", { { "median", "8.1 us" }, { "p05", 8000 } } } } },
                        { "measurements",
                            json::array({ { { "metric", "bandwidth" }, { "unit", "gb_s" }, { "statistic", "mean" },
                                { "value", 812.5 } } }) },
                        { "sourceNative", { { "source", "kix" }, { "metrics", { { "ms_50", 0.0081 } } } } } } } } },
        { "protocol",
            { { "apiVersion", "kernelindex.dev/v1alpha1" }, { "kind", "BenchmarkProtocol" },
                { "metadata", { { "name", "p" } } },
                { "spec",
                    { { "harness", { { "name", "kix" } } },
                        { "measurement", { { "timer", "wall_clock" }, { "primaryStatistic", "median" } } },
                        { "comparability", { { "family", "kix_cpu" }, { "notes", "short" } } } } } } }
    };
}

// The official validator on one document: 0 valid, 1 refused, -1 not available.
int officialVerdict(const json& document)
{
    const QString shared = sharedDataDir();
    if (shared.isEmpty() || QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
        return -1;
    QProcess probe;
    probe.start(QStringLiteral("python3"), { QStringLiteral("-c"), QStringLiteral("import jsonschema") });
    if (!probe.waitForFinished(60000) || probe.exitCode() != 0)
        return -1;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("doc.json"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return -1;
    f.write(QByteArray::fromStdString(document.dump()));
    f.close();
    QProcess p;
    p.start(QStringLiteral("python3"),
        { shared + QStringLiteral("/tools/kernelindex-conformance.py"),
            shared + QStringLiteral("/data/kernelindex/schemas"), path });
    if (!p.waitForFinished(120000))
        return -1;
    // schema validity only: the documents here name made-up digests
    const QByteArray said = p.readAllStandardOutput();
    if (!said.contains("schema-valid 1,"))
        qWarning().noquote() << "official validator:" << said.trimmed();
    return said.contains("schema-valid 1,") ? 0 : 1;
}

} // namespace

class TestStrictCheck : public QObject
{
    Q_OBJECT
private slots:
    void goodDocumentPasses();
    void deviations_data();
    void deviations();
    void durations();
    void officialExamples();
    void catalogFixture();
};

void TestStrictCheck::goodDocumentPasses()
{
    const format::StrictReport r = check(goodDocument());
    QVERIFY2(r.findings.empty(), qPrintable(describeReport(r)));
    const int official = officialVerdict(goodDocument());
    if (official >= 0)
        QCOMPARE(official, 0);
}

void TestStrictCheck::deviations_data()
{
    QTest::addColumn<QString>("path"); // where to change the document (JSON pointer)
    QTest::addColumn<QString>("value"); // the new value as JSON; "" removes the member
    QTest::addColumn<QString>("pointer"); // where the finding must be
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown field") << "/run/spec/samplesNs"
                                   << "[1,2]"
                                   << "/run/spec/samplesNs"
                                   << "unknown field";
    QTest::newRow("unknown metadata") << "/run/metadata/owner"
                                      << "\"me\""
                                      << "/run/metadata/owner"
                                      << "unknown field";
    QTest::newRow("missing status") << "/run/spec/status"
                                    << ""
                                    << "/run/spec"
                                    << "missing required field \"status\"";
    QTest::newRow("bad digest") << "/run/spec/workloadDigest"
                                << "\"sha256:ABC\""
                                << "/run/spec/workloadDigest"
                                << "does not match ^sha256:";
    QTest::newRow("status failed") << "/run/spec/status"
                                   << "\"failed\""
                                   << "/run/spec/status"
                                   << "not a v1alpha1 status";
    QTest::newRow("unit GB/s") << "/run/spec/measurements/0/unit"
                               << "\"GB/s\""
                               << "/run/spec/measurements/0/unit"
                               << "does not match ^[a-z][a-z0-9_]*$";
    QTest::newRow("metric name") << "/run/spec/measurements/0/metric"
                                 << "\"Latency\""
                                 << "/run/spec/measurements/0/metric"
                                 << "does not match";
    QTest::newRow("offset time") << "/run/spec/observedAt"
                                 << "\"2026-08-01T12:00:00+02:00\""
                                 << "/run/spec/observedAt"
                                 << "not in UTC";
    QTest::newRow("no date") << "/run/spec/observedAt"
                             << "\"2026-02-30T12:00:00Z\""
                             << "/run/spec/observedAt"
                             << "not a calendar date";
    QTest::newRow("notes too long") << "/protocol/spec/comparability/notes"
                                    << QString(QLatin1Char('"') + QString(1001, QLatin1Char('n')) + QLatin1Char('"'))
                                    << "/protocol/spec/comparability/notes"
                                    << "1001 characters";
    QTest::newRow("ambiguous duration") << "/run/spec/timing/latencyNs/median"
                                        << "\"1.005 ms\""
                                        << "/run/spec/timing/latencyNs/median"
                                        << "ambiguous duration";
    QTest::newRow("fractional ns") << "/run/spec/timing/latencyNs/p05"
                                   << "8000.5"
                                   << "/run/spec/timing/latencyNs/p05"
                                   << "not a whole";
    QTest::newRow("latency key") << "/run/spec/timing/latencyNs/p20"
                                 << "1"
                                 << "/run/spec/timing/latencyNs/p20"
                                 << "unknown field";
    QTest::newRow("metrics number") << "/run/spec/sourceNative/metrics/engine"
                                    << "\"cpu\""
                                    << "/run/spec/sourceNative/metrics/engine"
                                    << "expected a number";
    QTest::newRow("samples zero") << "/run/spec/timing/samples"
                                  << "0"
                                  << "/run/spec/timing/samples"
                                  << "below the minimum";
    QTest::newRow("label name") << "/run/metadata/labels/Worker"
                                << "\"x\""
                                << "/run/metadata/labels/Worker"
                                << "does not match";
    QTest::newRow("protocol key") << "/protocol/spec/measurement/cacheFlush"
                                  << "true"
                                  << "/protocol/spec/measurement/cacheFlush"
                                  << "unknown field";
    QTest::newRow("api version") << "/protocol/apiVersion"
                                 << "\"kernelindex.dev/v1\""
                                 << "/protocol/apiVersion"
                                 << "must be";
    QTest::newRow("document member") << "/extra"
                                     << "{}"
                                     << "/extra"
                                     << "unknown member";
}

void TestStrictCheck::deviations()
{
    QFETCH(QString, path);
    QFETCH(QString, value);
    QFETCH(QString, pointer);
    QFETCH(QString, message);
    json doc = goodDocument();
    const json::json_pointer at(path.toStdString());
    if (value.isEmpty())
        doc[at.parent_pointer()].erase(at.back());
    else
        doc[at] = json::parse(value.toStdString());
    const format::StrictReport r = check(doc);
    QVERIFY2(!r.findings.empty(), "no finding");
    bool found = false;
    for (const auto& f : r.findings)
        found = found || (f.pointer == pointer && f.message.contains(message));
    QVERIFY2(found, qPrintable(describeReport(r)));
    // the format's own validator refuses it too (the ambiguous duration is a parse rule, not in the schema;
    // the unknown document member is kix's document shape, not a resource)
    if (QTest::currentDataTag() != QLatin1String("ambiguous duration")
        && QTest::currentDataTag() != QLatin1String("document member")) {
        const int official = officialVerdict(doc);
        if (official >= 0)
            QCOMPARE(official, 1);
    }
}

void TestStrictCheck::durations()
{
    double ns = 0;
    QVERIFY(format::durationNanoseconds(json("8.1 us"), &ns, nullptr));
    QCOMPARE(ns, 8100.0);
    QVERIFY(format::durationNanoseconds(json("0.008 ms"), &ns, nullptr));
    QCOMPARE(ns, 8000.0);
    QVERIFY(format::durationNanoseconds(json("3\xC2\xB5s"), &ns, nullptr));
    QCOMPARE(ns, 3000.0);
    QVERIFY(format::durationNanoseconds(json(12), &ns, nullptr));
    QString why;
    QVERIFY(!format::durationNanoseconds(json("0.0000005 ms"), nullptr, &why));
    QVERIFY(why.contains(QLatin1String("ambiguous")));
    QVERIFY(!format::durationNanoseconds(json("16.1 us"), nullptr, &why)); // 16100.000000000002 in doubles
    QVERIFY(!format::durationNanoseconds(json("1.005 ms"), nullptr, &why));
    QVERIFY(!format::durationNanoseconds(json("-1 ns"), nullptr, &why));
    QVERIFY(!format::durationNanoseconds(json("1e3 ns"), nullptr, &why));
    QVERIFY(!format::durationNanoseconds(json(".5 ms"), nullptr, &why));
    QVERIFY(!format::durationNanoseconds(json("1  ms"), nullptr, &why));
    QVERIFY(!format::durationNanoseconds(json(-3), nullptr, &why));
}

void TestStrictCheck::officialExamples()
{
    const QString shared = sharedDataDir();
    if (shared.isEmpty())
        QSKIP("the format's examples are not available (set KIX_SHARED_DIR to the project's shared/ folder)");
    const QString examples = shared + QStringLiteral("/data/kernelindex/examples");
    const QStringList checked { "benchmark-run.yaml", "benchmark-protocol.yaml", "execution-environment.yaml",
        "workload-case.yaml", "workload-suite.yaml", "operation-spec.yaml", "implementation-revision.yaml",
        "software-project.yaml", "example-fixture.yaml" };
    for (const QString& name : QDir(examples + QStringLiteral("/valid")).entryList({ QStringLiteral("*.yaml") })) {
        Diagnostics diagnostics;
        format::StrictReport report;
        QVERIFY(readManifestTrees(
            examples + QStringLiteral("/valid/") + name, {},
            [&](const json& v, const QString& p) { format::checkStrict(v, p, report); }, diagnostics));
        QVERIFY2(diagnostics.isEmpty(), qPrintable(name));
        QVERIFY2(report.findings.empty(), qPrintable(name + QLatin1String(": ") + describeReport(report)));
        // the kinds the rules cover are checked, the serving ones only named
        QCOMPARE(report.notChecked.empty(), checked.contains(name));
    }
    const QStringList invalid = QDir(examples + QStringLiteral("/invalid")).entryList({ QStringLiteral("*.yaml") });
    QCOMPARE(invalid.size(), 4);
    for (const QString& name : invalid) {
        Diagnostics diagnostics;
        format::StrictReport report;
        readManifestTrees(
            examples + QStringLiteral("/invalid/") + name, {},
            [&](const json& v, const QString& p) { format::checkStrict(v, p, report); }, diagnostics);
        const bool parseRefused = !diagnostics.isEmpty() && diagnostics.first().isError();
        QVERIFY2(parseRefused || !report.findings.empty(), qPrintable(name));
        if (name == QLatin1String("duplicate-key.yaml"))
            QVERIFY(parseRefused && diagnostics.first().message.contains(QLatin1String("duplicate key")));
        if (name == QLatin1String("unknown-field.yaml"))
            QCOMPARE(report.findings.front().pointer, QStringLiteral("/spec/popularity"));
        if (name == QLatin1String("bad-digest.yaml"))
            QCOMPARE(report.findings.front().pointer, QStringLiteral("/spec/operationSpecDigest"));
        if (name == QLatin1String("ambiguous-duration.yaml"))
            QCOMPARE(report.findings.front().pointer, QStringLiteral("/spec/timing/latencyNs/median"));
    }
}

void TestStrictCheck::catalogFixture()
{
    // every manifest in the catalog-export fixture is v1alpha1; the serving kinds are named, not checked
    Diagnostics diagnostics;
    format::StrictReport report;
    int documents = 0;
    QVERIFY(readManifestTrees(
        QStringLiteral(KIX_TEST_DATA_DIR "/model/catalog/catalog-fixture.jsonl"), {},
        [&](const json& v, const QString& p) {
            ++documents;
            format::checkStrict(v, p, report);
        },
        diagnostics));
    QVERIFY(diagnostics.isEmpty());
    QVERIFY2(report.findings.empty(), qPrintable(describeReport(report)));
    QCOMPARE(documents, 18); // 4 runs, 2 workloads, 2 operations, 2 implementations, 2 projects, 6 serving
    QCOMPARE(int(report.notChecked.size()), 6);
    QVERIFY(report.notChecked.front().pointer.endsWith(QLatin1String("/row/manifest")));
}

KIX_TEST_GUILESS_MAIN(TestStrictCheck)
#include "tst_strictcheck.moc"
