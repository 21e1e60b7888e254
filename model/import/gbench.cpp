// SPDX-License-Identifier: Apache-2.0
// Google Benchmark's JSON (`--benchmark_format=json`, `--benchmark_out`): one kernelindex run per benchmark
// instance (family + arguments); its repetitions are the run's raw samples, its aggregates are not runs.
#include "model/import/gbench.h"
#include "model/format/digest.h"
#include "model/import/interop.h"
#include "model/import/interopcommon.h"
#include "model/import/ligernaming.h"
#include "model/statistics.h"

#include <QStringList>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace kix::interop {

using namespace detail;

namespace {

const char* const kNotes
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

struct Entry
{
    const json* value;
    QString pointer;
};

struct Instance
{
    std::string runName;
    std::vector<Entry> iterations;
    std::vector<Entry> aggregates;
    long long familyIndex = -1; // family_index, when the file records it
};

// A complexity fit (Complexity(): the "BigO" and "RMS" aggregates), which describes a benchmark family: it has no
// time of its own, so it becomes measurements of the family's instances.
struct ComplexityFit
{
    std::string family; // run_name of the fit: the family without its arguments
    long long familyIndex = -1;
    QString pointer;
    std::string bigO; // "N", "NlgN", "N^2", "1", "lgN", "f(N)", ...
    double realCoefficient = std::numeric_limits<double>::quiet_NaN(); // ns
    double cpuCoefficient = std::numeric_limits<double>::quiet_NaN(); // ns
    double rms = std::numeric_limits<double>::quiet_NaN(); // normalised root mean square error, 0.01 = 1 %
    bool attached = false;
};

bool isComplexity(const json& e)
{
    const std::string aggregate = e.value("aggregate_name", std::string());
    return aggregate == "BigO" || aggregate == "RMS" || e.contains("big_o") || e.contains("rms");
}

bool hasTime(const json& e)
{
    return e.contains("real_time") || e.contains("cpu_time") || e.contains("time_unit");
}

// "BM_copy/8/64" -> BM_copy, {arg0: 8, arg1: 64}; "BM_x/size:8/threads:4" -> BM_x, {size: 8, threads: 4}.
std::string splitName(const std::string& name, std::vector<std::pair<std::string, std::string>>& params)
{
    std::vector<std::string> parts;
    std::string part;
    int depth = 0; // a '/' inside template arguments is no separator
    for (const char c : name) {
        if (c == '<')
            ++depth;
        else if (c == '>' && depth > 0)
            --depth;
        if (c == '/' && depth == 0) {
            parts.push_back(part);
            part.clear();
        } else {
            part += c;
        }
    }
    parts.push_back(part);
    int positional = 0;
    for (std::size_t i = 1; i < parts.size(); ++i) {
        const std::string& p = parts[i];
        const std::size_t colon = p.find(':');
        if (colon != std::string::npos)
            params.emplace_back(p.substr(0, colon), p.substr(colon + 1));
        else if (!p.empty() && (std::isdigit(static_cast<unsigned char>(p[0])) || p[0] == '-'))
            params.emplace_back("arg" + std::to_string(positional++), p);
        else
            params.emplace_back(p, "1"); // a flag such as real_time or manual_time
    }
    return parts.front();
}

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

// The complexity fit of the instance's family, as measurements and a label of its run: the fitted coefficient of
// real and CPU time (time per unit of N's complexity) and the fit's RMS error. Matched by family_index when both
// record it, else by the family name (the run_name without arguments).
void attachComplexity(
    std::vector<ComplexityFit>& fits, const Instance& instance, const std::string& family, RunParts& parts)
{
    for (ComplexityFit& fit : fits) {
        std::vector<std::pair<std::string, std::string>> ignored;
        const bool same = fit.familyIndex >= 0 && instance.familyIndex >= 0 ? fit.familyIndex == instance.familyIndex
                                                                            : splitName(fit.family, ignored) == family;
        if (!same)
            continue;
        fit.attached = true;
        if (!fit.bigO.empty())
            parts.labels["complexity"] = "O(" + fit.bigO + ")";
        if (std::isfinite(fit.realCoefficient))
            parts.measurements.push_back(measurement("complexity_coefficient", "real_time", "ns", fit.realCoefficient));
        if (std::isfinite(fit.cpuCoefficient))
            parts.measurements.push_back(measurement("complexity_coefficient", "cpu_time", "ns", fit.cpuCoefficient));
        if (std::isfinite(fit.rms))
            parts.measurements.push_back(measurement("complexity_rms", "cpu_time", "ratio", fit.rms));
        parts.sourceNative["complexity"] = { { "family", fit.family }, { "bigO", fit.bigO } };
        return;
    }
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
    if (!context)
        context = &kNoContext;

    QDateTime date;
    if (const json* d = schema.optional(*context, "date", QStringLiteral("/context"), Kind::String)) {
        date = parseTime(d->get<std::string>());
        if (!date.isValid())
            schema.warning(QStringLiteral("/context/date"),
                QStringLiteral("\"%1\" is not an ISO-8601 time").arg(QString::fromStdString(d->get<std::string>())));
    }
    const std::string host = context->value("host_name", std::string("unknown host"));
    json hardware = { { "vendor", "cpu" }, { "product", "CPU · " + host } };
    for (const char* key : { "num_cpus", "mhz_per_cpu", "cpu_scaling_enabled", "aslr_enabled", "caches" }) {
        if (const auto it = context->find(key); it != context->end())
            hardware[key] = *it;
    }
    json software = json::object();
    for (const char* key : { "library_version", "library_build_type", "executable" }) {
        if (const auto it = context->find(key); it != context->end() && it->is_string())
            software[key] = *it;
    }
    const json environment = resource("ExecutionEnvironment", "gbench-" + liger::slugify(host),
        "Google Benchmark host · " + host, { { "hardware", hardware }, { "software", software } });
    const json protocol = protocolDocument(familyOf(Format::GoogleBenchmark).toStdString(), "gbench-real-time",
        "Google Benchmark · real time per iteration", "Google Benchmark", "https://github.com/google/benchmark",
        "wall_clock", "median", kNotes);
    const std::string timestamp = date.isValid()
        ? timestampPart(date)
        : "src-" + format::sha256Digest(value.dump(-1, ' ', false, json::error_handler_t::replace)).substr(7, 12);

    // Instances in file order, their repetitions and aggregates gathered by run_name; entries of one name without
    // run_name (the old format, before repetition_index and run_type) are repetitions of one instance, as compare.py
    // reads them.
    std::vector<Instance> instances;
    std::map<std::string, std::size_t> indexOf;
    std::vector<ComplexityFit> fits;
    std::vector<QString> untimed, unnamedAggregates; // pointers of entries with no time; aggregates with no name
    for (std::size_t i = 0; i < benchmarks->size(); ++i) {
        const QString ep = join(QStringLiteral("/benchmarks"), i);
        const json& e = (*benchmarks)[i];
        if (!e.is_object()) {
            schema.error(ep, QStringLiteral("expected a benchmark object, found %1").arg(typeName(e)));
            continue;
        }
        const json* name = schema.require(e, "name", ep, Kind::String);
        const json* runName = schema.optional(e, "run_name", ep, Kind::String);
        const json* runType = schema.optional(e, "run_type", ep, Kind::String);
        if (!name)
            continue;
        const std::string key = runName ? runName->get<std::string>() : name->get<std::string>();
        const bool aggregate = runType && runType->get<std::string>() == "aggregate";
        const long long familyIndex = e.contains("family_index") && e["family_index"].is_number_integer()
            ? e["family_index"].get<long long>()
            : -1;
        if (aggregate && isComplexity(e)) {
            ComplexityFit* fit = nullptr;
            for (ComplexityFit& f : fits) {
                if (f.family == key)
                    fit = &f;
            }
            if (!fit) {
                fits.push_back({ key, familyIndex, ep, {}, std::nan(""), std::nan(""), std::nan(""), false });
                fit = &fits.back();
            }
            bool known = true;
            const std::string unit = e.value("time_unit", std::string("ns"));
            if (const json* c = schema.optional(e, "real_coefficient", ep, Kind::Number))
                fit->realCoefficient = toNs(c->get<double>(), unit, &known);
            if (const json* c = schema.optional(e, "cpu_coefficient", ep, Kind::Number))
                fit->cpuCoefficient = toNs(c->get<double>(), unit, &known);
            if (const json* r = schema.optional(e, "rms", ep, Kind::Number))
                fit->rms = r->get<double>();
            if (const json* b = schema.optional(e, "big_o", ep, Kind::String))
                fit->bigO = b->get<std::string>();
            if (!known)
                schema.error(join(ep, "time_unit"),
                    QStringLiteral("unknown time unit \"%1\" (ns, us, ms or s)").arg(QString::fromStdString(unit)));
            continue;
        }
        if (!hasTime(e) && !e.value("error_occurred", false) && !e.value("skipped", false)) {
            untimed.push_back(ep); // compare.py skips these too
            continue;
        }
        // An aggregate is named (mean, median, stddev, cv, ...); one without aggregate_name is not what Google
        // Benchmark writes, and compare.py reads it as one more repetition of its name: so does kix.
        const bool namedAggregate = aggregate && e.contains("aggregate_name");
        if (aggregate && !namedAggregate)
            unnamedAggregates.push_back(ep);
        auto [it, added] = indexOf.emplace(key, instances.size());
        if (added)
            instances.push_back({ key, {}, {}, familyIndex });
        Instance& instance = instances[it->second];
        if (namedAggregate)
            instance.aggregates.push_back({ &e, ep });
        else
            instance.iterations.push_back({ &e, ep });
    }
    if (!untimed.empty())
        schema.warning(untimed.front(),
            QStringLiteral("%1 entr%2 carr%3 no time (no real_time, cpu_time or time_unit), so no run; compare.py "
                           "skips them too")
                .arg(untimed.size())
                .arg(untimed.size() == 1 ? QStringLiteral("y") : QStringLiteral("ies"),
                    untimed.size() == 1 ? QStringLiteral("ies") : QStringLiteral("y")));
    if (!unnamedAggregates.empty())
        schema.warning(unnamedAggregates.front(),
            QStringLiteral("%1 entr%2 marked \"run_type\": \"aggregate\" without an aggregate_name: read as "
                           "repetitions of their benchmark, as compare.py reads them")
                .arg(unnamedAggregates.size())
                .arg(unnamedAggregates.size() == 1 ? QStringLiteral("y") : QStringLiteral("ies")));

    for (const Instance& instance : instances) {
        const std::vector<Entry>& entries = instance.iterations.empty() ? instance.aggregates : instance.iterations;
        const QString firstPointer = entries.front().pointer;
        const int errorsBefore = schema.errors();
        std::vector<double> real, cpu;
        std::map<std::string, double> aggregates; // aggregate name -> real time, ns
        std::map<std::string, double> ratios; // aggregate name -> fraction (aggregate_unit percentage)
        std::string failure;
        std::string status = "passed";
        json counters = json::object();
        long long iterations = 0;
        for (const Entry& entry : entries) {
            const json& e = *entry.value;
            if (e.value("error_occurred", false)) {
                status = "runtime_error";
                failure = e.value("error_message", std::string("(no message)"));
                continue;
            }
            if (e.value("skipped", false)) {
                status = "incomplete_evidence";
                failure = e.value("skip_message", std::string("(no message)"));
                continue;
            }
            const json* r = schema.require(e, "real_time", entry.pointer, Kind::Number);
            const json* c = schema.require(e, "cpu_time", entry.pointer, Kind::Number);
            const json* unit = schema.require(e, "time_unit", entry.pointer, Kind::String);
            if (!r || !c || !unit)
                continue;
            bool known = false;
            const double realNs = toNs(r->get<double>(), unit->get<std::string>(), &known);
            const double cpuNs = toNs(c->get<double>(), unit->get<std::string>(), &known);
            if (!known) {
                schema.error(join(entry.pointer, "time_unit"),
                    QStringLiteral("unknown time unit \"%1\" (ns, us, ms or s)")
                        .arg(QString::fromStdString(unit->get<std::string>())));
                continue;
            }
            if (!std::isfinite(realNs) || realNs < 0) {
                schema.error(join(entry.pointer, "real_time"), QStringLiteral("%1 is not a time").arg(realNs));
                continue;
            }
            if (e.value("run_type", std::string()) == "aggregate" && e.contains("aggregate_name")) {
                if (e.value("aggregate_unit", std::string("time")) == "time")
                    aggregates[e.value("aggregate_name", std::string())] = realNs;
                else // a percentage (cv): a fraction, written as is
                    ratios[e.value("aggregate_name", std::string())] = r->get<double>();
                continue;
            }
            real.push_back(realNs);
            cpu.push_back(cpuNs);
            iterations += e.value("iterations", 0LL);
            for (auto it = e.begin(); it != e.end(); ++it) {
                if (it->is_number() && !kReporterKeys.count(it.key()))
                    counters[it.key()].push_back(it->get<double>());
            }
        }
        if (schema.errors() > errorsBefore)
            continue;

        std::vector<std::pair<std::string, std::string>> params;
        const std::string family = splitName(instance.runName, params);
        json workload = { { "benchmark", instance.runName } };
        std::string dtype;
        RunParts parts;
        parts.file = file;
        parts.kernel = slugValue(family);
        parts.pass = "real_time";
        parts.provider = providerFromFile(file, "gbench");
        parts.gpuSlug = liger::slugify("cpu " + host);
        parts.workloadSlug = workloadSlug(params, dtype);
        parts.timestamp = timestamp;
        if (date.isValid())
            parts.observedAt = isoUtcMs(date);
        parts.title = instance.runName;
        parts.status = status;
        parts.workload = workload;
        parts.implementation = { { "tool", "gbench" }, { "benchmark", instance.runName },
            { "executable", software.value("executable", std::string()) }, { "provider", parts.provider } };
        parts.protocol = protocol;
        parts.environment = environment;
        parts.sourceNative = { { "source", "google-benchmark" }, { "name", instance.runName } };
        if (const std::string label = entries.front().value->value("label", std::string()); !label.empty())
            parts.labels["label"] = label;
        if (!failure.empty()) {
            parts.labels[status == "runtime_error" ? "error_message" : "skip_message"] = failure;
            addDocument(result, parts);
            result.pointers.push_back(firstPointer);
            continue;
        }
        if (!real.empty()) {
            std::vector<double> sorted = real;
            std::sort(sorted.begin(), sorted.end());
            double mean = 0;
            for (const double x : real)
                mean += x / static_cast<double>(real.size());
            if (real.size() >= 2) {
                parts.primaryStatistic = "median";
                parts.latencyNs = { { "median", sortedQuantile(sorted, 0.5) }, { "mean", mean },
                    { "min", sorted.front() }, { "max", sorted.back() } };
                parts.samplesNs = real;
                // one number per repetition, as sourceNative.metrics holds them (numbers only): cpu_time_ns_0, ...
                for (std::size_t i = 0; i < cpu.size(); ++i)
                    parts.sourceNative["metrics"]["cpu_time_ns_" + std::to_string(i)] = cpu[i];
            } else {
                parts.primaryStatistic = "mean"; // one repetition: a per-iteration mean over `iterations`
                parts.latencyNs = { { "mean", mean } };
            }
            double cpuMean = 0;
            for (const double x : cpu)
                cpuMean += x / static_cast<double>(cpu.size());
            parts.measurements.push_back(measurement("cpu_time", "mean", "ns", cpuMean));
            parts.measurements.push_back(
                measurement("latency", "repetitions", "count", static_cast<double>(real.size())));
            parts.measurements.push_back(measurement("iterations", "total", "count", static_cast<double>(iterations)));
            for (auto it = counters.begin(); it != counters.end(); ++it) {
                double m = 0;
                for (const json& x : *it)
                    m += x.get<double>() / static_cast<double>(it->size());
                if (it.key() == "bytes_per_second")
                    parts.measurements.push_back(measurement("bandwidth", "mean", "GB/s", m * 1e-9));
                else
                    parts.measurements.push_back(measurement(it.key(), "mean", "", m));
            }
        } else if (aggregates.count("median") || aggregates.count("mean")) {
            // --benchmark_report_aggregates_only: the aggregates are all there is.
            const bool median = aggregates.count("median") > 0;
            parts.primaryStatistic = median ? "median" : "mean";
            parts.latencyNs[parts.primaryStatistic] = aggregates[parts.primaryStatistic];
            if (median && aggregates.count("mean"))
                parts.latencyNs["mean"] = aggregates["mean"];
            if (aggregates.count("stddev"))
                parts.measurements.push_back(measurement("latency", "stdev", "ns", aggregates["stddev"]));
            for (const auto& [name, fraction] : ratios) // cv and user statistics in percent: latency_cv, ...
                parts.measurements.push_back(
                    measurement("latency_" + statisticName(name), "aggregate", "ratio", fraction));
            parts.sourceNative["aggregatesOnly"] = true;
        } else {
            // Nothing kix can chart, yet nothing malformed either: say what there is.
            QStringList names;
            for (const auto& [name, ns] : aggregates)
                names << QString::fromStdString(name);
            for (const auto& [name, fraction] : ratios)
                names << QString::fromStdString(name) + QStringLiteral(" (percentage)");
            schema.warning(firstPointer,
                QStringLiteral("\"%1\" has neither repetitions nor a mean or median aggregate (only %2): no run")
                    .arg(QString::fromStdString(instance.runName),
                        names.isEmpty() ? QStringLiteral("failed entries") : names.join(QStringLiteral(", "))));
            continue;
        }
        attachComplexity(fits, instance, family, parts);
        addDocument(result, parts);
        result.pointers.push_back(firstPointer);
    }
    for (const ComplexityFit& fit : fits) {
        if (fit.attached)
            continue;
        schema.warning(fit.pointer,
            QStringLiteral("complexity fit of \"%1\" (O(%2), coefficient %3 ns real, %4 ns CPU, RMS %5 %): no "
                           "measured instance of the family in this file to attach it to")
                .arg(QString::fromStdString(fit.family), QString::fromStdString(fit.bigO))
                .arg(fit.realCoefficient, 0, 'g', 6)
                .arg(fit.cpuCoefficient, 0, 'g', 6)
                .arg(fit.rms * 100, 0, 'g', 4));
    }
    return result;
}

} // namespace kix::interop
