// SPDX-License-Identifier: Apache-2.0
// The window, offscreen: load fixtures (a folder, with a broken file), filter by text and facets, select runs, and
// check what the charts, details, issues and status bar then show; exports of what is in scope.
#include "model/filter/runfilterproxy.h"
#include "model/filter/runtablemodel.h"
#include "model/write/runwriter.h"
#include "ui/charts/chartexporter.h"
#include "ui/charts/quantilechart.h"
#include "ui/charts/speedupchart.h"
#include "ui/charts/sweepchart.h"
#include "ui/mainwindow.h"
#include "ui/models/diagnosticsmodel.h"
#include "ui/models/facetmodel.h"
#include "ui/panels/chartpanel.h"
#include "ui/panels/detailspane.h"
#include "ui/panels/facetspanel.h"
#include "ui/panels/loadstatus.h"
#include "ui/recentfiles.h"
#include "ui/runsession.h"
#include "ui/runtableview.h"

#include "tests/ui/uitestsupport.h"

#include "tests/support/testmain.h"

#include <QBoxPlotSeries>
#include <QChart>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMenu>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>
#include <QTreeWidget>

#include <nlohmann/json.hpp>

using namespace kix;

namespace {

// Selects the rows of the table whose runs pass `keep`.
template<typename Pred>
void selectRuns(MainWindow& w, Pred keep)
{
    RunTableView* table = w.runTable();
    table->clearSelection();
    QItemSelection selection;
    for (int row = 0; row < table->model()->rowCount(); ++row) {
        const QModelIndex index = table->model()->index(row, 0);
        if (keep(*index.data(RunTableModel::RunRole).value<RunPtr>()))
            selection.select(index, index);
    }
    table->selectionModel()->select(selection, QItemSelectionModel::Select | QItemSelectionModel::Rows);
}

// Waits until the charts show `count` runs in scope and no rebuild is pending.
bool waitForCharts(MainWindow& w, int count)
{
    return QTest::qWaitFor(
        [&] { return w.chartPanel()->runs().size() == count && !w.chartPanel()->isRebuildPending(); }, 5000);
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void loadFilterSelect();
    void speedupFromSelection();
    void detailsOfCurrentRun();
    void detailsFollowSelection();
    void openDialogOffersCompressed();
    void cancelKeepsProgress();
    void newRunsHiddenByTheFilter();
    void addRunsAndDrop();
    void exportsOfScope();
    void layoutRemembered();
    void chartsFollowDarkPalette();

private:
    QTemporaryDir m_settings;
    QTemporaryDir m_out;
};

void TestMainWindow::initTestCase()
{
    kixtest::isolateSettings(m_settings);
}

void TestMainWindow::loadFilterSelect()
{
    MainWindow w;
    w.show();
    w.openPaths({ kixtest::uiData() }); // a folder: 4 good files and a broken one
    QTRY_COMPARE_WITH_TIMEOUT(w.session()->model()->rowCount(), 35, 10000);
    QTRY_VERIFY(!w.loadStatus()->isLoading());
    QCOMPARE(w.session()->diagnostics()->errorCount(), 1);
    QVERIFY(w.findChild<QDockWidget*>(QStringLiteral("issuesDock"))->isVisible()); // shown, not a modal box
    QTRY_COMPARE(w.loadStatus()->countsText(), QStringLiteral("35 runs · 35 shown"));

    // Text: every word must match somewhere; the table and the facet counts react at once.
    w.searchBox()->setText(QStringLiteral("group_norm backward b200"));
    QCOMPARE(w.session()->proxy()->rowCount(), 14);
    QTRY_COMPARE(w.facetsPanel()->model()->matchingCount(), 14); // counts follow once typing pauses

    // Facets: liger only.
    FacetModel* facets = w.facetsPanel()->model();
    facets->toggle(facets->valueIndex(Facet::Provider, QStringLiteral("liger")));
    QCOMPARE(w.session()->proxy()->rowCount(), 7);

    // Nothing selected: the charts show every shown run.
    QVERIFY(waitForCharts(w, 7));
    auto* quantiles = dynamic_cast<QuantileChart*>(w.chartPanel()->chart());
    QVERIFY(quantiles);
    QCOMPARE(quantiles->boxSeries().size(), 1);
    QCOMPARE(quantiles->boxSeries().front()->count(), 7);
    QCOMPARE(quantiles->boxSeries().front()->name(), QStringLiteral("liger · B200"));

    // Select three: the charts follow the selection.
    int picked = 0;
    selectRuns(w, [&picked](const Run&) { return picked++ < 3; });
    QVERIFY(waitForCharts(w, 3));
    QTRY_COMPARE(w.loadStatus()->countsText(), QStringLiteral("35 runs · 7 shown · 3 selected"));

    // Sweep of the selection.
    w.chartPanel()->setKind(ChartKind::Sweep);
    auto* sweep = dynamic_cast<SweepChart*>(w.chartPanel()->chart());
    QVERIFY(sweep);
    QCOMPARE(sweep->lineCount(), 1);
    QCOMPARE(sweep->line(0)->count(), 3);

    facets->clearSelection();
    w.searchBox()->clear();
    QCOMPARE(w.session()->proxy()->rowCount(), 35);
}

void TestMainWindow::speedupFromSelection()
{
    MainWindow w;
    w.addRuns(kixtest::allRuns());
    QCOMPARE(w.session()->model()->rowCount(), 35);
    ChartPanel* charts = w.chartPanel();
    charts->setKind(ChartKind::Speedup);
    charts->setWarningsExpanded(true); // every warning and note on its line (folded, they are one line)

    // liger and huggingface on the B200, backward: seven clean pairs at 2x.
    selectRuns(w,
        [](const Run& r) { return r.gpuSlug == QLatin1String("nvidia-b200") && r.pass == QLatin1String("backward"); });
    QVERIFY(waitForCharts(w, 14));
    const Comparison& c = charts->info().comparison;
    QCOMPARE(c.pairs.size(), 7);
    for (const ComparisonPair& p : c.pairs) {
        QCOMPARE(p.ratio, 2.0);
        QCOMPARE(p.verdict, Verdict::Faster);
        QVERIFY(p.warnings.isEmpty());
    }
    QVERIFY(charts->info().warnings.isEmpty());
    QVERIFY(charts->bannerText().contains(QStringLiteral("same workload digest: 7 of 7 pairs")));
    QVERIFY(!charts->bannerText().contains(QStringLiteral("⚠")));
    QCOMPARE(charts->pairsView()->model()->rowCount(), 7);

    // Add the A100 run: compared across GPUs, and the banner says so.
    selectRuns(w, [](const Run& r) {
        return (r.gpuSlug == QLatin1String("nvidia-b200") && r.pass == QLatin1String("backward"))
            || r.gpuSlug.contains(QLatin1String("a100"));
    });
    QVERIFY(waitForCharts(w, 15));
    QCOMPARE(charts->info().comparison.pairs.size(), 8);
    QVERIFY(charts->bannerText().contains(QStringLiteral("⚠ different GPU: NVIDIA B200 (baseline) vs NVIDIA A100")));
    QVERIFY(charts->chart()->title().contains(QStringLiteral("different GPU")));

    // Samples: Mann-Whitney decides (forward pass).
    selectRuns(w, [](const Run& r) { return r.pass == QLatin1String("forward"); });
    QVERIFY(waitForCharts(w, 4));
    const Comparison& s = charts->info().comparison;
    QCOMPARE(s.pairs.size(), 2);
    QCOMPARE(s.pairs[0].method, VerdictMethod::MannWhitney);
    QCOMPARE(s.pairs[0].verdict, Verdict::Faster);
    QCOMPARE(s.pairs[1].verdict, Verdict::Same);

    // The baseline chooser: liger as the baseline makes huggingface the compared provider.
    charts->setBaseline(Baseline::ofProvider(QStringLiteral("liger")));
    QCOMPARE(charts->info().comparison.pairs.size(), 2);
    QCOMPARE(charts->info().comparison.pairs[0].run->provider, QStringLiteral("huggingface"));
    QCOMPARE(charts->info().comparison.pairs[0].verdict, Verdict::Slower);

    // Memory runs are said to be left out.
    selectRuns(w, [](const Run& r) { return r.pass == QLatin1String("full"); });
    QVERIFY(waitForCharts(w, 2));
    QVERIFY(charts->bannerText().contains(QStringLiteral("non-latency run(s) (memory) left out")));
}

void TestMainWindow::detailsOfCurrentRun()
{
    MainWindow w;
    w.addRuns(kixtest::sweepRuns());
    w.runTable()->setCurrentIndex(w.runTable()->model()->index(0, 0));
    DetailsPane* details = w.detailsPane();
    QVERIFY(details->run());
    const Run& run = *details->run();
    QVERIFY(details->comparabilityText().contains(QStringLiteral("Comparable only within one kernel")));
    QVERIFY(details->comparabilityText().contains(QStringLiteral("liger_kernel_bench")));
    const QList<QTreeWidgetItem*> digest
        = details->fields()->findItems(run.workloadDigest, Qt::MatchStartsWith | Qt::MatchRecursive, 1);
    QCOMPARE(digest.size(), 1);
    QCOMPARE(digest.front()->text(0), QStringLiteral("workload"));
    QCOMPARE(digest.front()->text(1), run.workloadDigest + QStringLiteral(" — ") + Run::describe(run.workloadCheck));
    QVERIFY(!details->fields()->findItems(run.externalId, Qt::MatchExactly | Qt::MatchRecursive, 1).isEmpty());
    const QString json = details->rawJson()->toPlainText();
    QVERIFY(json.contains(QStringLiteral("\"apiVersion\": \"kernelindex.dev/v1alpha1\"")));
    QVERIFY(json.contains(QStringLiteral("\n  \"run\": {")));
    QCOMPARE(w.chartPanel()->buildChart(false) != nullptr, true);
}

void TestMainWindow::detailsFollowSelection()
{
    MainWindow w;
    w.addRuns(kixtest::sweepRuns());
    RunTableView* table = w.runTable();
    DetailsPane* details = w.detailsPane();
    QVERIFY(!details->run());
    // Nothing selected yet: the charts ring no run either (a current row nobody picked is not the user's run).
    QVERIFY(!w.chartPanel()->options().currentRun);

    // A click on a row: Details shows it.
    int ligerRow = -1;
    int otherRow = -1;
    for (int row = 0; row < table->model()->rowCount(); ++row) {
        const RunPtr run = table->model()->index(row, 0).data(RunTableModel::RunRole).value<RunPtr>();
        if (run->provider == QLatin1String("liger") && ligerRow < 0)
            ligerRow = row;
        if (run->provider != QLatin1String("liger") && otherRow < 0)
            otherRow = row;
    }
    QVERIFY(ligerRow >= 0 && otherRow >= 0);
    const RunPtr liger = table->model()->index(ligerRow, 0).data(RunTableModel::RunRole).value<RunPtr>();
    table->setCurrentIndex(table->model()->index(ligerRow, 0));
    QCOMPARE(details->run(), liger);
    QCOMPARE(w.chartPanel()->options().currentRun, liger); // the run Details shows is the one the charts ring

    // Esc (the selection cleared, the current index stays): Details clears, with a hint; the ring goes too.
    table->clearSelection();
    QVERIFY(!details->run());
    QVERIFY(!w.chartPanel()->options().currentRun);
    QVERIFY2(details->comparabilityText().contains(QStringLiteral("Select a run")),
        qPrintable(details->comparabilityText()));

    // The current row of the selection, not a row selected before it.
    table->selectRow(otherRow);
    const RunPtr other = table->model()->index(otherRow, 0).data(RunTableModel::RunRole).value<RunPtr>();
    QCOMPARE(details->run(), other);
    table->selectRow(ligerRow);
    QCOMPARE(details->run(), liger);

    // The filter hides the run shown: Details clears and says why; the charts' marker lets go of it too.
    w.searchBox()->setText(QStringLiteral("provider=huggingface"));
    QVERIFY(w.session()->proxy()->rowCount() > 0);
    QVERIFY(!details->run());
    QVERIFY2(details->comparabilityText().contains(QStringLiteral("hidden by the filter")),
        qPrintable(details->comparabilityText()));
    QVERIFY(!w.chartPanel()->options().currentRun);

    // The filter that shows it again does not bring back a run nobody selected; a new click shows its run.
    w.searchBox()->clear();
    QVERIFY(!details->run());
    table->selectRow(0);
    QCOMPARE(details->run(), table->model()->index(0, 0).data(RunTableModel::RunRole).value<RunPtr>());
}

void TestMainWindow::openDialogOffersCompressed()
{
    // The public catalog comes as .jsonl.zst: File > Open must list it, not only "All files".
    const QString filter = MainWindow::openFilesFilter();
    const QString runs = filter.section(QStringLiteral(";;"), 0, 0);
    QVERIFY2(runs.contains(QStringLiteral("*.jsonl.zst")), qPrintable(filter));
    QVERIFY2(runs.contains(QStringLiteral("*.zst")), qPrintable(filter));
    QVERIFY(runs.contains(QStringLiteral("*.json ")));
}

void TestMainWindow::cancelKeepsProgress()
{
    const QLocale before;
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    auto restore = qScopeGuard([&] { QLocale::setDefault(before); });
    MainWindow w;
    LoadStatus* status = w.loadStatus();
    RunSession* session = w.session();
    // A load of 5,000 files, cancelled after 1,234 (the session's signals as a real load sends them: no timing).
    emit session->loadStarted(5000);
    emit session->loadProgress(1234, 5000);
    QVERIFY(status->isLoading());
    QCOMPARE(status->progressText(), QStringLiteral("1,234 / 5,000 files"));
    emit session->loadFinished(0, 0, 0, true);
    QVERIFY(!status->isLoading()); // Cancel is gone
    QCOMPARE(status->progressText(), QStringLiteral("Cancelled after 1,234 of 5,000 files"));
    QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("Cancelled after 1,234 of 5,000 files")),
        qPrintable(w.statusBar()->currentMessage()));

    // The next load starts from nothing; one that finishes hides the indicator.
    emit session->loadStarted(10);
    QCOMPARE(status->progressText(), QStringLiteral("0 / 10 files"));
    emit session->loadProgress(10, 10);
    emit session->loadFinished(3, 0, 0, false);
    QVERIFY(status->progressText().isEmpty());
}

void TestMainWindow::newRunsHiddenByTheFilter()
{
    MainWindow w;
    w.show();
    RunList liger, others;
    for (const RunPtr& run : kixtest::sweepRuns())
        (run->provider == QLatin1String("liger") ? liger : others) << run;
    QVERIFY(!liger.isEmpty() && !others.isEmpty());
    w.addRuns(liger);
    QVERIFY(!w.hiddenRunsNotice()->isVisible()); // nothing hidden: nothing said
    w.searchBox()->setText(QStringLiteral("provider=liger"));
    const int shown = w.session()->proxy()->rowCount();

    // A benchmark's fresh runs arrive (BenchmarkPanel::runsReady -> addRuns) and the filter hides them all.
    w.addRuns(others);
    QCOMPARE(w.session()->proxy()->rowCount(), shown);
    QVERIFY(w.hiddenRunsNotice()->isVisible());
    QCOMPARE(w.hiddenRunsNotice()->text(),
        QStringLiteral("%1 new runs hidden by the filter — <a href=\"show\">show</a>").arg(others.size()));
    // "show" clears the filter: every run shows, the notice goes.
    emit w.hiddenRunsNotice()->linkActivated(QStringLiteral("show"));
    QVERIFY(w.searchBox()->text().isEmpty());
    QCOMPARE(w.session()->proxy()->rowCount(), liger.size() + others.size());
    QVERIFY(!w.hiddenRunsNotice()->isVisible());

    // Facets hide too; typing a new filter dismisses the notice.
    FacetModel* facets = w.facetsPanel()->model();
    QTRY_VERIFY(facets->valueIndex(Facet::Provider, QStringLiteral("liger")).isValid());
    facets->setSelected(Facet::Provider, QStringLiteral("liger"), true);
    RunList copies;
    for (const RunPtr& run : others) {
        auto copy = std::make_shared<Run>(*run);
        copy->externalId += QStringLiteral("-again");
        copy->observedAt = copy->observedAt.addSecs(60);
        copy->median *= 1.1;
        copy->runDigest = CompactDigest(); // another observation: not a duplicate
        copy->finalize();
        copies << copy;
    }
    const int loaded = w.session()->model()->rowCount();
    w.addRuns(copies);
    QCOMPARE(w.session()->model()->rowCount(), loaded + int(copies.size()));
    QCOMPARE(w.session()->proxy()->rowCount(), int(liger.size()));
    QVERIFY(w.hiddenRunsNotice()->isVisible());
    w.searchBox()->setText(QStringLiteral("group_norm"));
    QVERIFY(!w.hiddenRunsNotice()->isVisible());
}

void TestMainWindow::addRunsAndDrop()
{
    MainWindow w;
    w.addRuns(kixtest::sweepRuns());
    w.addRuns(kixtest::sweepRuns()); // duplicates are kept once
    QCOMPARE(w.session()->model()->rowCount(), 28);
    QCOMPARE(w.facetsPanel()->model()->matchingCount(), 28);

    QMimeData mime;
    mime.setUrls({ QUrl::fromLocalFile(kixtest::uiData(QStringLiteral("cross-gpu.json"))) });
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &drop);
    QTRY_COMPARE(w.session()->model()->rowCount(), 29);
    QVERIFY(w.session()->openedPaths().front().endsWith(QStringLiteral("cross-gpu.json")));
}

void TestMainWindow::exportsOfScope()
{
    MainWindow w;
    w.addRuns(kixtest::allRuns());
    w.searchBox()->setText(QStringLiteral("b200 backward"));
    w.facetsPanel()->model()->setSelected(Facet::Provider, QStringLiteral("liger"), true);
    bool fromSelection = true;
    const RunList shown = w.runTable()->selectedOrVisibleRuns(&fromSelection);
    QVERIFY(!fromSelection);
    QCOMPARE(shown.size(), 7);

    // Runs: JSON is lossless (each document exactly as loaded).
    const QString json = m_out.filePath(QStringLiteral("runs.json"));
    QString error;
    QVERIFY2(writeRuns(shown, json, ExportFormat::Json, &error), qPrintable(error));
    const ParseResult back = parseFile(json);
    QCOMPARE(back.runs.size(), 7);
    for (int i = 0; i < 7; ++i)
        QVERIFY(nlohmann::json::parse(back.runs[i]->raw) == nlohmann::json::parse(shown[i]->raw));
    const QString csv = m_out.filePath(QStringLiteral("runs.csv"));
    QVERIFY(writeRuns(shown, csv, ExportFormat::Csv, &error));
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll().count('\n'), 8);

    // The chart of the scope, exported the way File > Export Chart does it.
    const QString svg = m_out.filePath(QStringLiteral("scope.svg"));
    w.chartPanel()->rebuildNow();
    QVERIFY(ChartExporter::exportChart(w.chartPanel()->buildChart(false), svg, QSize(900, 600), 96, &error));
    QFile s(svg);
    QVERIFY(s.open(QIODevice::ReadOnly));
    QVERIFY(s.readAll().contains("Latency quantiles"));
}

void TestMainWindow::layoutRemembered()
{
    {
        MainWindow w;
        w.resize(1234, 777);
        w.show();
        w.runTable()->setColumnShown(RunTableModel::FileColumn, true);
        w.openPaths({ kixtest::uiData(QStringLiteral("cross-gpu.json")) });
        QTRY_COMPARE(w.session()->model()->rowCount(), 1);
        w.close();
    }
    QVERIFY(QSettings()
                .value(QStringLiteral("files/recent"))
                .toStringList()
                .front()
                .endsWith(QStringLiteral("cross-gpu.json")));
    MainWindow again;
    QCOMPARE(again.size(), QSize(1234, 777));
    QVERIFY(!again.runTable()->isColumnHidden(RunTableModel::FileColumn));
    QVERIFY(again.viewMenu()->actions().size() >= 4); // the docks and the column chooser
    QDockWidget* extra = new QDockWidget(QStringLiteral("Benchmark"), &again);
    again.addPanel(extra, Qt::BottomDockWidgetArea);
    QVERIFY(again.viewMenu()->actions().contains(extra->toggleViewAction()));
}

void TestMainWindow::chartsFollowDarkPalette()
{
    ChartPanel panel;
    panel.setRuns(kixtest::sweepRuns(), QStringLiteral("28 runs"));
    panel.rebuildNow();
    QCOMPARE(panel.chart()->theme(), QChart::ChartThemeLight);
    QPalette dark = panel.palette();
    dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x24));
    dark.setColor(QPalette::WindowText, Qt::white);
    panel.setPalette(dark); // what a switch of the system's colour scheme delivers
    QTRY_COMPARE(panel.chart()->theme(), QChart::ChartThemeDark);
}

KIX_TEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
