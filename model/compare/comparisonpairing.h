// SPDX-License-Identifier: Apache-2.0
#pragma once
// The steps of compareRuns() (model/compare/comparison.h), in the order it takes them.

#include "model/compare/comparison.h"

namespace kix::comparisonpairing {

// The runs with a latency that can be compared; the others are counted in `result`.
RunList comparableLatencyRuns(const RunList& runs, Comparison& result);
// Every run against the one baseline run; false when the build was superseded.
bool pairWithBaselineRun(const RunList& latency, const Baseline& baseline, double alpha, Comparison& result);
// Every run against the baseline providers' run of its workload and GPU; false when superseded.
bool pairWithBaselineProviders(
    const RunList& latency, const Baseline& baseline, double alpha, Comparison& result, const CancelToken& cancel);
void sortUnpairedRuns(const Baseline& baseline, Comparison& result);
void summarize(Comparison& comparison);

} // namespace kix::comparisonpairing
