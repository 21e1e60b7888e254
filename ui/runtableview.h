// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/run.h"

#include <QSet>
#include <QTableView>

#include <vector>

QT_BEGIN_NAMESPACE
class QMenu;
QT_END_NAMESPACE

namespace kix {

class RunFilterProxy;

// The run table: sortable by any column, a column chooser on the header's context menu (remembered), rows of a
// fixed height so that 100k runs scroll and reset fast.
class RunTableView : public QTableView
{
    Q_OBJECT
public:
    explicit RunTableView(QWidget* parent = nullptr);

    void setRunModel(RunFilterProxy* proxy);

    RunList selectedRuns() const; // in table order
    // The selection when it holds two runs or more, else every run the table shows; `fromSelection` says which.
    RunList selectedOrVisibleRuns(bool* fromSelection = nullptr) const;
    int selectedCount() const;
    RunPtr currentRun() const;
    // The run Details shows: the current row when it is selected, else the first selected row; null when nothing is
    // selected.
    RunPtr selectedCurrentRun() const;
    // The current run was dropped by the last change of the rows shown (the filter hides it), and nothing was chosen
    // since.
    bool currentFilteredOut() const { return m_currentFilteredOut; }
    // The most selected rows kept across a change of the rows shown (beyond it only the current run is kept).
    static constexpr int keptSelectionLimit = 20'000;

    QMenu* columnMenu() const { return m_columnMenu; }
    // Sizes the shown columns to their content (rows sampled over the whole table), none wider than 180 px (Workload
    // 240): the answer stays on screen at 1280 px. Columns the user resized keep their width.
    void fitColumns();
    void fitColumn(int column);
    void setColumnShown(int column, bool shown);

    void saveState(const QString& settingsKey) const;
    bool restoreState(const QString& settingsKey); // false when nothing was saved

signals:
    void currentRunChanged(kix::RunPtr run);
    // The selection changed, or the rows shown did (filter, load): the runs charts show may differ.
    void scopeChanged();

private:
    void rebuildColumnMenu();
    // Around a reset of the proxy's rows (a filter or sort applied): the current run and the selected runs are
    // kept by the runs themselves, not by persistent indexes (no per-row work over a million rows).
    void keepSelection();
    void restoreSelection();
    struct Kept
    {
        RunPtr run;
        int sourceRow = -1;
    };
    std::vector<Kept> m_keptSelection;
    Kept m_keptCurrent;
    int m_keptColumn = 0;
    RunPtr m_lastCurrent; // the run currentRunChanged last told
    bool m_currentFilteredOut = false;

    RunFilterProxy* m_proxy = nullptr;
    QMenu* m_columnMenu;
    QSet<int> m_userSized;
    bool m_fitting = false;
};

} // namespace kix
