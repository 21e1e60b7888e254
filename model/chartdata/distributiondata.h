// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/chartdata/timescale.h"
#include "model/run.h"
#include "model/statistics.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>
#include <vector>

namespace kix {

// How the Quantiles view draws its runs: one box per run (the default), or, for two to four runs that carry raw
// samples, their distributions overlaid as histograms or ECDFs on a log time axis.
enum class QuantileView { Box, Histogram, Ecdf };
QString quantileViewName(QuantileView view); // "box", "histogram", "ecdf"
QString quantileViewTitle(QuantileView view); // "Box", "Histogram", "ECDF"
std::optional<QuantileView> quantileViewFromName(const QString& name);

// One run's raw samples as an overlaid histogram and ECDF. Fractions, not counts: runs of 10 and of 1000 samples
// draw on one scale.
struct DistributionRun
{
    RunPtr run;
    QString name; // the legend: "liger · H100 80GB HBM3", named as the quantile chart names its series
    int samples = 0; // finite positive samples drawn (a log axis has no room for the others)
    std::vector<double> fractions; // per bin of DistributionData::edges: the fraction of samples in it; sums to 1
    std::vector<double> ecdfX; // ns, ascending distinct sample values
    std::vector<double> ecdfY; // fraction of samples <= ecdfX[i]; the last is 1
};

// A run against the baseline (the first run) by the two-sided Mann-Whitney U test on their raw samples.
struct DistributionVerdict
{
    int run = 0; // index into DistributionData::runs (1 and up)
    MannWhitneyResult test; // statistic of the run's samples against the baseline's
    double effect = 0; // probability of superiority: P(a run sample < a baseline sample), ties counted half
    QString verdict; // "faster", "slower", "no significant difference"
    QString line; // for the reader: "torch vs liger: faster, p = 0.0012, P(faster) = 0.81 (U = 12, n = 20/20)"
};

struct DistributionData
{
    TimeScale scale; // the unit of the axis, chosen from the runs' medians as the quantile chart chooses it
    QString title;
    std::vector<double> edges; // ns, log-spaced bin edges over the pooled samples' range; bins = edges.size() - 1
    QVector<DistributionRun> runs; // the first is the baseline
    QVector<DistributionVerdict> verdicts; // one per run after the first
    double alpha = 0.05;
    QStringList notes;
    QStringList warnings; // comparability: protocol families that differ
    QString unavailable; // why the runs cannot be overlaid ("3 runs carry no raw samples"); empty when they can

    bool isEmpty() const { return runs.size() < 2; }
};

// The most runs whose distributions are overlaid: more draw as a tangle.
constexpr int maxDistributionRuns = 4;

// The distributions of the latency runs among `runs` that carry raw samples (Run::samples), when there are two to
// four; else an empty result whose `unavailable` says why. `bins` 0 chooses from the sample counts.
DistributionData buildDistributionData(const RunList& runs, int bins = 0, double alpha = 0.05);

// Log-spaced edges from lo to hi (ns, both > 0), `bins` + 1 of them; one bin around lo when lo == hi.
std::vector<double> logBinEdges(double lo, double hi, int bins);

} // namespace kix
