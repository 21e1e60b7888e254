#include "model/chartdata/chartscope.h"

#include <QHash>

#include <algorithm>

namespace kix {

ChartScope focusChartScope(const RunList& runs, int maxKernels)
{
    ChartScope scope;
    QHash<QString, int> counts;
    for (const RunPtr& run : runs) {
        if (run->isLatency())
            ++counts[run->kernel];
    }
    if (counts.size() <= maxKernels) {
        scope.runs = runs;
        return scope;
    }
    scope.kernels = counts.keys();
    std::sort(scope.kernels.begin(), scope.kernels.end(), [&counts](const QString& a, const QString& b) {
        const int ca = counts.value(a);
        const int cb = counts.value(b);
        return ca != cb ? ca > cb : a < b;
    });
    scope.kernel = scope.kernels.front();
    for (const RunPtr& run : runs) {
        if (run->kernel == scope.kernel)
            scope.runs.append(run);
    }
    scope.note = QStringLiteral("%1 kernels in scope: charting %2 (%3 of %4 runs), the one with the most runs; "
                                "filter kernel=NAME or select runs to chart another")
                     .arg(scope.kernels.size())
                     .arg(scope.kernel)
                     .arg(scope.runs.size())
                     .arg(runs.size());
    return scope;
}

} // namespace kix
