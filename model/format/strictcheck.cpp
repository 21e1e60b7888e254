// SPDX-License-Identifier: Apache-2.0
#include "model/format/strictcheck.h"

#include <QStringList>

#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>

namespace kix::format {

using json = nlohmann::json;

namespace {

constexpr double kMaxSafe = 9007199254740991.0; // 2^53 - 1
constexpr std::size_t kMaxManifestBytes = std::size_t(1) << 20;

QString child(const QString& pointer, const std::string& key)
{
    QString token = QString::fromStdString(key);
    token.replace(QLatin1Char('~'), QLatin1String("~0")).replace(QLatin1Char('/'), QLatin1String("~1"));
    return pointer + QLatin1Char('/') + token;
}

QString item(const QString& pointer, std::size_t i)
{
    return pointer + QLatin1Char('/') + QString::number(i);
}

QString shown(const json& v)
{
    std::string text = v.dump(-1, ' ', false, json::error_handler_t::replace);
    if (text.size() > 80)
        text = text.substr(0, 77) + "...";
    return QString::fromStdString(text);
}

std::size_t codePoints(const std::string& s)
{
    std::size_t n = 0;
    for (const unsigned char c : s)
        n += (c & 0xC0) != 0x80 ? 1 : 0;
    return n;
}

// A check of one value at one pointer; findings go to the report.
using Check = std::function<void(const json&, const QString&, StrictReport&)>;

void add(StrictReport& r, const QString& pointer, const QString& message)
{
    r.findings.push_back({ pointer, message });
}

struct Field
{
    const char* name;
    Check check;
    bool required = false;
};

Check object(std::vector<Field> fields)
{
    return [fields = std::move(fields)](const json& v, const QString& p, StrictReport& r) {
        if (!v.is_object()) {
            add(r, p, QStringLiteral("expected an object, found %1").arg(shown(v)));
            return;
        }
        for (const Field& f : fields) {
            const auto it = v.find(f.name);
            if (it == v.end()) {
                if (f.required)
                    add(r, p, QStringLiteral("missing required field \"%1\"").arg(QLatin1String(f.name)));
                continue;
            }
            f.check(*it, child(p, f.name), r);
        }
        for (const auto& [key, value] : v.items()) {
            (void)value;
            bool known = false;
            for (const Field& f : fields)
                known = known || key == f.name;
            if (!known)
                add(r, child(p, key),
                    QStringLiteral("unknown field \"%1\" (v1alpha1 refuses fields it does not define)")
                        .arg(QString::fromStdString(key)));
        }
    };
}

Field req(const char* name, Check check)
{
    return { name, std::move(check), true };
}
Field opt(const char* name, Check check)
{
    return { name, std::move(check), false };
}

struct Pattern
{
    const char* text;
    std::shared_ptr<const std::regex> re;
};
Pattern pattern(const char* text)
{
    return { text, std::make_shared<const std::regex>(text, std::regex::ECMAScript) };
}
const Pattern& token()
{
    static const Pattern p = pattern("^[a-z][a-z0-9_]*$");
    return p;
}
const Pattern& digest()
{
    static const Pattern p = pattern("^sha256:[0-9a-f]{64}$");
    return p;
}
const Pattern& commit()
{
    static const Pattern p = pattern("^[0-9a-f]{40}$");
    return p;
}
const Pattern& name()
{
    static const Pattern p = pattern("^[a-z0-9][a-z0-9._-]*$");
    return p;
}
const Pattern& slug()
{
    static const Pattern p = pattern("^[a-z0-9][a-z0-9-]*$");
    return p;
}

bool matches(const Pattern& pat, const std::string& s)
{
    return std::regex_search(s, *pat.re);
}

Check string(const Pattern* pat = nullptr, std::size_t maxLength = 0)
{
    const std::optional<Pattern> copy = pat ? std::optional<Pattern>(*pat) : std::nullopt;
    return [copy, maxLength](const json& v, const QString& p, StrictReport& r) {
        if (!v.is_string()) {
            add(r, p, QStringLiteral("expected a string, found %1").arg(shown(v)));
            return;
        }
        const std::string& s = v.get_ref<const std::string&>();
        if (maxLength && codePoints(s) > maxLength)
            add(r, p, QStringLiteral("%1 characters, more than the limit of %2").arg(codePoints(s)).arg(maxLength));
        if (copy && !matches(*copy, s))
            add(r, p, QStringLiteral("%1 does not match %2").arg(shown(v), QLatin1String(copy->text)));
    };
}
Check text(std::size_t maxLength)
{
    return string(nullptr, maxLength);
}
Check str(const Pattern& pat, std::size_t maxLength = 0)
{
    return string(&pat, maxLength);
}

Check oneOf(std::vector<std::string> values, const char* what = "value")
{
    return [values = std::move(values), what](const json& v, const QString& p, StrictReport& r) {
        if (v.is_string()) {
            for (const std::string& allowed : values) {
                if (v.get_ref<const std::string&>() == allowed)
                    return;
            }
        }
        QStringList names;
        for (const std::string& allowed : values)
            names << QString::fromStdString(allowed);
        add(r, p,
            QStringLiteral("%1 is not a v1alpha1 %2 (%3)")
                .arg(shown(v), QLatin1String(what), names.join(QStringLiteral(", "))));
    };
}

enum class Bound { None, Inclusive, Exclusive };
struct Range
{
    Bound low = Bound::None;
    double min = 0;
    double max = kMaxSafe;
    bool hasMax = false;
};

bool isWhole(const json& v)
{
    if (v.is_number_integer())
        return true;
    return v.is_number_float() && std::isfinite(v.get<double>()) && std::floor(v.get<double>()) == v.get<double>();
}

Check number(bool integer, Range range)
{
    return [integer, range](const json& v, const QString& p, StrictReport& r) {
        if (!v.is_number() || (integer && !isWhole(v))) {
            add(r, p, QStringLiteral("expected %1, found %2").arg(integer ? "an integer" : "a number", shown(v)));
            return;
        }
        const double x = v.get<double>();
        if ((range.low == Bound::Inclusive && x < range.min) || (range.low == Bound::Exclusive && x <= range.min))
            add(r, p,
                QStringLiteral("%1 is below the minimum %2%3")
                    .arg(shown(v), range.low == Bound::Exclusive ? QStringLiteral("(exclusive) ") : QString())
                    .arg(range.min));
        if ((integer || range.hasMax) && x > range.max)
            add(r, p, QStringLiteral("%1 is above the maximum %2").arg(shown(v)).arg(range.max, 0, 'f', 0));
    };
}
Check integer(Bound low = Bound::Inclusive, double min = 0)
{
    return number(true, { low, min, kMaxSafe, true });
}
Check positiveInteger()
{
    return integer(Bound::Exclusive, 0);
}
Check signedInteger()
{
    return integer(Bound::Inclusive, -kMaxSafe);
}
Check anyNumber()
{
    return number(false, {});
}
Check nonNegative(double max = 0)
{
    return number(false, { Bound::Inclusive, 0, max, max > 0 });
}
Check positiveNumber()
{
    return number(false, { Bound::Exclusive, 0, 0, false });
}

Check boolean()
{
    return [](const json& v, const QString& p, StrictReport& r) {
        if (!v.is_boolean())
            add(r, p, QStringLiteral("expected true or false, found %1").arg(shown(v)));
    };
}

Check constant(const char* value)
{
    return [value](const json& v, const QString& p, StrictReport& r) {
        if (!v.is_string() || v.get_ref<const std::string&>() != value)
            add(r, p, QStringLiteral("%1 must be \"%2\"").arg(shown(v), QLatin1String(value)));
    };
}

// An object whose keys match `names` and whose values pass `value`.
Check mapOf(const Pattern* names, std::size_t maxNameLength, Check value)
{
    const std::optional<Pattern> copy = names ? std::optional<Pattern>(*names) : std::nullopt;
    return [copy, maxNameLength, value = std::move(value)](const json& v, const QString& p, StrictReport& r) {
        if (!v.is_object()) {
            add(r, p, QStringLiteral("expected an object, found %1").arg(shown(v)));
            return;
        }
        for (const auto& [key, member] : v.items()) {
            if (copy && !matches(*copy, key))
                add(r, child(p, key),
                    QStringLiteral("the name \"%1\" does not match %2")
                        .arg(QString::fromStdString(key), QLatin1String(copy->text)));
            if (maxNameLength && codePoints(key) > maxNameLength)
                add(r, child(p, key), QStringLiteral("a name longer than %1 characters").arg(maxNameLength));
            value(member, child(p, key), r);
        }
    };
}

Check array(Check items, std::size_t minItems = 0)
{
    return [items = std::move(items), minItems](const json& v, const QString& p, StrictReport& r) {
        if (!v.is_array()) {
            add(r, p, QStringLiteral("expected a list, found %1").arg(shown(v)));
            return;
        }
        if (v.size() < minItems)
            add(r, p, QStringLiteral("at least %1 item(s) expected").arg(minItems));
        for (std::size_t i = 0; i < v.size(); ++i)
            items(v[i], item(p, i), r);
    };
}

Check duration()
{
    return [](const json& v, const QString& p, StrictReport& r) {
        QString why;
        if (!durationNanoseconds(v, nullptr, &why))
            add(r, p, why);
    };
}

// ISO 8601 date-time in UTC with Z, as the schema's observedAt pattern (seconds and fraction optional).
Check timestamp()
{
    return [](const json& v, const QString& p, StrictReport& r) {
        static const std::regex form(R"(^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|.*)$)");
        std::smatch m;
        const std::string s = v.is_string() ? v.get<std::string>() : std::string();
        if (!v.is_string() || !std::regex_match(s, m, form)) {
            add(r, p, QStringLiteral("%1 is not an ISO 8601 date-time (YYYY-MM-DDTHH:MM:SSZ)").arg(shown(v)));
            return;
        }
        if (m[7] != "Z") {
            add(r, p, QStringLiteral("%1 is not in UTC: the format asks for a time ending in Z").arg(shown(v)));
            return;
        }
        const int year = std::stoi(m[1]);
        const int month = std::stoi(m[2]);
        const int day = std::stoi(m[3]);
        const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
        if (month < 1 || month > 12 || day < 1 || day > days[month - 1] + (month == 2 && leap ? 1 : 0))
            add(r, p, QStringLiteral("%1 is not a calendar date").arg(shown(v)));
    };
}

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
