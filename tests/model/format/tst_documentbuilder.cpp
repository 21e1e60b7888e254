// SPDX-License-Identifier: Apache-2.0
// The vocabulary and the document builder: what they write is what the v1alpha1 schemas allow (the conformance
// test runs the official validator over everything kix writes; these pin the rules one by one).
#include "model/format/digest.h"
#include "model/format/documentbuilder.h"
#include "model/format/vocabulary.h"
#include "model/read/documentparser.h"

#include "tests/support/testmain.h"

#include <QtTest>

#include <QTemporaryDir>

#include <stdexcept>

using namespace kix::format;
using nlohmann::json;

namespace {

DocumentBuilder minimal()
{
    DocumentBuilder b;
    b.setName("Test Run")
        .setStatus("passed")
        .setObservedAt(QDateTime(QDate(2026, 2, 28), QTime(0, 23, 31), Qt::UTC))
        .setProtocol(protocolResource("p", "P", { { "measurement", { { "timer", "steady_clock" } } } }))
        .setEnvironment(environmentResource("e", "E", json::object()))
        .setWorkload(resource(kWorkloadCase, "w", "", { { "axes", { { "n", 1 } } } }), false)
        .setImplementation(resource(kImplementationRevision, "i", "", { { "x", 1 } }), false);
    return b;
}

} // namespace

class TestDocumentBuilder : public QObject
{
    Q_OBJECT
private slots:
    void statuses();
    void names_data();
    void names();
    void units_data();
    void units();
    void metadataNames_data();
    void metadataNames();
    void unknownStatusIsRefused();
    void digestsNameTheResources();
    void timingKeepsOnlyLatencyNsKeys();
    void samplesGoToAnArtifact();
    void samplesAreReadBackFromBesideTheDocument();
    void sourceNativeKeepsNumbers();
    void protocolFactsOutsideTheSchemaBecomeLabels();
    void environmentFactsOutsideTheSchemaBecomeLabels();
    void notesAreCut();
};

void TestDocumentBuilder::statuses()
{
    QCOMPARE(runStatuses().size(), std::size_t(13));
    QCOMPARE(runStatuses().front(), std::string("passed"));
    QVERIFY(!isFailureStatus("passed"));
    QVERIFY(isFailureStatus("incorrect_numerical"));
    QVERIFY(isFailureStatus("revoked"));
    QVERIFY(!isFailureStatus("failed")); // kix 0.1.0's word, not the format's
    QVERIFY(!isRunStatus("skipped"));
    int failures = 0;
    for (const std::string& s : runStatuses())
        failures += isFailureStatus(s);
    QCOMPARE(failures, 12);
}

void TestDocumentBuilder::names_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("name");
    QTest::newRow("already") << "gb_s"
                             << "gb_s";
    QTest::newRow("slash") << "GB/s"
                           << "gb_s";
    QTest::newRow("braces") << "Elements{io}"
                            << "elements_io";
    QTest::newRow("leading digit") << "99th"
                                   << "x_99th";
    QTest::newRow("camel") << "lastLevelCacheBytes"
                           << "last_level_cache_bytes";
    QTest::newRow("camel after digit") << "l2CacheBytes"
                                       << "l2_cache_bytes";
    QTest::newRow("capitals") << "MB"
                              << "mb";
    QTest::newRow("empty") << ""
                           << "value";
    QTest::newRow("only punctuation") << "--"
                                      << "value";
}

void TestDocumentBuilder::names()
{
    QFETCH(QString, text);
    QFETCH(QString, name);
    const std::string out = toName(text.toStdString());
    QCOMPARE(QString::fromStdString(out), name);
    QVERIFY(isName(out));
}

void TestDocumentBuilder::units_data()
{
    QTest::addColumn<QString>("unit");
    QTest::addColumn<QString>("name");
    QTest::newRow("B") << "B"
                       << "bytes";
    QTest::newRow("GB/s") << "GB/s"
                          << "gb_s";
    QTest::newRow("MB") << "MB"
                        << "mb";
    QTest::newRow("ns") << "ns"
                        << "ns";
    QTest::newRow("ratio") << "ratio"
                           << "ratio";
}

void TestDocumentBuilder::units()
{
    QFETCH(QString, unit);
    QFETCH(QString, name);
    QCOMPARE(QString::fromStdString(unitName(unit.toStdString())), name);
}

void TestDocumentBuilder::metadataNames_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("name");
    QTest::newRow("spaces") << "kix host · CPU 0"
                            << "kix-host-cpu-0";
    QTest::newRow("dots kept") << "v1.2_x"
                               << "v1.2_x";
    QTest::newRow("leading punctuation") << "._a"
                                         << "a";
    QTest::newRow("empty") << ""
                           << "unnamed";
    QTest::newRow("long") << QString(300, QLatin1Char('a')) << QString(200, QLatin1Char('a'));
}

void TestDocumentBuilder::metadataNames()
{
    QFETCH(QString, text);
    QFETCH(QString, name);
    QCOMPARE(QString::fromStdString(metadataName(text.toStdString())), name);
}

void TestDocumentBuilder::unknownStatusIsRefused()
{
    DocumentBuilder b;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, b.setStatus("failed"));
    QVERIFY_THROWS_EXCEPTION(std::logic_error, b.build()); // nothing set
}

void TestDocumentBuilder::digestsNameTheResources()
{
    const RunDocument d = minimal().build();
    const json& doc = d.document;
    QCOMPARE(doc.at("run").at("spec").at("protocolDigest").get<std::string>(), kernelindexDigest(doc.at("protocol")));
    QCOMPARE(
        doc.at("run").at("spec").at("environmentDigest").get<std::string>(), kernelindexDigest(doc.at("environment")));
    QVERIFY(!doc.contains("workload")); // not carried
    QVERIFY(isDigest(doc.at("run").at("spec").at("workloadDigest").get<std::string>()));
    QCOMPARE(doc.at("run").at("spec").at("observedAt").get<std::string>(), std::string("2026-02-28T00:23:31.000Z"));
    QCOMPARE(doc.at("run").at("metadata").at("name").get<std::string>(), std::string("test-run"));
    QCOMPARE(doc.at("run").at("apiVersion").get<std::string>(), std::string(kApiVersion));
}

void TestDocumentBuilder::timingKeepsOnlyLatencyNsKeys()
{
    DocumentBuilder b = minimal();
    b.setTiming("median", { { "median", 1000.4 }, { "min", 900 }, { "p20", 950 }, { "mean", -1 } });
    const json spec = b.build().document.at("run").at("spec");
    const json& latency = spec.at("timing").at("latencyNs");
    QCOMPARE(latency.at("median").get<long long>(), 1000LL);
    QCOMPARE(latency.at("minimum").get<long long>(), 900LL);
    QVERIFY(!latency.contains("p20") && !latency.contains("min") && !latency.contains("mean"));
    for (const auto& [key, value] : latency.items())
        QVERIFY2(isLatencyNsKey(key), key.c_str());
    int p20 = 0;
    for (const json& m : spec.at("measurements"))
        p20 += m.at("statistic") == "p20" && m.at("unit") == "ns" && m.at("value") == 950;
    QCOMPARE(p20, 1);
}

void TestDocumentBuilder::samplesGoToAnArtifact()
{
    DocumentBuilder b = minimal();
    b.setTiming("median", { { "median", 2 } }).setSamples({ 1, 2, 3.5 });
    const RunDocument d = b.build();
    const json& timing = d.document.at("run").at("spec").at("timing");
    QVERIFY(!timing.contains("samplesNs"));
    const json& raw = timing.at("rawSamples");
    QCOMPARE(raw.at("uri").get<std::string>(), d.samplesUri);
    QVERIFY(d.samplesUri.find('/') == std::string::npos);
    QCOMPARE(raw.at("digest").get<std::string>(), sha256Digest(d.samplesBytes));
    std::vector<double> back;
    QVERIFY(parseSamplesArtifact(d.samplesBytes, back));
    QCOMPARE(back, (std::vector<double> { 1, 2, 3.5 }));
    QCOMPARE(d.samplesNs, back);
    QVERIFY(!parseSamplesArtifact("{\"samples\":[1]}", back));
}

// The reader takes a run's samples from its evidence file only from beside the document and only when the file's
// digest is the one the run names; a name that leads elsewhere is refused with a warning at timing.rawSamples.uri.
void TestDocumentBuilder::samplesAreReadBackFromBesideTheDocument()
{
    DocumentBuilder b = minimal();
    b.setTiming("median", { { "median", 2 } }).setSamples({ 1, 2, 3.5 });
    const RunDocument d = b.build();
    QTemporaryDir dir;
    auto write = [&](const QString& name, const std::string& bytes) {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(bytes));
    };
    write(QStringLiteral("run.json"), d.document.dump());
    write(QString::fromStdString(d.samplesUri), d.samplesBytes);
    kix::ParseResult good = kix::parseFile(dir.filePath(QStringLiteral("run.json")));
    QCOMPARE(good.runs.size(), 1);
    QCOMPARE(good.runs.front()->samples, (std::vector<double> { 1, 2, 3.5 }));

    // the evidence file changed after the run was written: its samples are not used
    std::string changed = d.samplesBytes;
    changed.replace(changed.find("3.5"), 3, "9.5");
    write(QString::fromStdString(d.samplesUri), changed);
    kix::ParseResult tampered = kix::parseFile(dir.filePath(QStringLiteral("run.json")));
    QCOMPARE(tampered.runs.size(), 1);
    QVERIFY(tampered.runs.front()->samples.empty());
    QVERIFY(!tampered.diagnostics.isEmpty());
    QCOMPARE(tampered.diagnostics.front().pointer, QStringLiteral("/run/spec/timing/rawSamples/uri"));
    QVERIFY(tampered.diagnostics.front().message.contains(QStringLiteral("does not match the digest")));

    // a name that leaves the document's folder is never opened, whatever its digest
    json escaping = d.document;
    escaping["run"]["spec"]["timing"]["rawSamples"]["uri"] = "../" + d.samplesUri;
    write(QStringLiteral("escaping.json"), escaping.dump());
    kix::ParseResult refused = kix::parseFile(dir.filePath(QStringLiteral("escaping.json")));
    QCOMPARE(refused.runs.size(), 1);
    QVERIFY(refused.runs.front()->samples.empty());
    QVERIFY(!refused.diagnostics.isEmpty());
    QVERIFY(refused.diagnostics.front().message.contains(QStringLiteral("only a file beside the document")));
}

void TestDocumentBuilder::sourceNativeKeepsNumbers()
{
    DocumentBuilder b = minimal();
    b.setSourceNative(
        "Google Benchmark", "bm/x", "id", { { "ms_50", 1.5 }, { "label", "text" } }, { { "state", "s1" } });
    const json run = b.build().document.at("run");
    const json& native = run.at("spec").at("sourceNative");
    QCOMPARE(native.at("source").get<std::string>(), std::string("google-benchmark"));
    QCOMPARE(native.at("metrics").size(), std::size_t(1));
    QCOMPARE(run.at("metadata").at("labels").at("source_label").get<std::string>(), std::string("text"));
    QCOMPARE(run.at("metadata").at("labels").at("source_state").get<std::string>(), std::string("s1"));
}

void TestDocumentBuilder::protocolFactsOutsideTheSchemaBecomeLabels()
{
    const json p = protocolResource("kix engine", "",
        { { "harness", { { "name", "kix-engine" }, { "repository", "kix" } } },
            { "measurement",
                { { "timer", "steady_clock" }, { "primaryStatistic", "median" }, { "warmupMs", 25 },
                    { "cacheFlush", "a write of a buffer" }, { "samples", 0 } } },
            { "comparability", { { "family", "kix_engine" }, { "notes", "n" } } } });
    const json& m = p.at("spec").at("measurement");
    QCOMPARE(m.size(), std::size_t(2)); // timer, primaryStatistic; samples 0 is not > 0
    const json& labels = p.at("metadata").at("labels");
    QCOMPARE(labels.at("measurement_warmup_ms").get<std::string>(), std::string("25"));
    QCOMPARE(labels.at("measurement_cache_flush").get<std::string>(), std::string("a write of a buffer"));
    QCOMPARE(labels.at("measurement_samples").get<std::string>(), std::string("0"));
}

void TestDocumentBuilder::environmentFactsOutsideTheSchemaBecomeLabels()
{
    const json e = environmentResource("kix cpu", "",
        { { "hardware",
              { { "vendor", "GenuineIntel" }, { "product", "Xeon" }, { "cores", 16 }, { "eccEnabled", true },
                  { "memoryBytes", 1024 } } },
            { "software", { { "os", "Debian 12" }, { "osKernel", "linux 6.1" }, { "buildFlags", "-O3" } } } });
    const json& spec = e.at("spec");
    QCOMPARE(spec.at("hardware").at("vendor").get<std::string>(), std::string("genuine_intel"));
    QCOMPARE(spec.at("hardware").at("architecture").get<std::string>(), std::string("unknown"));
    QCOMPARE(spec.at("hardware").at("memoryBytes").get<long long>(), 1024LL);
    QVERIFY(!spec.at("hardware").contains("cores"));
    QCOMPARE(spec.at("settings").at("eccEnabled").get<bool>(), true);
    QCOMPARE(spec.at("software").at("operatingSystem").get<std::string>(), std::string("Debian 12"));
    QCOMPARE(spec.at("software").at("kernel").get<std::string>(), std::string("linux 6.1"));
    const json& labels = e.at("metadata").at("labels");
    QCOMPARE(labels.at("hardware_cores").get<std::string>(), std::string("16"));
    QCOMPARE(labels.at("software_build_flags").get<std::string>(), std::string("-O3"));
}

void TestDocumentBuilder::notesAreCut()
{
    const std::string notes(1500, 'n');
    const json p = protocolResource("p", "", { { "comparability", { { "family", "f" }, { "notes", notes } } } });
    QCOMPARE(p.at("spec").at("comparability").at("notes").get<std::string>().size(), kMaxComparabilityNotes);
    // code points, not bytes
    QCOMPARE(truncateCodePoints("\xc2\xb7\xc2\xb7\xc2\xb7", 2), std::string("\xc2\xb7\xc2\xb7"));
}

KIX_TEST_GUILESS_MAIN(TestDocumentBuilder)
#include "tst_documentbuilder.moc"
