#pragma once

#include "engine/benchmarkresult.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <string>

namespace kix {

// Writes the kernelindex document of one result: {run, protocol, environment}, shaped like the seed
// (shared/data/seed), apiVersion kernelindex.dev/v1alpha1. Every digest is "sha256:" + the SHA-256 of
// that part's canonical JSON (sorted keys, no whitespace):
//   protocolDigest       the protocol resource as written;
//   environmentDigest    the environment resource as written;
//   workloadDigest       {op, batch, channels, hidden, channels_per_group, dtype, eps};
//   implementationDigest the backend's implementationInfo().
class RunBuilder
{
public:
    explicit RunBuilder(const BenchmarkResult& result);

    RunBuilder& setEnvironment(const nlohmann::json& environmentSpec); // Backend::environment()
    RunBuilder& setImplementation(const nlohmann::json& implementationInfo); // Backend::implementationInfo()
    RunBuilder& setTimer(const QString& timer); // Backend::timerName()

    nlohmann::json build() const;

    // `group_norm/<pass>/<implementation>/<device-slug>/<workload slug>/<yyyy-MM-dd-hh-mm-ss>`
    QString externalId() const;
    // A file name for the document: the externalId with '/' as '-', plus ".json".
    QString fileName() const;

    static std::string canonicalJson(const nlohmann::json& value);
    static std::string digest(const nlohmann::json& value); // "sha256:<64 hex digits>"

private:
    nlohmann::json protocol() const;
    nlohmann::json environmentResource() const;
    nlohmann::json workload() const;
    nlohmann::json runResource(const nlohmann::json& protocol, const nlohmann::json& environment) const;

    const BenchmarkResult& m_result;
    nlohmann::json m_environment = nlohmann::json::object();
    nlohmann::json m_implementation = nlohmann::json::object();
    QString m_timer = QStringLiteral("steady_clock");
};

} // namespace kix
