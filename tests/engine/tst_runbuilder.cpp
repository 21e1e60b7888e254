// SPDX-License-Identifier: Apache-2.0
// RunBuilder: documents shaped like the seed, digests of canonical JSON, and output that the model reads
// back (validation through kix::runFromDocument, round trip through a file and kix::parseFile).

#include "engine/benchmarksession.h"
#include "engine/runbuilder.h"
#include "kix/config.h"
#include "model/format/digest.h"
#include "model/format/documentbuilder.h"
#include "model/read/documentparser.h"

#include "tests/support/testmain.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace kix;

namespace {

BenchmarkResult passedResult()
{
    BenchmarkResult r;
    r.spec.pass = Pass::Backward; // the seed's workload by default
    r.spec.implementation = QStringLiteral("kix-cpu");
    r.device.id = QStringLiteral("cpu");
    r.device.name = QStringLiteral("AMD EPYC 7763 64-Core Processor");
    r.device.slug = QStringLiteral("cpu-amd-epyc-7763");
    r.status = BenchmarkResult::Status::Passed;
    r.timing.samplesNs = { 1300, 1100, 1000, 1200, 1400 };
    r.timing.warmupRepetitions = 7;
    r.statistics = computeStatistics(r.timing.samplesNs);
    r.correctness.maxRelativeError = 2.5e-7;
    r.correctness.tolerance = 1e-5;
    r.correctness.passed = true;
    r.copyBandwidthGBs = 20;
    r.bytesMoved = r.spec.minimumBytes();
    r.bandwidthGBs = double(r.bytesMoved) / r.statistics.median;
    r.bandwidthFraction = r.bandwidthGBs / r.copyBandwidthGBs;
    r.observedAt = QDateTime(QDate(2026, 3, 1), QTime(12, 34, 56, 789), Qt::UTC);
    return r;
}

nlohmann::json build(const BenchmarkResult& r)
{
    return RunBuilder(r)
        .setEnvironment({ { "hardware", { { "vendor", "amd" }, { "product", "AMD EPYC 7763 64-Core Processor" } } },
            { "software", { { "compiler", "GCC 12.2.0" } } } })
        .setImplementation({ { "name", "kix-cpu" } })
        .setTimer(QStringLiteral("steady_clock"))
        .build();
}

const nlohmann::json* findMeasurement(const nlohmann::json& run, const char* metric, const char* statistic)
{
    for (const auto& m : run.at("spec").at("measurements"))
        if (m.at("metric") == metric && m.at("statistic") == statistic)
            return &m;
    return nullptr;
}

} // namespace

class TestRunBuilder : public QObject
{
    Q_OBJECT

private slots:
    void documentIsShapedLikeTheSeed();
    void measurementsAndSamples();
    void digestsAreSha256OfCanonicalJson();
    void validatesThroughTheModel();
    void failedRunHasNoTiming();
    void roundTripsThroughAFile();
    void deviceDetailsAreKept();
    void cudaGraphIsPartOfTheProtocol();
    void cacheFlushIsPartOfTheProtocol();
};

void TestRunBuilder::documentIsShapedLikeTheSeed()
{
    const nlohmann::json doc = build(passedResult());
    // the seed's three parts, and the three resources the run's other digests name
    for (const char* part : { "run", "protocol", "environment", "workload", "operation", "implementation" }) {
        QVERIFY(doc.contains(part));
        QCOMPARE(doc.at(part).at("apiVersion").get<std::string>(), std::string("kernelindex.dev/v1alpha1"));
        QVERIFY(doc.at(part).contains("spec"));
        QVERIFY(doc.at(part).contains("metadata"));
    }
    QCOMPARE(doc.at("run").at("kind").get<std::string>(), std::string("BenchmarkRun"));
    QCOMPARE(doc.at("protocol").at("kind").get<std::string>(), std::string("BenchmarkProtocol"));
    QCOMPARE(doc.at("environment").at("kind").get<std::string>(), std::string("ExecutionEnvironment"));
    const nlohmann::json& spec = doc.at("run").at("spec");
    QCOMPARE(spec.at("status").get<std::string>(), std::string("passed"));
    QCOMPARE(spec.at("observedAt").get<std::string>(), std::string("2026-03-01T12:34:56.789Z"));
    const nlohmann::json& native = spec.at("sourceNative");
    QCOMPARE(native.at("source").get<std::string>(), std::string("kix-engine"));
    QCOMPARE(native.at("benchmark").get<std::string>(), std::string("group_norm/backward"));
    QCOMPARE(native.at("externalId").get<std::string>(),
        std::string("group_norm/backward/kix-cpu/cpu-amd-epyc-7763/"
                    "batch128-channels2048-channels_per_group4-hidden512-fp32/2026-03-01-12-34-56"));
    const nlohmann::json& metadata = doc.at("run").at("metadata");
    QCOMPARE(QString::fromStdString(metadata.at("title").get<std::string>()),
        QStringLiteral("GroupNorm · kix-cpu · backward"));
    QCOMPARE(metadata.at("labels").at("kix_version").get<std::string>(), std::string(KIX_VERSION));
    QVERIFY(metadata.at("name").get<std::string>().size() <= 100);
    QCOMPARE(
        doc.at("protocol").at("spec").at("measurement").at("timer").get<std::string>(), std::string("steady_clock"));
    QCOMPARE(RunBuilder(passedResult()).fileName(),
        QStringLiteral("group_norm-backward-kix-cpu-cpu-amd-epyc-7763-"
                       "batch128-channels2048-channels_per_group4-hidden512-fp32-2026-03-01-12-34-56.json"));
}

void TestRunBuilder::measurementsAndSamples()
{
    const BenchmarkResult r = passedResult();
    const nlohmann::json run = build(r).at("run");
    const nlohmann::json& timing = run.at("spec").at("timing");
    QCOMPARE(timing.at("latencyNs").at("median").get<long long>(), 1200LL);
    QCOMPARE(timing.at("primaryStatistic").get<std::string>(), std::string("median"));
    // Raw samples are not inline (timing has no samplesNs in v1alpha1): an evidence file beside the document holds
    // them, named by URI and digest.
    QVERIFY(!timing.contains("samplesNs"));
    const format::RunDocument d = RunBuilder(r).buildDocument();
    std::vector<double> samples;
    QVERIFY(format::parseSamplesArtifact(d.samplesBytes, samples));
    QCOMPARE(samples, (std::vector<double> { 1300, 1100, 1000, 1200, 1400 }));
    QCOMPARE(timing.at("rawSamples").at("uri").get<std::string>(), d.samplesUri);
    QCOMPARE(timing.at("rawSamples").at("digest").get<std::string>(), format::sha256Digest(d.samplesBytes));
    QCOMPARE(timing.at("samples").get<int>(), 5);
    QCOMPARE(timing.at("latencyNs").at("minimum").get<long long>(), 1000LL);
    QCOMPARE(timing.at("latencyNs").at("maximum").get<long long>(), 1400LL);
    for (const char* stat : { "p20", "p80", "min", "max", "mean", "stddev" }) {
        const nlohmann::json* m = findMeasurement(run, "latency", stat);
        QVERIFY2(m, stat);
        QCOMPARE(m->at("unit").get<std::string>(), std::string("ns"));
    }
    QCOMPARE(findMeasurement(run, "latency", "p20")->at("value").get<long long>(), 1080LL);
    QCOMPARE(findMeasurement(run, "latency", "samples")->at("value").get<int>(), 5);
    QCOMPARE(findMeasurement(run, "latency", "samples")->at("unit").get<std::string>(), std::string("count"));
    QCOMPARE(findMeasurement(run, "bytes_moved", "min")->at("value").get<qint64>(), r.spec.minimumBytes());
    QCOMPARE(findMeasurement(run, "bytes_moved", "min")->at("unit").get<std::string>(), std::string("bytes"));
    QCOMPARE(findMeasurement(run, "bandwidth", "median")->at("unit").get<std::string>(), std::string("gb_s"));
    QCOMPARE(findMeasurement(run, "bandwidth_fraction", "median")->at("unit").get<std::string>(), std::string("ratio"));
    QCOMPARE(findMeasurement(run, "copy_bandwidth", "median")->at("value").get<double>(), 20.0);
    QCOMPARE(findMeasurement(run, "max_rel_error", "max")->at("value").get<double>(), 2.5e-7);
}

void TestRunBuilder::digestsAreSha256OfCanonicalJson()
{
    const nlohmann::json doc = build(passedResult());
    const nlohmann::json& spec = doc.at("run").at("spec");
    const QRegularExpression digest(QStringLiteral("^sha256:[0-9a-f]{64}$"));
    for (const char* key : { "protocolDigest", "workloadDigest", "environmentDigest", "implementationDigest" })
        QVERIFY2(digest.match(QString::fromStdString(spec.at(key).get<std::string>())).hasMatch(), key);
    // Each digest is the format's: sha256 of the RFC 8785 JSON of {apiVersion, kind, spec} of the resource the
    // document carries beside the run (metadata left out).
    const std::pair<const char*, const char*> named[]
        = { { "protocolDigest", "protocol" }, { "environmentDigest", "environment" }, { "workloadDigest", "workload" },
              { "implementationDigest", "implementation" } };
    for (const auto& [key, part] : named)
        QCOMPARE(spec.at(key).get<std::string>(), format::kernelindexDigest(doc.at(part)));
    QCOMPARE(doc.at("workload").at("spec").at("operationSpecDigest").get<std::string>(),
        format::kernelindexDigest(doc.at("operation")));
    QCOMPARE(doc.at("implementation").at("spec").at("operation").at("specDigest").get<std::string>(),
        format::kernelindexDigest(doc.at("operation")));
    // Same workload, same digest; another workload, another digest.
    BenchmarkResult other = passedResult();
    other.observedAt = other.observedAt.addSecs(60);
    QVERIFY(build(other).at("run").at("spec").at("workloadDigest") == spec.at("workloadDigest"));
    QVERIFY(build(other).at("run").at("spec").at("protocolDigest") == spec.at("protocolDigest"));
    other.spec.channels = 1024;
    QVERIFY(build(other).at("run").at("spec").at("workloadDigest") != spec.at("workloadDigest"));
    other.spec.timing.repMs = 500;
    QVERIFY(build(other).at("run").at("spec").at("protocolDigest") != spec.at("protocolDigest"));
}

void TestRunBuilder::validatesThroughTheModel()
{
    const BenchmarkResult r = passedResult();
    Diagnostics diagnostics;
    // in memory the run keeps the samples its document names by timing.rawSamples
    const format::RunDocument d = RunBuilder(r).buildDocument();
    const RunPtr run = runFromDocument(d.document, QStringLiteral("memory.json"), QString(), diagnostics, d.samplesNs);
    for (const Diagnostic& d : diagnostics)
        qWarning() << d.toString();
    QVERIFY(run);
    QVERIFY(diagnostics.isEmpty());
    QCOMPARE(run->kernel, QStringLiteral("group_norm"));
    QCOMPARE(run->pass, QStringLiteral("backward"));
    QCOMPARE(run->provider, QStringLiteral("kix-cpu"));
    QCOMPARE(run->gpuSlug, QStringLiteral("cpu-amd-epyc-7763"));
    QCOMPARE(run->workloadSlug, QStringLiteral("batch128-channels2048-channels_per_group4-hidden512-fp32"));
    QCOMPARE(run->dtype, QStringLiteral("fp32"));
    QCOMPARE(run->source, QStringLiteral("kix-engine"));
    QCOMPARE(run->status, QStringLiteral("passed"));
    QCOMPARE(run->median, 1200.0);
    QCOMPARE(run->p20, 1080.0);
    QCOMPARE(run->p80, 1320.0);
    QCOMPARE(run->statistic(QStringLiteral("min")), 1000.0);
    QCOMPARE(run->statistic(QStringLiteral("max")), 1400.0);
    QCOMPARE(int(run->samples.size()), 5);
    QCOMPARE(run->observedAt, r.observedAt);
    QCOMPARE(run->links().timer, QStringLiteral("steady_clock"));
    QCOMPARE(run->protocolFamily, QStringLiteral("kix_engine"));
    bool hasBandwidth = false;
    for (const Measurement& m : run->measurements)
        hasBandwidth
            = hasBandwidth || (m.metric == QStringLiteral("bandwidth_fraction") && m.unit == QStringLiteral("ratio"));
    QVERIFY(hasBandwidth);
}

void TestRunBuilder::failedRunHasNoTiming()
{
    BenchmarkResult r = passedResult();
    r.status = BenchmarkResult::Status::Failed;
    r.correctness.maxRelativeError = 0.25;
    r.correctness.passed = false;
    const nlohmann::json doc = build(r);
    const nlohmann::json& spec = doc.at("run").at("spec");
    // a failed correctness check is the format's incorrect_numerical, with no timing at all
    QCOMPARE(spec.at("status").get<std::string>(), std::string("incorrect_numerical"));
    QVERIFY(!spec.contains("timing"));
    QCOMPARE(spec.at("correctness").at("maximumRelativeError").get<double>(), 0.25);
    QVERIFY(!findMeasurement(doc.at("run"), "latency", "p20"));
    QCOMPARE(findMeasurement(doc.at("run"), "max_rel_error", "max")->at("value").get<double>(), 0.25);
    Diagnostics diagnostics;
    const RunPtr run = runFromDocument(doc, QStringLiteral("failed.json"), QString(), diagnostics);
    for (const Diagnostic& d : diagnostics)
        qWarning() << d.toString();
    QVERIFY(run);
    QCOMPARE(run->status, QStringLiteral("incorrect_numerical"));
    QVERIFY(std::isnan(run->median));
}

void TestRunBuilder::roundTripsThroughAFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    BenchmarkResult r = passedResult();
    r.document = build(r);
    QString error;
    QVERIFY2(BenchmarkSession::writeDocument(r, dir.path(), error), qPrintable(error));
    QCOMPARE(QFileInfo(r.filePath).fileName(), RunBuilder(r).fileName());
    // A second run in the same second keeps both files.
    BenchmarkResult again = r;
    QVERIFY(BenchmarkSession::writeDocument(again, dir.path(), error));
    QVERIFY(again.filePath != r.filePath);

    const ParseResult parsed = parseFile(r.filePath);
    QVERIFY(!parsed.hasErrors());
    QCOMPARE(parsed.runs.size(), 1);
    const Run& run = *parsed.runs.front();
    QCOMPARE(
        run.externalId, QString::fromStdString(r.document.at("run").at("spec").at("sourceNative").at("externalId")));
    QCOMPARE(run.median, 1200.0);
    QVERIFY(nlohmann::json::parse(run.raw) == r.document); // nothing lost
    // two documents and, beside them, the one raw-samples file both name (same samples, same digest)
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 3);
    const nlohmann::json& raw = r.document.at("run").at("spec").at("timing").at("rawSamples");
    QFile samples(QDir(dir.path()).filePath(QString::fromStdString(raw.at("uri").get<std::string>())));
    QVERIFY(samples.open(QIODevice::ReadOnly));
    QCOMPARE(format::sha256Digest(samples.readAll().toStdString()), raw.at("digest").get<std::string>());
}

void TestRunBuilder::deviceDetailsAreKept()
{
    BenchmarkResult r = passedResult();
    const nlohmann::json plain = build(r);
    const nlohmann::json& plainLabels = plain.at("run").at("metadata").at("labels");
    QVERIFY(!plainLabels.contains("source_device_details_plan"));
    r.deviceDetails = { { "plan", "one block per row" }, { "clocks", { { "warning", "SM clock at 60%" } } } };
    const nlohmann::json doc = build(r);
    // sourceNative holds numbers only in v1alpha1: the details ride as the run's labels
    const nlohmann::json& labels = doc.at("run").at("metadata").at("labels");
    QCOMPARE(labels.at("source_device_details_plan").get<std::string>(), std::string("one block per row"));
    QCOMPARE(labels.at("source_device_details_clocks_warning").get<std::string>(), std::string("SM clock at 60%"));
    // Details are not part of what the digests identify.
    for (const char* key : { "protocolDigest", "workloadDigest", "environmentDigest", "implementationDigest" })
        QVERIFY(doc.at("run").at("spec").at(key) == plain.at("run").at("spec").at(key));
}

void TestRunBuilder::cudaGraphIsPartOfTheProtocol()
{
    const nlohmann::json plain = build(passedResult());
    BenchmarkResult r = passedResult();
    r.spec.timing.cudaGraph = true;
    const nlohmann::json graph = build(r);
    // the schema has no launch member: a label of the protocol, and the notes (so the digest) say it
    QCOMPARE(graph.at("protocol").at("metadata").at("labels").at("measurement_launch").get<std::string>(),
        std::string("cuda_graph"));
    QVERIFY(!plain.at("protocol").at("metadata").at("labels").contains("measurement_launch"));
    const std::string notes = graph.at("protocol").at("spec").at("comparability").at("notes").get<std::string>();
    QVERIFY2(notes.find("one CUDA graph launch per repetition") != std::string::npos, notes.c_str());
    // Graph and stream timings are different protocols: another digest, another name.
    QVERIFY(graph.at("run").at("spec").at("protocolDigest") != plain.at("run").at("spec").at("protocolDigest"));
    QVERIFY(graph.at("protocol").at("metadata").at("name") != plain.at("protocol").at("metadata").at("name"));
    QVERIFY(graph.at("run").at("spec").at("workloadDigest") == plain.at("run").at("spec").at("workloadDigest"));
    Diagnostics diagnostics;
    QVERIFY(runFromDocument(graph, QStringLiteral("graph.json"), QString(), diagnostics));
    QVERIFY(diagnostics.isEmpty());
}

// A read-sweep flush (the cache left clean) and the default write flush are different protocols: the label, the
// notes and so the digest say which, so that kix never compares the two without a warning.
void TestRunBuilder::cacheFlushIsPartOfTheProtocol()
{
    const nlohmann::json write = build(passedResult());
    BenchmarkResult r = passedResult();
    r.spec.timing.cacheFlush = CacheFlush::ReadSweep;
    const nlohmann::json sweep = build(r);
    const auto label = [](const nlohmann::json& doc) {
        return doc.at("protocol").at("metadata").at("labels").at("measurement_cache_flush").get<std::string>();
    };
    QVERIFY2(label(write).find("a write of a buffer") == 0, label(write).c_str());
    QVERIFY2(label(sweep).find("a read of a buffer") == 0, label(sweep).c_str());
    const std::string notes = sweep.at("protocol").at("spec").at("comparability").at("notes").get<std::string>();
    QVERIFY2(notes.find("not comparable with write-flush runs") != std::string::npos, notes.c_str());
    QVERIFY(sweep.at("run").at("spec").at("protocolDigest") != write.at("run").at("spec").at("protocolDigest"));
    Diagnostics diagnostics;
    const RunPtr a = runFromDocument(write, QStringLiteral("write.json"), QString(), diagnostics);
    const RunPtr b = runFromDocument(sweep, QStringLiteral("sweep.json"), QString(), diagnostics);
    QVERIFY(a && b);
    QVERIFY(a->protocolDigest != b->protocolDigest);
}

KIX_TEST_GUILESS_MAIN(TestRunBuilder)
#include "tst_runbuilder.moc"
