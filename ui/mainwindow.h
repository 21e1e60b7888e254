// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/jobs/jobtracker.h"
#include "model/run.h"
#include "ui/charts/chartoptions.h"

#include <QMainWindow>

QT_BEGIN_NAMESPACE
class QLabel;
class QLineEdit;
class QSplitter;
class QTimer;
QT_END_NAMESPACE

namespace kix {

class ChartPanel;
class DetailsPane;
class FacetsPanel;
class IssuesPanel;
class LoadStatus;
class RecentFiles;
class RunSession;
class RunTableView;

// The explorer's window. It only wires the views together: the run table in the middle with the charts below,
// facets on the left, details on the right, issues at the bottom, counts and load progress in the status bar.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Loads files and folders off the GUI thread and adds their runs (File > Open, drag and drop, the command line).
    void openPaths(const QStringList& paths);
    // Appends runs made elsewhere (the benchmark panel); duplicates are dropped. When the filter (text or facets) hides
    // some of them, the status bar says so with a link that clears the filter (hiddenRunsNotice).
    void addRuns(const RunList& runs);
    QLabel* hiddenRunsNotice() const { return m_hiddenNotice; }
    // Clears the filter box and the facets: every run shows.
    void clearFilter();

    // For panels added later (the benchmark panel): the View menu lists every dock; addPanel adds one there.
    QMenu* viewMenu() const { return m_viewMenu; }
    void addPanel(QDockWidget* dock, Qt::DockWidgetArea area);

    RunSession* session() const { return m_session; }
    RunTableView* runTable() const { return m_table; }
    FacetsPanel* facetsPanel() const { return m_facets; }
    DetailsPane* detailsPane() const { return m_details; }
    IssuesPanel* issuesPanel() const { return m_issues; }
    ChartPanel* chartPanel() const { return m_charts; }
    LoadStatus* loadStatus() const { return m_status; }
    QLineEdit* searchBox() const { return m_search; }
    QDockWidget* detailsDock() const { return m_detailsDock; }

    // View > Reset Layout: docks where they start, the chart at least half of the window.
    void resetLayout();
    // View > Maximize Chart (Ctrl+M): hides the table and the panels, or brings them back.
    void toggleMaximizedChart();
    bool isChartMaximized() const { return m_maximized; }
    // Puts a clause into the filter box, replacing one of the same key ("kernel=rms_norm").
    void applyFilterClause(const QString& clause);
    // File > Export Report…'s work once a path is chosen: an HTML report (ui/report/htmlreport.h) of the runs the
    // table shows, naming the filter; false and `error` when it cannot be written.
    bool writeReport(const QString& path, QString* error);
    // File > Open's name filter: every suffix the reader takes, ".jsonl.zst" and ".zst" among them.
    static QString openFilesFilter();

    // The least height the chart keeps when panels open below it (at 1280×720 with Issues and Regressions open).
    static constexpr int kMinChartHeight = 300;

protected:
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    // The constructor's steps, in order: the widgets each names set up, then the signals between the views.
    void setUpCentralWidget(); // the run table above the charts
    void setUpFilterBar(); // the filter box, and the status bar's load status and hidden-runs notice
    void setUpDocks(); // Facets, Details and Issues, and the chart's least height kept as they change
    void createMenus();
    void connectCharts();
    void connectFilter(); // the filter box and the facets -> the proxy
    void connectScope(); // the selection or the shown rows -> the charts, the counts and Details
    void connectLoading(); // the session's loads -> the status bar, the facets and Issues
    QDockWidget* createDock(const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area);
    void updateScope();
    void updateDetails(); // the current row of the selection, else nothing with a hint
    void onLoadFinished(int added, int duplicates, int errors, bool cancelled);
    void openFilesDialog();
    void openFolderDialog();
    void exportRuns();
    void exportReport();
    void saveLayout() const;
    void restoreLayout();
    void applyDefaultSizes();
    void placeSidePanel(QDockWidget* dock);
    void placeBottomPanel(QDockWidget* dock);
    // The Issues and Regressions panels never leave the chart under kMinChartHeight: the table gives room first, then
    // the speed-up's pairs table, then the bottom panels (queued: once the docks are laid out).
    void keepChartHeight();
    void scheduleKeepChartHeight();

    RunSession* m_session;
    RunTableView* m_table;
    FacetsPanel* m_facets;
    DetailsPane* m_details;
    IssuesPanel* m_issues;
    ChartPanel* m_charts;
    LoadStatus* m_status;
    QLineEdit* m_search;
    QMenu* m_viewMenu = nullptr;
    RecentFiles* m_recent = nullptr;
    QDockWidget* m_issuesDock = nullptr;
    QDockWidget* m_detailsDock = nullptr;
    QAction* m_panelsEnd = nullptr;
    QList<QDockWidget*> m_sidePanels; // panels added on the right, tabbed with Details
    QList<QDockWidget*> m_bottomPanels; // panels added below, tabbed with Issues
    QTimer* m_chartHeightTimer = nullptr;
    int m_chartHeightPasses = 0; // keepChartHeight() looks again while something gives, a few times at most
    ChartKind m_keptKind = ChartKind::Overview; // the kind of chart shown when keepChartHeight() last looked after one
    QLabel* m_hiddenNotice = nullptr; // "N new runs hidden by the filter — show"
    QByteArray m_defaultState;
    QByteArray m_stateBeforeMaximize;
    bool m_maximized = false;
    int m_fittedRows = -1; // rows shown when the columns were last fitted
    JobTracker m_variation { this }; // the Workload column's keys, found off the GUI thread for many runs
    QSplitter* m_splitter;
    QTimer* m_scopeTimer;
};

} // namespace kix
