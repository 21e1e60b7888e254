// SPDX-License-Identifier: Apache-2.0
#include "model/format/resourcespecs.h"

#include "model/format/digest.h"
#include "model/format/vocabulary.h"

#include <algorithm>
#include <cmath>

namespace kix::format::specs {

namespace {

// How a member of a protocol or environment section is written.
enum class Type { Name, Text, Bool, PositiveInteger, Integer, PositiveNumber, Commit, Duration, Digest };

struct Field
{
    const char* key;
    Type type;
    std::size_t maxLength = 0; // Text
    const char* alias = nullptr; // another producer's key for the same fact
};

bool isCommit(const std::string& s)
{
    return s.size() == 40
        && std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool isDuration(const std::string& s)
{
    // ^\d+(\.\d+)?\s?(ns|us|µs|ms|s)$
    std::size_t i = 0;
    const auto digits = [&] {
        const std::size_t from = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9')
            ++i;
        return i > from;
    };
    if (!digits())
        return false;
    if (i < s.size() && s[i] == '.') {
        ++i;
        if (!digits())
            return false;
    }
    if (i < s.size() && s[i] == ' ')
        ++i;
    const std::string unit = s.substr(i);
    return unit == "ns" || unit == "us" || unit == "\u00b5s" || unit == "ms" || unit == "s";
}

// The value as the field's type wants it, or null when it cannot be one.
json converted(const json& v, const Field& f)
{
    switch (f.type) {
    case Type::Name:
        return v.is_string() && !v.get<std::string>().empty() ? json(toName(v.get<std::string>())) : json();
    case Type::Text:
        return v.is_string() ? json(truncateCodePoints(v.get<std::string>(), f.maxLength)) : json();
    case Type::Bool:
        return v.is_boolean() ? v : json();
    case Type::PositiveInteger:
    case Type::Integer: {
        if (!v.is_number())
            return json();
        const double d = v.get<double>();
        if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9007199254740991.0)
            return json();
        if (f.type == Type::PositiveInteger ? d <= 0 : d < 0)
            return json();
        return json(static_cast<long long>(d));
    }
    case Type::PositiveNumber:
        return v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() > 0 ? v : json();
    case Type::Commit:
        return v.is_string() && isCommit(v.get<std::string>()) ? v : json();
    case Type::Duration:
        if (v.is_number_unsigned() || (v.is_number_integer() && v.get<long long>() >= 0))
            return v;
        return v.is_string() && isDuration(v.get<std::string>()) ? v : json();
    case Type::Digest:
        return v.is_string() && isDigest(v.get<std::string>()) ? v : json();
    }
    return json();
}

// The section `loose` written with `fields`; what is not among them, or cannot be written as they ask, goes to
// `labels` under "<section>_<key>".
json section(const json& loose, std::initializer_list<Field> fields, const char* sectionName, json& labels)
{
    json out = json::object();
    if (!loose.is_object()) {
        if (!loose.is_null())
            addLabels(labels, json { { sectionName, loose } });
        return out;
    }
    for (auto it = loose.begin(); it != loose.end(); ++it) {
        const Field* field = nullptr;
        for (const Field& f : fields) {
            if (it.key() == f.key || (f.alias && it.key() == f.alias))
                field = &f;
        }
        json value = field ? converted(it.value(), *field) : json();
        if (!value.is_null() && !out.contains(field->key))
            out[field->key] = std::move(value);
        else if (!it.value().is_null() && it.value() != "")
            addLabels(labels, json { { it.key(), it.value() } }, sectionName);
    }
    return out;
}

// A map of name -> short string (software.libraries, buildVariants[].requirements).
json nameMap(const json& loose, std::size_t maxLength, const char* sectionName, json& labels)
{
    json out = json::object();
    if (!loose.is_object())
        return out;
    for (auto it = loose.begin(); it != loose.end(); ++it) {
        if (it.value().is_null())
            continue;
        if (isName(it.key()))
            out[it.key()] = truncateCodePoints(text(it.value()), maxLength);
        else
            addLabels(labels, json { { it.key(), it.value() } }, sectionName);
    }
    return out;
}

const json& memberOr(const json& object, const char* key)
{
    static const json null;
    if (!object.is_object())
        return null;
    const auto it = object.find(key);
    return it == object.end() ? null : *it;
}

} // namespace

std::string text(const json& value)
{
    return value.is_string() ? value.get<std::string>() : value.dump(-1, ' ', false, json::error_handler_t::replace);
}

json protocolSpec(const json& looseSpec, json& labels)
{
    if (!labels.is_object())
        labels = json::object();
    json spec = json::object();
    json harness = section(memberOr(looseSpec, "harness"),
        { { "name", Type::Text, 200 }, { "version", Type::Text, 100 }, { "repository", Type::Text, 2000 },
            { "commit", Type::Commit } },
        "harness", labels);
    if (!harness.contains("name"))
        harness["name"] = "unknown";
    spec["harness"] = std::move(harness);
    json measurement = section(memberOr(looseSpec, "measurement"),
        { { "timer", Type::Name }, { "synchronization", Type::Name }, { "compileIncluded", Type::Bool },
            { "setupIncluded", Type::Bool }, { "warmupIterations", Type::Integer },
            { "warmupDuration", Type::Duration }, { "measuredIterations", Type::PositiveInteger },
            { "samples", Type::PositiveInteger }, { "inputRegeneration", Type::Name },
            { "outlierPolicy", Type::Text, 500 }, { "primaryStatistic", Type::Name } },
        "measurement", labels);
    for (const char* key : { "timer", "primaryStatistic" }) {
        if (!measurement.contains(key))
            measurement[key] = "unknown";
    }
    spec["measurement"] = std::move(measurement);
    if (const json& c = memberOr(looseSpec, "correctness"); !c.is_null()) {
        json correctness
            = section(c, { { "reference", Type::Text, 500 }, { "comparator", Type::Name } }, "correctness", labels);
        if (correctness.contains("reference") && correctness.contains("comparator"))
            spec["correctness"] = std::move(correctness);
        else
            addLabels(labels, correctness, "correctness");
    }
    if (const json& d = memberOr(looseSpec, "devicePolicy"); !d.is_null()) {
        json policy = section(d,
            { { "clocksLocked", Type::Bool }, { "powerLimitWatts", Type::PositiveNumber },
                { "persistenceMode", Type::Bool } },
            "device_policy", labels);
        if (!policy.empty())
            spec["devicePolicy"] = std::move(policy);
    }
    if (const json& c = memberOr(looseSpec, "comparability"); !c.is_null()) {
        json comparability = section(
            c, { { "family", Type::Name }, { "notes", Type::Text, kMaxComparabilityNotes } }, "comparability", labels);
        if (!comparability.contains("family"))
            comparability["family"] = "unknown";
        spec["comparability"] = std::move(comparability);
    }
    if (looseSpec.is_object()) {
        for (auto it = looseSpec.begin(); it != looseSpec.end(); ++it) {
            if (!spec.contains(it.key()) && it.key() != "correctness")
                addLabels(labels, json { { it.key(), it.value() } });
        }
    }
    return spec;
}

json environmentSpec(const json& looseSpec, json& labels)
{
    if (!labels.is_object())
        labels = json::object();
    json spec = json::object();
    json settingsLoose = memberOr(looseSpec, "settings").is_object() ? memberOr(looseSpec, "settings") : json::object();
    json hardwareLoose = memberOr(looseSpec, "hardware");
    if (hardwareLoose.is_object() && hardwareLoose.contains("eccEnabled")) {
        if (!settingsLoose.contains("eccEnabled"))
            settingsLoose["eccEnabled"] = hardwareLoose["eccEnabled"];
        hardwareLoose.erase("eccEnabled");
    }
    json hardware = section(hardwareLoose,
        { { "vendor", Type::Name }, { "product", Type::Text, 200 }, { "architecture", Type::Name },
            { "formFactor", Type::Text, 100 }, { "memoryBytes", Type::PositiveInteger },
            { "count", Type::PositiveInteger }, { "interconnect", Type::Text, 200 } },
        "hardware", labels);
    for (const char* key : { "vendor", "product", "architecture" }) {
        if (!hardware.contains(key) || hardware[key] == "")
            hardware[key] = "unknown";
    }
    spec["hardware"] = std::move(hardware);
    json softwareLoose = memberOr(looseSpec, "software");
    json framework, libraries;
    if (softwareLoose.is_object()) {
        if (softwareLoose.contains("framework")) {
            framework = softwareLoose["framework"];
            softwareLoose.erase("framework");
        }
        if (softwareLoose.contains("libraries")) {
            libraries = softwareLoose["libraries"];
            softwareLoose.erase("libraries");
        }
    }
    json software = section(softwareLoose,
        { { "operatingSystem", Type::Text, 200, "os" }, { "kernel", Type::Text, 200, "osKernel" },
            { "driver", Type::Text, 100 }, { "cudaToolkit", Type::Text, 100, "cudaRuntime" },
            { "compiler", Type::Text, 200 } },
        "software", labels);
    if (framework.is_object() && framework.contains("name") && framework.contains("version")
        && framework["name"].is_string() && framework["version"].is_string())
        software["framework"] = { { "name", toName(framework["name"].get<std::string>()) },
            { "version", truncateCodePoints(framework["version"].get<std::string>(), 100) } };
    else if (!framework.is_null())
        addLabels(labels, framework, "software_framework");
    json libs = nameMap(libraries, 100, "software_libraries", labels);
    if (!libs.empty())
        software["libraries"] = std::move(libs);
    spec["software"] = std::move(software);
    json env = memberOr(settingsLoose, "environmentVariables");
    settingsLoose.erase("environmentVariables");
    json settings = section(settingsLoose,
        { { "clocksLocked", Type::Bool }, { "powerLimitWatts", Type::PositiveNumber },
            { "persistenceMode", Type::Bool }, { "eccEnabled", Type::Bool } },
        "settings", labels);
    if (env.is_object() && !env.empty()) {
        json vars = json::object();
        for (auto it = env.begin(); it != env.end(); ++it)
            vars[truncateCodePoints(it.key(), 200)] = truncateCodePoints(text(it.value()), 500);
        settings["environmentVariables"] = std::move(vars);
    }
    if (!settings.empty())
        spec["settings"] = std::move(settings);
    if (const json& image = memberOr(looseSpec, "imageDigest"); image.is_string() && isDigest(image.get<std::string>()))
        spec["imageDigest"] = image;
    if (looseSpec.is_object()) {
        for (auto it = looseSpec.begin(); it != looseSpec.end(); ++it) {
            if (!spec.contains(it.key()) && it.key() != "settings" && it.key() != "imageDigest")
                addLabels(labels, json { { it.key(), it.value() } });
        }
    }
    return spec;
}

} // namespace kix::format::specs
