#include "engine/runbuilder.h"

#include "kix/config.h"

#include <QCryptographicHash>
#include <QRegularExpression>

#include <cmath>
#include <limits>

namespace kix {
namespace {

const char* const kApiVersion = "kernelindex.dev/v1alpha1";

std::string utf8(const QString& s)
{
    return s.toStdString();
}

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

nlohmann::json measurement(const char* metric, const char* statistic, const char* unit, const nlohmann::json& value)
{
    return { { "metric", metric }, { "statistic", statistic }, { "unit", unit }, { "value", value } };
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

std::string RunBuilder::canonicalJson(const nlohmann::json& value)
{
    // nlohmann::json keeps object keys sorted, and dump() without indent writes no whitespace.
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string RunBuilder::digest(const nlohmann::json& value)
{
    const std::string canonical = canonicalJson(value);
    const QByteArray hash = QCryptographicHash::hash(QByteArray::fromStdString(canonical), QCryptographicHash::Sha256);
    return "sha256:" + hash.toHex().toStdString();
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

nlohmann::json RunBuilder::workload() const
{
    const BenchmarkSpec& spec = m_result.spec;
    return {
        { "op", utf8(spec.op) },
        { "batch", spec.batch },
        { "channels", spec.channels },
        { "hidden", spec.hidden },
        { "channels_per_group", spec.channelsPerGroup },
        { "dtype", utf8(dtypeName(spec.dtype)) },
        { "eps", spec.eps },
    };
}

nlohmann::json RunBuilder::protocol() const
{
    const BenchmarkSpec& spec = m_result.spec;
    const TimingSettings& t = spec.timing;
    const QString pass = passName(spec.pass);
    nlohmann::json measurementSpec = {
        { "timer", utf8(m_timer) },
        { "primaryStatistic", "median" },
        { "timedPass", utf8(pass) },
        { "warmupMs", t.warmupMs },
        { "repMs", t.repMs },
        { "minSamples", t.minSamples },
        { "maxSamples", t.maxSamples },
        { "estimateRepetitions", kEstimateRepetitions },
        { "cacheFlush", "a write of a buffer larger than the last-level cache before every repetition, untimed" },
        { "quantiles", "at q*(n-1) with linear interpolation" },
    };
    if (t.noiseStop)
        measurementSpec["noiseStop"] = { { "relativeStandardError", t.noiseTarget }, { "maxMs", t.maxMs } };
    // Only graph runs say how they launch, so the protocol (and digest) of every other run stays as it was.
    if (t.cudaGraph)
        measurementSpec["launch"] = "cuda_graph";
    const std::string notes = "Timed: the " + utf8(pass) + " pass"
        + (spec.pass == Pass::Backward    ? " alone (mean and rstd from one forward run before timing)"
                : spec.pass == Pass::Full ? " (forward then backward)"
                                          : "")
        + (t.cudaGraph ? ", replayed as one CUDA graph launch per repetition (captured once before timing)" : "")
        + " with kix's do_bench-style loop: warm-up by time, repetitions by time budget, a cache flush before "
          "every repetition outside the timed window, every sample kept in timing.samplesNs; median with "
          "p20/p80. Outputs were checked against a float64 reference first. Comparable only within one kernel, "
          "workload, timed pass, and device"
        + (t.cudaGraph ? ", and with other CUDA-graph runs." : ".");
    return {
        { "kind", "BenchmarkProtocol" },
        { "apiVersion", kApiVersion },
        { "spec",
            { { "harness", { { "name", "kix-engine" }, { "repository", "kix" } } }, { "measurement", measurementSpec },
                { "comparability", { { "notes", notes }, { "family", "kix_engine" } } } } },
        { "metadata",
            { { "name",
                  nameSlug(QStringLiteral("kix-engine-%1-%2%3")
                               .arg(m_timer, pass, t.cudaGraph ? QStringLiteral("-cuda-graph") : QString())) },
                { "title",
                    utf8(QStringLiteral("kix engine · %1 pass%2")
                             .arg(pass, t.cudaGraph ? QStringLiteral(" · CUDA graph") : QString())) } } },
    };
}

nlohmann::json RunBuilder::environmentResource() const
{
    const DeviceInfo& device = m_result.device;
    return {
        { "kind", "ExecutionEnvironment" },
        { "apiVersion", kApiVersion },
        { "spec", m_environment },
        { "metadata",
            { { "name", nameSlug(QStringLiteral("kix-") + device.slug) },
                { "title", utf8(QStringLiteral("kix host · ") + device.name) } } },
    };
}

nlohmann::json RunBuilder::runResource(const nlohmann::json& protocol, const nlohmann::json& environment) const
{
    const BenchmarkResult& r = m_result;
    const BenchmarkSpec& spec = r.spec;
    const bool passed = r.status == BenchmarkResult::Status::Passed;

    nlohmann::json measurements = nlohmann::json::array();
    nlohmann::json timing = { { "primaryStatistic", "median" } };
    if (passed) {
        const SampleStatistics& s = r.statistics;
        timing["latencyNs"] = { { "median", ns(s.median) } };
        nlohmann::json samples = nlohmann::json::array();
        for (const double sample : r.timing.samplesNs)
            samples.push_back(ns(sample));
        timing["samplesNs"] = std::move(samples);
        measurements.push_back(measurement("latency", "p20", "ns", ns(s.p20)));
        measurements.push_back(measurement("latency", "p80", "ns", ns(s.p80)));
        measurements.push_back(measurement("latency", "min", "ns", ns(s.min)));
        measurements.push_back(measurement("latency", "max", "ns", ns(s.max)));
        measurements.push_back(measurement("latency", "mean", "ns", s.mean));
        measurements.push_back(measurement("latency", "stddev", "ns", s.stddev));
        measurements.push_back(measurement("latency", "samples", "count", s.count));
    }
    measurements.push_back(measurement("bytes_moved", "min", "B", r.bytesMoved));
    if (passed) {
        measurements.push_back(measurement("bandwidth", "median", "GB/s", r.bandwidthGBs));
        if (std::isfinite(r.bandwidthFraction))
            measurements.push_back(measurement("bandwidth_fraction", "median", "ratio", r.bandwidthFraction));
    }
    if (std::isfinite(r.copyBandwidthGBs))
        measurements.push_back(measurement("copy_bandwidth", "median", "GB/s", r.copyBandwidthGBs));
    const double error = r.correctness.maxRelativeError;
    // JSON has no infinity: a NaN or infinite output is recorded as the largest double.
    measurements.push_back(measurement(
        "max_rel_error", "max", "ratio", std::isfinite(error) ? error : std::numeric_limits<double>::max()));

    nlohmann::json engine = {
        { "warmupRepetitions", r.timing.warmupRepetitions },
        { "estimateNs", ns(r.timing.estimateNs) },
        { "stopReason", utf8(stopName(r.timing.stop)) },
        { "correctness",
            { { "worstOutput", utf8(r.correctness.worstOutput) }, { "tolerance", r.correctness.tolerance },
                { "sampled", r.correctness.sampled } } },
        { "device", utf8(r.device.id) },
        { "seed", spec.seed },
    };
    if (r.deviceDetails.is_object() && !r.deviceDetails.empty())
        engine["deviceDetails"] = r.deviceDetails;
    if (passed && std::isfinite(r.timing.relativeStandardError))
        engine["relativeStandardError"] = r.timing.relativeStandardError;

    const QString title = QStringLiteral("GroupNorm · %1 · %2").arg(spec.implementation, passName(spec.pass));
    return {
        { "kind", "BenchmarkRun" },
        { "apiVersion", kApiVersion },
        { "spec",
            {
                { "status", passed ? "passed" : "failed" },
                { "timing", timing },
                { "observedAt", utf8(r.observedAt.toUTC().toString(Qt::ISODateWithMs)) },
                { "measurements", measurements },
                { "sourceNative",
                    { { "source", "kix-engine" },
                        { "benchmark", utf8(spec.op + QLatin1Char('/') + passName(spec.pass)) },
                        { "externalId", utf8(externalId()) }, { "engine", engine } } },
                { "protocolDigest", digest(protocol) },
                { "workloadDigest", digest(workload()) },
                { "environmentDigest", digest(environment) },
                { "implementationDigest", digest(m_implementation) },
            } },
        { "metadata",
            { { "name",
                  nameSlug(QStringLiteral("kix-%1-%2-%3-%4-%5")
                               .arg(spec.op, passName(spec.pass), spec.implementation, r.device.slug,
                                   spec.workloadSlug())) },
                { "title", utf8(title) }, { "labels", { { "kix_version", KIX_VERSION } } } } },
    };
}

nlohmann::json RunBuilder::build() const
{
    const nlohmann::json protocolResource = protocol();
    const nlohmann::json environment = environmentResource();
    return {
        { "run", runResource(protocolResource, environment) },
        { "protocol", protocolResource },
        { "environment", environment },
    };
}

} // namespace kix
