// SPDX-License-Identifier: Apache-2.0
#include "model/filter/runfilterproxy.h"

#include "model/filter/runtablemodel.h"
#include "model/jobs/pools.h"

#include <QThreadPool>

namespace kix {

namespace {

bool sameFacets(const RunFilter& a, const RunFilter& b)
{
    for (Facet f : allFacets()) {
        if (a.facet(f) != b.facet(f))
            return false;
    }
    return true;
}

} // namespace

RunFilterProxy::RunFilterProxy(QObject* parent)
    : QAbstractProxyModel(parent)
    , m_indexTimer(new QTimer(this))
{
    m_indexTimer->setSingleShot(true);
    m_indexTimer->setInterval(400); // ms
    connect(m_indexTimer, &QTimer::timeout, this, &RunFilterProxy::prepareIndex);
}

RunFilterProxy::~RunFilterProxy()
{
    m_rowJobs.cancel(); // a job in flight stops at its next check
    m_rowJobs.waitForDone();
    m_indexJobs.waitForDone();
}

void RunFilterProxy::prepareIndexSoon()
{
    if (sourceRuns().size() >= m_asyncThreshold && !(m_index && m_index->size() == sourceRuns().size()))
        m_indexTimer->start();
}

void RunFilterProxy::prepareIndex()
{
    const RunList& runs = sourceRuns();
    if (m_indexJobs.running() > 0 || runs.size() < m_asyncThreshold || (m_index && m_index->size() == runs.size()))
        return;
    using Index = std::shared_ptr<const FilterIndex>;
    m_indexJobs.run(
        rowJobPool(), [base = m_index, runs](const CancelToken&) { return FilterIndex::extend(base, runs); },
        [this](Index&& index) {
            if (index && (!m_index || index->size() > m_index->size()))
                m_index = std::move(index);
            prepareIndexSoon(); // rows that came meanwhile
        },
        [this](Index&&) { prepareIndexSoon(); }); // of rows since renumbered
}

const RunList& RunFilterProxy::sourceRuns() const
{
    static const RunList none;
    const auto* model = qobject_cast<const RunTableModel*>(sourceModel());
    return model ? model->runs() : none;
}

void RunFilterProxy::setSourceModel(QAbstractItemModel* source)
{
    beginResetModel();
    m_resetting = true;
    for (const QMetaObject::Connection& c : std::as_const(m_sourceConnections))
        disconnect(c);
    m_sourceConnections.clear();
    QAbstractProxyModel::setSourceModel(source);
    if (source) {
        auto& c = m_sourceConnections;
        c << connect(source, &QAbstractItemModel::modelAboutToBeReset, this, &RunFilterProxy::sourceAboutToReset);
        c << connect(source, &QAbstractItemModel::modelReset, this, &RunFilterProxy::sourceReset);
        // Anything but an append renumbers the rows: the mapping is rebuilt.
        c << connect(source, &QAbstractItemModel::layoutAboutToBeChanged, this, &RunFilterProxy::sourceAboutToReset);
        c << connect(source, &QAbstractItemModel::layoutChanged, this, &RunFilterProxy::sourceReset);
        c << connect(source, &QAbstractItemModel::rowsAboutToBeRemoved, this, &RunFilterProxy::sourceAboutToReset);
        c << connect(source, &QAbstractItemModel::rowsRemoved, this, &RunFilterProxy::sourceReset);
        c << connect(source, &QAbstractItemModel::rowsMoved, this, [this] {
            sourceAboutToReset();
            sourceReset();
        });
        c << connect(source, &QAbstractItemModel::columnsAboutToBeInserted, this, &RunFilterProxy::sourceAboutToReset);
        c << connect(source, &QAbstractItemModel::columnsInserted, this, &RunFilterProxy::sourceReset);
        c << connect(source, &QAbstractItemModel::columnsAboutToBeRemoved, this, &RunFilterProxy::sourceAboutToReset);
        c << connect(source, &QAbstractItemModel::columnsRemoved, this, &RunFilterProxy::sourceReset);
        c << connect(
            source, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex& parent, int first, int last) {
                if (parent.isValid())
                    return;
                if (size_t(first) == m_fromSource.size()) {
                    appendSourceRows(first, last);
                } else {
                    sourceAboutToReset();
                    sourceReset();
                }
            });
        c << connect(source, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex& topLeft, const QModelIndex& bottomRight, const QList<int>& roles) {
                // Runs are immutable: a change is how a cell reads (the Workload column), not where the row goes.
                if (m_toSource.empty() || !topLeft.isValid() || !bottomRight.isValid())
                    return;
                emit dataChanged(index(0, topLeft.column()), index(rowCount() - 1, bottomRight.column()), roles);
            });
        c << connect(source, &QAbstractItemModel::headerDataChanged, this,
            [this](Qt::Orientation orientation, int first, int last) {
                if (orientation == Qt::Horizontal)
                    emit headerDataChanged(orientation, first, last);
                else if (!m_toSource.empty())
                    emit headerDataChanged(orientation, 0, rowCount() - 1);
            });
    }
    sourceReset(); // ends the reset
}

QModelIndex RunFilterProxy::index(int row, int column, const QModelIndex& parent) const
{
    if (parent.isValid() || row < 0 || row >= rowCount() || column < 0 || column >= columnCount())
        return {};
    return createIndex(row, column);
}

QModelIndex RunFilterProxy::parent(const QModelIndex&) const
{
    return {};
}

QModelIndex RunFilterProxy::sibling(int row, int column, const QModelIndex& index) const
{
    return index.isValid() ? this->index(row, column) : QModelIndex();
}

int RunFilterProxy::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_toSource.size());
}

int RunFilterProxy::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !sourceModel() ? 0 : sourceModel()->columnCount();
}

bool RunFilterProxy::hasChildren(const QModelIndex& parent) const
{
    return !parent.isValid() && rowCount() > 0 && columnCount() > 0;
}

QVariant RunFilterProxy::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (!sourceModel())
        return {};
    if (orientation == Qt::Horizontal)
        return sourceModel()->headerData(section, orientation, role);
    if (section < 0 || section >= rowCount())
        return {};
    return sourceModel()->headerData(m_toSource[size_t(section)], orientation, role);
}

QModelIndex RunFilterProxy::mapToSource(const QModelIndex& proxyIndex) const
{
    if (!proxyIndex.isValid() || proxyIndex.model() != this || !sourceModel()
        || size_t(proxyIndex.row()) >= m_toSource.size())
        return {};
    return sourceModel()->index(m_toSource[size_t(proxyIndex.row())], proxyIndex.column());
}

QModelIndex RunFilterProxy::mapFromSource(const QModelIndex& sourceIndex) const
{
    if (!sourceIndex.isValid() || sourceIndex.model() != sourceModel() || sourceIndex.parent().isValid())
        return {};
    const size_t row = size_t(sourceIndex.row());
    if (row >= m_fromSource.size() || m_fromSource[row] < 0)
        return {};
    return index(m_fromSource[row], sourceIndex.column());
}

void RunFilterProxy::sort(int column, Qt::SortOrder order)
{
    if (column < 0)
        order = Qt::AscendingOrder; // source order has no direction
    if (column == m_sortColumn && order == m_sortOrder)
        return;
    m_sortColumn = column;
    m_sortOrder = order;
    request();
}

void RunFilterProxy::setFilterText(const QString& text)
{
    if (text == m_filter.text())
        return;
    m_filter.setText(text);
    request();
}

void RunFilterProxy::setFacet(Facet facet, const QSet<QString>& values)
{
    m_filter.setFacet(facet, values);
    request();
}

void RunFilterProxy::clearFacets()
{
    m_filter.clearFacets();
    request();
}

RowMappingInput RunFilterProxy::makeInput() const
{
    RowMappingInput in;
    in.runs = sourceRuns(); // implicitly shared: no copy unless the model changes
    in.filter = m_filter;
    in.sortColumn = m_sortColumn;
    in.order = m_sortOrder;
    // Typing forward: only the rows the shown filter accepted can pass the new one.
    // The job gets its own copy of the shown rows (4 MB at 1M rows): appends change ours while it runs.
    if (sameFacets(m_applied, m_filter) && filterTextNarrows(m_applied, m_filter) && !m_applied.isEmpty())
        in.narrowFrom = std::make_shared<const std::vector<int>>(m_fromSource);
    // The same sort over the same rows: a filter change picks the rows out of it.
    in.index = m_index;
    if (m_sortedAll && m_sortColumn == m_appliedColumn && m_sortOrder == m_appliedOrder
        && qsizetype(m_sortedAll->size()) == in.runs.size())
        in.sortedAll = m_sortedAll;
    return in;
}

void RunFilterProxy::request()
{
    m_rowJobs.cancel(); // a job in flight for an older request stops early and is dropped
    const RunList& runs = sourceRuns();
    const bool everyRowInOrder = m_filter.isEmpty() && m_sortColumn < 0; // no test, no sort: O(n) copies
    if (runs.size() < m_asyncThreshold || everyRowInOrder) {
        m_pending = false;
        apply(computeRowMapping(makeInput()), m_filter, m_sortColumn, m_sortOrder);
        emit filterApplied();
        return;
    }
    m_pending = true;
    if (m_rowJobs.running() == 0)
        startJob();
}

void RunFilterProxy::startJob()
{
    Result base;
    base.filter = m_filter;
    base.sortColumn = m_sortColumn;
    base.order = m_sortOrder;
    RowMappingInput in = makeInput();
    base.sourceRows = in.runs.size();
    m_rowJobs.run(
        rowJobPool(),
        [in = std::move(in), base](const CancelToken& cancel) -> Result {
            Result result = base;
            result.mapping
                = std::make_shared<RowMapping>(computeRowMapping(in, [&cancel] { return cancel.cancelled(); }));
            return result;
        },
        [this](Result&& result) { onJobFinished(std::move(result)); },
        [this](Result&&) {
            if (m_pending)
                startJob(); // the change that superseded it
        });
}

void RunFilterProxy::onJobFinished(Result&& result)
{
    const RunList& runs = sourceRuns();
    if (result.mapping && result.mapping->complete && result.sourceRows <= runs.size()) {
        RowMapping& mapping = *result.mapping;
        // Rows appended while the job ran: tested now, shown after its rows (a sorted table sorts them next).
        bool tail = false;
        mapping.fromSource.resize(size_t(runs.size()), -1);
        for (qsizetype i = result.sourceRows; i < runs.size(); ++i) {
            if (result.filter.isEmpty() || result.filter.matches(*runs[i])) {
                mapping.fromSource[size_t(i)] = int(mapping.toSource.size());
                mapping.toSource.push_back(int(i));
                tail = true;
            }
        }
        if (tail)
            mapping.visible.clear(); // rebuilt when asked for
        const bool resort = tail && result.sortColumn >= 0;
        m_pending = resort;
        apply(std::move(mapping), result.filter, result.sortColumn, result.order);
        if (!resort)
            emit filterApplied();
    }
    if (m_pending)
        startJob(); // a change that came while this job ran, or rows to sort in
}

void RunFilterProxy::apply(RowMapping&& mapping, const RunFilter& filter, int sortColumn, Qt::SortOrder order)
{
    // One reset, no per-row work: views keep their current run and selection by the runs (RunTableView).
    if (!m_resetting)
        beginResetModel();
    RunList old = std::move(m_visible);
    m_toSource = std::move(mapping.toSource);
    m_fromSource = std::move(mapping.fromSource);
    m_visibleValid = mapping.complete && qsizetype(m_toSource.size()) == mapping.visible.size();
    m_visible = m_visibleValid ? std::move(mapping.visible) : RunList();
    m_sortedAll = std::move(mapping.sortedAll);
    if (mapping.index && (!m_index || mapping.index->size() >= m_index->size()))
        m_index = std::move(mapping.index);
    if (old.size() > 10'000 && old.isDetached()) // the last reference to a big list: freed there
        rowJobPool()->start([old = std::move(old)]() mutable { old = RunList(); });
    m_applied = filter;
    m_appliedColumn = sortColumn;
    m_appliedOrder = order;
    if (!m_resetting)
        endResetModel();
}

void RunFilterProxy::appendSourceRows(int first, int last)
{
    const RunList& runs = sourceRuns();
    std::vector<int> added;
    for (int i = first; i <= last && i < runs.size(); ++i) {
        if (m_applied.isEmpty() || m_applied.matches(*runs[i]))
            added.push_back(i);
    }
    m_fromSource.resize(size_t(last) + 1, -1);
    prepareIndexSoon();
    if (added.empty())
        return;
    const int at = rowCount();
    beginInsertRows({}, at, at + int(added.size()) - 1);
    for (int row : added) {
        m_fromSource[size_t(row)] = int(m_toSource.size());
        m_toSource.push_back(row);
    }
    m_visibleValid = false;
    endInsertRows();
    if (m_appliedColumn < 0)
        return;
    // A sorted table sorts the new rows in: at once when small, else off the thread (shown at the end until then).
    if (runs.size() < m_asyncThreshold && m_rowJobs.running() == 0) {
        apply(computeRowMapping(makeInput()), m_filter, m_sortColumn, m_sortOrder);
        return;
    }
    m_pending = true;
    if (m_rowJobs.running() == 0)
        startJob();
}

void RunFilterProxy::sourceAboutToReset()
{
    if (m_resetting)
        return;
    beginResetModel();
    m_resetting = true;
}

void RunFilterProxy::sourceReset()
{
    if (!m_resetting)
        beginResetModel(); // (a reset that came without its announcement)
    m_resetting = true;
    // A job in flight numbers rows that changed: its result is dropped.
    m_rowJobs.cancel();
    m_indexJobs.cancel();
    m_sortedAll.reset();
    m_index.reset();
    m_fromSource.clear(); // of the old rows: nothing to narrow from
    const RunList& runs = sourceRuns();
    const bool wasPending = m_pending;
    if (runs.size() < m_asyncThreshold || (m_filter.isEmpty() && m_sortColumn < 0)) {
        m_pending = false;
        apply(computeRowMapping(makeInput()), m_filter, m_sortColumn, m_sortOrder);
    } else {
        // Every row in source order until the worker's rows arrive (O(n) copies, no test, no sort).
        RowMappingInput all;
        all.runs = runs;
        apply(computeRowMapping(all), RunFilter(), -1, Qt::AscendingOrder);
        m_pending = true;
    }
    m_resetting = false;
    endResetModel();
    if (m_pending && m_rowJobs.running() == 0)
        startJob();
    prepareIndexSoon();
    if (wasPending && !m_pending)
        emit filterApplied();
}

RunList RunFilterProxy::visibleRuns() const
{
    if (m_applied.isEmpty() && m_appliedColumn < 0)
        return sourceRuns(); // every row in source order: no walk over the rows
    if (m_visibleValid)
        return m_visible;
    const RunList& runs = sourceRuns();
    RunList out;
    out.reserve(qsizetype(m_toSource.size()));
    for (int row : m_toSource)
        out.append(runs[row]);
    m_visible = out;
    m_visibleValid = true;
    return out;
}

} // namespace kix
