// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/benchmarkresult.h"

#include "model/format/documentbuilder.h"

#include <QString>

#include <nlohmann/json.hpp>

namespace kix {

// Writes the kernelindex document of one result through format::DocumentBuilder: {run, protocol, environment,
// workload, operation, implementation}, every resource valid against the v1alpha1 schemas and every digest the
// format's (format::kernelindexDigest). The backend's loose environment and implementation facts go to the schemas'
// fields where they have one and to metadata labels where they do not; the raw samples go to an evidence file
// named by timing.rawSamples (buildDocument() returns its bytes; BenchmarkSession::writeDocument writes it).
class RunBuilder
{
public:
    explicit RunBuilder(const BenchmarkResult& result);

    RunBuilder& setEnvironment(const nlohmann::json& environmentSpec); // Backend::environment()
    RunBuilder& setImplementation(const nlohmann::json& implementationInfo); // Backend::implementationInfo()
    RunBuilder& setTimer(const QString& timer); // Backend::timerName()

    format::RunDocument buildDocument() const;
    nlohmann::json build() const { return buildDocument().document; }

    // `group_norm/<pass>/<implementation>/<device-slug>/<workload slug>/<yyyy-MM-dd-hh-mm-ss>`
    QString externalId() const;
    // A file name for the document: the externalId with '/' as '-', plus ".json".
    QString fileName() const;

    // The samples as the document's evidence file holds them: whole ns.
    static std::vector<double> roundedSamples(const std::vector<double>& samplesNs);

private:
    nlohmann::json protocol() const;

    const BenchmarkResult& m_result;
    nlohmann::json m_environment = nlohmann::json::object();
    nlohmann::json m_implementation = nlohmann::json::object();
    QString m_timer = QStringLiteral("steady_clock");
};

} // namespace kix
