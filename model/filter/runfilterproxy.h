// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/filter/runfilter.h"

#include <QFutureWatcher>
#include <QSortFilterProxyModel>

#include <atomic>
#include <memory>
#include <vector>

namespace kix {

// Sorts by RunTableModel::SortRole (the headline columns by metric first, so µs, MB and scores never interleave)
// and filters with a RunFilter (text terms and facets).
//
// Over a large table (asyncThreshold() source rows or more) a filter change does not block the GUI thread: the
// accepted rows are computed in a worker (typing forward tests only the rows the previous text accepted), and the
// result is applied in one layout change when it arrives. A newer change supersedes one in flight: the old result
// is dropped (a generation counter), so the table always ends on the latest filter. Until it arrives the table
// shows the previous filter's rows, runFilter() is the filter asked for and isFilterPending() is true.
class RunFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit RunFilterProxy(QObject* parent = nullptr);
    ~RunFilterProxy() override;

    void setFilterText(const QString& text);
    void setFacet(Facet facet, const QSet<QString>& values);
    void clearFacets();
    // The filter asked for (the rows shown follow it once isFilterPending() is false).
    const RunFilter& runFilter() const { return m_filter; }

    // The runs that pass the filter, in the proxy's current order.
    RunList visibleRuns() const;
    // A filter result is being computed off the GUI thread; the rows shown are the previous filter's.
    bool isFilterPending() const { return m_pending; }
    // Source rows from which a filter change is computed off the GUI thread (0: always; default 50,000).
    void setAsyncThreshold(int rows) { m_asyncThreshold = rows; }
    int asyncThreshold() const { return m_asyncThreshold; }

signals:
    // The rows shown now follow runFilter() (after a change computed off the GUI thread, or at once).
    void filterApplied();

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    struct Result
    {
        int generation = 0;
        RunFilter filter;
        std::shared_ptr<const std::vector<char>> accepted; // per source row
        RunList visible; // accepted runs, in source order
    };
    void refilter(bool textOnly);
    void startJob();
    void applyResult(const Result& result);
    void sourceChanged();

    RunFilter m_filter; // asked for
    RunFilter m_applied; // what the rows shown follow
    std::shared_ptr<const std::vector<char>> m_accepted; // m_applied per source row, when computed off-thread
    RunList m_visible; // accepted runs in source order, while m_visibleValid
    bool m_visibleValid = false;
    bool m_pending = false;
    bool m_running = false; // a job's result is still to be handled
    int m_asyncThreshold = 50'000;
    int m_generation = 0;
    std::shared_ptr<std::atomic<int>> m_latest; // the newest generation, read by workers to stop early
    QFutureWatcher<Result>* m_watcher;
};

} // namespace kix
