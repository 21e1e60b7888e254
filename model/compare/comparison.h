// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/compare/comparability.h"
#include "model/jobs/canceltoken.h"
#include "model/run.h"
#include "model/statistics.h"

#include <QSet>
#include <QString>
#include <QStringList>
#include <QVector>

#include <limits>
#include <vector>

namespace kix {

// How one run compares with its baseline.
enum class Verdict { Faster, Slower, Same, Ambiguous };
QString verdictName(Verdict verdict); // "faster", "slower", "same", "ambiguous"

// What decided the verdict.
enum class VerdictMethod {
    MannWhitney, // both runs carry raw samples
    Intervals, // p20-p80 intervals
    NoSpread, // a run lacks p20/p80 and samples: nothing can be decided
    NvbenchNoise, // two nvbench runs: nvbench_compare's rule, |%diff| against the smaller relative stdev
};
QString verdictMethodName(VerdictMethod method); // "mann-whitney", "p20-p80", "no-spread", "nvbench-noise"

// The baseline: either the first provider of a preference list that a workload has (the default list is
// huggingface, torch), or one run that every other run is compared with.
struct Baseline
{
    QStringList providers;
    RunPtr run;

    static Baseline ofProviders(const QStringList& providers);
    static Baseline ofProvider(const QString& provider) { return ofProviders({ provider }); }
    static Baseline ofRun(RunPtr run);
    // huggingface, then torch, when present among the runs; else the alphabetically first provider.
    static Baseline defaultFor(const RunList& runs, const CancelToken& cancel = CancelToken());
    // The same from the providers of the runs' latency runs, when the caller has them.
    static Baseline defaultForProviders(const QSet<QString>& latencyProviders);

    bool isRun() const { return run != nullptr; }
    bool isEmpty() const { return !run && providers.isEmpty(); }
    QString describe() const; // "huggingface", "huggingface or torch", "run <name>"
};

struct ComparisonPair
{
    RunPtr baseline;
    RunPtr run;
    double ratio = std::numeric_limits<double>::quiet_NaN(); // baseline median / run median: > 1 is faster
    Verdict verdict = Verdict::Ambiguous;
    VerdictMethod method = VerdictMethod::NoSpread;
    double pValue = std::numeric_limits<double>::quiet_NaN(); // Mann-Whitney only
    QStringList warnings; // from assessComparability, plus pairing notes that matter
    QStringList notes;
    bool noisy = false; // either run's p20-p80 spread exceeds Run::noisySpread of its median
    QString reason; // why the verdict is what it is: "p20–p80 intervals overlap; huggingface is noisy (spread 34%)"
};

// Per provider: the geometric mean of its pairs' ratios and how the verdicts fell.
struct ProviderSummary
{
    QString provider;
    int pairs = 0;
    double geomean = std::numeric_limits<double>::quiet_NaN();
    int faster = 0;
    int slower = 0;
    int same = 0;
    int ambiguous = 0;
    int warned = 0; // pairs that carry at least one warning
    QStringList gpus; // distinct GPUs and passes the pairs span, so that a mixed mean is never silent
    QStringList passes;
};

struct Comparison
{
    Baseline baseline;
    double alpha = 0.05;
    QVector<ComparisonPair> pairs;
    QVector<ProviderSummary> providers;
    RunList unpaired; // latency runs with no baseline partner (baseline runs themselves are not listed)
    int baselineRuns = 0; // runs that served as a baseline
    int skippedNonLatency = 0; // memory runs etc. are not compared
    QStringList notes;
};

// Pairs each latency run with a baseline run of the same kernel, pass, workload (including dtype) and GPU; when
// the workload has no baseline run on that GPU, with one on another GPU (and a warning saying so). With a run
// baseline every other latency run is paired with it. Pairs are ordered by kernel, pass, workload, provider, GPU.
Comparison compareRuns(
    const RunList& runs, const Baseline& baseline, double alpha = 0.05, const CancelToken& cancel = CancelToken());

// Decides the verdict of a pair (exposed for tests).
void decideVerdict(const Run& baseline, const Run& run, double alpha, ComparisonPair& pair);

// "group_norm · backward · batch128-channels2048-fp32"
QString workloadDescription(const Run& run);

} // namespace kix
