// SPDX-License-Identifier: Apache-2.0
#include "engine/runbuilder.h"

#include "engine/groupnormresources.h"
#include "kix/config.h"
#include "model/format/utf8.h"
#include "model/format/vocabulary.h"

#include <QRegularExpression>

#include <cmath>
#include <limits>

namespace kix {
namespace {

// Lower case, runs of anything but [a-z0-9] as '-', at most 100 characters (as the seed's names).
std::string nameSlug(const QString& text)
{
    QString slug = text.toLower();
    slug.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    slug.truncate(100);
    while (slug.endsWith(QLatin1Char('-')))
        slug.chop(1);
    while (slug.startsWith(QLatin1Char('-')))
        slug.remove(0, 1);
    return utf8(slug);
}

long long ns(double value)
{
    return std::llround(value);
}

using nlohmann::json;

// The backend's facts that the environment schema has no field for keep their names as labels ("hardware_cores").
json environmentFacts(const json& environment)
{
    return environment.is_object() ? environment : json::object();
}

} // namespace

RunBuilder::RunBuilder(const BenchmarkResult& result)
    : m_result(result)
{
}

RunBuilder& RunBuilder::setEnvironment(const nlohmann::json& environmentSpec)
{
    m_environment = environmentSpec;
    return *this;
}

RunBuilder& RunBuilder::setImplementation(const nlohmann::json& implementationInfo)
{
    m_implementation = implementationInfo;
    return *this;
}

RunBuilder& RunBuilder::setTimer(const QString& timer)
{
    m_timer = timer;
    return *this;
}

QString RunBuilder::externalId() const
{
    const BenchmarkSpec& spec = m_result.spec;
    const QString stamp = m_result.observedAt.toUTC().toString(QStringLiteral("yyyy-MM-dd-HH-mm-ss"));
    return QStringList { spec.op, passName(spec.pass), spec.implementation, m_result.device.slug, spec.workloadSlug(),
        stamp }
        .join(QLatin1Char('/'));
}

QString RunBuilder::fileName() const
{
    QString name = externalId();
    name.replace(QLatin1Char('/'), QLatin1Char('-'));
    return name + QStringLiteral(".json");
}

std::vector<double> RunBuilder::roundedSamples(const std::vector<double>& samplesNs)
{
    std::vector<double> out;
    out.reserve(samplesNs.size());
    for (const double sample : samplesNs)
        out.push_back(static_cast<double>(ns(sample)));
    return out;
}

json RunBuilder::protocol() const
{
    const BenchmarkSpec& spec = m_result.spec;
    const TimingSettings& t = spec.timing;
    const QString pass = passName(spec.pass);
    json measurementSpec = {
        { "timer", utf8(m_timer) },
        { "primaryStatistic", "median" },
        { "synchronization", spec.device.startsWith(QLatin1String("cuda")) ? "device_sync" : "host" },
        { "compileIncluded", false },
        { "setupIncluded", false },
        { "warmupDuration", utf8(QString::number(t.warmupMs, 'g', 15) + QStringLiteral(" ms")) },
        { "inputRegeneration", "none" },
        { "outlierPolicy", "none: every sample is kept" },
        // not in the schema: labels of the protocol
        { "timedPass", utf8(pass) },
        { "repMs", t.repMs },
        { "minSamples", t.minSamples },
        { "maxSamples", t.maxSamples },
        { "estimateRepetitions", kEstimateRepetitions },
        { "cacheFlush",
            t.cacheFlush == CacheFlush::ReadSweep
                ? "a read of a buffer twice the last-level cache before every repetition, untimed (leaves it clean)"
                : "a write of a buffer larger than the last-level cache before every repetition, untimed" },
        { "quantiles", "at q*(n-1) with linear interpolation" },
    };
    if (t.noiseStop)
        measurementSpec["noiseStop"] = { { "relativeStandardError", t.noiseTarget }, { "maxMs", t.maxMs } };
    if (t.cudaGraph)
        measurementSpec["launch"] = "cuda_graph";
    // The settings that decide what a sample means ride in the notes, so that the protocol's digest tells them apart.
    const QString settings = QStringLiteral(" Settings: warm-up %1 ms; repetitions for %2 ms, %3 to %4 samples%5.")
                                 .arg(t.warmupMs)
                                 .arg(t.repMs)
                                 .arg(t.minSamples)
                                 .arg(t.maxSamples)
                                 .arg(t.noiseStop ? QStringLiteral("; on until the relative standard error is %1 "
                                                                   "or %2 ms")
                                                        .arg(t.noiseTarget)
                                                        .arg(t.maxMs)
                                                  : QString());
    const std::string notes = "Timed: the " + utf8(pass) + " pass"
        + (spec.pass == Pass::Backward    ? " alone (mean and rstd from one forward run before timing)"
                : spec.pass == Pass::Full ? " (forward then backward)"
                                          : "")
        + (t.cudaGraph ? ", replayed as one CUDA graph launch per repetition (captured once before timing)" : "")
        + " with kix's do_bench-style loop: warm-up by time, repetitions by time budget, a cache flush before "
          "every repetition outside the timed window, every sample kept in the raw-samples file; median with "
          "p20/p80. Outputs were checked against a float64 reference first. Comparable only within one kernel, "
          "workload, timed pass, and device"
        + (t.cudaGraph ? ", and with other CUDA-graph runs." : ".") + utf8(settings)
        + (t.cacheFlush == CacheFlush::ReadSweep
                ? " Cache flush: a read sweep (the cache left clean, the kernel's own write-back after its stop "
                  "event); not comparable with write-flush runs."
                : "");
    const json loose = {
        { "harness", { { "name", "kix-engine" }, { "version", KIX_VERSION } } },
        { "measurement", measurementSpec },
        { "comparability", { { "notes", notes }, { "family", "kix_engine" } } },
    };
    return format::protocolResource(
        nameSlug(QStringLiteral("kix-engine-%1-%2%3")
                     .arg(m_timer, pass, t.cudaGraph ? QStringLiteral("-cuda-graph") : QString())),
        utf8(QStringLiteral("kix engine · %1 pass%2")
                 .arg(pass, t.cudaGraph ? QStringLiteral(" · CUDA graph") : QString())),
        loose);
}

format::RunDocument RunBuilder::buildDocument() const
{
    const BenchmarkResult& r = m_result;
    const BenchmarkSpec& spec = r.spec;
    const bool passed = r.status == BenchmarkResult::Status::Passed;
    const DeviceInfo& device = r.device;

    const json operation = groupNormOperation(spec);
    const json workload = groupNormWorkload(spec, operation, r.correctness.tolerance);
    const json implementation = groupNormImplementation(spec, operation, m_implementation, device.architecture);
    const json environment = format::environmentResource(nameSlug(QStringLiteral("kix-") + device.slug),
        utf8(QStringLiteral("kix host · ") + device.name), environmentFacts(m_environment));

    format::DocumentBuilder b;
    b.setName(nameSlug(QStringLiteral("kix-%1-%2-%3-%4-%5")
                           .arg(spec.op, passName(spec.pass), spec.implementation, device.slug, spec.workloadSlug())))
        .setTitle(utf8(QStringLiteral("GroupNorm · %1 · %2").arg(spec.implementation, passName(spec.pass))))
        .addLabel("kix_version", KIX_VERSION)
        // a failed correctness check: the outputs were wrong, the format's incorrect_numerical
        .setStatus(passed ? "passed" : "incorrect_numerical")
        .setObservedAt(r.observedAt)
        .setProtocol(protocol())
        .setEnvironment(environment)
        .setOperation(operation)
        .setWorkload(workload)
        .setImplementation(implementation);

    if (passed) {
        const SampleStatistics& s = r.statistics;
        b.setTiming("median", { { "median", ns(s.median) }, { "minimum", ns(s.min) }, { "maximum", ns(s.max) } });
        b.setSampleCount(s.count);
        b.setSamples(roundedSamples(r.timing.samplesNs));
        b.addMeasurement("latency", "p20", "ns", double(ns(s.p20)));
        b.addMeasurement("latency", "p80", "ns", double(ns(s.p80)));
        b.addMeasurement("latency", "min", "ns", double(ns(s.min)));
        b.addMeasurement("latency", "max", "ns", double(ns(s.max)));
        b.addMeasurement("latency", "mean", "ns", s.mean);
        b.addMeasurement("latency", "stddev", "ns", s.stddev);
        b.addMeasurement("latency", "samples", "count", double(s.count));
    }
    b.addMeasurement("bytes_moved", "min", "bytes", double(r.bytesMoved));
    if (passed) {
        b.addMeasurement("bandwidth", "median", "gb_s", r.bandwidthGBs);
        if (std::isfinite(r.bandwidthFraction))
            b.addMeasurement("bandwidth_fraction", "median", "ratio", r.bandwidthFraction);
    }
    if (std::isfinite(r.copyBandwidthGBs))
        b.addMeasurement("copy_bandwidth", "median", "gb_s", r.copyBandwidthGBs);
    const double error = r.correctness.maxRelativeError;
    // JSON has no infinity: a NaN or infinite output is recorded as the largest double.
    b.addMeasurement(
        "max_rel_error", "max", "ratio", std::isfinite(error) ? error : std::numeric_limits<double>::max());
    b.setCorrectness("max_relative_error_vs_float64", format::DocumentBuilder::kUnset,
        std::isfinite(error) ? error : format::DocumentBuilder::kUnset);

    json metrics = { { "warmup_repetitions", r.timing.warmupRepetitions }, { "estimate_ns", ns(r.timing.estimateNs) },
        { "seed", spec.seed }, { "correctness_tolerance", r.correctness.tolerance } };
    if (passed && std::isfinite(r.timing.relativeStandardError))
        metrics["relative_standard_error"] = r.timing.relativeStandardError;
    json facts = { { "stop_reason", utf8(stopName(r.timing.stop)) },
        { "correctness_worst_output", utf8(r.correctness.worstOutput) },
        { "correctness_sampled", r.correctness.sampled ? "true" : "false" }, { "device", utf8(device.id) } };
    if (r.deviceDetails.is_object() && !r.deviceDetails.empty())
        facts["device_details"] = r.deviceDetails;
    b.setSourceNative(
        "kix-engine", utf8(spec.op + QLatin1Char('/') + passName(spec.pass)), utf8(externalId()), metrics, facts);
    return b.build();
}

} // namespace kix
