// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/compare/comparison.h"
#include "model/jobs/jobtracker.h"

#include <QAbstractTableModel>

#include <functional>
#include <vector>

namespace kix {

// The pairs of a speed-up comparison, one row each, beside the chart: the speed-up and verdict (with a noise flag),
// the workload by what varies ("channels=2048"), both medians, how the verdict was decided, and every warning.
//
// The model sorts itself (a header click: sort()), through a permutation of the comparison's pairs: no proxy, so a
// new comparison of a million runs is a reset of O(1) on the GUI thread, not a mapping of every row. Over
// asyncSortThreshold() pairs the order is found off the GUI thread (workerPool()); until it lands the rows keep the
// order they have (a new comparison: its own), a newer sort or comparison drops it, and the rows then move with
// layoutChanged (the selection and current row follow their pairs). A sort column stays for the comparisons that
// follow; column -1 is the comparison's own order.
class ComparisonModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        WorkloadColumn,
        ProviderColumn,
        GpuColumn,
        BaselineColumn,
        BaselineMedianColumn,
        MedianColumn,
        SpeedupColumn,
        VerdictColumn,
        MethodColumn,
        PValueColumn,
        WarningsColumn,
        BandwidthColumn, // the run's achieved GB/s and fraction of copy bandwidth, where recorded
        ColumnCount
    };
    enum Roles { SortRole = Qt::UserRole + 1 };

    explicit ComparisonModel(QObject* parent = nullptr);
    ~ComparisonModel() override;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    // By SortRole: numbers numerically (a missing one, NaN, last in either order), text case-sensitively, the
    // Workload column in the comparison's order (kernel, pass, then workload parameters numerically); ties keep the
    // comparison's order. Column -1: the comparison's order.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    void setComparison(const Comparison& comparison); // reads every pair: workloadKeys(comparison)
    // The same with the Workload column's keys already found (off the GUI thread for many pairs).
    void setComparison(const Comparison& comparison, const QStringList& workloadKeys);
    // The workload parameters that vary among the pairs, else (one workload) all of its parameters.
    static QStringList workloadKeys(const Comparison& comparison);
    const Comparison& comparison() const { return m_comparison; }

    // The pair shown in `row` (an index into comparison().pairs).
    int pairIndex(int row) const { return m_order.empty() ? row : m_order[size_t(row)]; }
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }
    // A sort asked for is still being found off the GUI thread (sorted() follows when it is applied).
    bool isSortPending() const { return m_sortPending; }
    // Pairs from which the order is found off the GUI thread (0: always; default 10,000).
    void setAsyncSortThreshold(int pairs) { m_asyncThreshold = pairs; }

    // The text a cell shows (Qt::DisplayRole); any thread.
    static QString displayText(const ComparisonPair& pair, int column, const QStringList& workloadKeys);
    // The pairs' indices in the order of `column` (see sort()); any thread. Empty when `cancelled` says so before it
    // ends (a newer sort or comparison).
    static std::vector<int> sortedOrder(const Comparison& comparison, const QStringList& workloadKeys, int column,
        Qt::SortOrder order, const std::function<bool()>& cancelled = {});

signals:
    void sorted(); // a sort's order is applied (at once for few pairs, later for many)

private:
    struct SortResult
    {
        std::vector<int> order; // row -> pair
        std::vector<int> rowOf; // pair -> row
    };
    void supersede(); // a newer sort or comparison: the sort in flight is dropped
    void startSort();
    void applyOrder(std::vector<int> order, std::vector<int> rowOf = {});

    Comparison m_comparison;
    QStringList m_varying; // the workload parameters that vary among the pairs: the Workload column shows them
    std::vector<int> m_order; // row -> pair; empty: the comparison's order
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    int m_asyncThreshold = 10'000;
    JobTracker m_sorts { this }; // a newer sort or comparison drops the sort in flight
    bool m_sortPending = false; // the latest sort is in flight
};

} // namespace kix
