// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/compare/comparison.h"

#include <QStringList>
#include <QVector>

namespace kix {

// What the speed-up chart draws, built from runs without any widget (callable from a worker thread): the pairs of
// the comparison against the baseline as bars, one category per workload (top first), one bar set per
// provider·GPU·pass, with the title, the subtitles and what the chart's surroundings show.
struct SpeedupBar
{
    int set = 0; // index into SpeedupData::sets
    int category = 0; // index into SpeedupData::categories (top first)
    int pair = 0; // index into comparison.pairs
    double ratio = 0; // baseline median / run median; NaN when it has none (drawn as 0, no verdict marker)
    Verdict verdict = Verdict::Ambiguous;
};

struct SpeedupSet
{
    QString label; // "liger" (· GPU when GPUs vary) (· pass when passes vary)
    QString provider; // the colour
    int variant = 0; // the provider's n-th set: told apart by a pattern
};

struct SpeedupData
{
    Baseline baseline; // the one in effect (the default for the runs when none was asked)
    Comparison comparison;
    QStringList categories; // workload labels, top first
    QStringList axisLabels; // the same bottom first, as a category axis needs them: a repeated label gets " (2)"
    QString categoryTitle; // what the labels are ("channels"); empty when nothing is drawn
    QVector<SpeedupSet> sets;
    QVector<SpeedupBar> bars; // one per pair drawn: the last pair of each set and workload
    double top = 1.0; // the largest finite ratio drawn, at least 1
    QString xTitle;
    QString chartTitle; // "group_norm · backward · B200 — speed-up vs huggingface"
    QStringList subtitles; // geomean per provider and fixed parameters, nvbench's rule, pairs not drawn
    QStringList pairWarnings; // each distinct pair warning once, in order of first appearance
    int dropped = 0; // pairs beyond maxGroups workloads or maxSeries sets
    int shared = 0; // pairs drawn under a later pair's bar (same workload and set): one bar each

    // The chart's surroundings (ChartInfo).
    QString title; // "Speed-up vs huggingface"
    QStringList warnings; // summarizePairWarnings
    QStringList notes; // the comparison's notes, then summarizePairNotes; "nothing to compare" first when empty

    bool isEmpty() const { return comparison.pairs.isEmpty(); }
};

// Compares `runs` with `baseline` (empty: Baseline::defaultFor(runs)) and lays out the first `maxGroups`
// workloads and `maxSeries` sets; what is left out is counted in `dropped` and said in a subtitle.
SpeedupData buildSpeedupData(const RunList& runs, const Baseline& baseline, int maxGroups = 40, int maxSeries = 16,
    const CancelToken& cancel = CancelToken());

// Distinct pair warnings with their counts ("different GPU: ... (3 pairs)"), at most 12 and a count of the rest.
QStringList summarizePairWarnings(const Comparison& comparison);
// The pairs' notes counted by kind ("same workload digest: 14 of 17 pairs"; "liger is noisy (p20–p80 spread
// 11–138% of the median): 30 of 168 pairs"): notes that differ only in numbers are one kind (see notes.h).
QStringList summarizePairNotes(const Comparison& comparison);

// A pair's read-out: "1.16× ▲ — faster than huggingface", the runs, medians, verdict reason and warnings.
QString speedupTooltip(const ComparisonPair& pair);
// "liger 1.62× (17 pairs; 3 GPUs)"
QString providerSummaryLine(const ProviderSummary& summary);
// "▲" faster, "◆" slower, "●" same, "□" ambiguous: the shapes of the chart's markers.
QString verdictSymbol(Verdict verdict);
// "1.62×", "–" when not finite.
QString ratioText(double ratio);

} // namespace kix
