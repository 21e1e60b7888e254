// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (rankRuns): runs grouped into cohorts of comparable runs, their implementations ranked
// within each, and whether each is told apart from the best.

#include "model/compare/rank.h"

#include <QHash>
#include <QString>

namespace kix::ranking {

QString implementationName(const Run& run); // "brandonin · submission 555004", else the provider, title, ...
QString implementationKeyOf(const Run& run); // its digest, else its provider
// Whether `run` is told apart from `best`: by their samples, else their p20-p80 bands, else value ± std.
void judge(const Run& best, const Run& run, double alpha, RankEntry& entry);
// Cohorts by kernel, pass, workload (as workloads sort), then key.
bool cohortLess(const RankCohort& a, const RankCohort& b);
// The key without the metric: a failed run records no headline, so it joins the cohort of its workload and GPU
// (of its workload, protocol and environment digests, for a strict key).
QString keyWithoutMetric(const CohortKey& k);

CohortKey cohortKeyOf(const Run& run, CohortScope scope);
// The passed runs into their cohorts and entries (by cohort id in `cohortIndex`), the failed ones into
// `failedRuns`. False when the build was cancelled.
bool groupRuns(const RunList& runs, CohortScope scope, Ranking& ranking, QHash<QString, int>& cohortIndex,
    RunList& failedRuns, const CancelToken& cancel);
// A failed run joins the cohort of its key, else the one of its workload, GPU and protocol, else its own.
void placeFailedRuns(const RunList& failedRuns, CohortScope scope, Ranking& ranking, QHash<QString, int>& cohortIndex);
// The entries of one cohort sorted best first, ranked, and judged against the best.
void rankCohort(RankCohort& cohort, double alpha, CohortScope scope);

} // namespace kix::ranking
