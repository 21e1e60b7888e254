// SPDX-License-Identifier: Apache-2.0
#pragma once
// Correctness before timing: a prepared benchmark's outputs against the float64 reference
// (kernels/groupnorm_reference.h), on inputs the host regenerates from the spec's seed.

#include "engine/benchmarkspec.h"

#include <QString>

namespace kix {

class PreparedBenchmark;

struct CorrectnessResult
{
    double maxRelativeError = 0; // the largest over the pass's outputs (gn::ref::ErrorAccumulator's measure)
    QString worstOutput; // "y", "mean", "rstd", "dx", "dweight", "dbias"
    double tolerance = 0; // gn::ref::tolerance(spec.dtype)
    bool sampled = false; // rows and channel groups were sampled instead of checking whole tensors
    bool passed = false;

    QString summary() const; // "max relative error 1.2e-07 (dx), tolerance 1e-05"
};

// Whole tensors are checked up to this many elements; larger workloads check sampled rows, and dweight /
// dbias for sampled groups.
constexpr qint64 kWholeTensorCheckElements = qint64(1) << 20;

// Compares the outputs of the benchmark's last run() with the reference. Call after one run().
// Backend exceptions from readOutput() propagate.
CorrectnessResult checkCorrectness(PreparedBenchmark& benchmark, const BenchmarkSpec& spec);

} // namespace kix
