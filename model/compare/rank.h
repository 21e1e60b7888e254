// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/jobs/canceltoken.h"
#include "model/run.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <limits>

namespace kix {

// What makes runs comparable for a ranking. The format's strict comparison key (model/format/comparisonkey.h:
// operation, workload, protocol, environment, correctness and metric digested) where the run has one; else, for
// a run that links no workload document, the family-level key on kix's typed fields, labelled as such: the same
// kernel and pass, workload (slug and dtype), GPU, protocol family and headline metric with its statistic and
// unit. Runs of different cohorts are never ranked against each other. The implementation is not part of the
// key: it is what a cohort ranks.
struct CohortKey
{
    QString kernel;
    QString pass;
    QString workload; // the workload slug (its parameters and usually the dtype)
    QString workloadTitle; // for display where there is no slug: the workload's title, "suite of 4 cases"
    QString dtype;
    QString gpu; // the GPU as runs are paired elsewhere: slug, else the product in lower case
    QString gpuName; // for display: the product, else the slug
    QString protocol; // the protocol family; kix's engine and Liger's benchmark share one (rankProtocolFamily)
    QString metric; // Run::metricName()
    QString statistic; // the headline statistic: median, mean, geomean, ...
    QString unit;
    QString strict; // the format's comparison key ("sha256:…"); empty for a family-level key
    QString digests; // the workload, protocol and environment digests of a strict key (its parts but the metric)
    QStringList missing; // a family-level key: the parts of the strict key its runs cannot give

    bool widened = false; // the user asked for the family-level scope although runs have strict keys

    static CohortKey of(const Run& run);
    // The family-level key even where the run has a strict one (a scope the user widened).
    static CohortKey familyOf(const Run& run);
    bool isStrict() const { return !strict.isEmpty(); }
    // "strict key 9773ef2f5144…" or "family-level key (no workload document (operation, correctness))"
    QString scopeText() const;
    // Stable text of the whole key, for choosers and sorting.
    QString id() const;
    // "group_norm backward · batch128-channels2048-fp32 · NVIDIA H100 · liger_kernel_bench · latency median (ns)"
    QString describe() const;
    bool operator==(const CohortKey& o) const { return id() == o.id(); }
};

// kix's engine times GroupNorm with the do_bench protocol Liger's benchmark uses (warm-up and repetitions by time,
// a cache flush before every repetition, median with p20/p80: docs/groupnorm-notes.md), so kix's own runs rank in
// one cohort with the imported Liger runs of the same workload on the same GPU; its CUDA-graph runs (comparable
// only with other CUDA-graph runs, their protocol notes say) stay apart. Every other family is its own.
QString rankProtocolFamily(const Run& run);

// Whether an implementation's best observation can be told apart from the cohort's best one.
enum class Distinguishable { Best, Yes, No, Unknown };
QString distinguishableName(Distinguishable d); // "best", "yes", "no", "unknown"

// One implementation of a cohort: its observations summarised (repeated observations are not ranked against
// each other), ranked by its best value (lower is better).
struct RankEntry
{
    QString implementation; // the provider; told apart by its digest where two implementations share a name
    QString implementationKey; // implementationDigest, else the provider
    int rank = 0; // dense: equal best values share a rank
    RunPtr bestRun; // the observation with the lowest value
    RunList runs; // every observation, best first
    double best = std::numeric_limits<double>::quiet_NaN();
    double median = std::numeric_limits<double>::quiet_NaN(); // of the observations' values
    int count = 0;
    double ratio = std::numeric_limits<double>::quiet_NaN(); // best / the cohort's best: 1 for the best, > 1 after
    Distinguishable distinguishable = Distinguishable::Unknown;
    QString evidence; // "best", "p20–p80 bands overlap", "Mann–Whitney p = 0.003", "no noise recorded", ...
    double pValue = std::numeric_limits<double>::quiet_NaN(); // Mann–Whitney only
    // A widened scope: the parts of the strict key in which its best run differs from the cohort's best run
    // ("protocol 07f73e59fb4c… vs 1d2c…", "environment: driver 550.54 vs 560.35"); empty when they agree.
    QStringList differences;
};

// A run listed under a cohort but not ranked: a failed status, or no headline value.
struct UnrankedRun
{
    RunPtr run;
    QString implementation;
    QString reason; // the status ("runtime_error"), or "no headline value"
};

struct RankCohort
{
    CohortKey key;
    QVector<RankEntry> entries; // best first
    QVector<UnrankedRun> failed; // failed runs of this cohort, unranked, in input order
    QVector<UnrankedRun> unranked; // passed runs without a headline value
    int runCount() const;
    // Distinct protocol families of the cohort's runs (more than one where kix's engine meets Liger's runs).
    QStringList protocolFamilies() const;
};

struct Ranking
{
    double alpha = 0.05;
    QVector<RankCohort> cohorts; // by kernel, pass, workload, GPU, protocol, metric
    QStringList notes;
    // The cohort with the most ranked implementations (then the most runs); -1 when there is none.
    int largestCohort() const;
    // The cohort that holds `run` (ranked or failed); -1 when none does.
    int cohortOf(const RunPtr& run) const;
    int findCohort(const QString& id) const;
};

// Ranks every cohort of `runs`. Distinguishable from the best: both carry samples → a two-sided Mann–Whitney U
// test at `alpha`; else both have p20/p80 (or samples to compute them) → the bands must not overlap; else both
// record a standard deviation → mean ± std must not overlap; else "no noise recorded".
// The cohorts Rank uses: the format's strict key (family-level where a run has none), or the family-level key for
// every run when the user widens the scope (then each entry names how it differs from the best: differences).
enum class CohortScope { Strict, Family };
Ranking rankRuns(const RunList& runs, double alpha = 0.05, CohortScope scope = CohortScope::Strict,
    const CancelToken& cancel = CancelToken());

// The parts of the strict comparison key in which `run` differs from `best`, named for a reader.
QStringList strictKeyDifferences(const Run& best, const Run& run);

// The one rule for repeated observations, wherever a ratio of two implementations is shown (Rank, Speed-up, the
// pairs' table, compare): each implementation's best observation.
QString observationRuleText(); // "each implementation's best observation (of n repeated runs)"
// How ranks are assigned: the format's ranking-v1 (dense ranks; equal values tie, and so do declared confidence
// intervals that overlap, except in source-native cohorts such as leaderboard scores, which keep the upstream
// order), and how kix's own "vs best" verdict differs from it.
QString rankingPolicyText();

// How the entry's values read: nanoseconds scaled to ns/µs/ms/s, other units as recorded ("1.234 s").
QString formatRankValue(double value, const QString& unit);
// "1.00×", "1.37×"; "–" when not finite.
QString rankRatioText(double ratio);

} // namespace kix
