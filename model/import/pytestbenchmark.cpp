// SPDX-License-Identifier: Apache-2.0
// pytest-benchmark's JSON (`--benchmark-json`, or a saved run under .benchmarks/): one kernelindex run per
// benchmark; the stats are in seconds, `stats.data` (with --benchmark-save-data) holds the raw round times.
#include "model/import/pytestbenchmark.h"
#include "model/format/digest.h"
#include "model/import/interop.h"
#include "model/import/interopcommon.h"
#include "model/import/ligernaming.h"

#include <QFileInfo>
#include <QRegularExpression>

#include <cmath>
#include <optional>

namespace kix::interop {

using namespace detail;

namespace {

const char* const kPytestNotes
    = "Timed by pytest-benchmark: each round calls the test function `iterations` times with the host's timer "
      "(time.perf_counter unless options.timer says otherwise) and records the time per call; the headline is the "
      "median of the rounds, the spread is q1/q3 (quartiles, not p20/p80). Nothing synchronises the GPU unless the "
      "test does it, and no cache is flushed, unlike triton.testing.do_bench (CUDA events per call after an L2 "
      "flush, median with p20/p80). Comparable only within one test, parameters and machine.";

// Keys of the test's parameters that name the implementation rather than the workload.
bool isProviderKey(const std::string& key)
{
    return key == "provider" || key == "impl" || key == "implementation" || key == "backend";
}

std::string scalarText(const json& v)
{
    return v.is_string() ? v.get<std::string>() : v.dump();
}

// A run pytest-benchmark saved itself (--benchmark-save, --benchmark-autosave): `NNNN_<commit>_<date>...json` in
// its storage folder (.benchmarks/<machine>/). Its saved runs are one history, so the file name is not a provider.
struct SavedRun
{
    std::string number; // "0001"
    std::string commit; // the commit of an autosaved run's name ("unversioned" when there was none), else ""
};

std::optional<SavedRun> savedRunOf(const QString& file)
{
    // --benchmark-autosave: NNNN_<commit>_<YYYYMMDD>_<HHMMSS>[_uncommitted-changes]; --benchmark-save=NAME: NNNN_NAME.
    static const QRegularExpression saved(QStringLiteral("^(\\d{4,})_(.+)$"));
    static const QRegularExpression autosaved(QStringLiteral("^([0-9a-f]{7,40}|unversioned)_\\d{8}_\\d{6}"));
    const QRegularExpressionMatch m = saved.match(QFileInfo(file).completeBaseName());
    if (!m.hasMatch())
        return std::nullopt;
    const QRegularExpressionMatch a = autosaved.match(m.captured(2));
    return SavedRun { m.captured(1).toStdString(), a.hasMatch() ? a.captured(1).toStdString() : std::string() };
}

// What every run of the file shares: its date, machine, software, commit labels and protocol.
struct PytestFile
{
    QDateTime date;
    std::string node; // the host's name
    std::string cpuName;
    json software = json::object();
    json labels = json::object();
    std::optional<SavedRun> saved;
    json protocol;
    std::string timestamp;
};

// In the environment schema's terms: system and release are the operating system and its kernel; Python and
// pytest-benchmark are libraries with their versions; the rest becomes labels.
json softwareOf(const json& info, const json& value)
{
    json software = json::object();
    for (const auto& [key, to] : { std::pair { "python_implementation", "python_implementation" },
             std::pair { "system", "operatingSystem" }, std::pair { "release", "kernel" } }) {
        if (const auto it = info.find(key); it != info.end() && it->is_string())
            software[to] = *it;
    }
    if (const auto it = info.find("python_version"); it != info.end() && it->is_string())
        software["libraries"]["python"] = *it;
    if (const auto it = value.find("version"); it != value.end() && it->is_string())
        software["libraries"]["pytest_benchmark"] = *it;
    return software;
}

// commit_info as labels, and the label a history shows for each run: the commit (abbreviated as git does),
// "-dirty" with uncommitted changes, as pytest-benchmark's own compare names saved runs by number and commit.
json commitLabels(const json* commit, const std::optional<SavedRun>& saved)
{
    json labels = json::object();
    if (commit) {
        for (const char* key : { "id", "branch", "project", "dirty" }) {
            if (const auto it = commit->find(key); it != commit->end() && !it->is_null())
                labels[std::string("commit_") + key] = it->is_string() ? it->get<std::string>() : it->dump();
        }
    }
    std::string commitId = labels.value("commit_id", std::string());
    if (commitId.empty() && saved && !saved->commit.empty() && saved->commit != "unversioned")
        commitId = saved->commit;
    if (!commitId.empty())
        labels["commit"]
            = commitId.substr(0, 7) + (labels.value("commit_dirty", std::string()) == "true" ? "-dirty" : "");
    if (saved)
        labels["saved_run"] = saved->number;
    return labels;
}

PytestFile readContext(const json& value, const json* machine, const json* commit, const QString& file, Schema& schema)
{
    PytestFile c;
    if (const json* d = schema.optional(value, "datetime", {}, Kind::String)) {
        c.date = parseTime(d->get<std::string>());
        if (!c.date.isValid())
            schema.warning(QStringLiteral("/datetime"),
                QStringLiteral("\"%1\" is not an ISO-8601 time").arg(QString::fromStdString(d->get<std::string>())));
    }
    const json info = machine ? *machine : json::object();
    const json cpu = info.value("cpu", json::object());
    c.node = info.value("node", std::string("unknown host"));
    c.cpuName = cpu.is_object() ? cpu.value("brand_raw", std::string()) : std::string();
    if (c.cpuName.empty())
        c.cpuName = info.value("processor", std::string());
    c.software = softwareOf(info, value);
    c.saved = savedRunOf(file);
    c.labels = commitLabels(commit, c.saved);
    c.protocol = protocolDocument(familyOf(Format::PytestBenchmark).toStdString(), "pytest-benchmark-rounds",
        "pytest-benchmark · time per call", "pytest-benchmark", "https://github.com/ionelmc/pytest-benchmark",
        "host_timer", "median", kPytestNotes);
    c.timestamp = c.date.isValid()
        ? timestampPart(c.date)
        : "src-" + format::sha256Digest(value.dump(-1, ' ', false, json::error_handler_t::replace)).substr(7, 12);
    return c;
}

// One benchmark's members, checked: its name and stats (in seconds), its parameters and extra_info, and its raw
// round times in ns (stats.data).
struct Benchmark
{
    const json* name = nullptr;
    const json* stats = nullptr;
    const json* params = nullptr;
    const json* extra = nullptr;
    const json* q1 = nullptr;
    const json* q3 = nullptr;
    const json* stddev = nullptr;
    std::vector<double> samples;
};

// The benchmark at `bp`, or nothing when it has a schema error.
std::optional<Benchmark> readBenchmark(const json& b, const QString& bp, Schema& schema)
{
    const int errorsBefore = schema.errors();
    Benchmark out;
    out.name = schema.require(b, "name", bp, Kind::String);
    out.stats = schema.require(b, "stats", bp, Kind::Object);
    out.params = schema.optional(b, "params", bp, Kind::Object);
    out.extra = schema.optional(b, "extra_info", bp, Kind::Object);
    if (!out.name || !out.stats)
        return std::nullopt;
    const json& stats = *out.stats;
    const QString sp = join(bp, "stats");
    const char* required[] = { "min", "max", "mean", "median", "rounds" };
    for (const char* key : required)
        schema.require(stats, key, sp, Kind::Number);
    out.q1 = schema.optional(stats, "q1", sp, Kind::Number);
    out.q3 = schema.optional(stats, "q3", sp, Kind::Number);
    out.stddev = schema.optional(stats, "stddev", sp, Kind::Number);
    if (const json* data = schema.optional(stats, "data", sp, Kind::Array)) {
        for (std::size_t k = 0; k < data->size(); ++k) {
            const json& x = (*data)[k];
            if (!x.is_number() || !std::isfinite(x.get<double>()) || x.get<double>() < 0) {
                schema.error(join(join(sp, "data"), k),
                    QStringLiteral("expected a round time in seconds, found %1").arg(typeName(x)));
                break;
            }
            out.samples.push_back(x.get<double>() * 1e9);
        }
    }
    for (const char* key : required) {
        const auto it = stats.find(key);
        if (it != stats.end() && it->is_number() && (it->get<double>() < 0 || !std::isfinite(it->get<double>())))
            schema.error(join(sp, key), QStringLiteral("%1 is not a time").arg(it->get<double>()));
    }
    if (schema.errors() > errorsBefore)
        return std::nullopt;
    return out;
}

// The test's parameters: the provider (a parameter that names the implementation), the dtype and the workload's.
struct Parameters
{
    std::string provider;
    std::string dtype;
    std::vector<std::pair<std::string, std::string>> workloadParams;
    json workload;
};

Parameters parametersOf(
    const json& b, const Benchmark& bench, const std::string& testName, const PytestFile& context, const QString& file)
{
    Parameters p;
    p.provider = context.saved ? std::string("pytest") : providerFromFile(file, "pytest");
    p.workload = { { "test", b.value("fullname", testName) } };
    if (bench.params) {
        for (auto it = bench.params->begin(); it != bench.params->end(); ++it) {
            const std::string text = scalarText(*it);
            if (isProviderKey(it.key())) {
                p.provider = slugValue(text);
                continue;
            }
            p.workload["params"][it.key()] = *it;
            if (p.dtype.empty() && !knownDtype(text).empty() && (it.key() == "dtype" || it.key() == "type"))
                p.dtype = knownDtype(text);
            else
                p.workloadParams.emplace_back(it.key(), text);
        }
    } else if (const auto param = b.find("param"); param != b.end() && param->is_string()) {
        p.workloadParams.emplace_back("param", param->get<std::string>());
        p.workload["param"] = *param;
    }
    return p;
}

// The device the benchmark ran on: extra_info's GPU when it names one, else the host's CPU.
std::string productOf(const Benchmark& bench, const PytestFile& context)
{
    std::string product = context.cpuName.empty() ? "CPU · " + context.node : context.cpuName;
    if (bench.extra) {
        for (const char* key : { "gpu", "device_name", "device" }) {
            if (const auto it = bench.extra->find(key); it != bench.extra->end() && it->is_string())
                return it->get<std::string>();
        }
    }
    return product;
}

json hardwareOf(const std::string& product, const std::string& cpuName)
{
    const bool gpu = product.find("NVIDIA") != std::string::npos || product.find("AMD Instinct") != std::string::npos;
    json hardware = { { "vendor", gpu ? (product.find("NVIDIA") != std::string::npos ? "nvidia" : "amd") : "cpu" },
        { "product", product } };
    if (gpu && !cpuName.empty())
        hardware["hostCpu"] = cpuName;
    if (const std::string arch = liger::architectureOf(product); !arch.empty())
        hardware["architecture"] = arch;
    return hardware;
}

// The run of one benchmark before its timings: names, labels, workload, implementation, protocol, environment.
RunParts benchmarkParts(const json& b, const Benchmark& bench, const PytestFile& context, const QString& file)
{
    const std::string testName = bench.name->get<std::string>();
    const std::string kernel = testName.substr(0, testName.find('['));
    const Parameters p = parametersOf(b, bench, testName, context, file);
    const std::string product = productOf(bench, context);
    const json hardware = hardwareOf(product, context.cpuName);
    RunParts parts;
    parts.file = file;
    parts.kernel = slugValue(kernel);
    parts.pass = "call";
    parts.provider = p.provider;
    parts.gpuSlug = slugify(product);
    parts.workloadSlug = workloadSlug(p.workloadParams, p.dtype);
    parts.timestamp = context.timestamp;
    if (context.date.isValid())
        parts.observedAt = isoUtcMs(context.date);
    parts.title = testName;
    parts.labels = context.labels;
    if (const auto group = b.find("group"); group != b.end() && group->is_string())
        parts.labels["group"] = *group;
    parts.workload = p.workload;
    parts.implementation
        = { { "tool", "pytest-benchmark" }, { "test", b.value("fullname", testName) }, { "provider", p.provider } };
    parts.protocol = context.protocol;
    parts.environment = resource("ExecutionEnvironment", "pytest-benchmark-" + slugify(context.node),
        "pytest-benchmark host · " + context.node, { { "hardware", hardware }, { "software", context.software } });
    parts.sourceNative = { { "source", "pytest-benchmark" }, { "fullname", b.value("fullname", testName) } };
    if (bench.extra && !bench.extra->empty())
        parts.sourceNative["extra_info"] = *bench.extra;
    if (const auto options = b.find("options"); options != b.end() && options->is_object())
        parts.sourceNative["options"] = *options;
    return parts;
}

// The stats (seconds) as the run's latencies in ns: the median headline, mean, min and max, the quartiles and
// standard deviation, the rounds and iterations.
void addStats(RunParts& parts, const Benchmark& bench)
{
    const json& stats = *bench.stats;
    parts.primaryStatistic = "median";
    parts.latencyNs
        = { { "median", stats["median"].get<double>() * 1e9 }, { "mean", stats["mean"].get<double>() * 1e9 },
              { "min", stats["min"].get<double>() * 1e9 }, { "max", stats["max"].get<double>() * 1e9 } };
    parts.samplesNs = bench.samples;
    if (bench.q1)
        parts.measurements.push_back(measurement("latency", "q1", "ns", bench.q1->get<double>() * 1e9));
    if (bench.q3)
        parts.measurements.push_back(measurement("latency", "q3", "ns", bench.q3->get<double>() * 1e9));
    if (bench.stddev)
        parts.measurements.push_back(measurement("latency", "stdev", "ns", bench.stddev->get<double>() * 1e9));
    parts.measurements.push_back(measurement("latency", "rounds", "count", stats["rounds"].get<double>()));
    if (const auto it = stats.find("iterations"); it != stats.end() && it->is_number())
        parts.measurements.push_back(measurement("iterations", "per_round", "count", it->get<double>()));
}

} // namespace

ImportResult importPytestBenchmark(const json& value, const QString& file)
{
    ImportResult result;
    result.format = Format::PytestBenchmark;
    Schema schema(file, result.diagnostics);
    if (!value.is_object()) {
        schema.error({}, QStringLiteral("pytest-benchmark JSON: expected an object, found %1").arg(typeName(value)));
        return result;
    }
    const json* benchmarks = schema.require(value, "benchmarks", {}, Kind::Array);
    const json* machine = schema.optional(value, "machine_info", {}, Kind::Object);
    const json* commit = schema.optional(value, "commit_info", {}, Kind::Object);
    if (!benchmarks)
        return result;
    const PytestFile context = readContext(value, machine, commit, file, schema);

    for (std::size_t i = 0; i < benchmarks->size(); ++i) {
        const QString bp = join(QStringLiteral("/benchmarks"), i);
        const json& b = (*benchmarks)[i];
        if (!b.is_object()) {
            schema.error(bp, QStringLiteral("expected a benchmark object, found %1").arg(typeName(b)));
            continue;
        }
        const std::optional<Benchmark> bench = readBenchmark(b, bp, schema);
        if (!bench)
            continue;
        RunParts parts = benchmarkParts(b, *bench, context, file);
        addStats(parts, *bench);
        addDocument(result, parts);
        result.pointers.push_back(bp);
    }
    return result;
}

} // namespace kix::interop
