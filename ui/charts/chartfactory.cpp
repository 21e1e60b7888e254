// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/chartfactory.h"

#include "model/chartdata/chartscope.h"
#include "model/chartdata/quantiledata.h"
#include "model/chartdata/sweep.h"
#include "ui/charts/historychart.h"
#include "ui/charts/quantilechart.h"
#include "ui/charts/rankchart.h"
#include "ui/charts/speedupchart.h"
#include "ui/charts/sweepchart.h"

#include <QSet>

#include <algorithm>

namespace kix {

std::unique_ptr<QChart> buildChart(ChartKind kind, const RunList& allRuns, const ChartOptions& options, ChartInfo* info)
{
    ChartInfo local;
    ChartInfo& out = info ? *info : local;
    out = ChartInfo {};
    // Rank never mixes kernels: its cohorts keep them apart, so it needs no narrowing to one; the overview counts them
    // all.
    ChartScope rankScope;
    rankScope.runs = allRuns;
    const ChartScope scope
        = kind == ChartKind::Rank || kind == ChartKind::Overview ? rankScope : focusChartScope(allRuns);
    const RunList& runs = scope.runs;
    out.focusKernel = scope.kernel;
    out.kernels = scope.kernels;
    QSet<QString> providers;
    for (const RunPtr& run : runs) {
        if (run->isLatency())
            providers.insert(run->provider);
    }
    out.providers = providers.values();
    std::sort(out.providers.begin(), out.providers.end());

    std::unique_ptr<QChart> chart;
    switch (kind) {
    case ChartKind::Quantiles: {
        QuantileData data = buildQuantileData(runs, options.maxGroups, options.maxSeries);
        out.title = data.title;
        out.notes = data.notes;
        out.warnings = data.warnings;
        out.isEmpty = data.isEmpty();
        chart = std::make_unique<QuantileChart>(std::move(data), options);
        break;
    }
    case ChartKind::Sweep: {
        SweepData data = buildSweep(runs, options.xParam, options.maxSeries);
        out.title = data.title;
        out.notes = data.notes;
        out.xCandidates = data.candidates;
        out.xParam = data.xParam;
        out.warnings = data.warnings;
        out.isEmpty = data.isEmpty();
        chart = std::make_unique<SweepChart>(std::move(data), options);
        break;
    }
    case ChartKind::Speedup: {
        SpeedupData data = buildSpeedupData(runs, options.baseline, options.maxGroups, options.maxSeries);
        out.baseline = data.baseline;
        out.title = data.title;
        out.warnings = data.warnings;
        out.notes = data.notes;
        out.isEmpty = data.isEmpty();
        out.comparison = data.comparison;
        chart = std::make_unique<SpeedupChart>(std::move(data), options);
        break;
    }
    case ChartKind::History:
        chart = buildHistoryChart(runs, options, out);
        break;
    case ChartKind::Rank:
        chart = buildRankChart(runs, options, out);
        break;
    case ChartKind::Overview: // a table (OverviewTable), drawn by the chart panel: no chart
        chart = std::make_unique<QChart>();
        out.title = chartKindTitle(kind);
        out.isEmpty = runs.isEmpty();
        break;
    }
    if (!scope.note.isEmpty())
        out.notes.prepend(scope.note);
    return chart;
}

} // namespace kix
