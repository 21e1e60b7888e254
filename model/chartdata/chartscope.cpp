// SPDX-License-Identifier: Apache-2.0
#include "model/chartdata/chartscope.h"

#include <QHash>

#include <algorithm>

namespace kix {

namespace {

QString metricLabel(const QString& metric, const QString& unit)
{
    return unit.isEmpty() ? metric : QStringLiteral("%1 (%2)").arg(metric, unit);
}

} // namespace

ChartScope focusChartScope(const RunList& runs, int maxKernels)
{
    ChartScope scope;
    QStringList notes;

    // One metric and unit per axis: the commonest among the runs that are not failed.
    RunList usable;
    QHash<QString, int> metricCounts;
    QHash<QString, QPair<QString, QString>> metricOf;
    for (const RunPtr& run : runs) {
        if (run->failed()) {
            ++scope.failedRuns;
            continue;
        }
        usable.append(run);
        const QString label = metricLabel(run->metricName(), run->unit);
        if (++metricCounts[label] == 1)
            metricOf.insert(label, { run->metricName(), run->unit });
    }
    QStringList metrics = metricCounts.keys();
    std::sort(metrics.begin(), metrics.end(), [&](const QString& a, const QString& b) {
        const int ca = metricCounts.value(a);
        const int cb = metricCounts.value(b);
        if (ca != cb)
            return ca > cb;
        const bool la = metricOf.value(a).first == QLatin1String("latency");
        const bool lb = metricOf.value(b).first == QLatin1String("latency");
        return la != lb ? la : a < b;
    });
    RunList sameMetric;
    if (!metrics.isEmpty()) {
        const auto [metric, unit] = metricOf.value(metrics.front());
        scope.metric = metric;
        scope.unit = unit;
        for (const RunPtr& run : std::as_const(usable)) {
            if (run->metricName() == metric && run->unit == unit)
                sameMetric.append(run);
        }
    }
    if (metrics.size() > 1) {
        scope.metrics = metrics;
        notes << QStringLiteral("%1 metrics in scope (%2): charting %3 (%4 of %5 runs), the commonest; filter "
                                "metric=NAME to chart another")
                     .arg(metrics.size())
                     .arg(metrics.join(QStringLiteral(", ")))
                     .arg(metrics.front())
                     .arg(sameMetric.size())
                     .arg(runs.size());
    }
    if (scope.failedRuns > 0)
        notes << QStringLiteral("%1 failed run(s) not charted").arg(scope.failedRuns);

    QHash<QString, int> counts;
    for (const RunPtr& run : std::as_const(sameMetric))
        ++counts[run->kernel];
    // The chart builders chart latency and name what they leave out; another metric is handed over alone.
    const RunList& charted = scope.metric == QLatin1String("latency") ? usable : sameMetric;
    if (counts.size() <= maxKernels) {
        scope.runs = scope.failedRuns == 0 && metrics.size() <= 1 ? runs : charted;
        scope.note = notes.join(QStringLiteral("; "));
        return scope;
    }
    scope.kernels = counts.keys();
    std::sort(scope.kernels.begin(), scope.kernels.end(), [&counts](const QString& a, const QString& b) {
        const int ca = counts.value(a);
        const int cb = counts.value(b);
        return ca != cb ? ca > cb : a < b;
    });
    scope.kernel = scope.kernels.front();
    for (const RunPtr& run : charted) {
        if (run->kernel == scope.kernel)
            scope.runs.append(run);
    }
    notes.prepend(QStringLiteral("%1 kernels in scope: charting %2 (%3 of %4 runs), the one with the most runs; "
                                 "filter kernel=NAME or select runs to chart another")
                      .arg(scope.kernels.size())
                      .arg(scope.kernel)
                      .arg(scope.runs.size())
                      .arg(runs.size()));
    scope.note = notes.join(QStringLiteral("; "));
    return scope;
}

} // namespace kix
