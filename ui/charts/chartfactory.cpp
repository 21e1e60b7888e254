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
        out.baseline = options.baseline.isEmpty() ? Baseline::defaultFor(runs) : options.baseline;
        Comparison comparison = compareRuns(runs, out.baseline);
        out.title = QStringLiteral("Speed-up vs ") + out.baseline.describe();
        out.warnings = summarizePairWarnings(comparison);
        out.notes = comparison.notes + summarizePairNotes(comparison);
        if (comparison.pairs.isEmpty())
            out.notes.prepend(out.baseline.isEmpty()
                    ? QStringLiteral("no latency runs to compare")
                    : QStringLiteral("no run has a %1 run to compare with").arg(out.baseline.describe()));
        out.isEmpty = comparison.pairs.isEmpty();
        out.comparison = comparison;
        chart = std::make_unique<SpeedupChart>(std::move(comparison), options);
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
