// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/chartdata/distributiondata.h"
#include "model/compare/comparison.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace kix {

// Overview is a table, not a chart (kernels × GPUs, see OverviewTable): the first view of a scope that spans many
// kernels or GPUs. Records (a cohort's record staircase) and Compare (2 to 8 runs field by field, a table: see
// CompareView) came later and follow it, so that the shortcuts users know (Ctrl+1..6) keep their kinds. A kind's
// index is its tab's; `kix chart` draws neither Overview nor Compare.
enum class ChartKind { Quantiles, Sweep, Speedup, History, Rank, Overview, Records, Compare };
constexpr int chartKindCount = int(ChartKind::Compare) + 1;

QString chartKindName(ChartKind kind); // "quantiles", "sweep", "speedup", "history", "rank", "overview", ...
QString chartKindTitle(ChartKind kind); // "Quantiles", ..., "Rank", "Overview", "Records", "Compare"
std::optional<ChartKind> chartKindFromName(const QString& name); // the charts only: never Overview nor Compare

// What the user chose for a chart, shared by the panel, the export and `kix chart`.
struct ChartOptions
{
    bool logY = false; // quantiles and sweep
    QuantileView quantileView = QuantileView::Box; // quantiles: boxes, or 2 to 4 runs' samples overlaid
    QString xParam; // sweep; empty = the parameter with the most values. History: "time" or "label"
    Baseline baseline; // speed-up; empty = Baseline::defaultFor(runs)
    bool dark = false; // follow a dark palette
    double threshold = 0.05; // history: the smallest step that counts as a change
    int maxGroups = 40; // workloads (categories) per chart
    int maxSeries = 16; // boxes per workload, lines, bar sets
    QString cohort; // rank and records: a cohort's id, or text its description contains; empty = cohortRun's, else the
                    // largest
    RunPtr cohortRun; // rank: the run whose cohort is shown when no cohort is chosen (the current run)
    bool rankWidened = false; // rank: the family-level scope, across protocol versions and environments, on request
    RunPtr currentRun; // the run selected in the table: every chart marks it (ChartStyle::markCurrentRun)
};

// What the chart's surroundings show: the banner (warnings first), the choosers and the pairs table.
struct ChartInfo
{
    QString title;
    QStringList warnings; // comparability: named differences, never hidden
    QStringList notes; // what was left out, fixed parameters, equal digests
    QStringList xCandidates; // sweep
    QString xParam;
    QStringList providers; // latency providers among the runs, for the baseline chooser
    Baseline baseline; // the one in effect
    Comparison comparison; // speed-up
    bool isEmpty = true;
    QString focusKernel; // the kernel charted when the runs spanned too many (see focusChartScope)
    QStringList kernels; // then: every kernel among the runs, most runs first
    QStringList cohortIds; // rank and records: the cohorts in scope (CohortKey::id), largest first
    QStringList cohorts; // rank and records: their descriptions, for the chooser
    QString cohort; // rank and records: the id of the cohort drawn
    QuantileView quantileView = QuantileView::Box; // quantiles: the view drawn
    QString distributionUnavailable; // quantiles: why Histogram and ECDF cannot be drawn; empty when they can
};

} // namespace kix
