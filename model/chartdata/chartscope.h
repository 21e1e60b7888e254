#pragma once

#include "model/run.h"

#include <QStringList>

namespace kix {

// A chart of runs that span many kernels is noise (each kernel has its own workloads and scale). When the runs
// span more than `maxKernels` kernels, charts show the kernel with the most latency runs and say so.
struct ChartScope
{
    RunList runs; // what to chart
    QString kernel; // the kernel charted when the scope was narrowed; empty when it was not
    QStringList kernels; // every kernel among the runs, most runs first (when narrowed)
    QString note; // "35 kernels in scope: charting group_norm (72 of 2448 runs), the one with the most runs"
};

ChartScope focusChartScope(const RunList& runs, int maxKernels = 2);

} // namespace kix
