// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/chartdata/chartscope.h"
#include "model/chartdata/distributiondata.h"
#include "model/chartdata/historydata.h"
#include "model/chartdata/overviewdata.h"
#include "model/chartdata/quantiledata.h"
#include "model/chartdata/speedupdata.h"
#include "model/chartdata/sweep.h"
#include "model/compare/rank.h"
#include "model/compare/records.h"
#include "model/jobs/canceltoken.h"
#include "model/run.h"
#include "ui/charts/chartoptions.h"

#include <QChart>

#include <memory>

namespace kix {

// Builds the chart of a kind from runs: the same function serves the panel, the export (a fresh chart laid out
// at the asked size) and `kix chart`, so every route shows the same numbers. `info` receives what the chart's
// surroundings show (warnings, notes, choices).
// A build superseded by a newer one (`cancel`) stops soon: its chart is partial, meant to be dropped.
std::unique_ptr<QChart> buildChart(ChartKind kind, const RunList& runs, const ChartOptions& options,
    ChartInfo* info = nullptr, const CancelToken& cancel = CancelToken());

// buildChart() in two steps, so that the window builds a chart of many runs off the GUI thread: prepareChart() does
// every computation over the runs (scope, quantiles, sweep, speed-ups, history, ranking, the notes about them) and
// creates no Qt object, so it may run in any thread; drawChart() makes the QChart of it (GUI thread).
// drawChart(prepareChart(k, runs, o), o, info) is buildChart(k, runs, o, info).
struct PreparedChart
{
    ChartKind kind = ChartKind::Quantiles;
    ChartScope scope;
    ChartInfo info;
    Baseline defaultBaseline; // of the runs in scope, for the baseline chooser
    QuantileData quantiles;
    DistributionData distribution; // quantiles as a histogram or ECDF: the runs' samples overlaid
    SweepData sweep;
    SpeedupData speedup;
    QStringList pairWorkloadKeys; // speed-up: the pairs table's Workload column (ComparisonModel::workloadKeys)
    HistoryData history;
    Ranking ranking;
    int rankCohort = -1; // the cohort Rank draws (chooseRankCohort), -1: none
    OverviewData overview; // the Overview's counts (the table the chart panel shows); nothing else is prepared
    Records records; // every cohort's record timeline (Records)
    int recordsTimeline = -1; // the one drawn (chooseRecordsTimeline), -1: none
};
PreparedChart prepareChart(
    ChartKind kind, const RunList& runs, const ChartOptions& options, const CancelToken& cancel = CancelToken());
std::unique_ptr<QChart> drawChart(PreparedChart&& prepared, const ChartOptions& options, ChartInfo* info = nullptr);

// The first view of a scope: the overview when it spans many kernels or GPUs (overviewIsFirstView); else Rank for a
// leaderboard or one cohort of many implementations (rankIsFirstView), else the quantile chart.
// Reads every run in the worst case: over many runs the chart panel calls it off the GUI thread.
ChartKind firstViewKind(const RunList& runs, const CancelToken& cancel = CancelToken());
// Rank answers these runs best: most of them report a score (a leaderboard: gpumode-kernelbot), or none has a latency,
// or they are one cohort (one kernel, pass, workload, dtype and GPU) of three providers or more.
bool rankIsFirstView(const RunList& runs);
// Speed-up answers these runs best: their latency runs are one kernel on one GPU, of two providers or more, and the
// baseline (huggingface, then torch) and another provider timed at least one workload (pass, shape, dtype) alike.
// The headless summary's chart uses it; the window does not yet (a speed-up chart can flip between two fits of its
// rows at some sizes, see docs/explorer.md).
bool speedupIsFirstView(const RunList& runs);

} // namespace kix
