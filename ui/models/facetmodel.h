// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/filter/facetindex.h"
#include "model/jobs/jobtracker.h"

#include <QAbstractItemModel>
#include <QHash>
#include <QSet>

#include <memory>

namespace kix {

// The facets as a two-level tree: each facet (kernel, pass, provider, GPU, dtype, source, metric, status) with its
// values below it, each value with its drill-down count (FacetIndex) and a check mark when selected. Column 0 is
// the name, column 1 the count.
//
// Over many runs (asyncThreshold() or more) the index is built and the counts are computed off the GUI thread, one
// job at a time; a result superseded by a newer change is dropped, so the counts always end on the latest text and
// selection. Until then the previous counts are shown and isCountPending() is true.
class FacetModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, CountColumn, ColumnCount };
    enum Roles {
        FacetRole = Qt::UserRole + 1, // int(Facet) on facet and value rows
        ValueRole, // the raw value on value rows ("" for runs that lack it)
        CountRole, // int
    };

    explicit FacetModel(QObject* parent = nullptr);
    ~FacetModel() override;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    // New runs: values are recomputed; selections of values that still exist are kept.
    void setRuns(const RunList& runs);
    // The search text the counts take into account.
    void setFilterText(const QString& text);

    QSet<QString> selection(Facet facet) const { return m_selection.value(facet); }
    void setSelected(Facet facet, const QString& value, bool selected);
    void toggle(const QModelIndex& index);
    void clearSelection();
    int matchingCount() const { return m_counts.matching; }
    // Runs the values were taken from (no count exceeds it).
    int runCount() const { return m_index ? m_index->runCount() : 0; }
    // Counts are being computed off the GUI thread; the ones shown are the previous ones.
    bool isCountPending() const;
    // Runs from which indexing and counting leave the GUI thread (0: always; default 50,000).
    void setAsyncThreshold(int runs) { m_asyncThreshold = runs; }
    QModelIndex facetIndex(Facet facet) const;
    QModelIndex valueIndex(Facet facet, const QString& value) const;

signals:
    void selectionChanged(kix::Facet facet, const QSet<QString>& values);
    // The counts (and matchingCount()) changed.
    void countsChanged();

private:
    struct Job
    {
        bool newIndex = false;
        std::shared_ptr<FacetIndex> index;
        FacetIndex::Counts counts;
    };
    void recount();
    void kick();
    void finished(const Job& job);
    void adoptIndex(const std::shared_ptr<FacetIndex>& index, const FacetIndex::Counts& counts);
    void emitCountsChanged();
    RunFilter currentFilter() const;
    bool isFacetRow(const QModelIndex& index) const { return index.internalId() == 0; }

    std::shared_ptr<FacetIndex> m_index;
    int m_asyncThreshold = 50'000;
    bool m_runsQueued = false;
    bool m_countQueued = false;
    RunList m_queuedRuns;
    // One job at a time, of either kind. New runs supersede both; a new text or selection only the counts: an index
    // built for the newest runs is kept even when its counts are of an older text or selection (recounted next).
    JobTracker m_indexJobs { this }; // an index built for new runs, with its counts
    JobTracker m_countJobs { this }; // counts over the index shown
    QString m_text;
    QHash<Facet, QSet<QString>> m_selection;
    FacetIndex::Counts m_counts;
};

} // namespace kix
