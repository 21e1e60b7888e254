// SPDX-License-Identifier: Apache-2.0
#include "model/chartdata/chartscope.h"

#include "model/workload.h"

#include <QHash>

#include <algorithm>

namespace kix {

namespace {

QString metricLabel(const QString& metric, const QString& unit)
{
    return unit.isEmpty() ? metric : QStringLiteral("%1 (%2)").arg(metric, unit);
}

// A metric label ("latency (ms)") -> its metric and unit.
using ChartMetricOf = QHash<QString, QPair<QString, QString>>;

// The runs that are not failed counted by metric label (failed runs counted in the scope); false when superseded.
bool countChartMetrics(const RunList& runs, ChartScope& scope, QHash<QString, int>& metricCounts,
    ChartMetricOf& metricOf, const CancelToken& cancel)
{
    // Runs in a row of the same metric and unit share the label: counted without building it again.
    QString lastMetric;
    QString lastUnit;
    int* lastCount = nullptr;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        if (cancel.cancelledEvery(i))
            return false; // superseded: dropped by the caller
        const RunPtr& run = runs[i];
        if (run->failed()) {
            ++scope.failedRuns;
            continue;
        }
        const QString metric = run->metricName();
        if (lastCount && sameText(metric, lastMetric) && sameText(run->unit, lastUnit)) {
            ++*lastCount;
            continue;
        }
        const QString label = metricLabel(metric, run->unit);
        int& count = metricCounts[label];
        if (++count == 1)
            metricOf.insert(label, { metric, run->unit });
        lastMetric = metric;
        lastUnit = run->unit;
        lastCount = &count;
    }
    return true;
}

// The runs that are not failed: all of them, or (made only then) those left once the failed are out.
RunList unfailedChartRuns(const RunList& runs, int failedRuns)
{
    RunList usable;
    if (failedRuns == 0) {
        usable = runs;
    } else {
        usable.reserve(runs.size() - failedRuns);
        for (const RunPtr& run : runs) {
            if (!run->failed())
                usable.append(run);
        }
    }
    return usable;
}

// The metric labels, the commonest first (latency first among equals, then by name).
QStringList chartMetricsByCount(const QHash<QString, int>& metricCounts, const ChartMetricOf& metricOf)
{
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
    return metrics;
}

// Runs per kernel.
QHash<QString, int> chartKernelCounts(const RunList& sameMetric)
{
    QHash<QString, int> counts;
    const QString* lastKernel = nullptr;
    int* kernelCount = nullptr;
    for (const RunPtr& run : std::as_const(sameMetric)) {
        if (!lastKernel || !sameText(*lastKernel, run->kernel)) {
            lastKernel = &run->kernel;
            kernelCount = &counts[run->kernel];
        }
        ++*kernelCount;
    }
    return counts;
}

// Too many kernels: the scope charts the one with the most runs, and its note says so first.
void focusOnBusiestKernel(
    ChartScope& scope, const RunList& charted, const QHash<QString, int>& counts, qsizetype allRuns, QStringList& notes)
{
    scope.kernels = counts.keys();
    std::sort(scope.kernels.begin(), scope.kernels.end(), [&counts](const QString& a, const QString& b) {
        const int ca = counts.value(a);
        const int cb = counts.value(b);
        return ca != cb ? ca > cb : a < b;
    });
    scope.kernel = scope.kernels.front();
    for (const RunPtr& run : charted) {
        if (sameText(run->kernel, scope.kernel))
            scope.runs.append(run);
    }
    notes.prepend(QStringLiteral("%1 kernels in scope: charting %2 (%3 of %4 runs), the one with the most runs; "
                                 "filter kernel=NAME or select runs to chart another")
                      .arg(scope.kernels.size())
                      .arg(scope.kernel)
                      .arg(scope.runs.size())
                      .arg(allRuns));
    scope.note = notes.join(QStringLiteral("; "));
}

} // namespace

ChartScope focusChartScope(const RunList& runs, int maxKernels, const CancelToken& cancel)
{
    ChartScope scope;
    QStringList notes;

    // One metric and unit per axis: the commonest among the runs that are not failed.
    QHash<QString, int> metricCounts;
    ChartMetricOf metricOf;
    if (!countChartMetrics(runs, scope, metricCounts, metricOf, cancel))
        return scope; // superseded: dropped by the caller
    const RunList usable = unfailedChartRuns(runs, scope.failedRuns);
    const QStringList metrics = chartMetricsByCount(metricCounts, metricOf);
    RunList sameMetric;
    if (!metrics.isEmpty()) {
        const auto [metric, unit] = metricOf.value(metrics.front());
        scope.metric = metric;
        scope.unit = unit;
        for (const RunPtr& run : std::as_const(usable)) {
            if (sameText(run->metricName(), metric) && sameText(run->unit, unit))
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

    const QHash<QString, int> counts = chartKernelCounts(sameMetric);
    // The chart builders chart latency and name what they leave out; another metric is handed over alone.
    const RunList& charted = scope.metric == QLatin1String("latency") ? usable : sameMetric;
    if (counts.size() <= maxKernels) {
        scope.runs = scope.failedRuns == 0 && metrics.size() <= 1 ? runs : charted;
        scope.note = notes.join(QStringLiteral("; "));
        return scope;
    }
    focusOnBusiestKernel(scope, charted, counts, runs.size(), notes);
    return scope;
}

} // namespace kix
