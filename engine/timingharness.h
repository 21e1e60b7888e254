// SPDX-License-Identifier: Apache-2.0
#pragma once
// The timing loop every backend shares, modelled on triton.testing.do_bench: estimate the cost of one
// repetition, warm up by time, then repeat for a time budget with a cache flush before every repetition
// (outside the timed window), keeping every sample. The backend supplies the primitives (flushCaches,
// timedRun, run); the harness supplies the policy.

#include "engine/benchmarkspec.h"

#include <atomic>
#include <functional>
#include <vector>

namespace kix {

class PreparedBenchmark;

struct TimingRun
{
    enum class Stop { Budget, Noise, TimeCap, SampleCap, Cancelled };

    std::vector<double> samplesNs; // every timed repetition, in order
    int warmupRepetitions = 0;
    double estimateNs = 0; // wall time of one flush + repetition, from the estimate phase
    double relativeStandardError = 0; // of the kept samples
    Stop stop = Stop::Budget;
};

QString stopName(TimingRun::Stop stop); // "budget", "noise", "time_cap", "sample_cap", "cancelled"

struct TimingHooks
{
    const std::atomic<bool>* cancel = nullptr; // polled between repetitions
    std::function<void(double)> progress; // fraction done in [0, 1], after every repetition
    std::function<double()> nowNs; // wall clock for the budgets; steady_clock when empty (tests pass a fake)
};

// Number of repetitions of the estimate phase (do_bench uses 5).
constexpr int kEstimateRepetitions = 5;

// Runs the loop on a prepared benchmark. Budgets are wall time including the flushes, as in do_bench:
//   estimate  kEstimateRepetitions x (flush + timedRun), not kept;
//   warm-up   ceil(warmupMs / estimate) x run(), no flush;
//   measure   clamp(ceil(repMs / estimate), minSamples, maxSamples) x (flush + timedRun), all kept;
//   noise     with settings.noiseStop, more repetitions until the relative standard error of the mean is
//             <= noiseTarget, or maxMs of measuring, or maxSamples.
// Backend exceptions propagate to the caller.
TimingRun timeRepetitions(PreparedBenchmark& benchmark, const TimingSettings& settings, const TimingHooks& hooks = {});

} // namespace kix
