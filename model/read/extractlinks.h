// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (the run extractor): the resources a combined document carries beside its run (protocol,
// environment, workload, operation, implementation, project), checked against the digests that name them, and what
// they tell about the run: its kernel, provider and workload, the names people know, the comparison key.

#include "model/read/extractsections.h"

namespace kix::extract {

// The protocol's comparability and harness, the environment's hardware and software. False: an error was found
// (the run is refused).
bool readResources(RunExtraction& x);
// Each carried resource against the digest that names it: verified, a dialect's own digest, or a warning.
void verifyResources(RunExtraction& x);
// The kernel, provider and workload the verified resources name, the names people know and the comparison key.
void applyLinks(RunExtraction& x);

} // namespace kix::extract
