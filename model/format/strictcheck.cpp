// SPDX-License-Identifier: Apache-2.0
#include "model/format/strictcheck.h"

#include "model/format/strictrules.h"

#include <cmath>
#include <map>
#include <regex>
#include <set>

namespace kix::format {

// the rules are written with the building blocks of strictrules.h
using namespace strict;

namespace {

constexpr std::size_t kMaxManifestBytes = std::size_t(1) << 20;

Check artifactRef()
{
    return object({ req("uri", text(2000)), req("digest", str(digest())) });
}

Check metadata()
{
    return object({ req("name", str(name(), 200)), opt("title", text(200)), opt("description", text(2000)),
        opt("labels", mapOf(&token(), 0, text(200))),
        opt("authors", array(object({ opt("name", text(200)), opt("github", text(100)) }))),
        opt("sourceRefs", array(object({ req("url", text(2000)) }))) });
}

Check envelope(const char* kind, Check spec)
{
    return object({ req("apiVersion", constant("kernelindex.dev/v1alpha1")), req("kind", constant(kind)),
        req("metadata", metadata()), req("spec", std::move(spec)) });
}

Check benchmarkRun()
{
    const Check latency = object({ opt("median", duration()), opt("mean", duration()), opt("p05", duration()),
        opt("p95", duration()), opt("minimum", duration()), opt("maximum", duration()), opt("mad", duration()),
        opt("confidence95", array(duration())) });
    return envelope("BenchmarkRun",
        object({ req("implementationDigest", str(digest())), req("workloadDigest", str(digest())),
            req("protocolDigest", str(digest())), req("environmentDigest", str(digest())),
            req("status",
                oneOf({ "passed", "incorrect_shape", "incorrect_dtype", "incorrect_numerical", "compile_error",
                          "runtime_error", "timeout", "resource_exceeded", "invalid_reference", "policy_violation",
                          "suspected_reward_hack", "incomplete_evidence", "revoked" },
                    "status")),
            opt("correctness",
                object({ req("comparator", str(token())), opt("maximumAbsoluteError", nonNegative()),
                    opt("maximumRelativeError", nonNegative()), opt("matchedRatio", nonNegative(1)) })),
            opt("timing",
                object({ req("primaryStatistic", str(token())), opt("samples", positiveInteger()),
                    req("latencyNs", latency), opt("rawSamples", artifactRef()) })),
            opt("measurements",
                array(object({ req("metric", str(token())), req("unit", str(token())), req("statistic", str(token())),
                    req("value", anyNumber()), opt("sampleCount", positiveInteger()) }))),
            opt("sourceNative",
                object({ req("source", str(slug(), 100)), opt("benchmark", text(200)), opt("externalId", text(500)),
                    opt("metrics", mapOf(&token(), 0, anyNumber())) })),
            opt("evidence",
                object({ opt("logs", artifactRef()), opt("rawSamples", artifactRef()),
                    opt("harness", object({ req("repository", text(2000)), req("commit", str(commit())) })) })),
            req("observedAt", timestamp()) }));
}

Check devicePolicy(bool ecc)
{
    std::vector<Field> f { opt("clocksLocked", boolean()), opt("powerLimitWatts", positiveNumber()),
        opt("persistenceMode", boolean()) };
    if (ecc) {
        f.push_back(opt("eccEnabled", boolean()));
        f.push_back(opt("environmentVariables", mapOf(nullptr, 200, text(500))));
    }
    return object(std::move(f));
}

Check benchmarkProtocol()
{
    return envelope("BenchmarkProtocol",
        object({ req("harness",
                     object({ req("name", text(200)), opt("version", text(100)), opt("repository", text(2000)),
                         opt("commit", str(commit())) })),
            req("measurement",
                object({ req("timer", str(token())), opt("synchronization", str(token())),
                    opt("compileIncluded", boolean()), opt("setupIncluded", boolean()),
                    opt("warmupIterations", integer()), opt("warmupDuration", duration()),
                    opt("measuredIterations", positiveInteger()), opt("samples", positiveInteger()),
                    opt("inputRegeneration", str(token())), opt("outlierPolicy", text(500)),
                    req("primaryStatistic", str(token())) })),
            opt("correctness", object({ req("reference", text(500)), req("comparator", str(token())) })),
            opt("devicePolicy", devicePolicy(false)),
            opt("comparability", object({ req("family", str(token())), opt("notes", text(1000)) })) }));
}

Check executionEnvironment()
{
    return envelope("ExecutionEnvironment",
        object({ req("hardware",
                     object({ req("vendor", str(token())), req("product", text(200)), req("architecture", str(token())),
                         opt("formFactor", text(100)), opt("memoryBytes", positiveInteger()),
                         opt("count", positiveInteger()), opt("interconnect", text(200)) })),
            req("software",
                object({ opt("operatingSystem", text(200)), opt("kernel", text(200)), opt("driver", text(100)),
                    opt("cudaToolkit", text(100)), opt("compiler", text(200)),
                    opt("framework", object({ req("name", str(token())), req("version", text(100)) })),
                    opt("libraries", mapOf(&token(), 0, text(100))) })),
            opt("settings", devicePolicy(true)), opt("imageDigest", str(digest())) }));
}

Check workloadCase()
{
    const Check axes = mapOf(&token(), 0, signedInteger());
    return envelope("WorkloadCase",
        object({ req("operationSpecDigest", str(digest())), req("axes", axes),
            req("tensors",
                mapOf(&token(), 0,
                    object({ req("shape", array(integer(), 1)), req("dtype", str(token())),
                        opt("strides", array(signedInteger())), opt("alignmentBytes", positiveInteger()),
                        opt("data",
                            object({ req("generator", str(token())), opt("seed", integer()),
                                opt("parameters", mapOf(&token(), 0, anyNumber())),
                                opt("artifact", artifactRef()) })) }))),
            opt("scalars", mapOf(&token(), 0, object({ req("dtype", str(token())), req("value", anyNumber()) }))),
            req("correctness",
                object({ req("comparator", str(token())), opt("maxAbsoluteError", nonNegative()),
                    opt("maxRelativeError", nonNegative()), opt("requiredMatchedRatio", nonNegative(1)),
                    opt("nanPolicy", oneOf({ "reject", "exact_match", "ignore" })),
                    opt("infinityPolicy", oneOf({ "reject", "exact_match", "ignore" })) })) }));
}

Check workloadSuite()
{
    return envelope("WorkloadSuite",
        object({ req("operationSpecDigest", str(digest())),
            req("cases",
                array(object({ req("externalId", text(200)), req("axes", mapOf(&token(), 0, signedInteger())) }), 1)),
            req("correctness", object({ req("comparator", str(token())), opt("description", text(500)) })),
            req("aggregation", object({ req("metric", str(token())), req("statistic", str(token())) })) }));
}

Check operationSpec()
{
    static const Pattern expression = pattern(R"(^[a-z0-9_+\-*%/() ]+$)");
    const Check dimension = [](const json& v, const QString& p, StrictReport& r) {
        if (v.is_string())
            str(token())(v, p, r);
        else
            integer()(v, p, r);
    };
    const Check tensor = object({ req("shape", array(dimension, 1)), req("dtype", str(token())),
        opt("layout", oneOf({ "row_major", "col_major", "contiguous", "strided" })) });
    const Check argument = object(
        { req("name", str(token())), opt("tensor", tensor), opt("scalar", object({ req("dtype", str(token())) })) });
    return envelope("OperationSpec",
        object({ req("family", str(slug(), 100)),
            req("axes",
                mapOf(&token(), 0,
                    object(
                        { req("role", oneOf({ "variable", "constant", "derived" })), req("type", constant("integer")),
                            opt("value", signedInteger()), opt("minimum", signedInteger()),
                            opt("maximum", signedInteger()), opt("expression", str(expression, 200)) }))),
            req("inputs", array(argument, 1)), req("outputs", array(argument, 1)),
            req("semantics",
                object({ opt("expression", text(2000)), req("mutation", oneOf({ "none", "in_place", "destination" })),
                    req("determinism", oneOf({ "deterministic", "nondeterministic", "unspecified" })) })),
            opt("reference", object({ req("language", str(token())), opt("artifact", artifactRef()) })) }));
}

Check implementationRevision()
{
    return envelope("ImplementationRevision",
        object({ req("projectRevision",
                     object({ opt("repository", text(2000)), opt("commit", str(commit())), opt("version", text(100)),
                         opt("treeDigest", str(digest())) })),
            req("operation", object({ req("specDigest", str(digest())) })),
            req("callable",
                object({ req("language", str(token())), opt("path", text(500)), opt("symbol", text(200)),
                    opt("interface", str(token())) })),
            req("support",
                object({ req("hardwareArchitectures", array(str(token()))), opt("productsTested", array(text(100))),
                    opt("axes", array(text(200))), req("dtypes", array(str(token()))),
                    opt("layouts", array(text(50))) })),
            opt("source",
                object({ req("contentDigest", str(digest())), opt("fileName", text(200)),
                    opt("sizeBytes", positiveInteger()) })),
            opt("buildVariants",
                array(object({ req("name", str(name(), 200)),
                    req("install",
                        object({ req("kind", oneOf({ "git", "pip", "package", "container", "source" })),
                            opt("repository", text(2000)), opt("commit", str(commit())), opt("package", text(200)),
                            opt("version", text(100)), opt("command", text(1000)) })),
                    opt("requirements", mapOf(&token(), 0, text(200))) }))),
            req("licensing",
                object({ opt("declared", text(200)), opt("concluded", text(200)),
                    opt("evidence", object({ req("path", text(500)), opt("digest", str(digest())) })) })) }));
}

Check softwareProject()
{
    return envelope("SoftwareProject",
        object({ req("name", text(200)), opt("kind", oneOf({ "library", "individual", "vendor" })),
            opt("repository", text(2000)), opt("homepage", text(2000)),
            opt("host",
                object({ req("kind", oneOf({ "github", "huggingface", "gitlab", "other" })), req("id", text(200)) })),
            opt("packages", array(object({ req("ecosystem", str(token())), req("name", text(200)) }))) }));
}

const std::map<std::string, Check>& kinds()
{
    static const std::map<std::string, Check> all { { "BenchmarkRun", benchmarkRun() },
        { "BenchmarkProtocol", benchmarkProtocol() }, { "ExecutionEnvironment", executionEnvironment() },
        { "WorkloadCase", workloadCase() }, { "WorkloadSuite", workloadSuite() }, { "OperationSpec", operationSpec() },
        { "ImplementationRevision", implementationRevision() }, { "SoftwareProject", softwareProject() } };
    return all;
}

void checkManifest(const json& v, const QString& p, StrictReport& r)
{
    if (!v.is_object()) {
        add(r, p, QStringLiteral("expected a manifest object, found %1").arg(shown(v)));
        return;
    }
    const std::size_t size = v.dump(-1, ' ', false, json::error_handler_t::replace).size();
    if (size > kMaxManifestBytes)
        add(r, p, QStringLiteral("the manifest is %1 bytes, more than the format's limit of 1 MiB").arg(size));
    const auto kind = v.find("kind");
    if (kind == v.end() || !kind->is_string()) {
        add(r, p, QStringLiteral("missing required field \"kind\""));
        return;
    }
    const auto check = kinds().find(kind->get<std::string>());
    if (check == kinds().end()) {
        r.notChecked.push_back(
            { p, QStringLiteral("kind %1 not checked").arg(QString::fromStdString(kind->get<std::string>())) });
        return;
    }
    check->second(v, p, r);
}

} // namespace

bool durationNanoseconds(const json& v, double* ns, QString* why)
{
    auto fail = [&](const QString& message) {
        if (why)
            *why = message;
        return false;
    };
    if (v.is_number()) {
        if (!isWhole(v) || v.get<double>() < 0 || v.get<double>() > kMaxSafe)
            return fail(QStringLiteral("%1 is not a whole, non-negative number of nanoseconds").arg(shown(v)));
        if (ns)
            *ns = v.get<double>();
        return true;
    }
    if (!v.is_string())
        return fail(QStringLiteral("expected a duration (integer nanoseconds or a string such as \"8.1 us\"), found %1")
                        .arg(shown(v)));
    static const std::regex form("^([0-9]+(\\.[0-9]+)?)\\s?(ns|us|\xC2\xB5s|ms|s)$");
    std::smatch m;
    const std::string s = v.get<std::string>();
    if (!std::regex_match(s, m, form))
        return fail(QStringLiteral("%1 is not a duration: digits, an optional decimal part and a unit (ns, us, µs, "
                                   "ms, s)")
                        .arg(shown(v)));
    const std::string unit = m[3];
    const double factor = unit == "ns" ? 1 : unit == "ms" ? 1e6 : unit == "s" ? 1e9 : 1e3;
    const double value = std::strtod(m[1].str().c_str(), nullptr) * factor;
    if (!std::isfinite(value) || std::floor(value) != value || value > kMaxSafe)
        return fail(QStringLiteral("ambiguous duration %1: %2 ns is not a whole number of nanoseconds in the "
                                   "format's arithmetic (§9.2 step 3)")
                        .arg(shown(v))
                        .arg(value, 0, 'g', 17));
    if (ns)
        *ns = value;
    return true;
}

void checkStrict(const json& value, const QString& pointer, StrictReport& report)
{
    if (value.is_object() && value.contains("run") && !value.contains("kind")) {
        // a kernelindex document: its resources by member
        for (const auto& [key, member] : value.items()) {
            static const std::set<std::string> members { "run", "protocol", "environment", "workload", "operation",
                "implementation", "project" };
            if (members.count(key))
                checkManifest(member, child(pointer, key), report);
            else
                add(report, child(pointer, key),
                    QStringLiteral("unknown member \"%1\" of a kernelindex document").arg(QString::fromStdString(key)));
        }
        return;
    }
    if (value.is_object() && !value.contains("kind") && !value.empty()) {
        bool bundle = true;
        for (const auto& [key, member] : value.items())
            bundle = bundle && member.is_array();
        if (bundle) {
            static const std::set<std::string> lists { "projects", "operations", "workloads", "protocols",
                "environments" };
            for (const auto& [key, list] : value.items()) {
                const QString at = child(pointer, key);
                for (std::size_t i = 0; i < list.size(); ++i) {
                    const json& entry = list[i];
                    if (key == "runs") {
                        if (entry.is_object() && entry.contains("run") && !entry.contains("kind"))
                            checkStrict(entry, item(at, i), report);
                        else
                            checkManifest(entry, item(at, i), report);
                    } else if (key == "implementations" && entry.is_object() && !entry.contains("kind")) {
                        object({ opt("projectSlug", str(slug(), 100)), req("manifest", checkManifest) })(
                            entry, item(at, i), report);
                    } else if (lists.count(key) || key == "implementations") {
                        checkManifest(entry, item(at, i), report);
                    }
                }
                if (!lists.count(key) && key != "runs" && key != "implementations")
                    add(report, at,
                        QStringLiteral("\"%1\" is not one of a submission bundle's lists")
                            .arg(QString::fromStdString(key)));
            }
            return;
        }
    }
    if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i)
            checkStrict(value[i], item(pointer, i), report);
        return;
    }
    checkManifest(value, pointer, report);
}

} // namespace kix::format
