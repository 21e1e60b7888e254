#pragma once

#include "model/run.h"
#include "ui/chartoptions.h"

#include <QWidget>

#include <memory>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QCheckBox;
class QComboBox;
class QLabel;
class QSplitter;
class QTabBar;
class QTableView;
class QTimer;
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
    ChartOptions options() const;

    // Builds now instead of after the coalescing delay (tests, export).
    void rebuildNow();
    bool isRebuildPending() const;
    QChart* chart() const;
    QChartView* chartView() const { return m_view; }
    const ChartInfo& info() const { return m_info; }
    QString bannerText() const;
    QTableView* pairsView() const { return m_pairs; }
    // A fresh chart of the same runs and options (an export lays it out at its own size).
    std::unique_ptr<QChart> buildChart(bool dark) const;
    const RunList& runs() const { return m_runs; }

public slots:
    void exportChart();
    void copyChart();

signals:
    void rebuilt();

protected:
    void changeEvent(QEvent* event) override;

private:
    void scheduleRebuild();
    void updateChoosers();
    void updateBanner();

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
    QLabel* m_scopeLabel;
    QLabel* m_banner;
    QSplitter* m_splitter;
    QChartView* m_view;
    QTableView* m_pairs;
    ComparisonModel* m_pairsModel;
    QTimer* m_timer;
};

} // namespace kix
