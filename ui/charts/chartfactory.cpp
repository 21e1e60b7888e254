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
#include <map>

namespace kix {

namespace {

constexpr int maxSummaryLines = 12; // a run baseline against 100k runs differs from each in its own words

} // namespace

QStringList summarizePairWarnings(const Comparison& comparison)
{
    std::map<QString, int> counts;
    QStringList order;
    for (const ComparisonPair& p : comparison.pairs) {
        for (const QString& w : p.warnings) {
            if (counts[w]++ == 0)
                order << w;
        }
    }
    QStringList out;
    const int shown = std::min<int>(int(order.size()), maxSummaryLines);
    for (int i = 0; i < shown; ++i)
        out << QStringLiteral("%1 (%2 pair%3)")
                   .arg(order[i])
                   .arg(counts[order[i]])
                   .arg(counts[order[i]] == 1 ? QString() : QStringLiteral("s"));
    if (order.size() > shown)
        out << QStringLiteral("and %1 more distinct warnings: see the pairs").arg(order.size() - shown);
    return out;
}

QStringList summarizePairNotes(const Comparison& comparison)
{
    // Few distinct notes, many pairs: a short list searched by view, nothing allocated per note.
    struct Count
    {
        QString note;
        int count;
    };
    QVector<Count> counts;
    for (const ComparisonPair& p : comparison.pairs) {
        for (const QString& n : p.notes) {
            // "same workload digest (b199535cdbfa…)" counts as "same workload digest"
            QStringView key(n);
            if (n.startsWith(QLatin1String("same "))) {
                const qsizetype paren = n.indexOf(QLatin1String(" ("));
                if (paren > 0)
                    key = key.left(paren);
            }
            auto it = std::find_if(counts.begin(), counts.end(), [key](const Count& c) { return c.note == key; });
            if (it == counts.end())
                counts.append({ key.toString(), 1 });
            else
                ++it->count;
        }
    }
    QStringList out;
    const int total = int(comparison.pairs.size());
    for (const Count& c : std::as_const(counts))
        out << QStringLiteral("%1: %2 of %3 pairs").arg(c.note).arg(c.count).arg(total);
    return out;
}

PreparedChart prepareChart(ChartKind kind, const RunList& allRuns, const ChartOptions& options)
{
    PreparedChart p;
    p.kind = kind;
    ChartInfo& out = p.info;
    // Rank never mixes kernels: its cohorts keep them apart, so it needs no narrowing to one.
    if (kind == ChartKind::Rank)
        p.scope.runs = allRuns;
    else
        p.scope = focusChartScope(allRuns);
    const RunList& runs = p.scope.runs;
    out.focusKernel = p.scope.kernel;
    out.kernels = p.scope.kernels;
    QSet<QString> providers;
    for (const RunPtr& run : runs) {
        if (run->isLatency())
            providers.insert(run->provider);
    }
    out.providers = providers.values();
    std::sort(out.providers.begin(), out.providers.end());
    p.defaultBaseline = Baseline::defaultFor(allRuns);

    switch (kind) {
    case ChartKind::Quantiles:
        p.quantiles = buildQuantileData(runs, options.maxGroups, options.maxSeries);
        out.title = p.quantiles.title;
        out.notes = p.quantiles.notes;
        out.warnings = p.quantiles.warnings;
        out.isEmpty = p.quantiles.isEmpty();
        break;
    case ChartKind::Sweep:
        p.sweep = buildSweep(runs, options.xParam, options.maxSeries);
        out.title = p.sweep.title;
        out.notes = p.sweep.notes;
        out.xCandidates = p.sweep.candidates;
        out.xParam = p.sweep.xParam;
        out.warnings = p.sweep.warnings;
        out.isEmpty = p.sweep.isEmpty();
        break;
    case ChartKind::Speedup: {
        out.baseline = options.baseline.isEmpty() ? Baseline::defaultFor(runs) : options.baseline;
        p.comparison = compareRuns(runs, out.baseline);
        const Comparison& comparison = p.comparison;
        out.title = QStringLiteral("Speed-up vs ") + out.baseline.describe();
        out.warnings = summarizePairWarnings(comparison);
        out.notes = comparison.notes + summarizePairNotes(comparison);
        if (comparison.pairs.isEmpty())
            out.notes.prepend(out.baseline.isEmpty()
                    ? QStringLiteral("no latency runs to compare")
                    : QStringLiteral("no run has a %1 run to compare with").arg(out.baseline.describe()));
        out.isEmpty = comparison.pairs.isEmpty();
        out.comparison = comparison;
        break;
    }
    case ChartKind::History: {
        HistoryOptions ho;
        ho.detection.threshold = options.threshold;
        p.history = buildHistory(runs, ho);
        break;
    }
    case ChartKind::Rank:
        p.ranking = rankRuns(runs);
        break;
    }
    return p;
}

std::unique_ptr<QChart> drawChart(PreparedChart&& p, const ChartOptions& options, ChartInfo* info)
{
    ChartInfo local;
    ChartInfo& out = info ? *info : local;
    out = std::move(p.info);
    std::unique_ptr<QChart> chart;
    switch (p.kind) {
    case ChartKind::Quantiles:
        chart = std::make_unique<QuantileChart>(std::move(p.quantiles), options);
        break;
    case ChartKind::Sweep:
        chart = std::make_unique<SweepChart>(std::move(p.sweep), options);
        break;
    case ChartKind::Speedup:
        chart = std::make_unique<SpeedupChart>(std::move(p.comparison), options);
        break;
    case ChartKind::History:
        chart = buildHistoryChart(std::move(p.history), options, out);
        break;
    case ChartKind::Rank:
        chart = buildRankChart(p.ranking, options, out);
        break;
    }
    if (!p.scope.note.isEmpty())
        out.notes.prepend(p.scope.note);
    return chart;
}

std::unique_ptr<QChart> buildChart(ChartKind kind, const RunList& allRuns, const ChartOptions& options, ChartInfo* info)
{
    return drawChart(prepareChart(kind, allRuns, options), options, info);
}

} // namespace kix
