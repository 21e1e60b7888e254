// SPDX-License-Identifier: Apache-2.0
#include "model/chartdata/latencyruns.h"

#include <cmath>

namespace kix {

LatencyRuns splitLatencyRuns(const RunList& runs)
{
    LatencyRuns out;
    for (const RunPtr& run : runs) {
        if (run->failed()) {
            ++out.failed;
        } else if (!run->isLatency()) {
            ++out.otherMetric;
            if (!out.otherMetrics.contains(run->metricName()))
                out.otherMetrics << run->metricName();
        } else if (!std::isfinite(run->median)) {
            ++out.noMedian;
        } else {
            out.latency.append(run);
        }
    }
    return out;
}

QString LatencyRuns::otherMetricNote() const
{
    if (otherMetric == 0)
        return {};
    return QStringLiteral("%1 %2 run(s) not shown: the chart shows latency runs only")
        .arg(otherMetric)
        .arg(otherMetrics.join(QLatin1Char('/')));
}

QString LatencyRuns::failedNote() const
{
    if (failed == 0)
        return {};
    return QStringLiteral("%1 failed run(s) not charted: a failed run has no time to show").arg(failed);
}

} // namespace kix
