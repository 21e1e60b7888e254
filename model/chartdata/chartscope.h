// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/jobs/canceltoken.h"
#include "model/run.h"

#include <QStringList>

namespace kix {

// A chart of runs that span many kernels is noise (each kernel has its own workloads and scale), and one axis
// never holds two metrics or units. Charts show the commonest metric in scope (latency first on a tie) and, when
// its runs span more than `maxKernels` kernels, the kernel with the most of them; the note says so. Failed runs
// are never charted.
struct ChartScope
{
    RunList runs; // what to chart
    QString kernel; // the kernel charted when the scope was narrowed; empty when it was not
    QStringList kernels; // every kernel among the runs, most runs first (when narrowed)
    QString metric; // the metric charted ("latency", "score", ...), "unit" its unit; empty when nothing is charted
    QString unit;
    QStringList metrics; // "score (s)" for each metric and unit in scope, most runs first (when narrowed)
    int failedRuns = 0; // left out: a failed run is evidence, not a time
    QString note; // "35 kernels in scope: charting group_norm (72 of 2448 runs), the one with the most runs"
};

ChartScope focusChartScope(const RunList& runs, int maxKernels = 2, const CancelToken& cancel = CancelToken());

} // namespace kix
