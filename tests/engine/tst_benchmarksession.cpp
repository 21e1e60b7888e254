// SPDX-License-Identifier: Apache-2.0
// BenchmarkSession: one spec from validation to document, failures, errors and cancel.

#include "engine/benchmarksession.h"
#include "engine/runbuilder.h"
#include "model/read/documentparser.h"
#include "smallcpu.h"

#include "tests/support/testmain.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace kix;
using namespace kix::test;

Q_DECLARE_METATYPE(kix::Pass)

class TestBenchmarkSession : public QObject
{
    Q_OBJECT

private slots:
    void runsAndDocuments_data();
    void runsAndDocuments();
    void resolvesDefaults();
    void refusesInvalidSpecs_data();
    void refusesInvalidSpecs();
    void failedCheckGivesAFailedRunWithoutTiming();
    void backendErrorsAreReportedNotThrown();
    void cancelledRunHasNoDocument();
    void copyBandwidthIsMeasuredOnce();
    void runDetailsAreAskedAfterTiming();
};

void TestBenchmarkSession::runsAndDocuments_data()
{
    QTest::addColumn<Pass>("pass");
    QTest::newRow("forward") << Pass::Forward;
    QTest::newRow("backward") << Pass::Backward;
    QTest::newRow("full") << Pass::Full;
}

void TestBenchmarkSession::runsAndDocuments()
{
    QFETCH(Pass, pass);
    auto registry = smallCpuRegistry();
    BenchmarkSession session(*registry);
    const BenchmarkResult r = session.run(tinySpec(pass));
    QVERIFY2(r.status == BenchmarkResult::Status::Passed, qPrintable(r.message));
    QVERIFY(r.correctness.passed);
    QVERIFY(r.statistics.count >= r.spec.timing.minSamples);
    QCOMPARE(int(r.timing.samplesNs.size()), r.statistics.count);
    QVERIFY(r.statistics.min <= r.statistics.median && r.statistics.median <= r.statistics.max);
    QVERIFY(r.copyBandwidthGBs > 0);
    QCOMPARE(r.bytesMoved, r.spec.minimumBytes());
    QVERIFY(std::isfinite(r.bandwidthGBs) && r.bandwidthGBs > 0);
    QVERIFY(std::isfinite(r.bandwidthFraction));
    QVERIFY(r.observedAt.isValid());
    QVERIFY(r.hasDocument());
    Diagnostics diagnostics;
    // the document names its samples by timing.rawSamples; in memory the run keeps them
    const RunPtr run = runFromDocument(r.document, QStringLiteral("session.json"), QString(), diagnostics,
        RunBuilder::roundedSamples(r.timing.samplesNs));
    QVERIFY(run);
    QVERIFY(diagnostics.isEmpty());
    QCOMPARE(run->pass, passName(pass));
    QCOMPARE(run->gpuSlug, r.device.slug);
    QCOMPARE(int(run->samples.size()), r.statistics.count);
}

void TestBenchmarkSession::resolvesDefaults()
{
    auto registry = smallCpuRegistry();
    BenchmarkSession session(*registry);
    BenchmarkSpec spec = tinySpec();
    spec.device = QStringLiteral("auto");
    spec.implementation.clear();
    QCOMPARE(session.resolve(spec), QString());
    QCOMPARE(spec.device, QStringLiteral("cpu"));
    QCOMPARE(spec.implementation, QStringLiteral("kix-cpu"));
}

void TestBenchmarkSession::refusesInvalidSpecs_data()
{
    QTest::addColumn<QString>("what");
    QTest::addColumn<QString>("message");
    QTest::newRow("indivisible") << "indivisible"
                                 << "not divisible by channels_per_group";
    QTest::newRow("zero size") << "zero"
                               << "must be positive";
    QTest::newRow("too large for memory") << "huge"
                                          << "do not fit in the memory";
    QTest::newRow("no such device") << "device"
                                    << "cuda";
    QTest::newRow("no such implementation") << "impl"
                                            << "no implementation 'liger'";
}

void TestBenchmarkSession::refusesInvalidSpecs()
{
    QFETCH(QString, what);
    QFETCH(QString, message);
    BenchmarkSpec spec = tinySpec();
    if (what == QStringLiteral("indivisible"))
        spec.channels = 9;
    else if (what == QStringLiteral("zero"))
        spec.hidden = 0;
    else if (what == QStringLiteral("huge"))
        spec.batch = qint64(1) << 40;
    else if (what == QStringLiteral("device"))
        spec.device = QStringLiteral("cuda:7");
    else
        spec.implementation = QStringLiteral("liger");
    auto registry = smallCpuRegistry();
    BenchmarkSession session(*registry);
    const BenchmarkResult r = session.run(spec);
    QCOMPARE(r.status, BenchmarkResult::Status::Error);
    QVERIFY2(r.message.contains(message), qPrintable(r.message));
    QVERIFY(!r.hasDocument());
    QVERIFY(r.document.is_null());
    QVERIFY(std::isnan(r.copyBandwidthGBs)); // refused before anything ran
}

void TestBenchmarkSession::failedCheckGivesAFailedRunWithoutTiming()
{
    auto registry = smallCpuRegistry(std::make_unique<WrongCpuBackend>());
    BenchmarkSession session(*registry);
    BenchmarkResult r = session.run(tinySpec(Pass::Full));
    QCOMPARE(r.status, BenchmarkResult::Status::Failed);
    QVERIFY(r.message.contains(QStringLiteral("correctness")));
    QVERIFY(r.timing.samplesNs.empty());
    QVERIFY(r.correctness.maxRelativeError > r.correctness.tolerance);
    QTemporaryDir dir;
    QString error;
    QVERIFY2(BenchmarkSession::writeDocument(r, dir.path(), error), qPrintable(error));
    const ParseResult parsed = parseFile(r.filePath);
    QVERIFY(!parsed.hasErrors());
    QCOMPARE(parsed.runs.size(), 1);
    QCOMPARE(parsed.runs.front()->status, QStringLiteral("incorrect_numerical")); // the format's word
    QVERIFY(std::isnan(parsed.runs.front()->median));
    bool hasError = false;
    for (const Measurement& m : parsed.runs.front()->measurements)
        hasError = hasError || (m.metric == QStringLiteral("max_rel_error") && m.value > 0.01);
    QVERIFY(hasError);
}

void TestBenchmarkSession::backendErrorsAreReportedNotThrown()
{
    auto registry = smallCpuRegistry(std::make_unique<ThrowingCpuBackend>());
    BenchmarkSession session(*registry);
    const BenchmarkResult r = session.run(tinySpec());
    QCOMPARE(r.status, BenchmarkResult::Status::Error);
    QVERIFY(r.message.contains(QStringLiteral("out of memory (simulated)")));
    QVERIFY(!r.hasDocument());
}

void TestBenchmarkSession::cancelledRunHasNoDocument()
{
    auto registry = smallCpuRegistry();
    BenchmarkSession session(*registry);
    std::atomic<bool> cancel { true };
    TimingHooks hooks;
    hooks.cancel = &cancel;
    const BenchmarkResult r = session.run(tinySpec(), hooks);
    QCOMPARE(r.status, BenchmarkResult::Status::Cancelled);
    QVERIFY(!r.hasDocument());
    QVERIFY(r.document.is_null());
}

void TestBenchmarkSession::copyBandwidthIsMeasuredOnce()
{
    auto registry = smallCpuRegistry();
    BenchmarkSession session(*registry);
    Backend* backend = registry->backend(QStringLiteral("cpu"));
    const DeviceInfo device = backend->devices().front();
    const double first = session.copyBandwidth(*backend, device);
    QCOMPARE(session.copyBandwidth(*backend, device), first);
    const BenchmarkResult r = session.run(tinySpec());
    QCOMPARE(r.copyBandwidthGBs, first);
}

void TestBenchmarkSession::runDetailsAreAskedAfterTiming()
{
    auto registry = smallCpuRegistry(std::make_unique<DetailedCpuBackend>());
    BenchmarkSession session(*registry);
    const BenchmarkResult r = session.run(tinySpec());
    QVERIFY2(r.status == BenchmarkResult::Status::Passed, qPrintable(r.message));
    // The backend read its state once every timed repetition had run (estimate phase included).
    QVERIFY(r.deviceDetails.at("timedBeforeDetails").get<int>() >= r.statistics.count + kEstimateRepetitions);
    // sourceNative holds numbers only: the details ride as the run's labels
    QCOMPARE(r.document.at("run")
                 .at("metadata")
                 .at("labels")
                 .at("source_device_details_timed_before_details")
                 .get<std::string>(),
        std::to_string(r.deviceDetails.at("timedBeforeDetails").get<int>()));
    // The plain CPU backend adds nothing.
    auto plain = smallCpuRegistry();
    BenchmarkSession plainSession(*plain);
    const BenchmarkResult p = plainSession.run(tinySpec());
    QVERIFY(p.deviceDetails.empty());
    QVERIFY(!p.document.at("run").at("metadata").at("labels").contains("source_device_details_timed_before_details"));
}

KIX_TEST_GUILESS_MAIN(TestBenchmarkSession)
#include "tst_benchmarksession.moc"
