// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/jobs/jobtracker.h"
#include "model/run.h"
#include "ui/charts/chartoptions.h"

#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>
#include <utility>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QAction;
class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QSplitter;
class QStackedWidget;
class QTabBar;
class QTableView;
class QTimer;
class QToolButton;
QT_END_NAMESPACE

namespace kix {

class CompareView;
class ComparisonModel;
class OverviewTable;
struct PreparedChart;

// The charts of the runs in scope (the table's selection, else every run it shows): quantiles, sweep and
// speed-up, with their choices (log axis, x parameter, baseline), a banner that states every comparability warning
// and what was left out, and for speed-ups the table of pairs. Rebuilds are coalesced, so a burst of selection
// changes builds one chart. A chart of many runs (asyncThreshold() or more) is prepared off the GUI thread
// (prepareChart) and only drawn on it; a build asked for while one is in flight supersedes it: the older result is
// dropped (a JobTracker), so the panel always ends on the latest runs and options. The overview's counts and
// the choice of a scope's first view (firstViewKind) are made there too; until that build lands, kind() is the
// kind shown before.
class ChartPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ChartPanel(QWidget* parent = nullptr);
    ~ChartPanel() override;

    // `scope` says where the runs come from ("12 selected runs").
    void setRuns(const RunList& runs, const QString& scope);
    // When the runs are the table's selection: how many the filter shows. The banner says the chart follows the
    // selection and offers one click to chart the filter again (selectionDismissed). 0 = the runs are the filter's.
    void setSelectionScope(int selected, int filtered);
    void setCurrentRun(const RunPtr& run);

    ChartKind kind() const { return m_kind; }
    // The user's choice of kind: it stays until another is chosen. Until then (and again after a click in the
    // overview) the kind follows the scope: the overview when the runs span many kernels or GPUs
    // (overviewIsFirstView), else the quantile chart, or Rank when no run in scope has a latency (a leaderboard).
    void setKind(ChartKind kind);
    bool isKindAutomatic() const { return m_autoKind; }
    // The overview's table (kernels × GPUs); shown in place of the chart when the kind is Overview.
    OverviewTable* overviewTable() const { return m_overview; }
    // The Compare view (2 to 8 runs field by field), shown in place of the chart when the kind is Compare.
    CompareView* compareView() const { return m_compare; }
    // The user's choice; empty = the default. A choice the runs in scope do not contain (a run the filter hides, a
    // provider not among them) is kept but not used: the chart falls back to the default, the banner says so, and
    // the choice comes back when the filter shows it again.
    void setBaseline(const Baseline& baseline);
    const Baseline& chosenBaseline() const { return m_chosen; }
    bool isBaselineFallback() const { return !m_fallbackNote.isEmpty(); }
    ChartOptions options() const; // the baseline in effect
    // Rank and Records: the cohort drawn (CohortKey::id), chosen in cohortChooser(); empty = the current run's cohort,
    // else the largest in scope (Records: the one with the most records).
    QComboBox* cohortChooser() const { return m_cohortBox; }
    // Quantiles: Box, Histogram or ECDF (QuantileView as item data). Histogram and ECDF are enabled when 2 to 4 runs
    // in scope carry raw samples; else their items are disabled and the chooser's tooltip says why. The choice is
    // remembered across sessions (QSettings).
    QComboBox* quantileViewChooser() const { return m_quantileViewBox; }

    // Builds now instead of after the coalescing delay (tests, export); over asyncThreshold() runs, starts the build
    // off the GUI thread (isRebuildPending() until it is drawn).
    void rebuildNow();
    // The speed-up's pairs table gives up to `pixels` of its height to the chart, keeping its header and a row (or,
    // with `fold`, nothing: the splitter's handle stays to drag it back); returns what it gave (0 when it is hidden).
    // The window calls it to keep the chart at its least height.
    int yieldPairsHeight(int pixels, bool fold);
    bool isRebuildPending() const;
    // Runs in scope from which charts are prepared off the GUI thread (0: always; default 20,000).
    void setAsyncThreshold(int runs) { m_asyncThreshold = runs; }
    QChart* chart() const;
    QChartView* chartView() const { return m_view; }
    const ChartInfo& info() const { return m_info; }
    QString bannerText() const;
    // The hover read-out (empty when nothing is under the mouse and nothing is pinned) and whether a click pinned it.
    QString readoutText() const;
    bool isReadoutPinned() const { return m_pinned; }
    void unpinReadout();
    // The visible control that unpins (shown while a value is pinned); Esc does the same.
    QToolButton* unpinButton() const { return m_unpin; }
    // The chip that shows a chosen baseline run (hidden otherwise); its button removes the choice.
    QToolButton* baselineChip() const { return m_chip; }
    // One action per chart kind (Ctrl+1, Ctrl+2, ...), for the View menu.
    const QList<QAction*>& kindActions() const { return m_kindActions; }
    // Shows every comparability warning, or folds them into one line (the default).
    void setWarningsExpanded(bool expanded);
    QTableView* pairsView() const { return m_pairs; }
    // A fresh chart of the same runs and options (an export lays it out at its own size).
    std::unique_ptr<QChart> buildChart(bool dark) const;
    const RunList& runs() const { return m_runs; }

public slots:
    void exportChart();
    void copyChart();

signals:
    void rebuilt();
    // For the status bar: an export's path, a baseline dropped by the filter.
    void statusMessage(const QString& text);
    // The user asked for a filter clause (a kernel named by the many-kernels note): "kernel=cross_entropy".
    void filterRequested(const QString& clause);
    // The user asked for a larger chart (the main window hides or restores what surrounds it).
    void maximizeRequested();
    // The user asked to chart the filter instead of the selection (the window clears the selection).
    void selectionDismissed();

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    // The constructor's steps, in order: the widgets each names set up, then the signals that drive the rebuilds.
    void setUpTabs();
    void setUpChoosers();
    QHBoxLayout* setUpControlsRow(); // the tool buttons, the scope, the baseline chip: the row above the chart
    void setUpBanner(); // the banner and the read-out line under it
    void setUpChartView(); // the chart's view and the pairs' table, in their splitter
    void layOutPanel(QHBoxLayout* controls);
    void connectControls();
    void chooseBaseline(); // the baseline chooser's pick becomes the chosen baseline

    struct Build
    {
        bool chosen = false; // the worker chose the kind (firstViewKind): prepared->kind
        ChartOptions options;
        std::shared_ptr<PreparedChart> prepared; // null when superseded before it started
        QStringList varying; // the parameters that vary among the runs, when the baseline chip shows a run
    };
    void startBuild(bool chooseKind);
    void cancelBuilds(); // the builds in flight are dropped (they stop soon)
    void takeBuild(Build&& build); // the newest build, back from the worker
    void showKind(ChartKind kind); // the tab, without a rebuild
    ChartOptions optionsFor(ChartKind kind) const;
    // `defer` (a build from the worker: many runs): the chart is made, laid out, and its pairs' table filled in three
    // events, so that no one of them blocks the GUI thread long; until the last the rebuild is pending and rebuilt()
    // waits.
    void applyBuild(PreparedChart&& prepared, const ChartOptions& options, bool defer = false);
    void runPending(); // the next step of the build last made, if any
    void flushPending(); // every step left
    void scheduleRebuild();
    void updateChoosers();
    void updateBanner();
    Baseline effectiveBaseline(QString* note) const;
    void setReadout(const QString& text, bool pin);
    void fitPairColumns();
    // The speed-up and quantile charts draw as many workloads as their view has room for (optionsFor): once the view
    // is resized (the window, the splitter, the pairs' table shown with a speed-up), a rebuild where that changes
    // what is drawn.
    void showCompare(); // the Compare view of the runs, in place of a chart (no build)
    void noteBuiltGroups(ChartKind kind, const QChart* chart, int maxGroups);
    void refitGroups();

    RunList m_runs;
    RunPtr m_currentRun;
    QString m_scope;
    ChartKind m_kind = ChartKind::Quantiles;
    bool m_logY = false;
    bool m_rankWidened = false; // Rank across protocol versions and environments (the user asked)
    QString m_xParam;
    Baseline m_chosen; // the user's choice
    Baseline m_baseline; // in effect: the choice, or the default when the runs in scope lack it
    ChartInfo m_info;

    QTabBar* m_tabs;
    QCheckBox* m_log;
    QCheckBox* m_widen; // Rank: across protocol versions and environments
    QLabel* m_xLabel;
    QComboBox* m_x;
    QLabel* m_baselineLabel;
    QComboBox* m_baselineBox;
    QComboBox* m_cohortBox;
    QComboBox* m_quantileViewBox;
    QString m_cohort;
    QLabel* m_scopeLabel;
    QLabel* m_banner;
    QSplitter* m_splitter;
    QStackedWidget* m_stack; // the chart and its pairs, or the overview
    OverviewTable* m_overview;
    CompareView* m_compare;
    bool m_autoKind = true; // the kind follows the scope until the user chooses one
    bool m_chooseKind = false; // the scope's first view is still to be chosen (off the GUI thread: many runs)
    QChartView* m_view;
    std::unique_ptr<QChart> m_blank; // the view's chart while the pairs' table shows or goes (applyBuild)
    QTableView* m_pairs;
    ComparisonModel* m_pairsModel;
    QTimer* m_timer;
    QLabel* m_readout;
    QToolButton* m_chip;
    QToolButton* m_unpin;
    QString m_fallbackNote; // why the chosen baseline is not in effect; empty when it is
    int m_selected = 0;
    int m_filtered = 0;
    QList<QAction*> m_kindActions;
    bool m_pinned = false;
    QString m_readoutText; // the read-out as plain text (its tooltip is the same, wrapped)
    bool m_warningsExpanded = false;
    Baseline m_defaultBaseline; // of the runs last charted
    QStringList m_chipVarying; // what varies among the runs last charted (the chip's label), when it shows a run
    int m_asyncThreshold = 20'000;
    JobTracker m_builds { this }; // off the GUI thread: the newest is shown, an older one dropped
    std::function<void()> m_pending; // applyBuild's next step, when deferred
    ChartKind m_builtKind = ChartKind::Overview; // of the chart shown, for refitGroups
    int m_builtGroups = -1; // the workloads it draws; -1: no chart whose count follows the view's size
    int m_builtMaxGroups = 0; // the most it could draw at the size it was built for
    int m_pairsHeight = 0; // the pairs' table's height when last shown (0: not yet)
    int m_rowLines = 1; // the lines a workload label of the last speed-up chart takes (SpeedupChart::rowLines)
    std::pair<QSize, int> m_shrunkFrom; // the view's size when a speed-up drew too many rows for it, and how many
};

} // namespace kix
