// SPDX-License-Identifier: Apache-2.0
#include "ui/models/facetmodel.h"

#include "model/jobs/pools.h"

#include <QBrush>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>
#include <QThreadPool>

namespace kix {

// internalId: 0 for a facet row, facet row + 1 for a value row.
FacetModel::FacetModel(QObject* parent)
    : QAbstractItemModel(parent)
    , m_index(std::make_shared<FacetIndex>())
{
    m_counts = m_index->count(currentFilter());
}

FacetModel::~FacetModel()
{
    m_indexJobs.waitForDone();
    m_countJobs.waitForDone();
}

bool FacetModel::isCountPending() const
{
    return m_indexJobs.running() > 0 || m_countJobs.running() > 0 || m_runsQueued || m_countQueued;
}

void FacetModel::kick()
{
    // A job runs until its result is handled (the future may be finished before its signal arrives).
    if (m_indexJobs.running() > 0 || m_countJobs.running() > 0 || (!m_runsQueued && !m_countQueued))
        return;
    Job job;
    job.newIndex = m_runsQueued;
    // One job at a time: the index's text-match cache is only ever touched by the job running.
    job.index = m_runsQueued ? std::make_shared<FacetIndex>() : m_index;
    const RunList runs = m_queuedRuns;
    const RunFilter filter = currentFilter();
    m_runsQueued = m_countQueued = false;
    m_queuedRuns.clear();
    JobTracker& jobs = job.newIndex ? m_indexJobs : m_countJobs;
    jobs.run(
        facetJobPool(),
        [job, runs, filter](const CancelToken&) mutable {
            if (job.newIndex)
                job.index->setRuns(runs);
            job.counts = job.index->count(filter);
            return job;
        },
        [this](Job&& done) {
            finished(done);
            kick();
        },
        [this](Job&&) { kick(); }); // superseded: what superseded it is queued
}

void FacetModel::finished(const Job& job)
{
    if (job.newIndex) {
        adoptIndex(job.index, job.counts); // counts of an older text or selection are recounted next
        return;
    }
    if (job.index != m_index)
        return; // superseded
    m_counts = job.counts;
    emitCountsChanged();
}

void FacetModel::emitCountsChanged()
{
    // Only the counts change: one dataChanged per facet's children.
    for (int f = 0; f < m_index->facets().size(); ++f) {
        const int n = int(m_index->values(m_index->facets()[f]).size());
        if (n == 0)
            continue;
        const QModelIndex parent = index(f, 0);
        emit dataChanged(index(0, 0, parent), index(n - 1, CountColumn, parent));
    }
    emit countsChanged();
}

QModelIndex FacetModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row < m_index->facets().size() ? createIndex(row, column, quintptr(0)) : QModelIndex();
    if (!isFacetRow(parent) || parent.column() != 0)
        return {};
    const int f = parent.row();
    if (row >= m_index->values(m_index->facets()[f]).size())
        return {};
    return createIndex(row, column, quintptr(f + 1));
}

QModelIndex FacetModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || isFacetRow(child))
        return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int FacetModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return int(m_index->facets().size());
    if (isFacetRow(parent) && parent.column() == 0)
        return int(m_index->values(m_index->facets()[parent.row()]).size());
    return 0;
}

int FacetModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant FacetModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    if (isFacetRow(index)) {
        const Facet facet = m_index->facets()[index.row()];
        const int selected = int(m_selection.value(facet).size());
        switch (role) {
        case Qt::DisplayRole:
            if (index.column() == NameColumn)
                return selected > 0 ? QStringLiteral("%1 (%2 selected)").arg(facetName(facet)).arg(selected)
                                    : facetName(facet);
            return QString::number(m_index->values(facet).size());
        case Qt::FontRole: {
            QFont font;
            font.setBold(true);
            return font;
        }
        case Qt::ToolTipRole:
            return index.column() == CountColumn ? QStringLiteral("distinct values") : QVariant();
        case FacetRole:
            return int(facet);
        default:
            return {};
        }
    }
    const int f = int(index.internalId() - 1);
    const Facet facet = m_index->facets()[f];
    const QString& value = m_index->values(facet)[index.row()];
    const int count = m_counts.perFacet.value(f).value(index.row());
    const bool checked = m_selection.value(facet).contains(value);
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == NameColumn)
            return value.isEmpty() ? QStringLiteral("(none)") : value;
        return count;
    case Qt::CheckStateRole:
        return index.column() == NameColumn ? QVariant(checked ? Qt::Checked : Qt::Unchecked) : QVariant();
    case Qt::ForegroundRole:
        if (count == 0 && !checked)
            return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == CountColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::ToolTipRole:
        return QStringLiteral("%1\n%2 run(s) would show with %3 = %1")
            .arg(value.isEmpty() ? QStringLiteral("(none)") : value)
            .arg(count)
            .arg(facetName(facet));
    case FacetRole:
        return int(facet);
    case ValueRole:
        return value;
    case CountRole:
        return count;
    default:
        return {};
    }
}

QVariant FacetModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == NameColumn ? QStringLiteral("Facet") : QStringLiteral("Runs");
}

Qt::ItemFlags FacetModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    // Value rows are toggled by a click anywhere on the row (FacetsPanel), so not Qt::ItemIsUserCheckable:
    // the delegate would toggle a click on the box a second time.
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable;
}

bool FacetModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || isFacetRow(index) || role != Qt::CheckStateRole || index.column() != NameColumn)
        return false;
    const Facet facet = m_index->facets()[int(index.internalId() - 1)];
    setSelected(facet, index.data(ValueRole).toString(), value.value<Qt::CheckState>() == Qt::Checked);
    return true;
}

void FacetModel::setSelected(Facet facet, const QString& value, bool selected)
{
    QSet<QString>& set = m_selection[facet];
    if (set.contains(value) == selected)
        return;
    if (selected)
        set.insert(value);
    else
        set.remove(value);
    if (set.isEmpty())
        m_selection.remove(facet);
    const QSet<QString> values = m_selection.value(facet);
    recount();
    const QModelIndex parent = facetIndex(facet);
    emit dataChanged(parent, parent.siblingAtColumn(CountColumn));
    emit selectionChanged(facet, values);
}

void FacetModel::toggle(const QModelIndex& index)
{
    if (!index.isValid() || isFacetRow(index))
        return;
    const Facet facet = m_index->facets()[int(index.internalId() - 1)];
    const QString value = index.siblingAtColumn(NameColumn).data(ValueRole).toString();
    setSelected(facet, value, !m_selection.value(facet).contains(value));
}

void FacetModel::clearSelection()
{
    const QList<Facet> facets = m_selection.keys();
    m_selection.clear();
    recount();
    for (Facet facet : facets) {
        const QModelIndex parent = facetIndex(facet);
        emit dataChanged(parent, parent.siblingAtColumn(CountColumn));
        emit selectionChanged(facet, {});
    }
}

QModelIndex FacetModel::facetIndex(Facet facet) const
{
    const int f = int(m_index->facets().indexOf(facet));
    return f < 0 ? QModelIndex() : index(f, 0);
}

QModelIndex FacetModel::valueIndex(Facet facet, const QString& value) const
{
    const QModelIndex parent = facetIndex(facet);
    const int row = int(m_index->values(facet).indexOf(value));
    return row < 0 ? QModelIndex() : index(row, 0, parent);
}

void FacetModel::setRuns(const RunList& runs)
{
    if (runs.size() >= m_asyncThreshold || isCountPending()) {
        m_queuedRuns = runs;
        m_runsQueued = true;
        m_indexJobs.cancel();
        m_countJobs.cancel();
        kick();
        return;
    }
    auto index = std::make_shared<FacetIndex>();
    index->setRuns(runs);
    RunFilter filter = currentFilter();
    adoptIndex(index, index->count(filter));
}

void FacetModel::adoptIndex(const std::shared_ptr<FacetIndex>& fresh, const FacetIndex::Counts& counts)
{
    beginResetModel();
    m_index = fresh;
    // Keep the selections whose values still exist; drop the others silently (they would select nothing).
    QList<Facet> emptied;
    for (auto it = m_selection.begin(); it != m_selection.end();) {
        const QStringList& values = m_index->values(it.key());
        for (auto v = it->begin(); v != it->end();) {
            if (values.contains(*v))
                ++v;
            else
                v = it->erase(v);
        }
        if (it->isEmpty()) {
            emptied << it.key();
            it = m_selection.erase(it);
        } else {
            ++it;
        }
    }
    m_counts = counts; // no dataChanged inside a reset
    endResetModel();
    emit countsChanged();
    for (Facet facet : std::as_const(emptied))
        emit selectionChanged(facet, {});
    if (!emptied.isEmpty())
        recount();
}

void FacetModel::setFilterText(const QString& text)
{
    if (text == m_text)
        return;
    m_text = text;
    recount();
}

RunFilter FacetModel::currentFilter() const
{
    RunFilter filter;
    filter.setText(m_text);
    for (auto it = m_selection.cbegin(); it != m_selection.cend(); ++it)
        filter.setFacet(it.key(), it.value());
    return filter;
}

void FacetModel::recount()
{
    if (m_index->runCount() >= m_asyncThreshold || isCountPending()) {
        m_countJobs.cancel();
        m_countQueued = true;
        kick();
        return;
    }
    m_counts = m_index->count(currentFilter());
    emitCountsChanged();
}

} // namespace kix
