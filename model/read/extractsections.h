// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (the run extractor): the readers of the sections that say what the run is (envelope,
// metadata, sourceNative), over the document's reading (extraction.h). Its values are read by
// extractmeasurements.h, its linked resources by extractlinks.h; extractRun calls the sections in the order their
// diagnostics come.

#include "model/read/extraction.h"

namespace kix::extract {

// The document is an object, its run a BenchmarkRun with a spec; an unknown apiVersion is a warning. False: refused.
bool readEnvelope(RunExtraction& x);
// The run's digest, metadata (name, title, labels), status, observedAt and the digests of its linked resources.
void readMetadata(RunExtraction& x);
// sourceNative: source, externalId, benchmark, and the kernel, pass, provider and workload they name.
void readSourceNative(RunExtraction& x);

} // namespace kix::extract
