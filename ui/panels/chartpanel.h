#pragma once

#include "model/run.h"
#include "ui/charts/chartoptions.h"

#include <QWidget>

#include <memory>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QSplitter;
class QTabBar;
class QTableView;
class QTimer;
class QToolButton;
QT_END_NAMESPACE

namespace kix {

class ComparisonModel;

// The charts of the runs in scope (the table's selection, else every run it shows): quantiles, sweep and
// speed-up, with their choices (log axis, x parameter, baseline), a banner that states every comparability warning
// and what was left out, and for speed-ups the table of pairs. Rebuilds are coalesced, so a burst of selection
// changes builds one chart.
class ChartPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ChartPanel(QWidget* parent = nullptr);
    ~ChartPanel() override;

    // `scope` says where the runs come from ("12 selected runs").
    void setRuns(const RunList& runs, const QString& scope);
    void setCurrentRun(const RunPtr& run);

    ChartKind kind() const { return m_kind; }
    void setKind(ChartKind kind);
    void setLogScale(bool log);
    void setXParam(const QString& param);
    void setBaseline(const Baseline& baseline); // empty = the default
    // Rank: the cohort drawn (CohortKey::id); empty = the current run's cohort, else the largest in scope.
    void setCohort(const QString& id);
    QComboBox* cohortChooser() const { return m_cohortBox; }
    ChartOptions options() const;

    // Builds now instead of after the coalescing delay (tests, export).
    void rebuildNow();
    bool isRebuildPending() const;
    QChart* chart() const;
    QChartView* chartView() const { return m_view; }
    const ChartInfo& info() const { return m_info; }
    QString bannerText() const;
    // The hover read-out (empty when nothing is under the mouse and nothing is pinned) and whether a click pinned it.
    QString readoutText() const;
    bool isReadoutPinned() const { return m_pinned; }
    void unpinReadout();
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

protected:
    void changeEvent(QEvent* event) override;

private:
    void scheduleRebuild();
    void updateChoosers();
    void updateBanner();
    void setReadout(const QString& text, bool pin);
    void fitPairColumns();

    RunList m_runs;
    RunPtr m_currentRun;
    QString m_scope;
    ChartKind m_kind = ChartKind::Quantiles;
    bool m_logY = false;
    QString m_xParam;
    Baseline m_baseline;
    ChartInfo m_info;

    QTabBar* m_tabs;
    QCheckBox* m_log;
    QLabel* m_xLabel;
    QComboBox* m_x;
    QLabel* m_baselineLabel;
    QComboBox* m_baselineBox;
    QComboBox* m_cohortBox;
    QString m_cohort;
    QLabel* m_scopeLabel;
    QLabel* m_banner;
    QSplitter* m_splitter;
    QChartView* m_view;
    QTableView* m_pairs;
    ComparisonModel* m_pairsModel;
    QTimer* m_timer;
    QLabel* m_readout;
    QToolButton* m_chip;
    QString m_baselineNote; // why a chosen baseline run was dropped, until the next rebuild after this one
    QList<QAction*> m_kindActions;
    bool m_pinned = false;
    bool m_warningsExpanded = false;
};

} // namespace kix
