// SPDX-License-Identifier: Apache-2.0
#include "engine/timingharness.h"

#include "engine/backend.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace kix {

QString stopName(TimingRun::Stop stop)
{
    switch (stop) {
    case TimingRun::Stop::Budget:
        return QStringLiteral("budget");
    case TimingRun::Stop::Noise:
        return QStringLiteral("noise");
    case TimingRun::Stop::TimeCap:
        return QStringLiteral("time_cap");
    case TimingRun::Stop::SampleCap:
        return QStringLiteral("sample_cap");
    case TimingRun::Stop::Cancelled:
        return QStringLiteral("cancelled");
    }
    return {};
}

namespace {

double steadyNowNs()
{
    return static_cast<double>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
}

// Running mean and variance (Welford), so the noise check costs O(1) per repetition.
struct RunningMoments
{
    double n = 0;
    double mean = 0;
    double squares = 0;

    void add(double v)
    {
        n += 1;
        const double delta = v - mean;
        mean += delta / n;
        squares += delta * (v - mean);
    }
    double relativeStandardError() const
    {
        if (n < 2 || mean <= 0)
            return std::numeric_limits<double>::infinity();
        return std::sqrt(squares / (n - 1)) / std::sqrt(n) / mean;
    }
};

} // namespace

TimingRun timeRepetitions(PreparedBenchmark& benchmark, const TimingSettings& settings, const TimingHooks& hooks)
{
    const std::function<double()> now = hooks.nowNs ? hooks.nowNs : std::function<double()>(steadyNowNs);
    auto cancelled = [&] { return hooks.cancel && hooks.cancel->load(std::memory_order_relaxed); };
    TimingRun result;

    const double estimateStart = now();
    for (int i = 0; i < kEstimateRepetitions; ++i) {
        if (cancelled()) {
            result.stop = TimingRun::Stop::Cancelled;
            return result;
        }
        benchmark.flushCaches();
        benchmark.timedRun();
    }
    result.estimateNs = std::max(1.0, (now() - estimateStart) / kEstimateRepetitions);

    const double warmupNs = settings.warmupMs * 1e6;
    const double repNs = settings.repMs * 1e6;
    const int warmups = warmupNs > 0 ? static_cast<int>(std::min(1e9, std::ceil(warmupNs / result.estimateNs))) : 0;
    const int repetitions = static_cast<int>(std::clamp(std::ceil(repNs / result.estimateNs),
        static_cast<double>(settings.minSamples), static_cast<double>(settings.maxSamples)));
    const double total = static_cast<double>(warmups) + repetitions;
    auto report = [&](double done) {
        if (hooks.progress)
            hooks.progress(std::min(1.0, done / total));
    };

    for (int i = 0; i < warmups; ++i) {
        if (cancelled()) {
            result.stop = TimingRun::Stop::Cancelled;
            return result;
        }
        benchmark.run();
        result.warmupRepetitions = i + 1;
        report(i + 1);
    }

    RunningMoments moments;
    result.samplesNs.reserve(static_cast<std::size_t>(std::min(repetitions, 1 << 16)));
    const double measureStart = now();
    const double capNs = settings.maxMs * 1e6;
    for (;;) {
        const int done = static_cast<int>(result.samplesNs.size());
        if (done >= repetitions) {
            if (!settings.noiseStop) {
                result.stop = repetitions == settings.maxSamples && repNs / result.estimateNs > settings.maxSamples
                    ? TimingRun::Stop::SampleCap
                    : TimingRun::Stop::Budget;
                break;
            }
            if (moments.relativeStandardError() <= settings.noiseTarget) {
                result.stop = TimingRun::Stop::Noise;
                break;
            }
            if (now() - measureStart >= capNs) {
                result.stop = TimingRun::Stop::TimeCap;
                break;
            }
            if (done >= settings.maxSamples) {
                result.stop = TimingRun::Stop::SampleCap;
                break;
            }
        }
        if (cancelled()) {
            result.stop = TimingRun::Stop::Cancelled;
            break;
        }
        benchmark.flushCaches();
        const double sample = benchmark.timedRun();
        result.samplesNs.push_back(sample);
        moments.add(sample);
        report(static_cast<double>(warmups) + std::min(done + 1, repetitions));
    }
    result.relativeStandardError = moments.relativeStandardError();
    return result;
}

} // namespace kix
