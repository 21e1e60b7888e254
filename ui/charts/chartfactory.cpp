// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/chartfactory.h"

#include "model/chartdata/chartscope.h"
#include "model/chartdata/distincttext.h"
#include "model/chartdata/notes.h"
#include "model/chartdata/quantiledata.h"
#include "model/chartdata/sweep.h"
#include "model/compare/comparison.h"
#include "model/compare/toolcomparison.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/distributionchart.h"
#include "ui/charts/historychart.h"
#include "ui/charts/quantilechart.h"
#include "ui/charts/rankchart.h"
#include "ui/charts/recordschart.h"
#include "ui/charts/speedupchart.h"
#include "ui/charts/sweepchart.h"
#include "ui/models/comparisonmodel.h"

#include <QSet>

#include <algorithm>

namespace kix {

namespace {

// Boxes, or two to four runs' samples overlaid (Histogram, ECDF) when the runs carry them; the boxes when they do
// not, with a note that says why.
void prepareQuantiles(PreparedChart& p, const ChartOptions& options, const CancelToken& cancel)
{
    ChartInfo& out = p.info;
    const RunList& runs = p.scope.runs;
    p.distribution = buildDistributionData(runs); // at most four runs' samples: its availability shows on the chooser
    out.distributionUnavailable = p.distribution.unavailable;
    if (options.quantileView != QuantileView::Box && !p.distribution.isEmpty()) {
        out.quantileView = options.quantileView;
        out.title = p.distribution.title;
        out.notes = p.distribution.notes;
        out.warnings = p.distribution.warnings;
        out.isEmpty = false;
        return;
    }
    p.quantiles = buildQuantileData(runs, options.maxGroups, options.maxSeries, cancel);
    out.title = p.quantiles.title;
    out.notes = p.quantiles.notes;
    out.warnings = p.quantiles.warnings;
    out.isEmpty = p.quantiles.isEmpty();
    if (options.quantileView != QuantileView::Box)
        out.notes.prepend(QStringLiteral("%1 not drawn, boxes instead: %2")
                              .arg(quantileViewTitle(options.quantileView), p.distribution.unavailable));
}

} // namespace

PreparedChart prepareChart(
    ChartKind kind, const RunList& allRuns, const ChartOptions& options, const CancelToken& cancel)
{
    PreparedChart p;
    p.kind = kind;
    ChartInfo& out = p.info;
    if (kind == ChartKind::Overview) { // a table (OverviewTable), drawn by the chart panel: only the counts
        p.overview = buildOverview(allRuns, cancel);
        out.title = chartKindTitle(kind);
        out.isEmpty = allRuns.isEmpty();
        return p;
    }
    if (kind == ChartKind::Compare) { // a table (CompareView), filled by the chart panel: nothing to prepare
        out.title = chartKindTitle(kind);
        out.isEmpty = allRuns.isEmpty();
        return p;
    }
    // Rank and Records never mix kernels: their cohorts keep them apart, so they need no narrowing to one.
    if (kind == ChartKind::Rank || kind == ChartKind::Records)
        p.scope.runs = allRuns;
    else
        p.scope = focusChartScope(allRuns, 2, cancel);
    const RunList& runs = p.scope.runs;
    if (cancel.cancelled())
        return p; // superseded: dropped by the caller
    out.focusKernel = p.scope.kernel;
    out.kernels = p.scope.kernels;
    DistinctText providers;
    for (const RunPtr& run : runs) {
        if (run->isLatency())
            providers.insert(run->provider);
    }
    out.providers = providers.values().values();
    std::sort(out.providers.begin(), out.providers.end());
    const bool allInScope = runs.size() == allRuns.size() && runs.constData() == allRuns.constData();
    p.defaultBaseline = allInScope ? Baseline::defaultForProviders(providers.values()) // no second pass
                                   : Baseline::defaultFor(allRuns, cancel);
    // Two nvbench or Google Benchmark files: the reference file (first opened, or named ref/base), as the tools do.
    if (const QString reference = toolReferenceProvider(allRuns); !reference.isEmpty())
        p.defaultBaseline = Baseline::ofProvider(reference);

    switch (kind) {
    case ChartKind::Quantiles:
        prepareQuantiles(p, options, cancel);
        break;
    case ChartKind::Sweep:
        p.sweep = buildSweep(runs, options.xParam, options.maxSeries, cancel);
        out.title = p.sweep.title;
        out.notes = p.sweep.notes;
        out.xCandidates = p.sweep.candidates;
        out.xParam = p.sweep.xParam;
        out.warnings = p.sweep.warnings;
        out.isEmpty = p.sweep.isEmpty();
        break;
    case ChartKind::Speedup:
        p.speedup = buildSpeedupData(runs, options.baseline, options.maxGroups, options.maxSeries, cancel);
        out.baseline = p.speedup.baseline;
        out.title = p.speedup.title;
        out.warnings = p.speedup.warnings;
        out.notes = p.speedup.notes;
        out.isEmpty = p.speedup.isEmpty();
        out.comparison = p.speedup.comparison;
        p.pairWorkloadKeys = ComparisonModel::workloadKeys(p.speedup.comparison); // reads every pair
        break;
    case ChartKind::History: {
        HistoryDataOptions ho;
        ho.threshold = options.threshold;
        ho.maxSeries = std::min(options.maxSeries, ChartStyle::distinctLineCount()); // no two lines look alike
        ho.xParam = options.xParam;
        ho.logY = options.logY;
        ho.keep = options.currentRun; // its point is marked: always drawn
        p.history = buildHistoryData(runs, ho, cancel);
        out.xCandidates = p.history.xCandidates;
        out.xParam = p.history.xParam;
        out.title = p.history.title;
        out.notes = p.history.notes;
        out.warnings = p.history.warnings;
        out.isEmpty = p.history.isEmpty();
        break;
    }
    case ChartKind::Rank:
        p.ranking = rankRuns(runs, 0.05, options.rankWidened ? CohortScope::Family : CohortScope::Strict, cancel);
        p.rankCohort = chooseRankCohort(p.ranking, options, out); // reads every cohort: here, not in drawChart
        break;
    case ChartKind::Records:
        p.records = recordTimelines(runs, cancel);
        p.recordsTimeline = chooseRecordsTimeline(p.records, options, out);
        break;
    case ChartKind::Overview: // returned above
    case ChartKind::Compare:
        break;
    }
    return p;
}

bool rankIsFirstView(const RunList& runs)
{
    // A leaderboard: most runs report a score (gpumode-kernelbot), or none has a latency to draw quantiles of.
    qsizetype scores = 0;
    bool latency = false;
    for (const RunPtr& r : runs) {
        latency = latency || r->isLatency();
        if (r->metric == Run::Metric::Other && r->headlineMetric == QLatin1String("score"))
            ++scores;
    }
    if (!latency || 2 * scores > runs.size())
        return true;
    // One cohort of many implementations: every run of one kernel, pass, workload and GPU, three providers or more.
    const Run& first = *runs.front();
    QSet<QString> providers;
    for (const RunPtr& r : runs) {
        if (r->kernel != first.kernel || r->pass != first.pass || r->workloadSlug != first.workloadSlug
            || r->dtype != first.dtype || r->gpuSlug != first.gpuSlug || r->gpuProduct != first.gpuProduct
            || r->metric != first.metric)
            return false;
        providers.insert(r->provider);
    }
    return providers.size() >= 3;
}

bool speedupIsFirstView(const RunList& runs)
{
    // One kernel on one GPU, where a framework baseline (huggingface or torch) and another provider timed the same
    // workload: the speed-up answers "which is faster?" (Liger's GroupNorm rows, as kix bundles them).
    const Run* first = nullptr;
    QSet<QString> providers;
    for (const RunPtr& r : runs) {
        if (!r->isLatency())
            continue;
        if (!first)
            first = r.get();
        else if (r->kernel != first->kernel || r->gpuSlug != first->gpuSlug || r->gpuProduct != first->gpuProduct)
            return false;
        providers.insert(r->provider);
    }
    if (providers.size() < 2)
        return false;
    const Baseline baseline = Baseline::defaultForProviders(providers);
    if (!baseline.providers.contains(QStringLiteral("huggingface"))
        && !baseline.providers.contains(QStringLiteral("torch")))
        return false;
    const QString& base = baseline.providers.front();
    const auto workload = [](const Run& r) -> QString { // a QString, not a builder of the run's temporaries
        return r.pass + QLatin1Char('|') + r.workloadSlug + QLatin1Char('|') + r.dtype;
    };
    QSet<QString> baselineWorkloads;
    for (const RunPtr& r : runs) {
        if (r->isLatency() && r->provider == base)
            baselineWorkloads.insert(workload(*r));
    }
    for (const RunPtr& r : runs) {
        if (r->isLatency() && r->provider != base && baselineWorkloads.contains(workload(*r)))
            return true;
    }
    return false;
}

ChartKind firstViewKind(const RunList& runs, const CancelToken& cancel)
{
    if (runs.isEmpty())
        return ChartKind::Quantiles;
    if (overviewIsFirstView(runs, 2, 4, cancel))
        return ChartKind::Overview;
    if (rankIsFirstView(runs))
        return ChartKind::Rank;
    return ChartKind::Quantiles;
}

std::unique_ptr<QChart> drawChart(PreparedChart&& p, const ChartOptions& options, ChartInfo* info)
{
    ChartInfo local;
    ChartInfo& out = info ? *info : local;
    out = std::move(p.info);
    std::unique_ptr<QChart> chart;
    switch (p.kind) {
    case ChartKind::Quantiles:
        if (out.quantileView != QuantileView::Box)
            chart = std::make_unique<DistributionChart>(std::move(p.distribution), out.quantileView, options);
        else
            chart = std::make_unique<QuantileChart>(std::move(p.quantiles), options);
        break;
    case ChartKind::Sweep:
        chart = std::make_unique<SweepChart>(std::move(p.sweep), options);
        break;
    case ChartKind::Speedup:
        chart = std::make_unique<SpeedupChart>(std::move(p.speedup), options);
        break;
    case ChartKind::History:
        chart = std::make_unique<HistoryChart>(std::move(p.history), options);
        break;
    case ChartKind::Rank:
        chart = drawRankChart(p.ranking, p.rankCohort, options);
        break;
    case ChartKind::Records:
        chart = drawRecordsChart(p.records, p.recordsTimeline, options);
        break;
    case ChartKind::Overview: // a table (OverviewTable), drawn by the chart panel: no chart
    case ChartKind::Compare: // a table (CompareView)
        chart = std::make_unique<QChart>();
        break;
    }
    if (!p.scope.note.isEmpty())
        out.notes.prepend(p.scope.note);
    out.notes = aggregateNotes(out.notes); // one line per kind of note
    return chart;
}

std::unique_ptr<QChart> buildChart(
    ChartKind kind, const RunList& allRuns, const ChartOptions& options, ChartInfo* info, const CancelToken& cancel)
{
    return drawChart(prepareChart(kind, allRuns, options, cancel), options, info);
}

} // namespace kix
