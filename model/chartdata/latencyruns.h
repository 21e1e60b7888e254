// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/run.h"

#include <QStringList>

namespace kix {

// The runs a latency chart can draw, and a count of the others: failed runs (no time to show), runs of another
// metric (memory ...), latency runs without a finite median. Shared by the quantile and sweep data.
struct LatencyRuns
{
    RunList latency; // not failed, latency metric, finite median; in the input's order
    int failed = 0;
    int otherMetric = 0;
    QStringList otherMetrics; // their metric names, in order of first appearance
    int noMedian = 0;

    // "2 memory run(s) not shown: the chart shows latency runs only"; empty when there are none.
    QString otherMetricNote() const;
    // "3 failed run(s) not charted: a failed run has no time to show"; empty when there are none.
    QString failedNote() const;
};

LatencyRuns splitLatencyRuns(const RunList& runs);

} // namespace kix
