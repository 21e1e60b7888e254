// SPDX-License-Identifier: Apache-2.0
// Google Benchmark's entries gathered by instance: repetitions and aggregates by run_name, complexity fits by family.
#include "model/import/gbenchentries.h"

#include <cctype>
#include <cmath>
#include <map>

namespace kix::interop::gbench {

using namespace detail;

namespace {

bool isComplexity(const json& e)
{
    const std::string aggregate = e.value("aggregate_name", std::string());
    return aggregate == "BigO" || aggregate == "RMS" || e.contains("big_o") || e.contains("rms");
}

bool hasTime(const json& e)
{
    return e.contains("real_time") || e.contains("cpu_time") || e.contains("time_unit");
}

// One entry of a complexity fit (the "BigO" or "RMS" aggregate) into the fit of its family.
void readComplexityEntry(const json& e, const QString& ep, const std::string& key, long long familyIndex,
    std::vector<ComplexityFit>& fits, Schema& schema)
{
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
}

// One warning for the entries with no time, one for the aggregates with no name, each at the first of them.
void warnSkippedEntries(
    const std::vector<QString>& untimed, const std::vector<QString>& unnamedAggregates, Schema& schema)
{
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
}

} // namespace

Gathered gatherInstances(const json& benchmarks, Schema& schema)
{
    Gathered g;
    std::map<std::string, std::size_t> indexOf;
    std::vector<QString> untimed, unnamedAggregates; // pointers of entries with no time; aggregates with no name
    for (std::size_t i = 0; i < benchmarks.size(); ++i) {
        const QString ep = join(QStringLiteral("/benchmarks"), i);
        const json& e = benchmarks[i];
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
            readComplexityEntry(e, ep, key, familyIndex, g.fits, schema);
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
        auto [it, added] = indexOf.emplace(key, g.instances.size());
        if (added)
            g.instances.push_back({ key, {}, {}, familyIndex });
        Instance& instance = g.instances[it->second];
        if (namedAggregate)
            instance.aggregates.push_back({ &e, ep });
        else
            instance.iterations.push_back({ &e, ep });
    }
    warnSkippedEntries(untimed, unnamedAggregates, schema);
    return g;
}

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

void warnUnattachedFits(const std::vector<ComplexityFit>& fits, Schema& schema)
{
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
}

} // namespace kix::interop::gbench
