// SPDX-License-Identifier: Apache-2.0
// Google Benchmark's JSON (`--benchmark_format=json`, `--benchmark_out`): one kernelindex run per benchmark
// instance (family + arguments); its repetitions are the run's raw samples, its aggregates are not runs.
#include "model/import/gbench.h"
#include "model/format/digest.h"
#include "model/import/gbenchentries.h"
#include "model/import/interop.h"
#include "model/import/interopcommon.h"
#include "model/import/ligernaming.h"
#include "model/statistics.h"

#include <QStringList>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

namespace kix::interop {

using namespace detail;
using namespace gbench;

namespace {

const char* const kGbenchNotes
    = "Timed by Google Benchmark: the benchmark loop runs `iterations` times and real_time is the wall-clock time "
      "per iteration (cpu_time the process CPU time per iteration) on the host's clock. With repetitions, each "
      "repetition is one raw sample and the headline is their median; a single repetition gives one per-iteration "
      "mean. Nothing synchronises a GPU or flushes a cache unless the benchmark does it itself, unlike "
      "triton.testing.do_bench (CUDA events per call after an L2 flush, median with p20/p80). Comparable only "
      "within one benchmark name, arguments and host; compare.py's time change and Mann-Whitney U p-value apply "
      "within this family only.";

// Keys the JSON reporter writes itself; any other number on an entry is a user counter.
const std::set<std::string> kReporterKeys = { "name", "family_index", "per_family_instance_index", "run_name",
    "run_type", "repetitions", "repetition_index", "threads", "aggregate_name", "aggregate_unit", "error_occurred",
    "error_message", "skipped", "skip_message", "iterations", "real_time", "cpu_time", "time_unit", "label",
    "cpu_coefficient", "real_coefficient", "big_o", "rms" };

// "BigO" -> "bigo", "my stat" -> "my_stat": a statistic name in the format's pattern [a-z][a-z0-9_]*.
std::string statisticName(const std::string& name)
{
    std::string out;
    for (const char c : name) {
        const auto u = static_cast<unsigned char>(c);
        out += std::isalnum(u) ? static_cast<char>(std::tolower(u)) : '_';
    }
    if (out.empty() || !std::isalpha(static_cast<unsigned char>(out.front())))
        out.insert(0, "s_");
    return out;
}

// What every run of the file shares: its date, host, environment and protocol, and the timestamp part of its ids.
struct GbenchFile
{
    QDateTime date;
    std::string host;
    json software;
    json environment;
    json protocol;
    std::string timestamp;
};

GbenchFile readContext(const json& value, const json& context, Schema& schema)
{
    GbenchFile c;
    if (const json* d = schema.optional(context, "date", QStringLiteral("/context"), Kind::String)) {
        c.date = parseTime(d->get<std::string>());
        if (!c.date.isValid())
            schema.warning(QStringLiteral("/context/date"),
                QStringLiteral("\"%1\" is not an ISO-8601 time").arg(QString::fromStdString(d->get<std::string>())));
    }
    c.host = context.value("host_name", std::string("unknown host"));
    json hardware = { { "vendor", "cpu" }, { "product", "CPU · " + c.host } };
    for (const char* key : { "num_cpus", "mhz_per_cpu", "cpu_scaling_enabled", "aslr_enabled", "caches" }) {
        if (const auto it = context.find(key); it != context.end())
            hardware[key] = *it;
    }
    c.software = json::object();
    for (const char* key : { "library_version", "library_build_type", "executable" }) {
        if (const auto it = context.find(key); it != context.end() && it->is_string())
            c.software[key] = *it;
    }
    c.environment = resource("ExecutionEnvironment", "gbench-" + slugify(c.host), "Google Benchmark host · " + c.host,
        { { "hardware", hardware }, { "software", c.software } });
    c.protocol = protocolDocument(familyOf(Format::GoogleBenchmark).toStdString(), "gbench-real-time",
        "Google Benchmark · real time per iteration", "Google Benchmark", "https://github.com/google/benchmark",
        "wall_clock", "median", kGbenchNotes);
    c.timestamp = c.date.isValid()
        ? timestampPart(c.date)
        : "src-" + format::sha256Digest(value.dump(-1, ' ', false, json::error_handler_t::replace)).substr(7, 12);
    return c;
}

// What one instance's entries measured: its repetitions' times, its aggregates, or why it did not run.
struct Measured
{
    std::vector<double> real, cpu;
    std::map<std::string, double> aggregates; // aggregate name -> real time, ns
    std::map<std::string, double> ratios; // aggregate name -> fraction (aggregate_unit percentage)
    std::string failure;
    std::string status = "passed";
    json counters = json::object();
    long long iterations = 0;
};

// One entry of an instance into `m`: a failure, an aggregate or a repetition with its counters.
void measureEntry(const Entry& entry, Measured& m, Schema& schema)
{
    const json& e = *entry.value;
    if (e.value("error_occurred", false)) {
        m.status = "runtime_error";
        m.failure = e.value("error_message", std::string("(no message)"));
        return;
    }
    if (e.value("skipped", false)) {
        m.status = "incomplete_evidence";
        m.failure = e.value("skip_message", std::string("(no message)"));
        return;
    }
    const json* r = schema.require(e, "real_time", entry.pointer, Kind::Number);
    const json* c = schema.require(e, "cpu_time", entry.pointer, Kind::Number);
    const json* unit = schema.require(e, "time_unit", entry.pointer, Kind::String);
    if (!r || !c || !unit)
        return;
    bool known = false;
    const double realNs = toNs(r->get<double>(), unit->get<std::string>(), &known);
    const double cpuNs = toNs(c->get<double>(), unit->get<std::string>(), &known);
    if (!known) {
        schema.error(join(entry.pointer, "time_unit"),
            QStringLiteral("unknown time unit \"%1\" (ns, us, ms or s)")
                .arg(QString::fromStdString(unit->get<std::string>())));
        return;
    }
    if (!std::isfinite(realNs) || realNs < 0) {
        schema.error(join(entry.pointer, "real_time"), QStringLiteral("%1 is not a time").arg(realNs));
        return;
    }
    if (e.value("run_type", std::string()) == "aggregate" && e.contains("aggregate_name")) {
        if (e.value("aggregate_unit", std::string("time")) == "time")
            m.aggregates[e.value("aggregate_name", std::string())] = realNs;
        else // a percentage (cv): a fraction, written as is
            m.ratios[e.value("aggregate_name", std::string())] = r->get<double>();
        return;
    }
    m.real.push_back(realNs);
    m.cpu.push_back(cpuNs);
    m.iterations += e.value("iterations", 0LL);
    for (auto it = e.begin(); it != e.end(); ++it) {
        if (it->is_number() && !kReporterKeys.count(it.key()))
            m.counters[it.key()].push_back(it->get<double>());
    }
}

// The run of one instance before its measurements: its names, workload, implementation, protocol and environment.
RunParts instanceParts(const Instance& instance, const std::string& family,
    const std::vector<std::pair<std::string, std::string>>& params, const std::string& status,
    const GbenchFile& context, const QString& file)
{
    json workload = { { "benchmark", instance.runName } };
    std::string dtype;
    RunParts parts;
    parts.file = file;
    parts.kernel = slugValue(family);
    parts.pass = "real_time";
    parts.provider = providerFromFile(file, "gbench");
    parts.gpuSlug = slugify("cpu " + context.host);
    parts.workloadSlug = workloadSlug(params, dtype);
    parts.timestamp = context.timestamp;
    if (context.date.isValid())
        parts.observedAt = isoUtcMs(context.date);
    parts.title = instance.runName;
    parts.status = status;
    parts.workload = workload;
    parts.implementation = { { "tool", "gbench" }, { "benchmark", instance.runName },
        { "executable", context.software.value("executable", std::string()) }, { "provider", parts.provider } };
    parts.protocol = context.protocol;
    parts.environment = context.environment;
    parts.sourceNative = { { "source", "google-benchmark" }, { "name", instance.runName } };
    return parts;
}

// Repetitions: the headline is their median (the mean of one repetition), each is a raw sample; CPU time,
// iterations and user counters are measurements.
void addRepetitions(RunParts& parts, const Measured& m)
{
    std::vector<double> sorted = m.real;
    std::sort(sorted.begin(), sorted.end());
    double mean = 0;
    for (const double x : m.real)
        mean += x / static_cast<double>(m.real.size());
    if (m.real.size() >= 2) {
        parts.primaryStatistic = "median";
        parts.latencyNs = { { "median", sortedQuantile(sorted, 0.5) }, { "mean", mean }, { "min", sorted.front() },
            { "max", sorted.back() } };
        parts.samplesNs = m.real;
        // one number per repetition, as sourceNative.metrics holds them (numbers only): cpu_time_ns_0, ...
        for (std::size_t i = 0; i < m.cpu.size(); ++i)
            parts.sourceNative["metrics"]["cpu_time_ns_" + std::to_string(i)] = m.cpu[i];
    } else {
        parts.primaryStatistic = "mean"; // one repetition: a per-iteration mean over `iterations`
        parts.latencyNs = { { "mean", mean } };
    }
    double cpuMean = 0;
    for (const double x : m.cpu)
        cpuMean += x / static_cast<double>(m.cpu.size());
    parts.measurements.push_back(measurement("cpu_time", "mean", "ns", cpuMean));
    parts.measurements.push_back(measurement("latency", "repetitions", "count", static_cast<double>(m.real.size())));
    parts.measurements.push_back(measurement("iterations", "total", "count", static_cast<double>(m.iterations)));
    for (auto it = m.counters.begin(); it != m.counters.end(); ++it) {
        double counterMean = 0;
        for (const json& x : *it)
            counterMean += x.get<double>() / static_cast<double>(it->size());
        if (it.key() == "bytes_per_second")
            parts.measurements.push_back(measurement("bandwidth", "mean", "GB/s", counterMean * 1e-9));
        else
            parts.measurements.push_back(measurement(it.key(), "mean", "", counterMean));
    }
}

// --benchmark_report_aggregates_only: the aggregates are all there is (the caller has checked a median or a mean).
void addAggregates(RunParts& parts, const Measured& m)
{
    const bool median = m.aggregates.count("median") > 0;
    parts.primaryStatistic = median ? "median" : "mean";
    parts.latencyNs[parts.primaryStatistic] = m.aggregates.at(parts.primaryStatistic);
    if (median && m.aggregates.count("mean"))
        parts.latencyNs["mean"] = m.aggregates.at("mean");
    if (m.aggregates.count("stddev"))
        parts.measurements.push_back(measurement("latency", "stdev", "ns", m.aggregates.at("stddev")));
    for (const auto& [name, fraction] : m.ratios) // cv and user statistics in percent: latency_cv, ...
        parts.measurements.push_back(measurement("latency_" + statisticName(name), "aggregate", "ratio", fraction));
    parts.sourceNative["aggregatesOnly"] = true;
}

// Nothing kix can chart, yet nothing malformed either: say what there is.
void warnNothingToChart(const Instance& instance, const Measured& m, const QString& pointer, Schema& schema)
{
    QStringList names;
    for (const auto& [name, ns] : m.aggregates)
        names << QString::fromStdString(name);
    for (const auto& [name, fraction] : m.ratios)
        names << QString::fromStdString(name) + QStringLiteral(" (percentage)");
    schema.warning(pointer,
        QStringLiteral("\"%1\" has neither repetitions nor a mean or median aggregate (only %2): no run")
            .arg(QString::fromStdString(instance.runName),
                names.isEmpty() ? QStringLiteral("failed entries") : names.join(QStringLiteral(", "))));
}

// One instance's run into `result`: failed, measured by repetitions or by aggregates; none when its entries had
// errors or nothing to chart.
void importInstance(ImportResult& result, const Instance& instance, std::vector<ComplexityFit>& fits,
    const GbenchFile& context, const QString& file, Schema& schema)
{
    const std::vector<Entry>& entries = instance.iterations.empty() ? instance.aggregates : instance.iterations;
    const QString firstPointer = entries.front().pointer;
    const int errorsBefore = schema.errors();
    Measured m;
    for (const Entry& entry : entries)
        measureEntry(entry, m, schema);
    if (schema.errors() > errorsBefore)
        return;

    std::vector<std::pair<std::string, std::string>> params;
    const std::string family = splitName(instance.runName, params);
    RunParts parts = instanceParts(instance, family, params, m.status, context, file);
    if (const std::string label = entries.front().value->value("label", std::string()); !label.empty())
        parts.labels["label"] = label;
    if (!m.failure.empty()) {
        parts.labels[m.status == "runtime_error" ? "error_message" : "skip_message"] = m.failure;
        addDocument(result, parts);
        result.pointers.push_back(firstPointer);
        return;
    }
    if (!m.real.empty()) {
        addRepetitions(parts, m);
    } else if (m.aggregates.count("median") || m.aggregates.count("mean")) {
        addAggregates(parts, m);
    } else {
        warnNothingToChart(instance, m, firstPointer, schema);
        return;
    }
    attachComplexity(fits, instance, family, parts);
    addDocument(result, parts);
    result.pointers.push_back(firstPointer);
}

} // namespace

ImportResult importGoogleBenchmark(const json& value, const QString& file)
{
    ImportResult result;
    result.format = Format::GoogleBenchmark;
    Schema schema(file, result.diagnostics);
    if (!value.is_object()) {
        schema.error({}, QStringLiteral("Google Benchmark JSON: expected an object, found %1").arg(typeName(value)));
        return result;
    }
    // compare.py needs no context, and its own test inputs have files without one.
    static const json kNoContext = json::object();
    const json* context = schema.optional(value, "context", {}, Kind::Object);
    const json* benchmarks = schema.require(value, "benchmarks", {}, Kind::Array);
    if (!benchmarks || (value.contains("context") && !context))
        return result;
    const GbenchFile shared = readContext(value, context ? *context : kNoContext, schema);
    Gathered gathered = gatherInstances(*benchmarks, schema);
    for (const Instance& instance : gathered.instances)
        importInstance(result, instance, gathered.fits, shared, file, schema);
    warnUnattachedFits(gathered.fits, schema);
    return result;
}

} // namespace kix::interop
