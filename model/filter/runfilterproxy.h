// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/filter/rowmapping.h"
#include "model/filter/runfilter.h"
#include "model/jobs/jobtracker.h"

#include <QAbstractProxyModel>
#include <QTimer>

#include <memory>
#include <vector>

namespace kix {

// The run table's rows: a RunTableModel filtered with a RunFilter (text terms and facets) and sorted by a column
// (the headline columns by metric first, so µs, MB and scores never interleave; stable; see runLess()).
//
// The rows are a list of source rows (and its inverse). Over a large table (asyncThreshold() source rows or more)
// a filter or sort change does not block the GUI thread: the list is built in a worker (typing forward tests only
// the rows the previous text accepted; a filter change under a kept sort picks the rows out of the sorted table)
// and swapped in when it arrives, in one model reset with no per-row work; views keep their current run and
// selection by the runs themselves (see RunTableView). A newer change supersedes a build in flight: the old one
// stops early and its result is dropped (a JobTracker), so the table always ends on the latest request.
// Until it arrives the table shows the previous rows, runFilter() and sortColumn() are what was asked for and
// isFilterPending() is true. Below the threshold every change applies at once.
//
// Rows appended to the source are tested as they come and appended (a sorted table then re-sorts, off the thread
// when large); the cost of an append is that of its own rows.
//
// The workers filter through the filter's columns (FilterIndex): built over a large table once rows stop arriving,
// extended by the next build after an append, dropped when the source's rows are renumbered. Row builds and the
// index run on a thread pool of their own, never queued behind other views' jobs.
class RunFilterProxy : public QAbstractProxyModel
{
    Q_OBJECT
public:
    explicit RunFilterProxy(QObject* parent = nullptr);
    ~RunFilterProxy() override;

    void setSourceModel(QAbstractItemModel* source) override;
    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    QModelIndex sibling(int row, int column, const QModelIndex& index) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QModelIndex mapToSource(const QModelIndex& proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex& sourceIndex) const override;
    // -1: source order. Applied at once below asyncThreshold(), else when the worker's rows arrive.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    int sortColumn() const { return m_sortColumn; } // asked for
    Qt::SortOrder sortOrder() const { return m_sortOrder; }

    void setFilterText(const QString& text);
    void setFacet(Facet facet, const QSet<QString>& values);
    void clearFacets();
    // The filter asked for (the rows shown follow it once isFilterPending() is false).
    const RunFilter& runFilter() const { return m_filter; }

    // The runs shown, in the proxy's current order.
    RunList visibleRuns() const;
    // The rows are being computed off the GUI thread (a filter or sort change); the rows shown are the previous.
    bool isFilterPending() const { return m_pending; }
    // Source rows from which a change is computed off the GUI thread (0: always; default 50,000).
    void setAsyncThreshold(int rows) { m_asyncThreshold = rows; }
    int asyncThreshold() const { return m_asyncThreshold; }

signals:
    // The rows shown now follow runFilter() and sortColumn() (after a change computed off the GUI thread, or at
    // once).
    void filterApplied();

private:
    struct Result
    {
        qsizetype sourceRows = 0; // the snapshot's rows (rows appended since are added when it is applied)
        RunFilter filter;
        int sortColumn = -1;
        Qt::SortOrder order = Qt::AscendingOrder;
        std::shared_ptr<RowMapping> mapping;
    };
    const RunList& sourceRuns() const;
    RowMappingInput makeInput() const;
    void request(); // a new filter or sort asked for
    void startJob();
    void onJobFinished(Result&& result);
    void apply(RowMapping&& mapping, const RunFilter& filter, int sortColumn, Qt::SortOrder order);
    void appendSourceRows(int first, int last);
    void sourceAboutToReset();
    void sourceReset();
    // Over a large table the filter's index is built (or extended) ahead of the first filter, once rows stop
    // arriving for a moment (a job holding the rows while a load appends would make the model copy its list).
    void prepareIndexSoon();
    void prepareIndex();

    RunFilter m_filter; // asked for
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    RunFilter m_applied; // what the rows shown follow
    int m_appliedColumn = -1;
    Qt::SortOrder m_appliedOrder = Qt::AscendingOrder;
    std::vector<int> m_toSource; // proxy row -> source row
    std::vector<int> m_fromSource; // source row -> proxy row (-1: hidden); a job gets a copy
    std::shared_ptr<const std::vector<int>> m_sortedAll; // every source row in the applied sort; reset on renumbering
    std::shared_ptr<const FilterIndex> m_index; // the filter's columns over the first source rows (likewise)
    mutable RunList m_visible; // the runs shown, while m_visibleValid
    mutable bool m_visibleValid = false;
    bool m_pending = false;
    bool m_resetting = false; // between the source's modelAboutToBeReset and modelReset
    int m_asyncThreshold = 50'000;
    // One row build at a time (its result is still to be handled while running()); each request, and the source's
    // rows renumbered, drop the one in flight: it stops early.
    JobTracker m_rowJobs { this };
    // One index build at a time; the source's rows renumbered drop the one in flight.
    JobTracker m_indexJobs { this };
    QTimer* m_indexTimer;
    QList<QMetaObject::Connection> m_sourceConnections;
};

} // namespace kix
