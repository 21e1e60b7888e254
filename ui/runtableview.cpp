#include "ui/runtableview.h"

#include "model/runfilterproxy.h"
#include "model/runtablemodel.h"

#include <QAction>
#include <QHeaderView>
#include <QMenu>
#include <QSettings>

namespace kix {

RunTableView::RunTableView(QWidget* parent)
    : QTableView(parent)
    , m_columnMenu(new QMenu(QStringLiteral("Columns"), this))
{
    setSortingEnabled(true);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setWordWrap(false);
    setAlternatingRowColors(true);
    setAccessibleName(QStringLiteral("Runs"));
    verticalHeader()->hide();
    // Fixed row heights: no per-row measuring when 100k rows arrive.
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    horizontalHeader()->setSectionsMovable(true);
    horizontalHeader()->setHighlightSections(false);
    horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(horizontalHeader(), &QHeaderView::customContextMenuRequested, this,
        [this](const QPoint& pos) { m_columnMenu->popup(horizontalHeader()->mapToGlobal(pos)); });
}

void RunTableView::setRunModel(RunFilterProxy* proxy)
{
    m_proxy = proxy;
    setModel(proxy);
    const int widths[RunTableModel::ColumnCount] = { 150, 80, 110, 170, 330, 60, 90, 90, 90, 70, 150, 60, 130, 200 };
    for (int c = 0; c < RunTableModel::ColumnCount; ++c)
        setColumnWidth(c, widths[c]);
    for (int c : { RunTableModel::P20Column, RunTableModel::P80Column, RunTableModel::StatusColumn,
             RunTableModel::SourceColumn, RunTableModel::FileColumn })
        setColumnHidden(c, true);
    sortByColumn(-1, Qt::AscendingOrder); // file order until the user sorts
    rebuildColumnMenu();

    connect(selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunTableView::scopeChanged);
    connect(selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
        emit currentRunChanged(current.isValid() ? current.data(RunTableModel::RunRole).value<RunPtr>() : RunPtr());
    });
    connect(proxy, &QAbstractItemModel::modelReset, this, &RunTableView::scopeChanged);
    connect(proxy, &QAbstractItemModel::layoutChanged, this, &RunTableView::scopeChanged);
    connect(proxy, &QAbstractItemModel::rowsInserted, this, &RunTableView::scopeChanged);
    connect(proxy, &QAbstractItemModel::rowsRemoved, this, &RunTableView::scopeChanged);
}

RunList RunTableView::selectedRuns() const
{
    RunList runs;
    if (!selectionModel())
        return runs;
    QModelIndexList rows = selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    runs.reserve(rows.size());
    for (const QModelIndex& index : std::as_const(rows))
        runs.append(index.data(RunTableModel::RunRole).value<RunPtr>());
    return runs;
}

RunList RunTableView::selectedOrVisibleRuns(bool* fromSelection) const
{
    // One selected row is the run being looked at (a click selects it), not a choice of runs to chart.
    const bool selected = selectedCount() >= 2;
    if (fromSelection)
        *fromSelection = selected;
    if (selected)
        return selectedRuns();
    return m_proxy ? m_proxy->visibleRuns() : RunList();
}

int RunTableView::selectedCount() const
{
    if (!selectionModel())
        return 0;
    int count = 0;
    for (const QItemSelectionRange& range : selectionModel()->selection())
        count += range.height();
    return count;
}

RunPtr RunTableView::currentRun() const
{
    const QModelIndex current = currentIndex();
    return current.isValid() ? current.data(RunTableModel::RunRole).value<RunPtr>() : RunPtr();
}

void RunTableView::setColumnShown(int column, bool shown)
{
    setColumnHidden(column, !shown);
    rebuildColumnMenu();
}

void RunTableView::rebuildColumnMenu()
{
    m_columnMenu->clear();
    for (int c = 0; c < RunTableModel::ColumnCount; ++c) {
        QAction* action = m_columnMenu->addAction(RunTableModel::columnName(c));
        action->setCheckable(true);
        action->setChecked(!isColumnHidden(c));
        connect(action, &QAction::toggled, this, [this, c](bool on) { setColumnHidden(c, !on); });
    }
}

void RunTableView::saveState(const QString& settingsKey) const
{
    QSettings().setValue(settingsKey, horizontalHeader()->saveState());
}

void RunTableView::restoreState(const QString& settingsKey)
{
    const QByteArray state = QSettings().value(settingsKey).toByteArray();
    if (!state.isEmpty() && horizontalHeader()->restoreState(state))
        rebuildColumnMenu();
}

} // namespace kix
