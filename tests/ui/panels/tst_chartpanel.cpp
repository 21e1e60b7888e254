// SPDX-License-Identifier: Apache-2.0
// The chart panel (ChartPanel). Its charts prepared in a worker, forced on small fixtures (threshold 0): each must
// deliver what the synchronous build delivers, the first view and the overview chosen there included, and a newer
// build must win over one still in flight. No timing: the tests wait for the results (QTRY_*), never for a
// duration.
//
// A chart replaced while one of its own signals is being handled must outlive the handler: Qt Charts' items go on
// using themselves after they emit (a scatter marker clears its pressed state after `clicked`, the scene finishes
// its mouse dispatch), so the panel frees the chart it replaces later (deleteLater), never at once. The tests
// click and hover the current run's ring and a quantile box through the view, as the mouse does, and rebuild the
// chart from the handler; under AddressSanitizer a chart freed at once is a heap-use-after-free.
#include "model/filter/runfilter.h"
#include "ui/charts/chartfactory.h"
#include "ui/charts/charthover.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/sweepchart.h"
#include "ui/models/comparisonmodel.h"
#include "ui/models/overviewmodel.h"
#include "ui/panels/chartpanel.h"
#include "ui/panels/overviewtable.h"

#include "tests/ui/uitestsupport.h"

#include "tests/support/testmain.h"

#include <QChartView>
#include <QPointer>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace kix;

namespace {

// Copies of the runs, the i-th named kernel_<i % kernels> (kernels > 2: the overview is the first view).
RunList withKernels(const RunList& runs, int kernels)
{
    RunList out;
    for (int i = 0; i < runs.size(); ++i) {
        auto run = std::make_shared<Run>(*runs[i]);
        run->kernel = QStringLiteral("kernel_%1").arg(i % kernels);
        run->finalize();
        out << run;
    }
    return out;
}

// Copies as a leaderboard's scores: no latency, so the first view is Rank.
RunList asScores(const RunList& runs)
{
    RunList out;
    for (const RunPtr& r : runs) {
        auto run = std::make_shared<Run>(*r);
        run->metric = Run::Metric::Other;
        run->headlineMetric = QStringLiteral("score");
        run->unit = QStringLiteral("s");
        run->finalize();
        out << run;
    }
    return out;
}

bool sameCell(const OverviewCell& a, const OverviewCell& b)
{
    return a.runs == b.runs && a.implementations == b.implementations && a.failed == b.failed;
}

bool sameOverview(const OverviewData& a, const OverviewData& b)
{
    return a.kernels == b.kernels && a.gpus == b.gpus && a.kernelClauses == b.kernelClauses
        && a.gpuClauses == b.gpuClauses && sameCell(a.total, b.total)
        && std::equal(a.cells.begin(), a.cells.end(), b.cells.begin(), b.cells.end(), sameCell)
        && std::equal(
            a.kernelTotals.begin(), a.kernelTotals.end(), b.kernelTotals.begin(), b.kernelTotals.end(), sameCell)
        && std::equal(a.gpuTotals.begin(), a.gpuTotals.end(), b.gpuTotals.begin(), b.gpuTotals.end(), sameCell);
}

// Where `value` of `series` lies on the view's viewport.
QPoint viewportPoint(ChartPanel& panel, QAbstractSeries* series, const QPointF& value)
{
    QChart* chart = panel.chart();
    const QPointF inChart = chart->mapToPosition(value, series);
    return panel.chartView()->mapFromScene(chart->mapToScene(inChart));
}

} // namespace

class TestChartPanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { kixtest::isolateSettings(m_settings); }
    void cleanup() { m_panel.reset(); }
    void chartPreparedOffThreadMatchesSync();
    void chartRebuildInFlightIsSuperseded();
    void firstViewAndOverviewFromWorkerMatchSync();
    void staleFirstViewNeverLands();
    void ringClickThatRebuildsKeepsTheOldChartAlive();
    void ringHoverThatRebuildsKeepsTheOldChartAlive();

private:
    // The lifetime tests' panel (m_panel): the sweep's runs as quantiles, the first run current, shown and laid out.
    void showQuantiles();

    QTemporaryDir m_settings;
    std::unique_ptr<ChartPanel> m_panel;
    RunList m_runs;
};

void TestChartPanel::chartPreparedOffThreadMatchesSync()
{
    const RunList runs = kixtest::allRuns();
    for (ChartKind kind :
        { ChartKind::Quantiles, ChartKind::Sweep, ChartKind::Speedup, ChartKind::History, ChartKind::Rank }) {
        ChartPanel sync;
        sync.resize(1000, 700);
        sync.setKind(kind);
        sync.setRuns(runs, QStringLiteral("all"));
        sync.rebuildNow();
        QVERIFY(!sync.isRebuildPending());
        ChartPanel async;
        async.resize(1000, 700);
        async.setAsyncThreshold(0);
        async.setKind(kind);
        async.setRuns(runs, QStringLiteral("all"));
        async.rebuildNow();
        QVERIFY(async.isRebuildPending());
        QTRY_VERIFY(!async.isRebuildPending());
        QVERIFY(async.chart());
        QCOMPARE(async.info().title, sync.info().title);
        QCOMPARE(async.info().notes, sync.info().notes);
        QCOMPARE(async.info().warnings, sync.info().warnings);
        QCOMPARE(async.info().isEmpty, sync.info().isEmpty);
        QCOMPARE(async.info().comparison.pairs.size(), sync.info().comparison.pairs.size());
        QCOMPARE(async.info().cohortIds, sync.info().cohortIds);
        QCOMPARE(async.chart()->series().size(), sync.chart()->series().size());
        QCOMPARE(QString::fromLatin1(async.chart()->metaObject()->className()),
            QString::fromLatin1(sync.chart()->metaObject()->className()));
        QCOMPARE(async.bannerText(), sync.bannerText());
        // The pairs table's Workload column, its keys found in the worker, reads as one given the pairs alone.
        ComparisonModel fresh;
        fresh.setComparison(async.info().comparison);
        QAbstractItemModel* pairs = async.pairsView()->model();
        QCOMPARE(pairs->rowCount(), fresh.rowCount());
        for (int row = 0; row < pairs->rowCount(); ++row)
            QCOMPARE(pairs->index(row, ComparisonModel::WorkloadColumn).data().toString(),
                fresh.index(row, ComparisonModel::WorkloadColumn).data().toString());
    }
}

void TestChartPanel::chartRebuildInFlightIsSuperseded()
{
    const RunList all = kixtest::allRuns();
    RunFilter filter;
    filter.setText(QStringLiteral("b200 backward"));
    const RunList few = filter.apply(all);
    QVERIFY(few.size() > 1 && few.size() < all.size());
    ChartPanel panel;
    panel.resize(1000, 700);
    panel.setAsyncThreshold(0);
    panel.setKind(ChartKind::Speedup);
    QTRY_VERIFY(!panel.isRebuildPending());
    QSignalSpy rebuilt(&panel, &ChartPanel::rebuilt);
    panel.setRuns(all, QStringLiteral("all"));
    panel.rebuildNow(); // in flight ...
    panel.setRuns(few, QStringLiteral("few"));
    panel.rebuildNow(); // ... superseded by this one
    QTRY_VERIFY(!panel.isRebuildPending());
    QCOMPARE(rebuilt.count(), 1); // the first build was dropped, not drawn
    ChartInfo expected;
    buildChart(ChartKind::Speedup, few, panel.options(), &expected);
    QCOMPARE(panel.info().comparison.pairs.size(), expected.comparison.pairs.size());
    QCOMPARE(panel.info().title, expected.title);
    ChartInfo ofAll;
    buildChart(ChartKind::Speedup, all, panel.options(), &ofAll);
    QVERIFY(ofAll.comparison.pairs.size() != expected.comparison.pairs.size()); // the two builds are told apart
}

void TestChartPanel::firstViewAndOverviewFromWorkerMatchSync()
{
    const RunList group = kixtest::allRuns(); // group_norm on three GPUs: the quantile chart
    const RunList many = withKernels(group, 3);
    const RunList scores = asScores(group);
    const std::pair<RunList, ChartKind> cases[]
        = { { group, ChartKind::Quantiles }, { many, ChartKind::Overview }, { scores, ChartKind::Rank } };
    for (const auto& [runs, expected] : cases) {
        QCOMPARE(firstViewKind(runs), expected);
        ChartPanel sync;
        sync.resize(1000, 700);
        sync.setRuns(runs, QStringLiteral("all"));
        QCOMPARE(sync.kind(), expected); // few runs: chosen at once
        sync.rebuildNow();
        QVERIFY(!sync.isRebuildPending());
        ChartPanel async;
        async.resize(1000, 700);
        async.setAsyncThreshold(0);
        async.setRuns(runs, QStringLiteral("all"));
        QCOMPARE(async.kind(), ChartKind::Quantiles); // the kind shown before, until the worker has chosen
        async.rebuildNow();
        QVERIFY(async.isRebuildPending());
        QTRY_VERIFY(!async.isRebuildPending());
        QCOMPARE(async.kind(), expected);
        QVERIFY(async.isKindAutomatic());
        QCOMPARE(async.info().title, sync.info().title);
        QCOMPARE(async.info().notes, sync.info().notes);
        QCOMPARE(async.info().isEmpty, sync.info().isEmpty);
        QCOMPARE(async.bannerText(), sync.bannerText());
        const OverviewModel* model = async.overviewTable()->overviewModel();
        QCOMPARE(async.overviewTable()->isVisibleTo(&async), expected == ChartKind::Overview);
        if (expected == ChartKind::Overview) {
            QVERIFY(sameOverview(model->overview(), sync.overviewTable()->overviewModel()->overview()));
            QVERIFY(sameOverview(model->overview(), buildOverview(runs)));
            QCOMPARE(model->overview().kernels.size(), 3);
            QCOMPARE(model->toTsv(), sync.overviewTable()->overviewModel()->toTsv());
            for (int c = 0; c < model->columnCount(); ++c)
                QCOMPARE(async.overviewTable()->columnWidth(c), sync.overviewTable()->columnWidth(c));
        } else {
            QCOMPARE(async.chart()->series().size(), sync.chart()->series().size());
            QCOMPARE(QString::fromLatin1(async.chart()->metaObject()->className()),
                QString::fromLatin1(sync.chart()->metaObject()->className()));
        }
    }
    // The overview asked for (Ctrl+6) over many runs is counted in the worker too.
    ChartPanel panel;
    panel.setAsyncThreshold(0);
    panel.setKind(ChartKind::Overview);
    panel.setRuns(many, QStringLiteral("all"));
    panel.rebuildNow();
    QVERIFY(panel.isRebuildPending());
    QTRY_VERIFY(!panel.isRebuildPending());
    QVERIFY(sameOverview(panel.overviewTable()->overviewModel()->overview(), buildOverview(many)));
}

void TestChartPanel::staleFirstViewNeverLands()
{
    const RunList group = kixtest::allRuns();
    const RunList many = withKernels(group, 3);
    ChartPanel panel;
    panel.resize(1000, 700);
    panel.setAsyncThreshold(0);
    QTRY_VERIFY(!panel.isRebuildPending());
    QSignalSpy rebuilt(&panel, &ChartPanel::rebuilt);
    panel.setRuns(many, QStringLiteral("many")); // in flight: it would choose the overview ...
    panel.rebuildNow();
    panel.setRuns(group, QStringLiteral("group")); // ... superseded by one kernel's runs
    panel.rebuildNow();
    QTRY_VERIFY(!panel.isRebuildPending());
    QCOMPARE(rebuilt.count(), 1);
    QCOMPARE(panel.kind(), ChartKind::Quantiles);
    QVERIFY(panel.overviewTable()->overviewModel()->overview().isEmpty()); // the stale overview never landed
    QVERIFY(!panel.overviewTable()->isVisibleTo(&panel));
    QVERIFY(panel.chart()->series().size() > 0);

    // The other way round: the overview of the newer runs, not a chart of the older.
    panel.setRuns(kixtest::sweepRuns(), QStringLiteral("sweep"));
    panel.rebuildNow();
    panel.setRuns(many, QStringLiteral("many"));
    panel.rebuildNow();
    QTRY_VERIFY(!panel.isRebuildPending());
    QCOMPARE(rebuilt.count(), 2);
    QCOMPARE(panel.kind(), ChartKind::Overview);
    QCOMPARE(panel.overviewTable()->overviewModel()->overview().total.runs, many.size());

    // A kind the user picks while the first view is being chosen wins over the worker's choice.
    panel.setRuns(group, QStringLiteral("group")); // the worker would choose the quantile chart
    panel.rebuildNow();
    panel.setKind(ChartKind::Sweep);
    QTRY_VERIFY(!panel.isRebuildPending());
    QCOMPARE(panel.kind(), ChartKind::Sweep);
    QVERIFY(!panel.isKindAutomatic());
    QVERIFY(dynamic_cast<SweepChart*>(panel.chart()));
    QCOMPARE(rebuilt.count(), 3);
}

void TestChartPanel::showQuantiles()
{
    m_runs = kixtest::sweepRuns();
    QVERIFY(m_runs.size() > 2);
    m_panel = std::make_unique<ChartPanel>();
    m_panel->resize(1000, 700);
    m_panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
    m_panel->setRuns(m_runs, QStringLiteral("all"));
    m_panel->setCurrentRun(m_runs.front());
    m_panel->setKind(ChartKind::Quantiles);
    m_panel->rebuildNow(); // synchronous: few runs
    QVERIFY(!m_panel->isRebuildPending());
    QVERIFY(m_panel->chart());
    QVERIFY(ChartStyle::currentRunMarker(m_panel->chart()));
    QTest::qWait(0); // lay the chart out: the ring has a place on the plot
    QTRY_VERIFY(!m_panel->chart()->plotArea().isEmpty());
}

void TestChartPanel::ringClickThatRebuildsKeepsTheOldChartAlive()
{
    showQuantiles();
    if (QTest::currentTestFailed())
        return;
    QPointer<QChart> old = m_panel->chart();
    QScatterSeries* ring = ChartStyle::currentRunMarker(old);
    QVERIFY(ring && ring->count() == 1);
    // A handler of the ring's click that rebuilds at once: the chart whose marker is still handling the mouse is
    // replaced under it.
    bool handled = false;
    connect(ChartHover::of(old), &ChartHover::clicked, m_panel.get(), [&] {
        handled = true;
        m_panel->setKind(ChartKind::Sweep); // rebuildNow: a new chart replaces `old`
        QVERIFY(old); // still alive: its marker's code is on the stack
        QVERIFY(m_panel->chart() != old.data());
    });
    const QPoint at = viewportPoint(*m_panel, ring, ring->at(0));
    QTest::mouseMove(m_panel->chartView()->viewport(), at);
    QTest::mouseClick(m_panel->chartView()->viewport(), Qt::LeftButton, {}, at);
    QVERIFY(handled);
    QVERIFY(m_panel->chart() != old.data());
    QTRY_VERIFY(!old); // freed once the event loop is back
}

void TestChartPanel::ringHoverThatRebuildsKeepsTheOldChartAlive()
{
    showQuantiles();
    if (QTest::currentTestFailed())
        return;
    QPointer<QChart> old = m_panel->chart();
    QScatterSeries* ring = ChartStyle::currentRunMarker(old);
    QVERIFY(ring && ring->count() == 1);
    int hovers = 0;
    connect(ChartHover::of(old), &ChartHover::hovered, m_panel.get(), [&](const QString& text) {
        if (text.isEmpty())
            return;
        ++hovers;
        m_panel->setCurrentRun(m_runs.back()); // the ring moves: the chart is built again ...
        m_panel->rebuildNow(); // ... at once
        QVERIFY(old);
    });
    const QPoint at = viewportPoint(*m_panel, ring, ring->at(0));
    QTest::mouseMove(m_panel->chartView()->viewport(), at - QPoint(40, 40));
    QTest::mouseMove(m_panel->chartView()->viewport(), at);
    QTRY_COMPARE(hovers, 1);
    QVERIFY(m_panel->chart() != old.data());
    QTRY_VERIFY(!old);
    // the new chart marks the new current run, and the mouse over it is harmless
    QScatterSeries* moved = ChartStyle::currentRunMarker(m_panel->chart());
    QVERIFY(moved);
    QTest::mouseMove(m_panel->chartView()->viewport(), viewportPoint(*m_panel, moved, moved->at(0)));
    QTest::qWait(0);
}

KIX_TEST_MAIN(TestChartPanel)
#include "tst_chartpanel.moc"
