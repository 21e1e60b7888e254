// SPDX-License-Identifier: Apache-2.0
// The history chart from hand-made Liger CSVs of four releases: one line per series with its p20-p80 band, the x
// axis by label or time, change marks, hover (a synthetic mouse move over a point shows its run), and the chart
// panel's filter and selection.
#include "model/read/runloader.h"
#include "ui/charts/chartfactory.h"
#include "ui/charts/historychart.h"
#include "ui/panels/chartpanel.h"

#include "tests/ui/uitestsupport.h"

#include "tests/support/testmain.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChartView>
#include <QDateTimeAxis>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTest>

using namespace kix;

namespace {

RunList releases()
{
    QStringList paths;
    for (const char* v : { "0.5.0", "0.6.0", "0.7.0", "0.8.0" })
        paths << QStringLiteral(KIX_TEST_DATA_DIR "/history/liger-%1.csv").arg(QLatin1String(v));
    paths << QStringLiteral(KIX_TEST_DATA_DIR "/history/unplaceable.json");
    return loadPaths(paths).runs;
}

int lineOf(const HistoryChart& chart, const QString& provider, const QString& pass, const QString& channels)
{
    for (int i = 0; i < chart.lineCount(); ++i) {
        const SeriesKey& k = chart.lineSeries(i).key;
        if (k.provider == provider && k.pass == pass && k.workload.contains(QStringLiteral("channels") + channels))
            return i;
    }
    return -1;
}

} // namespace

class TestHistoryChart : public QObject
{
    Q_OBJECT
private slots:
    void linesBandsAndMarks();
    void timeAxis();
    void hoverShowsTheRun();
    void panelFollowsScope();
};

void TestHistoryChart::linesBandsAndMarks()
{
    ChartInfo info;
    auto chart = buildChart(ChartKind::History, releases(), {}, &info);
    auto* h = dynamic_cast<HistoryChart*>(chart.get());
    QVERIFY(h);
    QVERIFY(!info.isEmpty);
    QCOMPARE(h->lineCount(), 4); // latency series only; the memory one is noted
    QVERIFY(info.notes.join(QLatin1Char(' ')).contains(QStringLiteral("1 memory series not drawn")));
    QVERIFY(info.warnings.join(QLatin1Char(' ')).contains(QStringLiteral("unplaceable (no usable observedAt)")));
    QVERIFY(h->byLabel()); // every run has a liger_version
    QCOMPARE(info.xParam, QStringLiteral("label"));
    QCOMPARE(info.xCandidates, QStringList({ "time", "label" }));
    auto* x = qobject_cast<QCategoryAxis*>(h->axes(Qt::Horizontal).front());
    QVERIFY(x);
    QCOMPARE(x->categoriesLabels(), QStringList({ "0.5.0", "0.6.0", "0.6.0+local", "0.7.0", "0.8.0" }));

    const int liger = lineOf(*h, QStringLiteral("liger"), QStringLiteral("backward"), QStringLiteral("1024"));
    QVERIFY(liger >= 0);
    QLineSeries* line = h->line(liger);
    QCOMPARE(line->count(), 4);
    // ms on the axis: 1.00, 1.01, 1.20, 1.21 at the ordinal positions of their releases.
    const double expected[] = { 1.00, 1.01, 1.20, 1.21 };
    const double xs[] = { 0, 1, 3, 4 };
    for (int i = 0; i < 4; ++i) {
        QCOMPARE(line->at(i).x(), xs[i]);
        QVERIFY(std::abs(line->at(i).y() - expected[i]) < 1e-9);
        QVERIFY(std::abs(h->band(liger)->upperSeries()->at(i).y() - expected[i] * 1.01) < 1e-3);
        QVERIFY(std::abs(h->band(liger)->lowerSeries()->at(i).y() - expected[i] * 0.99) < 1e-3);
    }
    // Marks: the regression at 0.7.0 (liger backward), the improvement at 0.8.0, the outlier at 0.6.0.
    QCOMPARE(h->marks(ChangeKind::Regression)->count(), 1);
    QCOMPARE(h->marks(ChangeKind::Regression)->at(0), line->at(2));
    QCOMPARE(h->marks(ChangeKind::Improvement)->count(), 1);
    QCOMPARE(h->marks(ChangeKind::Outlier)->count(), 1);
    QCOMPARE(h->marks(ChangeKind::Outlier)->at(0).x(), 1.0);
    QVERIFY(std::abs(h->marks(ChangeKind::Outlier)->at(0).y() - 0.8) < 1e-9);
    QVERIFY(h->title().contains(QStringLiteral("1 regression(s), 1 improvement(s), 1 outlier(s)")));

    // A higher threshold: fewer marks.
    ChartOptions strict;
    strict.threshold = 0.25;
    auto chart2 = buildChart(ChartKind::History, releases(), strict, nullptr);
    QCOMPARE(static_cast<HistoryChart*>(chart2.get())->marks(ChangeKind::Regression)->count(), 0);
}

void TestHistoryChart::timeAxis()
{
    ChartOptions options;
    options.xParam = QStringLiteral("time");
    ChartInfo info;
    auto chart = buildChart(ChartKind::History, releases(), options, &info);
    auto* h = static_cast<HistoryChart*>(chart.get());
    QVERIFY(!h->byLabel());
    auto* x = qobject_cast<QDateTimeAxis*>(h->axes(Qt::Horizontal).front());
    QVERIFY(x);
    const int liger = lineOf(*h, QStringLiteral("liger"), QStringLiteral("backward"), QStringLiteral("1024"));
    const QDateTime first(QDate(2025, 6, 2), QTime(10, 0), Qt::UTC);
    QCOMPARE(h->line(liger)->at(0).x(), double(first.toMSecsSinceEpoch()));
    QVERIFY(x->min() < first && x->max() > QDateTime(QDate(2026, 1, 12), QTime(8, 45), Qt::UTC));
}

void TestHistoryChart::hoverShowsTheRun()
{
    QChartView view;
    view.resize(1000, 700);
    auto chart = buildChart(ChartKind::History, releases(), {}, nullptr);
    auto* h = static_cast<HistoryChart*>(chart.release());
    view.setChart(h);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const int liger = lineOf(*h, QStringLiteral("liger"), QStringLiteral("backward"), QStringLiteral("1024"));
    QLineSeries* line = h->line(liger);
    // Move the mouse onto the third point (0.7.0): the chart maps the value to the scene, the view to the widget.
    const QPointF scene = h->mapToScene(h->mapToPosition(line->at(2), line));
    const QPoint pos = view.mapFromScene(scene);
    QTest::mouseMove(view.viewport(), pos + QPoint(-40, 0)); // from off the point ...
    QTest::mouseMove(view.viewport(), pos); // ... onto it
    QTRY_VERIFY(h->hoveredRun() != nullptr);
    const RunPtr run = h->hoveredRun();
    QCOMPARE(run->provider, QStringLiteral("liger"));
    QCOMPARE(run->pass, QStringLiteral("backward"));
    QVERIFY(run->externalId.contains(QStringLiteral("2025-10-20")));
    QVERIFY(h->hoverText().contains(QStringLiteral("0.7.0 · 2025-10-20 14:15:00 UTC")));
    QVERIFY(h->hoverText().contains(QStringLiteral("median 1.2 ms")));
    QVERIFY(h->hoverText().contains(QStringLiteral("regression ×1.199")));
    // The same-time rerun says so.
    const int hf = lineOf(*h, QStringLiteral("huggingface"), QStringLiteral("backward"), QStringLiteral("1024"));
    QVERIFY(h->tooltip(hf, 1).contains(QStringLiteral("same observedAt")));
    QVERIFY(!h->tooltip(hf, 0).contains(QStringLiteral("same observedAt")));
}

void TestHistoryChart::panelFollowsScope()
{
    ChartPanel panel;
    panel.setKind(ChartKind::History);
    const RunList all = releases();
    panel.setRuns(all, QStringLiteral("all"));
    panel.rebuildNow();
    QCOMPARE(panel.chart()->title().isEmpty(), false);
    QCOMPARE(static_cast<HistoryChart*>(panel.chart())->lineCount(), 4);
    QVERIFY(panel.bannerText().contains(QStringLiteral("unplaceable")));
    // What a filter ("forward") leaves: two series.
    RunList forward;
    for (const RunPtr& run : all) {
        if (run->pass == QLatin1String("forward"))
            forward << run;
    }
    panel.setRuns(forward, QStringLiteral("filtered"));
    panel.rebuildNow();
    auto* h = static_cast<HistoryChart*>(panel.chart());
    QCOMPARE(h->lineCount(), 2);
    for (int i = 0; i < h->lineCount(); ++i)
        QCOMPARE(h->lineSeries(i).key.pass, QStringLiteral("forward"));
    // A selection of one series' runs: that line alone.
    RunList selected;
    for (const RunPtr& run : forward) {
        if (run->workloadSlug.contains(QStringLiteral("channels2048")))
            selected << run;
    }
    panel.setRuns(selected, QStringLiteral("4 selected runs"));
    panel.rebuildNow();
    h = static_cast<HistoryChart*>(panel.chart());
    QCOMPARE(h->lineCount(), 1);
    QCOMPARE(h->line(0)->count(), 4);
    QCOMPARE(h->marks(ChangeKind::Improvement)->count(), 1);
    QCOMPARE(panel.kind(), ChartKind::History);
}

KIX_TEST_MAIN(TestHistoryChart)
#include "tst_historychart.moc"
