// SPDX-License-Identifier: Apache-2.0
#include "model/filter/runfilterproxy.h"

#include "model/filter/runtablemodel.h"
#include "model/workload.h"

#include <QtConcurrent>

namespace kix {

namespace {

// Latency first, then the other metrics by name and unit.
int metricOrder(const Run& a, const Run& b)
{
    if (a.isLatency() != b.isLatency())
        return a.isLatency() ? -1 : 1;
    const int byName = QString::compare(a.metricName(), b.metricName(), Qt::CaseInsensitive);
    return byName != 0 ? byName : QString::compare(a.unit, b.unit, Qt::CaseInsensitive);
}

} // namespace

RunFilterProxy::RunFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
    , m_latest(std::make_shared<std::atomic<int>>(0))
    , m_watcher(new QFutureWatcher<Result>(this))
{
    setSortRole(RunTableModel::SortRole);
    connect(m_watcher, &QFutureWatcher<Result>::finished, this, [this] {
        m_running = false;
        if (m_watcher->future().resultCount() > 0)
            applyResult(m_watcher->result());
        if (m_pending)
            startJob(); // a change that came while this job ran
    });
    connect(this, &QAbstractProxyModel::sourceModelChanged, this, [this] {
        if (!sourceModel())
            return;
        // Rows appended keep the computed rows valid (rows past them are tested as they come); anything else
        // renumbers the rows.
        connect(sourceModel(), &QAbstractItemModel::rowsInserted, this, [this] { m_visibleValid = false; });
        connect(sourceModel(), &QAbstractItemModel::rowsRemoved, this, &RunFilterProxy::sourceChanged);
        connect(sourceModel(), &QAbstractItemModel::modelAboutToBeReset, this, &RunFilterProxy::sourceChanged);
        connect(sourceModel(), &QAbstractItemModel::layoutChanged, this, &RunFilterProxy::sourceChanged);
    });
}

RunFilterProxy::~RunFilterProxy()
{
    m_latest->store(-1); // a job in flight stops at its next check
    m_watcher->waitForFinished();
}

void RunFilterProxy::sourceChanged()
{
    m_accepted.reset();
    m_visibleValid = false;
    if (m_pending)
        ++m_generation; // the job in flight numbers rows that changed: it is started again when it ends
}

void RunFilterProxy::setFilterText(const QString& text)
{
    if (text == m_filter.text())
        return;
    m_filter.setText(text);
    refilter(true);
}

void RunFilterProxy::setFacet(Facet facet, const QSet<QString>& values)
{
    m_filter.setFacet(facet, values);
    refilter(false);
}

void RunFilterProxy::clearFacets()
{
    m_filter.clearFacets();
    refilter(false);
}

void RunFilterProxy::refilter(bool textOnly)
{
    const int rows = sourceModel() ? sourceModel()->rowCount() : 0;
    if (rows < m_asyncThreshold && !m_pending) {
        m_applied = m_filter;
        m_accepted.reset();
        m_visibleValid = false;
        // A facet: invalidate(), one layout change, rather than invalidateFilter(), which removes and inserts row
        // ranges one by one (a facet click that hides half of 100k rows is ~20x faster this way).
        if (textOnly)
            invalidateFilter();
        else
            invalidate();
        emit filterApplied();
        return;
    }
    ++m_generation;
    m_latest->store(m_generation);
    m_pending = true;
    if (!m_running)
        startJob();
}

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

void RunFilterProxy::startJob()
{
    const auto* model = qobject_cast<const RunTableModel*>(sourceModel());
    m_running = true; // until its result is handled (the future may be finished before its signal arrives)
    m_latest->store(m_generation);
    const int generation = m_generation;
    const RunList runs = model ? model->runs() : RunList(); // implicitly shared: no copy unless the model changes
    const RunFilter filter = m_filter;
    // Typing forward: only the rows the shown filter accepted can pass the new one.
    std::shared_ptr<const std::vector<char>> previous;
    if (m_accepted && m_accepted->size() == size_t(runs.size()) && sameFacets(m_applied, filter)
        && filterTextNarrows(m_applied, filter))
        previous = m_accepted;
    const std::shared_ptr<std::atomic<int>> latest = m_latest;
    m_watcher->setFuture(QtConcurrent::run([runs, filter, previous, latest, generation]() -> Result {
        Result result;
        result.generation = generation;
        result.filter = filter;
        const qsizetype n = runs.size();
        auto accepted = std::make_shared<std::vector<char>>(size_t(n), 1);
        if (!filter.isEmpty()) {
            constexpr qsizetype chunk = 16384;
            QVector<qsizetype> starts;
            for (qsizetype s = 0; s < n; s += chunk)
                starts << s;
            std::vector<char>& out = *accepted;
            QtConcurrent::blockingMap(starts, [&](qsizetype start) {
                if (latest->load() != generation)
                    return; // superseded: the result is dropped
                const qsizetype end = std::min(n, start + chunk);
                for (qsizetype i = start; i < end; ++i)
                    out[size_t(i)] = (previous && !(*previous)[size_t(i)]) ? 0 : filter.matches(*runs[i]) ? 1 : 0;
            });
        }
        if (latest->load() != generation)
            return result;
        result.visible.reserve(n);
        for (qsizetype i = 0; i < n; ++i) {
            if ((*accepted)[size_t(i)])
                result.visible.append(runs[i]);
        }
        result.accepted = std::move(accepted);
        return result;
    }));
}

void RunFilterProxy::applyResult(const Result& result)
{
    if (result.generation != m_generation || !result.accepted)
        return; // superseded, or the rows changed under it: a newer job follows
    m_pending = false;
    m_applied = result.filter;
    m_accepted = result.accepted;
    invalidate(); // one layout change; filterAcceptsRow reads the computed rows
    m_visible = result.visible;
    m_visibleValid = true;
    emit filterApplied();
}

RunList RunFilterProxy::visibleRuns() const
{
    const auto* model = qobject_cast<const RunTableModel*>(sourceModel());
    if (model && sortColumn() < 0) { // source order: no walk over the rows
        if (m_applied.isEmpty())
            return model->runs();
        if (m_visibleValid)
            return m_visible;
    }
    RunList out;
    const int rows = rowCount();
    out.reserve(rows);
    for (int row = 0; row < rows; ++row) {
        const int source = mapToSource(index(row, 0)).row();
        out.append(model ? model->runAt(source) : index(row, 0).data(RunTableModel::RunRole).value<RunPtr>());
    }
    return out;
}

bool RunFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (m_applied.isEmpty())
        return true;
    if (m_accepted && size_t(sourceRow) < m_accepted->size())
        return (*m_accepted)[size_t(sourceRow)] != 0;
    const auto* model = qobject_cast<const RunTableModel*>(sourceModel());
    if (!model)
        return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
    const RunPtr run = model->runAt(sourceRow);
    return run && m_applied.matches(*run);
}

bool RunFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    if (left.column() == RunTableModel::WorkloadColumn) { // numerically: channels=128 before channels=1024
        const RunPtr a = left.data(RunTableModel::RunRole).value<RunPtr>();
        const RunPtr b = right.data(RunTableModel::RunRole).value<RunPtr>();
        if (a && b)
            return compareWorkloads(*a, *b) < 0;
    }
    const int column = left.column();
    if (column == RunTableModel::MedianColumn || column == RunTableModel::P20Column
        || column == RunTableModel::P80Column) { // never interleave µs, MB and scores: metric first, then the value
        const RunPtr a = left.data(RunTableModel::RunRole).value<RunPtr>();
        const RunPtr b = right.data(RunTableModel::RunRole).value<RunPtr>();
        if (a && b) {
            const int metric = metricOrder(*a, *b);
            if (metric != 0)
                return metric < 0;
        }
    }
    const QVariant l = left.data(sortRole());
    const QVariant r = right.data(sortRole());
    if (l.typeId() == QMetaType::Double && r.typeId() == QMetaType::Double) {
        const double a = l.toDouble();
        const double b = r.toDouble();
        if (std::isnan(a) || std::isnan(b)) // empty cells sort last
            return !std::isnan(a) && std::isnan(b);
        return a < b;
    }
    if (l.typeId() == QMetaType::QDateTime && r.typeId() == QMetaType::QDateTime)
        return l.toDateTime() < r.toDateTime();
    return QString::compare(l.toString(), r.toString(), Qt::CaseInsensitive) < 0;
}

} // namespace kix
