// SPDX-License-Identifier: Apache-2.0
// nvbench's JSON (`--json FILE`): one kernelindex run per benchmark state.
#include "model/import/nvbench.h"
#include "model/format/digest.h"
#include "model/import/interop.h"
#include "model/import/interopcommon.h"
#include "model/import/ligernaming.h"

#include <cmath>
#include <map>

namespace kix::interop {

using namespace detail;

namespace {

const char* const kNvbenchNotes
    = "Timed by nvbench: each cold sample is one launch of the benchmark's kernels between CUDA events, after the L2 "
      "cache is flushed, repeated until the relative standard deviation settles below max_noise or the time budget "
      "runs out. The headline is the MEAN cold GPU time with nvbench's relative standard deviation as its noise; it "
      "is not a median with p20/p80 as triton.testing.do_bench reports, and do_bench's samples include launch "
      "overhead measured differently. Batch GPU time (back-to-back launches, no flush), CPU time, bandwidth and "
      "%SOL (against the device's peak DRAM bandwidth) are kept as further measurements. Comparable only within one "
      "benchmark, axis values and GPU; nvbench_compare's verdict (same within the smaller noise) applies within this "
      "family only.";

// The summaries of one state, by tag: the "value" entry of each one's data.
std::map<std::string, double> summaryValues(const json& summaries, const QString& pointer, Schema& schema)
{
    std::map<std::string, double> out;
    for (std::size_t i = 0; i < summaries.size(); ++i) {
        const QString sp = join(pointer, i);
        const json& s = summaries[i];
        if (!s.is_object()) {
            schema.error(sp, QStringLiteral("expected a summary object, found %1").arg(typeName(s)));
            continue;
        }
        const json* tag = schema.require(s, "tag", sp, Kind::String);
        const json* data = schema.optional(s, "data", sp, Kind::Array);
        if (!tag || !data)
            continue;
        for (std::size_t d = 0; d < data->size(); ++d) {
            const json& entry = (*data)[d];
            const QString dp = join(join(sp, "data"), d);
            if (!entry.is_object() || entry.value("name", std::string()) != "value")
                continue;
            const json* value = schema.require(entry, "value", dp, Kind::NumberOrString);
            if (value)
                out[tag->get<std::string>()] = *asNumber(*value);
        }
    }
    return out;
}

struct Device
{
    std::string name;
    json hardware;
    json environment;
};

Device deviceOf(const json& d, const json& software)
{
    Device device;
    device.name = d.value("name", std::string("unknown GPU"));
    json hw = { { "vendor", "nvidia" }, { "product", device.name } };
    if (const auto sm = d.find("sm_version"); sm != d.end() && sm->is_number_integer())
        hw["architecture"] = "sm_" + std::to_string(sm->get<long long>() / 10);
    const std::pair<const char*, const char*> facts[] = { { "sm_default_clock_rate", "smClockHz" },
        { "global_memory_bus_peak_clock_rate", "memoryClockHz" },
        { "global_memory_bus_bandwidth", "memoryBandwidthBytesPerSecond" }, { "global_memory_size", "memoryBytes" },
        { "number_of_sms", "smCount" }, { "l2_cache_size", "l2CacheBytes" }, { "ecc_state", "ecc" } };
    for (const auto& [from, to] : facts) {
        if (const auto it = d.find(from); it != d.end() && !it->is_null())
            hw[to] = *it;
    }
    device.hardware = hw;
    const std::string slug = slugify(device.name);
    device.environment = resource("ExecutionEnvironment", "nvbench-" + slug, "nvbench host · " + device.name,
        { { "hardware", hw }, { "software", software } });
    return device;
}

// meta.version: the nvbench and JSON format versions, the software of every environment of the file.
json softwareOf(const json& value)
{
    json software = json::object();
    if (const auto v = value.find("meta"); v != value.end() && v->is_object()) {
        const json version = v->value("version", json::object());
        if (version.is_object() && version.contains("nvbench") && version["nvbench"].is_object())
            software["nvbench"] = version["nvbench"].value("string", std::string());
        if (version.is_object() && version.contains("json") && version["json"].is_object())
            software["nvbenchJson"] = version["json"].value("string", std::string());
    }
    return software;
}

// The file's devices by id.
std::map<long long, Device> readDevices(const json& devices, const json& software, Schema& schema)
{
    std::map<long long, Device> deviceById;
    for (std::size_t i = 0; i < devices.size(); ++i) {
        const json& d = devices[i];
        const QString dp = join(QStringLiteral("/devices"), i);
        if (!d.is_object()) {
            schema.error(dp, QStringLiteral("expected a device object, found %1").arg(typeName(d)));
            continue;
        }
        const json* id = schema.require(d, "id", dp, Kind::Number);
        schema.require(d, "name", dp, Kind::String);
        if (id)
            deviceById[id->get<long long>()] = deviceOf(d, software);
    }
    return deviceById;
}

// What every run of the file shares: its devices, the protocol and the hash that stands for its time.
struct NvbenchFile
{
    std::map<long long, Device> deviceById;
    std::string source; // the source file's hash: nvbench records no time
    json protocol;
};

// One state's axis values as workload parameters, and the workload they make with the benchmark and device.
json readAxes(const json* axisValues, const QString& stp, const std::string& benchName, const Device& device,
    std::vector<std::pair<std::string, std::string>>& params, Schema& schema)
{
    json workload = { { "benchmark", benchName }, { "device", device.name } };
    if (!axisValues)
        return workload;
    for (std::size_t a = 0; a < axisValues->size(); ++a) {
        const QString ap = join(join(stp, "axis_values"), a);
        const json& av = (*axisValues)[a];
        const json* axisName = av.is_object() ? schema.require(av, "name", ap, Kind::String) : nullptr;
        const json* axisValue = av.is_object() ? schema.require(av, "value", ap, Kind::Scalar) : nullptr;
        if (!av.is_object())
            schema.error(ap, QStringLiteral("expected an axis value object, found %1").arg(typeName(av)));
        if (!axisName || !axisValue)
            continue;
        const std::string text = axisValue->is_string() ? axisValue->get<std::string>() : axisValue->dump();
        params.emplace_back(axisName->get<std::string>(), text);
        workload["axes"][axisName->get<std::string>()] = text;
    }
    return workload;
}

// The run of one state before its measurements: names, implementation, protocol and environment.
RunParts stateParts(const std::string& benchName, const std::string& stateName, const Device& device,
    const std::vector<std::pair<std::string, std::string>>& params, const NvbenchFile& context, const QString& file)
{
    RunParts parts;
    parts.file = file;
    parts.kernel = slugValue(benchName);
    parts.pass = "cold_gpu";
    parts.provider = providerFromFile(file, "nvbench");
    parts.gpuSlug = slugify(device.name);
    parts.workloadSlug = workloadSlug(params, {});
    parts.timestamp = "src-" + context.source;
    parts.title = benchName + " · " + stateName;
    parts.sourceNative = { { "source", "nvbench" }, { "state", stateName } };
    parts.implementation = { { "tool", "nvbench" }, { "benchmark", benchName }, { "provider", parts.provider } };
    parts.protocol = context.protocol;
    parts.environment = device.environment;
    return parts;
}

// The summary's value, NaN when the state has none.
double summaryOf(const std::map<std::string, double>& v, const char* tag)
{
    const auto it = v.find(tag);
    return it == v.end() ? std::nan("") : it->second;
}

// Batch GPU time, CPU time, bandwidth and %SOL, each a measurement when the state has its summary.
void addExtraSummaries(RunParts& parts, const std::map<std::string, double>& v)
{
    const struct
    {
        const char* tag;
        const char* metric;
        const char* statistic;
        const char* unit;
        double scale;
    } extra[] = {
        { "nv/cold/time/cpu/mean", "cpu_time", "mean", "ns", 1e9 },
        { "nv/cold/time/cpu/stdev/relative", "cpu_time_noise", "relative_stdev", "ratio", 1 },
        { "nv/batch/time/gpu/mean", "batch_time", "mean", "ns", 1e9 },
        { "nv/batch/sample_size", "batch_time", "samples", "count", 1 },
        { "nv/cold/bw/global/bytes_per_second", "bandwidth", "mean", "GB/s", 1e-9 },
        { "nv/cold/bw/global/utilization", "bandwidth_peak_fraction", "mean", "ratio", 1 },
        { "nv/cold/bw/global/bytes", "bytes_moved", "total", "bytes", 1 },
    };
    for (const auto& e : extra) {
        const double x = summaryOf(v, e.tag);
        if (std::isfinite(x))
            parts.measurements.push_back(measurement(e.metric, e.statistic, e.unit, x * e.scale));
    }
}

// The summaries of a measured state as the run's latencies and measurements; false (and an error) when it has no
// cold GPU time.
bool addSummaries(
    RunParts& parts, const std::map<std::string, double>& v, const QString& summariesPointer, Schema& schema)
{
    const auto get = [&v](const char* tag) { return summaryOf(v, tag); };
    const double mean = get("nv/cold/time/gpu/mean");
    if (!std::isfinite(mean) || mean < 0) {
        schema.error(summariesPointer,
            std::isnan(mean) ? QStringLiteral("no \"nv/cold/time/gpu/mean\" summary: the state has no cold "
                                              "GPU time")
                             : QStringLiteral("nv/cold/time/gpu/mean is %1, not a time").arg(mean));
        return false;
    }
    parts.primaryStatistic = "mean";
    parts.latencyNs = { { "mean", mean * 1e9 } };
    for (const char* stat : { "min", "max" }) {
        const double x = get((std::string("nv/cold/time/gpu/") + stat).c_str());
        if (std::isfinite(x))
            parts.latencyNs[stat] = x * 1e9;
    }
    const double noise = get("nv/cold/time/gpu/stdev/relative");
    if (std::isfinite(noise)) {
        parts.measurements.push_back(measurement("latency", "stdev", "ns", noise * mean * 1e9));
        parts.measurements.push_back(measurement("latency_noise", "relative_stdev", "ratio", noise));
    }
    const double samples = get("nv/cold/sample_size");
    if (std::isfinite(samples))
        parts.measurements.push_back(measurement("latency", "samples", "count", samples));
    addExtraSummaries(parts, v);
    json tags = json::object();
    for (const auto& [tag, x] : v) {
        if (std::isfinite(x))
            tags[tag] = x;
    }
    parts.sourceNative["summaries"] = tags;
    return true;
}

// One state of a benchmark into `result`: a skipped state as incomplete evidence, a measured one with its
// summaries; none when the state has a schema error.
void importState(ImportResult& result, const json& state, const QString& stp, const std::string& benchName,
    const NvbenchFile& context, const QString& file, Schema& schema)
{
    const int errorsBefore = schema.errors();
    const json* stateName = schema.require(state, "name", stp, Kind::String);
    const json* deviceId = schema.require(state, "device", stp, Kind::Number);
    const json* axisValues = schema.optional(state, "axis_values", stp, Kind::Array);
    const json* summaries = schema.optional(state, "summaries", stp, Kind::Array);
    const json* skipped = schema.optional(state, "is_skipped", stp, Kind::Bool);
    if (schema.errors() > errorsBefore)
        return;
    const auto device = context.deviceById.find(deviceId->get<long long>());
    if (device == context.deviceById.end()) {
        schema.error(join(stp, "device"),
            QStringLiteral("device %1 is not among the file's devices").arg(deviceId->get<long long>()));
        return;
    }
    std::vector<std::pair<std::string, std::string>> params;
    const json workload = readAxes(axisValues, stp, benchName, device->second, params, schema);
    if (schema.errors() > errorsBefore)
        return;

    RunParts parts = stateParts(benchName, stateName->get<std::string>(), device->second, params, context, file);
    parts.workload = workload;
    if (skipped && skipped->get<bool>()) {
        parts.status = "incomplete_evidence"; // skipped: no measurement
        const std::string reason = state.value("skip_reason", std::string("(no reason given)"));
        parts.labels["skip_reason"] = reason;
        parts.sourceNative["skipReason"] = reason;
        addDocument(result, parts);
        result.pointers.push_back(stp);
        return;
    }
    if (!summaries) {
        schema.error(join(stp, "summaries"), QStringLiteral("a state that was not skipped has no summaries"));
        return;
    }
    const std::map<std::string, double> v = summaryValues(*summaries, join(stp, "summaries"), schema);
    if (schema.errors() > errorsBefore || !addSummaries(parts, v, join(stp, "summaries"), schema))
        return;
    addDocument(result, parts);
    result.pointers.push_back(stp);
}

// One benchmark's states into `result`.
void importBenchmark(ImportResult& result, const json& bench, const QString& bp, const NvbenchFile& context,
    const QString& file, Schema& schema)
{
    const json* name = schema.require(bench, "name", bp, Kind::String);
    const json* states = schema.require(bench, "states", bp, Kind::Array);
    if (!name || !states)
        return;
    const std::string benchName = name->get<std::string>();
    for (std::size_t s = 0; s < states->size(); ++s) {
        const QString stp = join(join(bp, "states"), s);
        const json& state = (*states)[s];
        if (!state.is_object()) {
            schema.error(stp, QStringLiteral("expected a state object, found %1").arg(typeName(state)));
            continue;
        }
        importState(result, state, stp, benchName, context, file, schema);
    }
}

} // namespace

ImportResult importNvbench(const json& value, const QString& file)
{
    ImportResult result;
    result.format = Format::Nvbench;
    Schema schema(file, result.diagnostics);
    if (!value.is_object()) {
        schema.error({}, QStringLiteral("nvbench JSON: expected an object, found %1").arg(typeName(value)));
        return result;
    }
    const json* benchmarks = schema.require(value, "benchmarks", {}, Kind::Array);
    const json* devices = schema.require(value, "devices", {}, Kind::Array);
    if (!benchmarks || !devices)
        return result;

    NvbenchFile context;
    context.deviceById = readDevices(*devices, softwareOf(value), schema);
    context.source = format::sha256Digest(value.dump(-1, ' ', false, json::error_handler_t::replace)).substr(7, 12);
    context.protocol
        = protocolDocument(familyOf(Format::Nvbench).toStdString(), "nvbench-cold-gpu-time", "nvbench · cold GPU time",
            "nvbench", "https://github.com/NVIDIA/nvbench", "cuda_events", "mean", kNvbenchNotes);
    for (std::size_t b = 0; b < benchmarks->size(); ++b) {
        const QString bp = join(QStringLiteral("/benchmarks"), b);
        const json& bench = (*benchmarks)[b];
        if (!bench.is_object()) {
            schema.error(bp, QStringLiteral("expected a benchmark object, found %1").arg(typeName(bench)));
            continue;
        }
        importBenchmark(result, bench, bp, context, file, schema);
    }
    return result;
}

} // namespace kix::interop
