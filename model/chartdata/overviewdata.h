// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/jobs/canceltoken.h"
#include "model/run.h"

#include <QStringList>
#include <QVector>

namespace kix {

// What one cell of the overview counts: runs, the distinct implementations among them (provider, else the
// implementation digest) and the failed runs (one of the format's failure statuses).
struct OverviewCell
{
    int runs = 0;
    int implementations = 0;
    int failed = 0;
};

// The first view of a scope that spans many kernels or GPUs: kernels (operations) × GPUs, counted. Totals are counted
// from the runs, not summed from the cells: an implementation measured on two GPUs counts once in its kernel's total.
struct OverviewData
{
    QStringList kernels; // rows, most runs first (ties by name); "" for runs that name no kernel
    QStringList gpus; // columns: the GPU as the table shows it (product, else slug), most runs first; "" = none
    QVector<OverviewCell> cells; // row-major: cells[k * gpus.size() + g]
    QVector<OverviewCell> kernelTotals; // one per kernel, over every GPU
    QVector<OverviewCell> gpuTotals; // one per GPU, over every kernel
    OverviewCell total;
    // The filter clause that selects exactly the row's (column's) runs among the runs counted: "kernel=group_norm",
    // "gpu=b200". Empty when the filter grammar cannot say it (a name with a space that no other name of the GPU
    // avoids, two kernels that differ only in case, '_' or '-').
    QStringList kernelClauses;
    QStringList gpuClauses;

    bool isEmpty() const { return total.runs == 0; }
    const OverviewCell& cell(int kernel, int gpu) const { return cells[kernel * gpus.size() + gpu]; }
    // Both clauses, space-separated ("kernel=group_norm gpu=b200"); empty when either is.
    QString cellClause(int kernel, int gpu) const;
};

// Counts the runs. Pure and reentrant: it may run on any thread.
OverviewData buildOverview(const RunList& runs, const CancelToken& cancel = CancelToken());

// Whether the runs' first view is the overview rather than a chart: they span more than `maxKernels` kernels (a
// chart would draw only the commonest, see focusChartScope) or more than `maxGpus` GPUs.
bool overviewIsFirstView(
    const RunList& runs, int maxKernels = 2, int maxGpus = 4, const CancelToken& cancel = CancelToken());

} // namespace kix
