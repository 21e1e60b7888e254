// SPDX-License-Identifier: Apache-2.0
// The comparison workspace on the real widgets: at 1280×720 the chart takes at least half of the window and its
// labels are whole, a synthetic hover shows the exact values and a click pins them, the filter box speaks the
// grammar, a chosen baseline run is a chip that the filter can drop, and the tables lead with the answer.
#include "model/filter/runfilterproxy.h"
#include "model/filter/runtablemodel.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/quantilechart.h"
#include "ui/charts/speedupchart.h"
#include "ui/charts/valuelabels.h"
#include "ui/mainwindow.h"
#include "ui/models/comparisonmodel.h"
#include "ui/panelinstall.h"
#include "ui/panels/benchmarkpanel.h"
#include "ui/panels/chartpanel.h"
#include "ui/panels/detailspane.h"
#include "ui/panels/helpguide.h"
#include "ui/runsession.h"
#include "ui/runtableview.h"

#include "tests/ui/uitestsupport.h"
#include "tests/ui/windowtestsupport.h"

#include "tests/support/testmain.h"

#include <QAbstractBarSeries>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChartView>
#include <QDockWidget>
#include <QFile>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QStatusBar>
#include <QTableView>
#include <QTest>
#include <QToolButton>
#include <QToolTip>
#include <QTreeWidget>

using namespace kix;

using kixtest::moveMouse;
using kixtest::sceneTexts;
using kixtest::speedupWindow;
using kixtest::viewPoint;
using kixtest::waitForCharts;

class TestWorkspace : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void chartAreaAt1280x720();
    void worksAt1024x640();
    void labelsAreWhole();
    void hoverShowsValuesAndClickPins();
    void filterGrammarInTheWindow();
    void baselineFallsBackWhileTheFilterHidesIt();
    void warningsFoldIntoOneLine();
    void tablesLeadWithTheAnswer();
    void manyKernelsChartOne();
    void detailsOneUnitAndBandwidth();
    void helpAndStatusMessages();
    void realLigerCsvAnswersTheQuestion();

private:
    QTemporaryDir m_settings;
};

void TestWorkspace::initTestCase()
{
    kixtest::isolateSettings(m_settings);
}

void TestWorkspace::chartAreaAt1280x720()
{
    std::unique_ptr<MainWindow> w(speedupWindow({ 1280, 720 }));
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QVERIFY(waitForCharts(*w));
    QCOMPARE(w->size(), QSize(1280, 720));
    // The chart panel takes at least half of the window, and the plot itself is tall enough to read.
    ChartPanel* charts = w->chartPanel();
    QVERIFY2(charts->height() * 2 >= w->height(), qPrintable(QString::number(charts->height())));
    QVERIFY2(charts->width() * 2 >= w->width(), qPrintable(QString::number(charts->width())));
    const QRectF plot = charts->chart()->plotArea();
    QVERIFY2(plot.height() >= 150, qPrintable(QStringLiteral("plot %1 px tall").arg(plot.height())));
    QVERIFY2(plot.width() >= 400, qPrintable(QStringLiteral("plot %1 px wide").arg(plot.width())));
    // The Benchmark panel shares a tab with Details; Details is in front.
    auto* bench = w->findChild<QDockWidget*>(QStringLiteral("benchmarkPanel"));
    QVERIFY(bench);
    QVERIFY(w->tabifiedDockWidgets(w->detailsDock()).contains(bench));
    QVERIFY(!w->detailsDock()->visibleRegion().isEmpty());

    // Maximize gives the chart the window; again restores.
    const int before = charts->height();
    w->toggleMaximizedChart();
    QTRY_VERIFY(charts->height() > before);
    QVERIFY(!w->runTable()->isVisible());
    w->toggleMaximizedChart();
    QTRY_VERIFY(w->runTable()->isVisible());
    w->resetLayout();
    QTRY_VERIFY(charts->height() * 2 >= w->height());
}

void TestWorkspace::worksAt1024x640()
{
    std::unique_ptr<MainWindow> w(speedupWindow({ 1024, 640 }));
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QVERIFY(waitForCharts(*w));
    const QSize minimum = w->minimumSizeHint().expandedTo(w->minimumSize());
    QVERIFY2(minimum.width() <= 1024 && minimum.height() <= 640,
        qPrintable(QStringLiteral("%1×%2").arg(minimum.width()).arg(minimum.height())));
    QCOMPARE(w->size(), QSize(1024, 640));
    // No control of the chart panel is cut off at its right edge.
    for (QToolButton* button : w->chartPanel()->findChildren<QToolButton*>()) {
        if (!button->isVisible())
            continue;
        const QRect r(button->mapTo(w->chartPanel(), QPoint()), button->size());
        QVERIFY2(w->chartPanel()->rect().contains(r), qPrintable(button->text()));
    }
}

void TestWorkspace::labelsAreWhole()
{
    std::unique_ptr<MainWindow> w(speedupWindow({ 1280, 720 }));
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QVERIFY(waitForCharts(*w));
    auto* chart = dynamic_cast<SpeedupChart*>(w->chartPanel()->chart());
    QVERIFY(chart);
    QCOMPARE(chart->categories(), (QStringList { "32", "64", "128", "256", "512", "1024", "2048" }));
    const QStringList texts = sceneTexts(w->chartPanel()->chartView());
    for (const QString& category : chart->categories())
        QVERIFY2(texts.contains(category), qPrintable(category + QStringLiteral(" not drawn whole")));
    for (const QString& text : texts)
        QVERIFY2(!text.contains(QChar(0x2026)), qPrintable(QStringLiteral("elided: ") + text));
    // Each bar carries its value; the title names kernel, pass, GPU, baseline and the fixed parameters.
    // (drawn by ValueLabels: they never overlap; here there is room for every one)
    QCOMPARE(chart->valueLabels()->count(), chart->data().bars.size());
    QCOMPARE(chart->valueLabels()->hiddenCount(), 0);
    for (const QString& label : chart->valueLabels()->shownTexts())
        QVERIFY2(texts.contains(label) && label.endsWith(QStringLiteral("×")), qPrintable(label));
    const QString title = chart->title();
    QVERIFY2(
        title.contains(QStringLiteral("group_norm · backward · B200 — speed-up vs huggingface")), qPrintable(title));
    QVERIFY2(title.contains(QStringLiteral("fixed: batch=128")), qPrintable(title));
    // Colour means provider, the verdict a shape in the ink colour, never a provider's colour.
    const QColor liger = ChartStyle::providerColor(QStringLiteral("liger"), false);
    QCOMPARE(chart->bars()->barSets().front()->brush().color(), liger);
    QScatterSeries* faster = chart->verdictMarkers(Verdict::Faster);
    QVERIFY(faster);
    QCOMPARE(faster->markerShape(), QScatterSeries::MarkerShapeTriangle);
    QVERIFY(faster->color() != liger);
    QVERIFY(faster->color() != ChartStyle::providerColor(QStringLiteral("huggingface"), false));
}

void TestWorkspace::hoverShowsValuesAndClickPins()
{
    std::unique_ptr<MainWindow> w(speedupWindow({ 1280, 720 }));
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QVERIFY(waitForCharts(*w));
    auto* chart = dynamic_cast<SpeedupChart*>(w->chartPanel()->chart());
    QVERIFY(chart);
    QChartView* view = w->chartPanel()->chartView();
    const int last = int(chart->comparison().pairs.size()) - 1; // channels 2048
    QCOMPARE(chart->comparison().pairs[last].run->param(QStringLiteral("channels")), QStringLiteral("2048"));
    const QPointF end = chart->barEnd(last);
    QVERIFY(!end.isNull());
    // Three quarters along the bar, inside it (halfway is the 1× line).
    const QPointF zero = chart->mapToPosition(QPointF(0, 0), chart->bars());
    const QPoint inside = viewPoint(view, chart, QPointF(zero.x() + (end.x() - zero.x()) * 0.75, end.y()));
    moveMouse(view, QPoint(2, 2));
    moveMouse(view, inside);
    QTRY_VERIFY(!w->chartPanel()->readoutText().isEmpty());
    const QString readout = w->chartPanel()->readoutText();
    QVERIFY2(readout.startsWith(QStringLiteral("2.00× ▲ — faster than huggingface")), qPrintable(readout));
    QVERIFY2(readout.contains(QStringLiteral("channels2048")), qPrintable(readout));
    QTRY_VERIFY(QToolTip::isVisible());
    QCOMPARE(QToolTip::text(), readout);

    // A click pins it: moving away no longer clears it.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, inside);
    QTRY_VERIFY(w->chartPanel()->isReadoutPinned());
    moveMouse(view, QPoint(2, 2));
    QTest::qWait(50);
    QCOMPARE(w->chartPanel()->readoutText(), readout);
    w->chartPanel()->unpinReadout();
    QVERIFY(!w->chartPanel()->isReadoutPinned());
}

void TestWorkspace::filterGrammarInTheWindow()
{
    MainWindow w;
    w.addRuns(kixtest::allRuns());
    RunFilterProxy* proxy = w.session()->proxy();
    const int all = proxy->rowCount();
    QVERIFY(all > 20);
    auto count = [&](const QString& text) {
        w.searchBox()->setText(text);
        return proxy->rowCount();
    };
    auto expected = [&](auto pred) {
        int n = 0;
        for (const RunPtr& run : w.session()->model()->runs())
            n += pred(*run) ? 1 : 0;
        return n;
    };
    const int c2048 = expected([](const Run& r) { return r.paramNumber(QStringLiteral("channels")) == 2048; });
    QVERIFY(c2048 > 0 && c2048 < all);
    QCOMPARE(count(QStringLiteral("channels=2048")), c2048);
    QCOMPARE(count(QStringLiteral("channels:2048")), c2048);
    QCOMPARE(count(QStringLiteral("channels>=1024")),
        expected([](const Run& r) { return r.paramNumber(QStringLiteral("channels")) >= 1024; }));
    QCOMPARE(count(QStringLiteral("groupnorm")), expected([](const Run& r) { return r.kernel == "group_norm"; }));
    QCOMPARE(count(QStringLiteral("gpu:b200")),
        expected([](const Run& r) { return r.gpuDisplayName().contains(QStringLiteral("B200")); }));
    QCOMPARE(count(QStringLiteral("GPU:B200 Provider=Liger channels=2048")), expected([](const Run& r) {
        return r.gpuDisplayName().contains(QStringLiteral("B200")) && r.provider == "liger"
            && r.paramNumber(QStringLiteral("channels")) == 2048;
    }));
    QVERIFY(w.searchBox()->toolTip().contains(QStringLiteral("key=value")));
    // Bare words find a run by its kernel name when no Liger slug carries it (a leaderboard's "amd-fp8-mm").
    auto named = std::make_shared<Run>(*w.session()->model()->runs().front());
    named->externalId = QStringLiteral("ki-run-0001");
    named->kernel = QStringLiteral("amd-fp8-mm");
    named->runDigest.clear(); // another run, not the copied one: identity from its fields
    named->finalize();
    w.addRuns({ named });
    QCOMPARE(count(QStringLiteral("amd fp8")), 1);
    QCOMPARE(w.session()->proxy()->visibleRuns().front()->kernel, QStringLiteral("amd-fp8-mm"));
    // A clause from the chart's links replaces one of the same key.
    w.searchBox()->setText(QStringLiteral("backward kernel=foo"));
    w.applyFilterClause(QStringLiteral("kernel=group_norm"));
    QCOMPARE(w.searchBox()->text(), QStringLiteral("backward kernel=group_norm"));
}

void TestWorkspace::baselineFallsBackWhileTheFilterHidesIt()
{
    std::unique_ptr<MainWindow> w(speedupWindow({ 1280, 720 }));
    QVERIFY(waitForCharts(*w));
    ChartPanel* charts = w->chartPanel();
    QVERIFY(!charts->baselineChip()->isVisible());
    // The liger run at channels 32 as the baseline.
    RunPtr chosen;
    for (const RunPtr& run : charts->runs())
        if (run->provider == "liger" && run->paramNumber(QStringLiteral("channels")) == 32)
            chosen = run;
    QVERIFY(chosen);
    charts->setBaseline(Baseline::ofRun(chosen));
    QVERIFY(charts->baselineChip()->isVisible());
    QVERIFY2(charts->baselineChip()->text().contains(QStringLiteral("liger · B200 · channels=32")),
        qPrintable(charts->baselineChip()->text()));

    // The filter hides it: the chart falls back to the default, says so, and keeps the choice (the chip).
    w->searchBox()->setText(QStringLiteral("groupnorm backward gpu:b200 channels>=64"));
    QTRY_VERIFY(!charts->options().baseline.isRun());
    QTRY_VERIFY(!charts->isRebuildPending());
    QVERIFY(charts->isBaselineFallback());
    QVERIFY(charts->baselineChip()->isVisible());
    QVERIFY2(charts->baselineChip()->text().contains(QStringLiteral("not in scope")),
        qPrintable(charts->baselineChip()->text()));
    QVERIFY2(charts->bannerText().contains(QStringLiteral("is not in scope")), qPrintable(charts->bannerText()));
    QVERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("is not in scope")));
    QVERIFY(!charts->info().isEmpty); // the default baseline draws: never "Nothing to draw" for a hidden choice
    // Shown again: the choice is back in effect.
    w->searchBox()->setText(QStringLiteral("groupnorm backward gpu:b200"));
    QTRY_VERIFY(charts->options().baseline.isRun());
    QCOMPARE(charts->options().baseline.run, chosen);
    QTRY_VERIFY(!charts->isBaselineFallback());

    // The chip's button removes a choice too.
    charts->setBaseline(Baseline::ofRun(charts->runs().front()));
    QVERIFY(charts->baselineChip()->isVisible());
    QTest::mouseClick(charts->baselineChip(), Qt::LeftButton);
    QVERIFY(!charts->baselineChip()->isVisible());
    QVERIFY(charts->options().baseline.isEmpty());
}

void TestWorkspace::warningsFoldIntoOneLine()
{
    ChartPanel panel;
    panel.resize(1000, 600);
    panel.show();
    // A run baseline on another GPU and pass: several distinct warnings.
    const RunList runs = kixtest::allRuns();
    RunPtr a100;
    for (const RunPtr& run : runs)
        if (run->gpuSlug.contains(QStringLiteral("a100")))
            a100 = run;
    QVERIFY(a100);
    panel.setRuns(runs, QStringLiteral("test"));
    panel.setKind(ChartKind::Speedup);
    panel.setBaseline(Baseline::ofRun(a100));
    QVERIFY(panel.info().warnings.size() > 1);
    QVERIFY2(panel.bannerText().contains(QStringLiteral("comparability warnings")), qPrintable(panel.bannerText()));
    QCOMPARE(panel.bannerText().count(QStringLiteral("⚠")), 1);
    panel.setWarningsExpanded(true);
    QCOMPARE(panel.bannerText().count(QStringLiteral("⚠")), int(panel.info().warnings.size()));
}

void TestWorkspace::tablesLeadWithTheAnswer()
{
    std::unique_ptr<MainWindow> w(speedupWindow({ 1280, 720 }));
    QVERIFY(waitForCharts(*w));
    // Run table: Median and Spread right after Provider; Workload shows what varies, the slug in its tooltip.
    QHeaderView* header = w->runTable()->horizontalHeader();
    QCOMPARE(header->visualIndex(RunTableModel::MedianColumn), header->visualIndex(RunTableModel::ProviderColumn) + 1);
    QCOMPARE(header->visualIndex(RunTableModel::SpreadColumn), header->visualIndex(RunTableModel::MedianColumn) + 1);
    QTRY_COMPARE(w->session()->model()->workloadKeys(), QStringList { QStringLiteral("channels") });
    QAbstractItemModel* proxy = w->runTable()->model();
    const QModelIndex workload = proxy->index(0, RunTableModel::WorkloadColumn);
    QVERIFY2(
        workload.data().toString().startsWith(QStringLiteral("channels=")), qPrintable(workload.data().toString()));
    QVERIFY(workload.data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("batch")));
    // Nothing needed to decide is off-screen at 1280×720: the last of Kernel..Workload ends inside the viewport.
    const int right = header->sectionViewportPosition(RunTableModel::WorkloadColumn)
        + header->sectionSize(RunTableModel::WorkloadColumn);
    QVERIFY2(right <= w->runTable()->viewport()->width(), qPrintable(QString::number(right)));

    // Pairs table: Speed-up and Verdict first.
    QTableView* pairs = w->chartPanel()->pairsView();
    QVERIFY(pairs->isVisible());
    QCOMPARE(pairs->horizontalHeader()->logicalIndex(0), int(ComparisonModel::SpeedupColumn));
    QCOMPARE(pairs->horizontalHeader()->logicalIndex(1), int(ComparisonModel::VerdictColumn));
    const QString verdict = pairs->model()->index(0, ComparisonModel::VerdictColumn).data().toString();
    QVERIFY2(verdict.contains(QStringLiteral("faster")), qPrintable(verdict));
    QCOMPARE(
        pairs->model()->index(0, ComparisonModel::WorkloadColumn).data().toString(), QStringLiteral("channels=32"));
}

void TestWorkspace::manyKernelsChartOne()
{
    RunList runs = kixtest::allRuns();
    for (const QString& kernel : { QStringLiteral("rms_norm"), QStringLiteral("layer_norm") }) {
        auto run = std::make_shared<Run>(*runs.front());
        run->kernel = kernel;
        run->externalId.replace(QStringLiteral("group_norm"), kernel);
        run->finalize();
        runs.append(run);
    }
    ChartPanel panel;
    panel.setRuns(runs, QStringLiteral("test"));
    panel.rebuildNow();
    QCOMPARE(panel.kind(), ChartKind::Overview); // the first view of many kernels (tst_overview)
    panel.setKind(ChartKind::Quantiles); // the user asks for a chart of them
    QCOMPARE(panel.info().focusKernel, QStringLiteral("group_norm"));
    QVERIFY(panel.bannerText().contains(QStringLiteral("3 kernels in scope: charting group_norm")));
    QVERIFY(panel.bannerText().contains(QStringLiteral("filter:kernel=layer_norm")));
    for (const QuantileBox& box : dynamic_cast<QuantileChart*>(panel.chart())->data().boxes)
        QCOMPARE(box.run->kernel, QStringLiteral("group_norm"));
}

void TestWorkspace::detailsOneUnitAndBandwidth()
{
    auto run = std::make_shared<Run>(*kixtest::sweepRuns().back());
    run->measurements = { { QStringLiteral("bandwidth"), QStringLiteral("median"), QStringLiteral("GB/s"), 812.4 },
        { QStringLiteral("copy_bandwidth"), QStringLiteral("median"), QStringLiteral("GB/s"), 1000 },
        { QStringLiteral("bandwidth_fraction"), QStringLiteral("median"), QStringLiteral("ratio"), 0.8124 } };
    run->finalize();
    DetailsPane details;
    details.setRun(run);
    auto* tree = details.findChild<QTreeWidget*>();
    QStringList latency;
    QString bandwidth;
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* section = tree->topLevelItem(i);
        for (int k = 0; k < section->childCount(); ++k) {
            if (section->text(0).startsWith(QStringLiteral("Latency"))
                && section->child(k)->text(0) != "spread (p80−p20)/median")
                latency << section->child(k)->text(1);
            if (section->text(0) == QLatin1String("Bandwidth"))
                bandwidth += section->child(k)->text(1) + QLatin1Char(' ');
        }
    }
    QVERIFY(latency.size() >= 3);
    const QString unit = latency.front().section(QLatin1Char(' '), -1);
    for (const QString& v : latency)
        QVERIFY2(v.endsWith(QLatin1Char(' ') + unit), qPrintable(latency.join(QStringLiteral(" | "))));
    QVERIFY2(bandwidth.contains(QStringLiteral("812.4 GB/s")) && bandwidth.contains(QStringLiteral("81.2%")),
        qPrintable(bandwidth));
    // The run table says the same.
    RunTableModel model;
    model.setRuns({ run });
    QCOMPARE(
        model.index(0, RunTableModel::BandwidthColumn).data().toString(), QStringLiteral("812 GB/s · 81% of copy"));
}

void TestWorkspace::helpAndStatusMessages()
{
    MainWindow w;
    const QString guide = helpGuideHtml(w.menuBar());
    QVERIFY(guide.contains(QStringLiteral("key=value")));
    QVERIFY(guide.contains(QKeySequence(Qt::CTRL | Qt::Key_M).toString(QKeySequence::NativeText)));
    QVERIFY(guide.contains(QStringLiteral("Maximize Chart")));
    QVERIFY(guide.contains(QKeySequence(QKeySequence::HelpContents).toString(QKeySequence::NativeText)));
    w.addRuns(kixtest::sweepRuns());
    w.show();
    QVERIFY(waitForCharts(w));
    w.chartPanel()->copyChart();
    QVERIFY2(w.statusBar()->currentMessage().startsWith(QStringLiteral("Chart copied to the clipboard")),
        qPrintable(w.statusBar()->currentMessage()));
}

void TestWorkspace::realLigerCsvAnswersTheQuestion()
{
    const QString shared = qEnvironmentVariable("KIX_SHARED_DIR");
    const QString path = shared + QStringLiteral("/data/liger/all_benchmark_data.csv");
    if (shared.isEmpty() || !QFile::exists(path))
        QSKIP("the shared Liger CSV is not available (set KIX_SHARED_DIR to the project's shared/ folder)");
    MainWindow w;
    w.resize(1280, 720);
    w.show();
    w.openPaths({ path });
    QTRY_VERIFY_WITH_TIMEOUT(w.session()->model()->rowCount() > 2000, 20000);
    QVERIFY(waitForCharts(w));
    // Everything shown: the first view is the overview of the kernels; a chart names the kernel it charts rather than
    // drawing 35 kernels at once.
    QCOMPARE(w.chartPanel()->kind(), ChartKind::Overview);
    w.chartPanel()->setKind(ChartKind::Quantiles);
    QVERIFY2(w.chartPanel()->bannerText().contains(QStringLiteral("kernels in scope: charting")),
        qPrintable(w.chartPanel()->bannerText()));
    w.searchBox()->setText(QStringLiteral("groupnorm backward gpu:b200"));
    w.chartPanel()->setKind(ChartKind::Speedup);
    QVERIFY(QTest::qWaitFor([&] { return w.chartPanel()->runs().size() == w.session()->proxy()->rowCount(); }, 5000));
    QVERIFY(waitForCharts(w));
    auto* chart = dynamic_cast<SpeedupChart*>(w.chartPanel()->chart());
    QVERIFY(chart);
    QVERIFY(chart->categories().contains(QStringLiteral("2048")));
    QVERIFY2(chart->title().contains(QStringLiteral("group_norm · backward · B200")), qPrintable(chart->title()));
    const QStringList texts = sceneTexts(w.chartPanel()->chartView());
    QVERIFY(texts.contains(QStringLiteral("2048")));
    for (const QString& text : texts)
        QVERIFY2(!text.contains(QChar(0x2026)), qPrintable(QStringLiteral("elided: ") + text));
    // The table: Kernel to Workload on screen at 1280×720, the pass not cut to "back…".
    QHeaderView* header = w.runTable()->horizontalHeader();
    const int right = header->sectionViewportPosition(RunTableModel::WorkloadColumn)
        + header->sectionSize(RunTableModel::WorkloadColumn);
    QVERIFY2(right <= w.runTable()->viewport()->width(),
        qPrintable(QStringLiteral("%1 > %2").arg(right).arg(w.runTable()->viewport()->width())));
    const QFontMetrics metrics(w.runTable()->font());
    QVERIFY(header->sectionSize(RunTableModel::PassColumn) > metrics.horizontalAdvance(QStringLiteral("backward")));
    QVERIFY(header->sectionSize(RunTableModel::WorkloadColumn)
        > metrics.horizontalAdvance(QStringLiteral("channels=2048")));
}

KIX_TEST_MAIN(TestWorkspace)
#include "tst_workspace.moc"
