#pragma once

#include "model/run.h"

#include <QTableView>

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

    QMenu* columnMenu() const { return m_columnMenu; }
    void setColumnShown(int column, bool shown);

    void saveState(const QString& settingsKey) const;
    void restoreState(const QString& settingsKey);

signals:
    void currentRunChanged(kix::RunPtr run);
    // The selection changed, or the rows shown did (filter, load): the runs charts show may differ.
    void scopeChanged();

private:
    void rebuildColumnMenu();

    RunFilterProxy* m_proxy = nullptr;
    QMenu* m_columnMenu;
};

} // namespace kix
