// SPDX-License-Identifier: Apache-2.0
// Chart scope: one metric and unit per axis (the commonest, said in a note), failed runs never charted, and the
// kernel narrowing of runs that span many kernels.
#include "model/chartdata/chartscope.h"
#include "model/chartdata/quantiledata.h"
#include "model/chartdata/sweep.h"

#include "../runfactory.h"

#include "tests/support/testmain.h"

#include <QTest>

using namespace kix;
using kixtest::makeRun;

namespace {

std::shared_ptr<Run> scoreRun(double channels, double seconds)
{
    auto run = makeRun(QStringLiteral("kernelbot"), QStringLiteral("NVIDIA B200"), channels, seconds);
    run->metric = Run::Metric::Other;
    run->headlineMetric = QStringLiteral("score");
    run->unit = QStringLiteral("s");
    run->headlineStatistic = QStringLiteral("geomean");
    run->finalize();
    return run;
}

std::shared_ptr<Run> failedRun(double channels)
{
    auto run = makeRun(QStringLiteral("torch"), QStringLiteral("NVIDIA B200"), channels, 1000);
    run->status = QStringLiteral("incorrect_numerical"); // with a time, which must still not be charted
    run->finalize();
    return run;
}

} // namespace

class TestChartScope : public QObject
{
    Q_OBJECT
private slots:
    void commonestMetricIsCharted();
    void latencyScopeKeepsOneMetric();
    void failedRunsAreNeverCharted();
    void manyKernelsNarrowToOne();
};

void TestChartScope::commonestMetricIsCharted()
{
    const RunList runs { scoreRun(1024, 1e-5), scoreRun(2048, 2e-5), scoreRun(4096, 3e-5),
        makeRun(QStringLiteral("torch"), QStringLiteral("NVIDIA B200"), 1024, 5000) };
    const ChartScope scope = focusChartScope(runs);
    QCOMPARE(scope.metric, QStringLiteral("score"));
    QCOMPARE(scope.unit, QStringLiteral("s"));
    QCOMPARE(scope.runs.size(), 3);
    for (const RunPtr& run : scope.runs)
        QCOMPARE(run->metricName(), QStringLiteral("score"));
    QCOMPARE(scope.metrics, (QStringList { QStringLiteral("score (s)"), QStringLiteral("latency (ns)") }));
    QVERIFY2(scope.note.contains(QStringLiteral("2 metrics in scope")), qPrintable(scope.note));
    QVERIFY(scope.note.contains(QStringLiteral("charting score (s) (3 of 4 runs), the commonest")));
}

void TestChartScope::latencyScopeKeepsOneMetric()
{
    // latency is the commonest: the chart builders get the latency runs and chart no score as a time
    const RunList runs { makeRun(QStringLiteral("torch"), QStringLiteral("NVIDIA B200"), 1024, 5000),
        makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 1024, 4000), scoreRun(1024, 1e-5) };
    const ChartScope scope = focusChartScope(runs);
    QCOMPARE(scope.metric, QStringLiteral("latency"));
    QVERIFY(scope.note.contains(QStringLiteral("charting latency (ns) (2 of 3 runs)")));
    const SweepData sweep = buildSweep(scope.runs, {}, 12);
    QCOMPARE(sweep.skippedNonLatency, 1);
    QVERIFY(sweep.notes.join(QLatin1Char(' ')).contains(QStringLiteral("1 score run(s) not shown")));
}

void TestChartScope::failedRunsAreNeverCharted()
{
    const RunList runs { makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 1024, 4000),
        makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 2048, 8000), failedRun(1024) };
    const ChartScope scope = focusChartScope(runs);
    QCOMPARE(scope.failedRuns, 1);
    QCOMPARE(scope.runs.size(), 2);
    QVERIFY(scope.note.contains(QStringLiteral("1 failed run(s) not charted")));
    // the builders skip failed runs too, when handed them directly
    const SweepData sweep = buildSweep(runs, {}, 12);
    QCOMPARE(sweep.failedRuns, 1);
    int points = 0;
    for (const SweepSeries& s : sweep.series)
        points += int(s.points.size());
    QCOMPARE(points, 2);
    const QuantileData quantiles = buildQuantileData(runs, 20, 12);
    QCOMPARE(quantiles.failedRuns, 1);
    QCOMPARE(quantiles.boxes.size(), 2);
}

void TestChartScope::manyKernelsNarrowToOne()
{
    RunList runs;
    for (const char* kernel : { "a", "b", "c" }) {
        auto run = makeRun(QStringLiteral("torch"), QStringLiteral("NVIDIA B200"), 1024, 5000);
        run->kernel = QString::fromLatin1(kernel);
        runs << run;
    }
    auto extra = makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 2048, 5000);
    extra->kernel = QStringLiteral("b");
    runs << extra;
    const ChartScope scope = focusChartScope(runs);
    QCOMPARE(scope.kernel, QStringLiteral("b"));
    QCOMPARE(scope.runs.size(), 2);
    QVERIFY(scope.note.startsWith(QStringLiteral("3 kernels in scope: charting b (2 of 4 runs)")));
}

KIX_TEST_APPLESS_MAIN(TestChartScope)
#include "tst_chartscope.moc"
