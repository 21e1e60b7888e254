// SPDX-License-Identifier: Apache-2.0
#include "ui/panelinstall.h"

#include "engine/benchmarkrunner.h"
#include "model/filter/runfilterproxy.h"
#include "model/filter/runtablemodel.h"
#include "ui/folderfollower.h"
#include "ui/mainwindow.h"
#include "ui/models/diagnosticsmodel.h"
#include "ui/panels/benchmarkpanel.h"
#include "ui/panels/chartpanel.h"
#include "ui/panels/fleetpanel.h"
#include "ui/panels/regressionspanel.h"
#include "ui/panels/workloadpanel.h"
#include "ui/runsession.h"
#include "ui/runtableview.h"

#include <QDockWidget>
#include <QItemSelection>
#include <QSet>
#include <QStatusBar>

namespace kix {

namespace {

// Selects `runs` where the filter shows them and scrolls to the first; the charts follow the selection. Returns how
// many are selected.
int selectRunsInTable(MainWindow& window, const RunList& runs)
{
    QSet<const Run*> wanted;
    for (const RunPtr& run : runs)
        wanted.insert(run.get());
    RunFilterProxy* proxy = window.session()->proxy();
    QItemSelection selection;
    int first = -1;
    const int columns = proxy->columnCount();
    for (int row = 0; row < proxy->rowCount(); ++row) {
        const RunPtr run = proxy->index(row, 0).data(RunTableModel::RunRole).value<RunPtr>();
        if (run && wanted.contains(run.get())) {
            selection.select(proxy->index(row, 0), proxy->index(row, columns - 1));
            first = first < 0 ? row : first;
        }
    }
    RunTableView* table = window.runTable();
    table->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    if (first >= 0)
        table->scrollTo(proxy->index(first, 0));
    return int(selection.size() > 0 ? table->selectedCount() : 0);
}

} // namespace

BenchmarkPanel* installBenchmarkPanel(MainWindow& window)
{
    return installBenchmarkPanel(window, new BenchmarkRunner(&window));
}

BenchmarkPanel* installBenchmarkPanel(MainWindow& window, BenchmarkRunner* runner)
{
    runner->setParent(&window);
    auto* panel = new BenchmarkPanel(runner, &window);
    window.addPanel(panel, Qt::RightDockWidgetArea);
    QObject::connect(panel, &BenchmarkPanel::runsReady, &window, &MainWindow::addRuns);
    QObject::connect(panel, &BenchmarkPanel::issuesFound, &window,
        [&window](const Diagnostics& diagnostics) { window.session()->diagnostics()->append(diagnostics); });
    return panel;
}

FleetPanel* installFleetPanel(MainWindow& window, BenchmarkPanel* benchmark, FolderFollower* follower)
{
    auto* panel = new FleetPanel(
        benchmark, follower,
        [&window, follower](
            const QString& folder, QString* error) { return followFolder(window, follower, folder, error); },
        &window);
    window.addPanel(panel, Qt::RightDockWidgetArea); // a tab beside Details and Benchmark; Details stays in front
    return panel;
}

RegressionsPanel* installRegressionsPanel(MainWindow& window)
{
    auto* panel = new RegressionsPanel(&window);
    auto* dock = new QDockWidget(QStringLiteral("Regressions"), &window);
    dock->setObjectName(QStringLiteral("regressionsDock"));
    dock->setWidget(panel);
    dock->hide(); // on request (View > Regressions), like Issues: by default the chart keeps the window's height
    window.addPanel(dock, Qt::BottomDockWidgetArea); // restores where the user left it, if anywhere
    RunSession* session = window.session();
    QObject::connect(
        session, &RunSession::runsChanged, panel, [panel, session] { panel->setRuns(session->model()->runs()); });
    QObject::connect(
        panel, &RegressionsPanel::seriesActivated, &window, [&window](const RunList& runs, const QString& series) {
            const int shown = selectRunsInTable(window, runs);
            window.chartPanel()->setKind(ChartKind::History);
            if (shown < runs.size())
                window.statusBar()->showMessage(QStringLiteral("%1: the filter hides %2 of its %3 runs")
                                                    .arg(series)
                                                    .arg(runs.size() - shown)
                                                    .arg(runs.size()),
                    10000);
        });
    return panel;
}

WorkloadPanel* installWorkloadPanel(MainWindow& window)
{
    RunSession* session = window.session();
    auto* panel = new WorkloadPanel([session] { return session->proxy()->visibleRuns(); }, &window);
    auto* dock = new QDockWidget(QStringLiteral("My workload"), &window);
    dock->setObjectName(QStringLiteral("workloadDock"));
    dock->setWidget(panel);
    dock->hide(); // on request (View > My workload), like Regressions
    window.addPanel(dock, Qt::BottomDockWidgetArea);
    QObject::connect(session, &RunSession::runsChanged, panel,
        [panel, session] { panel->setOperationNames(session->model()->runs()); });
    QObject::connect(
        panel, &WorkloadPanel::runsActivated, &window, [&window](const RunList& runs, const QString& what) {
            const int shown = selectRunsInTable(window, runs);
            if (shown < runs.size())
                window.statusBar()->showMessage(QStringLiteral("%1: the filter hides %2 of its %3 runs")
                                                    .arg(what)
                                                    .arg(runs.size() - shown)
                                                    .arg(runs.size()),
                    10000);
        });
    return panel;
}

InstalledPanels installPanels(MainWindow& window)
{
    InstalledPanels panels;
    panels.regressions = installRegressionsPanel(window); // every change of the loaded runs, largest first
    panels.workload = installWorkloadPanel(window);
    panels.benchmark = installBenchmarkPanel(window);
    panels.follower = installFolderFollower(window);
    panels.fleet = installFleetPanel(window, panels.benchmark, panels.follower);
    return panels;
}

} // namespace kix
