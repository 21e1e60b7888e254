// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one place kix builds kernelindex documents. Everything it returns validates against the official v1alpha1
// schemas (shared/data/kernelindex/schemas): names in the format's patterns, statuses from its list, facts the
// schemas have no field for moved to metadata labels (string values), raw samples named by URI and digest rather
// than written inline, digests computed by kernelindexDigest().

#include <QDateTime>

#include <nlohmann/json.hpp>

#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace kix::format {

using json = nlohmann::json;

// Labels from loose facts: every member of `facts` (nested objects flattened, "a_b") as a label whose key is a
// name (toName) with `prefix` before it, and whose value is a string of at most 200 code points (a non-string as
// its compact JSON). Merged into `labels`, which must be an object.
void addLabels(json& labels, const json& facts, std::string_view prefix = {});

// {apiVersion, kind, metadata {name, title, description, labels}, spec}; name made a metadata name, title and
// description cut to their limits, labels made strings by addLabels; empty ones left out.
json resource(
    std::string_view kind, std::string_view name, std::string_view title, json spec, const json& labels = json());

// A BenchmarkProtocol from loose facts: harness, measurement, correctness, devicePolicy, comparability members the
// schema knows are kept (as the types it asks for, strings cut to their limits, comparability.notes to 1000
// characters); everything else becomes a label ("measurement_warmup_ms"). timer, primaryStatistic, harness.name and
// comparability.family are made names ("unknown" when absent).
json protocolResource(std::string_view name, std::string_view title, const json& looseSpec, json labels = json());
// An ExecutionEnvironment likewise: hardware (vendor, product, architecture required: "unknown" when absent),
// software (os -> operatingSystem, osKernel -> kernel, cudaRuntime -> cudaToolkit), settings (hardware.eccEnabled ->
// settings.eccEnabled), imageDigest; the rest as labels ("hardware_cores", "software_build_flags").
json environmentResource(std::string_view name, std::string_view title, const json& looseSpec, json labels = json());

// The raw-samples evidence file: the RFC 8785 JSON {"kind":"kix-raw-samples","samples":[...],"unit":"ns"} and a
// line end; its digest is sha256Digest() of exactly these bytes.
std::string samplesArtifact(const std::vector<double>& samplesNs);
// The samples as read back from such a file; false when `bytes` is not one.
bool parseSamplesArtifact(const std::string& bytes, std::vector<double>& samplesNs);

// A run document and what stays beside it.
struct RunDocument
{
    json document; // {run, protocol, environment[, workload, operation, implementation]}
    std::vector<double> samplesNs; // the raw samples, for kix itself: the document names them only by rawSamples
    std::string samplesUri; // relative URI of the samples file (timing.rawSamples.uri), "" when there are none
    std::string samplesBytes; // that file's content (samplesArtifact)
};

class DocumentBuilder
{
public:
    static constexpr double kUnset = std::numeric_limits<double>::quiet_NaN();

    DocumentBuilder& setName(std::string_view name); // metadata.name of the run (made a metadata name)
    DocumentBuilder& setTitle(std::string_view title);
    DocumentBuilder& addLabel(std::string_view key, const json& value); // through addLabels
    // One of runStatuses(); throws std::invalid_argument for anything else.
    DocumentBuilder& setStatus(std::string_view status);
    DocumentBuilder& setObservedAt(const QDateTime& time); // written in UTC with milliseconds and 'Z'
    // timing: the primary statistic and latencies in ns. Keys of latencyNsKeys() are written (rounded to whole ns);
    // "min"/"max" as minimum/maximum; every key (those two too, under their own name) also becomes a latency
    // measurement in ns unless it is a latencyNs key; values that are not finite or negative are left out.
    DocumentBuilder& setTiming(std::string_view primaryStatistic, const json& latencyNs);
    DocumentBuilder& setSampleCount(long long count); // timing.samples
    DocumentBuilder& setSamples(std::vector<double> samplesNs); // in an evidence file: timing.rawSamples
    // A measurement; metric and statistic made names, the unit spelt by unitName(); a value that is not finite is
    // left out (JSON has no infinity).
    DocumentBuilder& addMeasurement(std::string_view metric, std::string_view statistic, std::string_view unit,
        double value, long long sampleCount = 0);
    // sourceNative: numbers of `metrics` kept (keys made names), anything else of it and all of `facts` as labels.
    DocumentBuilder& setSourceNative(std::string_view source, std::string_view benchmark, std::string_view externalId,
        const json& metrics = json(), const json& facts = json());
    DocumentBuilder& setCorrectness(std::string_view comparator, double maximumAbsoluteError = kUnset,
        double maximumRelativeError = kUnset, double matchedRatio = kUnset);
    // The linked resources. Protocol and environment travel in the document; workload, operation and implementation
    // do when `carried`, else only their digests are written.
    DocumentBuilder& setProtocol(json resource);
    DocumentBuilder& setEnvironment(json resource);
    DocumentBuilder& setWorkload(json resource, bool carried = true);
    DocumentBuilder& setOperation(json resource, bool carried = true);
    DocumentBuilder& setImplementation(json resource, bool carried = true);

    // Throws std::logic_error when no status, observedAt, protocol, environment, workload or implementation was set.
    RunDocument build() const;

private:
    std::string m_name, m_title, m_status, m_observedAt, m_primaryStatistic;
    json m_labels = json::object();
    json m_latencyNs = json::object();
    json m_measurements = json::array();
    json m_sourceNative;
    json m_correctness;
    long long m_sampleCount = 0;
    bool m_hasTiming = false;
    std::vector<double> m_samples;
    json m_protocol, m_environment, m_workload, m_operation, m_implementation;
    bool m_workloadCarried = true, m_operationCarried = true, m_implementationCarried = true;
};

} // namespace kix::format
