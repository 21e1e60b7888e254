// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/run.h"

namespace kix {

// One run of each distinct workload among `runs` (kernel, pass, dtype and every parameter's key and value, as
// text), the first of each, in input order. paramVariation() of these is that of all the runs: a million runs
// repeat a few hundred workloads, so the labeler reads hundreds of runs, not a million.
RunList distinctWorkloads(const RunList& runs);

} // namespace kix
