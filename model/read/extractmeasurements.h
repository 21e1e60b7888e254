// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (the run extractor): the sections that hold the run's values.

#include "model/read/extractsections.h"

namespace kix::extract {

// timing: the latency statistics, the headline statistic, inline samples and Google Benchmark's CPU times.
void readTiming(RunExtraction& x);
// measurements[]: latencies in ns, memory and every other metric.
void readMeasurements(RunExtraction& x);
// The headline measurement when timing named none; false when an error was found (the run is refused).
bool chooseHeadline(RunExtraction& x);
// Raw samples named by timing.rawSamples, read from beside the document when the run carries none itself.
void readRawSamples(RunExtraction& x);

} // namespace kix::extract
