// SPDX-License-Identifier: Apache-2.0
#pragma once
// The format's strict comparison key (KernelIndex design §11.1): the cohort within which two runs may be ranked.
// A digest of {v: 1, operation, workload, protocol, environment, correctness, metric}: the OperationSpec digest
// the workload names, the workload, protocol and environment digests the run names, the digest of
// {correctness: <the workload's correctness spec>}, and "metric:statistic:unit" of the run's primary measurement
// ("none" when it records none). The implementation is not part of it: it is what a cohort compares. The
// catalog export stores it on every run as comparisonKey.

#include <string>
#include <string_view>

namespace kix::format {

// The parts of the key, each as the format spells it ("sha256:…", "latency:mean:ns").
struct ComparisonParts
{
    std::string operation;
    std::string workload;
    std::string protocol;
    std::string environment;
    std::string correctness; // correctnessKey()
    std::string metric; // metricKey(), or "none"
};

// "metric:statistic:unit".
std::string metricKey(std::string_view metric, std::string_view statistic, std::string_view unit);

// sha256 of the canonical {"correctness": <value>}, given the value's RFC 8785 canonical text; an empty text is a
// workload without a correctness spec (the member is left out, as JSON.stringify drops an undefined value).
std::string correctnessKey(std::string_view canonicalCorrectness);

// "sha256:…" of the canonical key object.
std::string comparisonKey(const ComparisonParts& parts);

} // namespace kix::format
