// SPDX-License-Identifier: Apache-2.0
// The one place kix builds kernelindex documents; see documentbuilder.h.
#include "model/format/documentbuilder.h"

#include "model/format/canonicaljson.h"
#include "model/format/digest.h"
#include "model/format/vocabulary.h"

#include <cmath>
#include <stdexcept>

namespace kix::format {
namespace {

std::string text(const json& value)
{
    return value.is_string() ? value.get<std::string>() : value.dump(-1, ' ', false, json::error_handler_t::replace);
}

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

std::string isoUtcMs(const QDateTime& time)
{
    return time.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzzZ")).toStdString();
}

} // namespace

void addLabels(json& labels, const json& facts, std::string_view prefix)
{
    if (!labels.is_object())
        labels = json::object();
    if (!facts.is_object()) {
        if (!facts.is_null())
            labels[toName(prefix.empty() ? std::string_view("value") : prefix)]
                = truncateCodePoints(text(facts), kMaxLabelValue);
        return;
    }
    for (auto it = facts.begin(); it != facts.end(); ++it) {
        const std::string key = prefix.empty() ? it.key() : std::string(prefix) + '_' + it.key();
        if (it.value().is_object() && !it.value().empty())
            addLabels(labels, it.value(), key);
        else if (!it.value().is_null())
            labels[toName(key)] = truncateCodePoints(text(it.value()), kMaxLabelValue);
    }
}

json resource(std::string_view kind, std::string_view name, std::string_view title, json spec, const json& labels)
{
    json metadata = { { "name", metadataName(name) } };
    if (!title.empty())
        metadata["title"] = truncateCodePoints(title, kMaxTitle);
    json cleanLabels = json::object();
    addLabels(cleanLabels, labels);
    if (!cleanLabels.empty())
        metadata["labels"] = std::move(cleanLabels);
    return { { "apiVersion", kApiVersion }, { "kind", std::string(kind) }, { "metadata", std::move(metadata) },
        { "spec", spec.is_object() ? std::move(spec) : json::object() } };
}

json protocolResource(std::string_view name, std::string_view title, const json& looseSpec, json labels)
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
    return resource(kBenchmarkProtocol, name, title, std::move(spec), labels);
}

json environmentResource(std::string_view name, std::string_view title, const json& looseSpec, json labels)
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
    return resource(kExecutionEnvironment, name, title, std::move(spec), labels);
}

std::string samplesArtifact(const std::vector<double>& samplesNs)
{
    json samples = json::array();
    for (const double s : samplesNs)
        samples.push_back(std::isfinite(s) ? s : 0.0);
    return canonicalJson({ { "kind", "kix-raw-samples" }, { "unit", "ns" }, { "samples", samples } }) + '\n';
}

bool parseSamplesArtifact(const std::string& bytes, std::vector<double>& samplesNs)
{
    const json doc = json::parse(bytes, nullptr, false);
    if (!doc.is_object() || doc.value("kind", std::string()) != "kix-raw-samples" || doc.value("unit", "") != "ns"
        || !doc.contains("samples") || !doc["samples"].is_array())
        return false;
    samplesNs.clear();
    for (const json& v : doc["samples"]) {
        if (!v.is_number())
            return false;
        samplesNs.push_back(v.get<double>());
    }
    return true;
}

DocumentBuilder& DocumentBuilder::setName(std::string_view name)
{
    m_name = metadataName(name);
    return *this;
}

DocumentBuilder& DocumentBuilder::setTitle(std::string_view title)
{
    m_title = truncateCodePoints(title, kMaxTitle);
    return *this;
}

DocumentBuilder& DocumentBuilder::addLabel(std::string_view key, const json& value)
{
    addLabels(m_labels, json { { std::string(key), value } });
    return *this;
}

DocumentBuilder& DocumentBuilder::setStatus(std::string_view status)
{
    if (!isRunStatus(status))
        throw std::invalid_argument("not a kernelindex run status: " + std::string(status));
    m_status = status;
    return *this;
}

DocumentBuilder& DocumentBuilder::setObservedAt(const QDateTime& time)
{
    if (!time.isValid())
        throw std::invalid_argument("observedAt: not a valid time");
    m_observedAt = isoUtcMs(time);
    return *this;
}

DocumentBuilder& DocumentBuilder::setTiming(std::string_view primaryStatistic, const json& latencyNs)
{
    m_hasTiming = true;
    m_primaryStatistic = toName(primaryStatistic);
    if (!latencyNs.is_object())
        return *this;
    for (auto it = latencyNs.begin(); it != latencyNs.end(); ++it) {
        if (!it.value().is_number())
            continue;
        const double v = it.value().get<double>();
        if (!std::isfinite(v) || v < 0)
            continue;
        const std::string key = it.key() == "min" ? "minimum" : it.key() == "max" ? "maximum" : it.key();
        if (isLatencyNsKey(key) && key != "confidence95" && v <= 9007199254740991.0)
            m_latencyNs[key] = std::llround(v);
        if (!isLatencyNsKey(it.key()))
            addMeasurement("latency", it.key(), "ns", v);
    }
    return *this;
}

DocumentBuilder& DocumentBuilder::setSampleCount(long long count)
{
    m_sampleCount = count;
    return *this;
}

DocumentBuilder& DocumentBuilder::setSamples(std::vector<double> samplesNs)
{
    m_samples = std::move(samplesNs);
    return *this;
}

DocumentBuilder& DocumentBuilder::addMeasurement(
    std::string_view metric, std::string_view statistic, std::string_view unit, double value, long long sampleCount)
{
    if (!std::isfinite(value))
        return *this;
    json m = { { "metric", toName(metric) }, { "statistic", toName(statistic) }, { "unit", unitName(unit) } };
    if (value == std::floor(value) && std::fabs(value) <= 9007199254740991.0)
        m["value"] = static_cast<long long>(value);
    else
        m["value"] = value;
    if (sampleCount > 0)
        m["sampleCount"] = sampleCount;
    m_measurements.push_back(std::move(m));
    return *this;
}

DocumentBuilder& DocumentBuilder::setSourceNative(std::string_view source, std::string_view benchmark,
    std::string_view externalId, const json& metrics, const json& facts)
{
    m_sourceNative = { { "source", sourceName(source) } };
    if (!benchmark.empty())
        m_sourceNative["benchmark"] = truncateCodePoints(benchmark, 200);
    if (!externalId.empty())
        m_sourceNative["externalId"] = truncateCodePoints(externalId, 500);
    json numbers = json::object();
    if (metrics.is_object()) {
        for (auto it = metrics.begin(); it != metrics.end(); ++it) {
            if (it.value().is_number() && std::isfinite(it.value().get<double>()))
                numbers[toName(it.key())] = it.value();
            else
                addLabels(m_labels, json { { it.key(), it.value() } }, "source");
        }
    }
    if (!numbers.empty())
        m_sourceNative["metrics"] = std::move(numbers);
    if (!facts.is_null())
        addLabels(m_labels, facts, "source");
    return *this;
}

DocumentBuilder& DocumentBuilder::setCorrectness(
    std::string_view comparator, double maximumAbsoluteError, double maximumRelativeError, double matchedRatio)
{
    m_correctness = { { "comparator", toName(comparator) } };
    if (std::isfinite(maximumAbsoluteError) && maximumAbsoluteError >= 0)
        m_correctness["maximumAbsoluteError"] = maximumAbsoluteError;
    if (std::isfinite(maximumRelativeError) && maximumRelativeError >= 0)
        m_correctness["maximumRelativeError"] = maximumRelativeError;
    if (std::isfinite(matchedRatio) && matchedRatio >= 0 && matchedRatio <= 1)
        m_correctness["matchedRatio"] = matchedRatio;
    return *this;
}

DocumentBuilder& DocumentBuilder::setProtocol(json resource)
{
    m_protocol = std::move(resource);
    return *this;
}

DocumentBuilder& DocumentBuilder::setEnvironment(json resource)
{
    m_environment = std::move(resource);
    return *this;
}

DocumentBuilder& DocumentBuilder::setWorkload(json resource, bool carried)
{
    m_workload = std::move(resource);
    m_workloadCarried = carried;
    return *this;
}

DocumentBuilder& DocumentBuilder::setOperation(json resource, bool carried)
{
    m_operation = std::move(resource);
    m_operationCarried = carried;
    return *this;
}

DocumentBuilder& DocumentBuilder::setImplementation(json resource, bool carried)
{
    m_implementation = std::move(resource);
    m_implementationCarried = carried;
    return *this;
}

RunDocument DocumentBuilder::build() const
{
    if (m_status.empty() || m_observedAt.empty() || m_protocol.is_null() || m_environment.is_null()
        || m_workload.is_null() || m_implementation.is_null())
        throw std::logic_error("a run document needs a status, observedAt, protocol, environment, workload and "
                               "implementation");
    RunDocument out;
    json spec = json::object();
    spec["implementationDigest"] = kernelindexDigest(m_implementation);
    spec["workloadDigest"] = kernelindexDigest(m_workload);
    spec["protocolDigest"] = kernelindexDigest(m_protocol);
    spec["environmentDigest"] = kernelindexDigest(m_environment);
    spec["status"] = m_status;
    if (!m_correctness.is_null())
        spec["correctness"] = m_correctness;
    std::string name = m_name.empty() ? std::string("run") : m_name;
    json samplesRef;
    if (!m_samples.empty()) {
        out.samplesNs = m_samples;
        out.samplesBytes = samplesArtifact(m_samples);
        const std::string digest = sha256Digest(out.samplesBytes);
        out.samplesUri = truncateCodePoints(name, 150) + '.' + digest.substr(7, 12) + ".samples";
        samplesRef = { { "uri", out.samplesUri }, { "digest", digest } };
    }
    if (m_hasTiming) {
        json timing = { { "primaryStatistic", m_primaryStatistic }, { "latencyNs", m_latencyNs } };
        if (m_sampleCount > 0)
            timing["samples"] = m_sampleCount;
        if (!samplesRef.is_null())
            timing["rawSamples"] = samplesRef;
        spec["timing"] = std::move(timing);
    } else if (!samplesRef.is_null()) {
        spec["evidence"] = { { "rawSamples", samplesRef } };
    }
    if (!m_measurements.empty())
        spec["measurements"] = m_measurements;
    if (!m_sourceNative.is_null())
        spec["sourceNative"] = m_sourceNative;
    spec["observedAt"] = m_observedAt;
    json metadata = { { "name", name } };
    if (!m_title.empty())
        metadata["title"] = m_title;
    if (!m_labels.empty())
        metadata["labels"] = m_labels;
    out.document = { { "run",
                         { { "apiVersion", kApiVersion }, { "kind", kBenchmarkRun }, { "metadata", metadata },
                             { "spec", std::move(spec) } } },
        { "protocol", m_protocol }, { "environment", m_environment } };
    if (m_workloadCarried)
        out.document["workload"] = m_workload;
    if (m_operationCarried && !m_operation.is_null())
        out.document["operation"] = m_operation;
    if (m_implementationCarried)
        out.document["implementation"] = m_implementation;
    return out;
}

} // namespace kix::format
