// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/history/history.h"
#include "model/jobs/jobtracker.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QTableView;
QT_END_NAMESPACE

namespace kix {

class HistoryChangesModel;
class HistoryChangesProxy;

// Every change of the loaded runs' histories: kind, ratio, series, the runs before and after (label, time, level)
// and the evidence; then the runs that cannot be placed in time. By default regressions first, then improvements,
// then outliers, each largest first; every column sorts (numbers as numbers), and the rows filter by kind and text.
// The threshold is settable. Clicking a change asks for its series' history chart (seriesActivated).
class RegressionsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit RegressionsPanel(QWidget* parent = nullptr);
    ~RegressionsPanel() override;

    void setRuns(const RunList& runs);
    void setThreshold(double threshold); // 0.05 = 5 %
    double threshold() const;

    const History& history() const;
    QTableView* view() const { return m_view; }
    QComboBox* kindBox() const { return m_kinds; } // All kinds, Regressions, Improvements, Outliers
    QLineEdit* filterEdit() const { return m_filter; }
    QString summary() const;
    // The runs of the series a row of the view belongs to, in time order (empty for an unplaceable run's row).
    RunList seriesRuns(int row) const;
    void activateRow(int row);
    // The history is built off the GUI thread (100k runs take a second or two); true until it is shown.
    bool isBuilding() const { return m_building; }
    // Builds started so far (one runs at a time: asks while one runs start one more when it ends). For tests.
    int buildsStarted() const { return m_buildsStarted; }

signals:
    void seriesActivated(const kix::RunList& runs, const QString& series);
    void rebuilt();

private:
    void rebuild();
    void startBuild();
    void showHistory(History history);
    int sourceRow(int viewRow) const;
    void updateShown(); // the summary, with how many rows the kind and text filters keep

    RunList m_runs;
    HistoryChangesModel* m_model;
    HistoryChangesProxy* m_proxy;
    QTableView* m_view;
    QLabel* m_summary;
    QString m_summaryText; // the history's counts
    QDoubleSpinBox* m_threshold;
    QComboBox* m_kinds;
    QLineEdit* m_filter;
    // The build in flight (one at a time), waited for on destruction; a newer rebuild makes its result stale.
    JobTracker m_builds { this };
    bool m_building = false;
    bool m_rebuildQueued = false; // asked for while one ran: started when it ends, its result dropped
    int m_buildsStarted = 0;
};

} // namespace kix
