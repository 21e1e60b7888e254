// SPDX-License-Identifier: Apache-2.0
#include "ui/runtableview.h"

#include "model/filter/runfilterproxy.h"
#include "model/filter/runtablemodel.h"

#include <QAction>
#include <QFontMetrics>
#include <QHeaderView>
#include <QMenu>
#include <QSettings>

#include <algorithm>

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
    connect(horizontalHeader(), &QHeaderView::sectionResized, this, [this](int logical) {
        if (!m_fitting && isVisible())
            m_userSized.insert(logical); // the user's width stays; fitColumns() leaves it alone
    });
    connect(horizontalHeader(), &QHeaderView::customContextMenuRequested, this,
        [this](const QPoint& pos) { m_columnMenu->popup(horizontalHeader()->mapToGlobal(pos)); });
}

void RunTableView::setRunModel(RunFilterProxy* proxy)
{
    m_proxy = proxy;
    setModel(proxy);
    // What a user decides by comes first: who (kernel, pass, provider), then how fast and how noisy, then where.
    const int order[] = { RunTableModel::KernelColumn, RunTableModel::PassColumn, RunTableModel::ProviderColumn,
        RunTableModel::MedianColumn, RunTableModel::SpreadColumn, RunTableModel::WorkloadColumn,
        RunTableModel::AuthorColumn, RunTableModel::GpuColumn, RunTableModel::DtypeColumn,
        RunTableModel::BandwidthColumn, RunTableModel::P20Column, RunTableModel::P80Column,
        RunTableModel::ObservedAtColumn, RunTableModel::StatusColumn, RunTableModel::SourceColumn,
        RunTableModel::FileColumn };
    static_assert(sizeof(order) / sizeof(order[0]) == RunTableModel::ColumnCount, "every column has a place");
    for (int visual = 0; visual < RunTableModel::ColumnCount; ++visual)
        horizontalHeader()->moveSection(horizontalHeader()->visualIndex(order[visual]), visual);
    const int widths[RunTableModel::ColumnCount]
        = { 110, 70, 100, 120, 150, 80, 80, 80, 80, 80, 150, 60, 130, 200, 150, 110 };
    for (int c = 0; c < RunTableModel::ColumnCount; ++c)
        setColumnWidth(c, widths[c]);
    for (int c : { RunTableModel::P20Column, RunTableModel::P80Column, RunTableModel::StatusColumn,
             RunTableModel::SourceColumn, RunTableModel::FileColumn })
        setColumnHidden(c, true);
    sortByColumn(-1, Qt::AscendingOrder); // file order until the user sorts
    rebuildColumnMenu();

    connect(selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        if (!selectionModel()->selection().isEmpty())
            m_currentFilteredOut = false;
        emit scopeChanged();
    });
    connect(selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
        const RunPtr run = current.isValid() ? current.data(RunTableModel::RunRole).value<RunPtr>() : RunPtr();
        if (run)
            m_currentFilteredOut = false;
        if (run == m_lastCurrent)
            return; // the same run in another row (restored after a filter or sort)
        m_lastCurrent = run;
        emit currentRunChanged(run);
    });
    // (after the view's and the selection model's own handling of the reset, which clear both)
    connect(proxy, &QAbstractItemModel::modelAboutToBeReset, this, &RunTableView::keepSelection);
    connect(proxy, &QAbstractItemModel::modelReset, this, &RunTableView::restoreSelection);
    connect(proxy, &QAbstractItemModel::modelReset, this, &RunTableView::scopeChanged);
    connect(proxy, &QAbstractItemModel::layoutChanged, this, &RunTableView::scopeChanged);
    connect(proxy, &QAbstractItemModel::rowsInserted, this, &RunTableView::scopeChanged);
    connect(proxy, &QAbstractItemModel::rowsRemoved, this, &RunTableView::scopeChanged);
}

void RunTableView::keepSelection()
{
    m_keptSelection.clear();
    m_keptCurrent = {};
    const auto* source = m_proxy ? qobject_cast<const RunTableModel*>(m_proxy->sourceModel()) : nullptr;
    if (!source || !selectionModel())
        return;
    auto keep = [&](const QModelIndex& index) {
        const int row = m_proxy->mapToSource(index).row();
        return Kept { source->runAt(row), row };
    };
    const QModelIndex current = currentIndex();
    if (current.isValid()) {
        m_keptCurrent = keep(current);
        m_keptColumn = current.column();
    }
    if (selectedCount() > keptSelectionLimit)
        return;
    for (const QItemSelectionRange& range : selectionModel()->selection()) {
        for (int row = range.top(); row <= range.bottom(); ++row)
            m_keptSelection.push_back(keep(m_proxy->index(row, 0)));
    }
}

void RunTableView::restoreSelection()
{
    const auto* source = m_proxy ? qobject_cast<const RunTableModel*>(m_proxy->sourceModel()) : nullptr;
    if (!source || !selectionModel())
        return;
    auto rowOf = [&](const Kept& kept) { // -1: gone (filtered out, or the source's rows were replaced)
        if (!kept.run || source->runAt(kept.sourceRow) != kept.run)
            return -1;
        return m_proxy->mapFromSource(source->index(kept.sourceRow, 0)).row();
    };
    std::vector<int> rows;
    rows.reserve(m_keptSelection.size());
    for (const Kept& kept : m_keptSelection) {
        if (const int row = rowOf(kept); row >= 0)
            rows.push_back(row);
    }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    QItemSelection selection;
    const int last = m_proxy->columnCount() - 1;
    for (size_t i = 0; i < rows.size();) {
        size_t j = i;
        while (j + 1 < rows.size() && rows[j + 1] == rows[j] + 1)
            ++j;
        selection.append(QItemSelectionRange(m_proxy->index(rows[i], 0), m_proxy->index(rows[j], last)));
        i = j + 1;
    }
    const bool scrolls = hasAutoScroll();
    setAutoScroll(false); // the rows under the viewport change, the viewport stays where it was
    if (!selection.isEmpty())
        selectionModel()->select(selection, QItemSelectionModel::Select);
    if (const int row = rowOf(m_keptCurrent); row >= 0) {
        selectionModel()->setCurrentIndex(m_proxy->index(row, m_keptColumn), QItemSelectionModel::NoUpdate);
    } else if (m_keptCurrent.run && m_lastCurrent) {
        // The filter hides the current run (the reset cleared the current index without a signal): Details and the
        // charts' marker let go of it.
        m_currentFilteredOut = selection.isEmpty();
        m_lastCurrent = nullptr;
        emit currentRunChanged(nullptr);
    }
    setAutoScroll(scrolls);
    m_keptSelection.clear();
    m_keptCurrent = {};
}

void RunTableView::fitColumns()
{
    for (int c = 0; c < RunTableModel::ColumnCount; ++c) {
        if (!isColumnHidden(c) && !m_userSized.contains(c))
            fitColumn(c);
    }
}

void RunTableView::fitColumn(int column)
{
    // Rows sampled across the whole table, not only the first ones: a CSV's first 200 rows may all be "forward".
    const QAbstractItemModel* m = model();
    if (!m)
        return;
    const int rows = m->rowCount();
    const int step = std::max(1, rows / 400);
    const QFontMetrics metrics(font());
    int width = horizontalHeader()->fontMetrics().horizontalAdvance(m->headerData(column, Qt::Horizontal).toString())
        + 24; // the sort indicator
    for (int row = 0; row < rows; row += step)
        width = std::max(width, metrics.horizontalAdvance(m->index(row, column).data().toString()) + 14);
    // a long file path or name may not push everything else off-screen; its tooltip has all of it
    const int most = column == RunTableModel::FileColumn ? 260 : column == RunTableModel::WorkloadColumn ? 240 : 180;
    m_fitting = true;
    setColumnWidth(column, std::min(width, most));
    m_fitting = false;
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

RunPtr RunTableView::selectedCurrentRun() const
{
    if (!selectionModel() || !model())
        return {};
    const QModelIndex current = currentIndex();
    if (current.isValid() && selectionModel()->isSelected(current))
        return current.data(RunTableModel::RunRole).value<RunPtr>();
    const QItemSelection selection = selectionModel()->selection();
    if (selection.isEmpty())
        return {};
    int top = selection.front().top();
    for (const QItemSelectionRange& range : selection)
        top = std::min(top, range.top());
    return model()->index(top, 0).data(RunTableModel::RunRole).value<RunPtr>();
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

bool RunTableView::restoreState(const QString& settingsKey)
{
    const QByteArray state = QSettings().value(settingsKey).toByteArray();
    if (state.isEmpty() || !horizontalHeader()->restoreState(state))
        return false;
    for (int c = 0; c < RunTableModel::ColumnCount; ++c)
        m_userSized.insert(c); // widths the user left last time
    rebuildColumnMenu();
    return true;
}

} // namespace kix
