// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/filter/filterindex.h"
#include "model/filter/runfilter.h"

#include <functional>
#include <memory>
#include <vector>

namespace kix {

// What the run table's rows are computed from: a snapshot of the source rows, a filter and a sort. Pure: a worker
// computes it on runs it shares with the GUI thread.
struct RowMappingInput
{
    RunList runs; // the source rows (implicitly shared)
    RunFilter filter;
    int sortColumn = -1; // a RunTableModel column; -1: source order
    Qt::SortOrder order = Qt::AscendingOrder;
    // Optional: source row -> proxy row (-1: hidden) of a filter that this one narrows (typing forward); only the
    // rows it shows are tested. Covers the first narrowFrom->size() rows; later rows are all tested.
    std::shared_ptr<const std::vector<int>> narrowFrom;
    // Optional: every source row in this sort's order, computed before for these same rows (a filter change keeps
    // the sort: the rows are then picked out of it in O(n)).
    std::shared_ptr<const std::vector<int>> sortedAll;
    // Optional: the filter's columns over the first index->size() of these runs (extended over the rest when a
    // filter is applied; RowMapping::index is the one used).
    std::shared_ptr<const FilterIndex> index;
};

struct RowMapping
{
    std::vector<int> toSource; // proxy row -> source row
    std::vector<int> fromSource; // source row -> proxy row, -1: filtered out
    std::shared_ptr<const std::vector<int>> sortedAll; // every source row in the sort's order; null in source order
    RunList visible; // the accepted runs, in proxy order
    std::shared_ptr<const FilterIndex> index; // over every row, when a filter was applied; else the input's
    bool complete = false; // false: cancelled part way (drop it)
};

// The accepted rows in the table's order: the filter, then a stable sort by `sortColumn` (ties keep source order,
// descending too), comparing as runLess() does. `cancelled` is polled; once it returns true the result is
// incomplete.
RowMapping computeRowMapping(const RowMappingInput& in, const std::function<bool()>& cancelled = {});

// The table's order for a column, ascending: the Workload column numerically (channels=128 before 1024), the
// headline and p20/p80 grouped by metric first (µs, MB and scores never interleave), numbers with empty cells last,
// times, and text case-insensitively.
bool runLess(const Run& a, const Run& b, int column);

} // namespace kix
