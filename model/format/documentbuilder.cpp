// SPDX-License-Identifier: Apache-2.0
// The one place kix builds kernelindex documents; see documentbuilder.h.
#include "model/format/documentbuilder.h"

#include "model/format/canonicaljson.h"
#include "model/format/digest.h"
#include "model/format/resourcespecs.h"
#include "model/format/vocabulary.h"

#include <cmath>
#include <stdexcept>

namespace kix::format {
namespace {

using specs::text;

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
    json spec = specs::protocolSpec(looseSpec, labels);
    return resource(kBenchmarkProtocol, name, title, std::move(spec), labels);
}

json environmentResource(std::string_view name, std::string_view title, const json& looseSpec, json labels)
{
    json spec = specs::environmentSpec(looseSpec, labels);
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
