// SPDX-License-Identifier: Apache-2.0
#pragma once
// `kix validate --strict`: what in a document deviates from the format's v1alpha1 definition, by JSON pointer.
// The rules are the official schemas' (registry/schemas/*.v1alpha1.schema.json), written out here for the
// kinds a benchmark run links to: BenchmarkRun, BenchmarkProtocol, ExecutionEnvironment, WorkloadCase,
// WorkloadSuite, OperationSpec, ImplementationRevision and SoftwareProject (unknown fields, missing required
// fields, patterns, enums, lengths, number ranges), plus the parsing rules of §9.2 that a schema cannot say:
// durations that are not a whole number of nanoseconds (the format's own double arithmetic), and manifests
// larger than 1 MiB. Other kinds (the serving ones) are reported as not checked. The default reading of kix
// stays tolerant; this is only what the format's validator would refuse.

#include <QString>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace kix::format {

struct StrictFinding
{
    QString pointer; // RFC 6901, from the value given
    QString message;
};

struct StrictReport
{
    std::vector<StrictFinding> findings; // deviations
    std::vector<StrictFinding> notChecked; // resources of a kind these rules do not cover
};

// Checks a value read from a file: a manifest (by its kind), a kernelindex document {run, protocol,
// environment, workload, operation, implementation, project}, or a submission bundle. `pointer` prefixes
// every finding's pointer.
void checkStrict(const nlohmann::json& value, const QString& pointer, StrictReport& report);

// A duration as the format reads it (§9.2 step 3): a whole number of nanoseconds, or a string such as "8.1 us"
// whose value in nanoseconds, computed in binary double arithmetic, is a safe integer. False and a reason
// otherwise ("ambiguous duration" for "1.005 ms").
bool durationNanoseconds(const nlohmann::json& value, double* ns, QString* why);

} // namespace kix::format
