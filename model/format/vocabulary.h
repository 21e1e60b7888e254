// SPDX-License-Identifier: Apache-2.0
#pragma once
// The kernelindex v1alpha1 vocabulary, in one place: apiVersion, kinds, the thirteen run statuses, the name
// patterns of metrics, units, statistics, labels and metadata names, and the keys of timing.latencyNs.

#include <string>
#include <string_view>
#include <vector>

namespace kix::format {

inline constexpr const char* kApiVersion = "kernelindex.dev/v1alpha1";

inline constexpr const char* kBenchmarkRun = "BenchmarkRun";
inline constexpr const char* kBenchmarkProtocol = "BenchmarkProtocol";
inline constexpr const char* kExecutionEnvironment = "ExecutionEnvironment";
inline constexpr const char* kWorkloadCase = "WorkloadCase";
inline constexpr const char* kOperationSpec = "OperationSpec";
inline constexpr const char* kImplementationRevision = "ImplementationRevision";

// BenchmarkRun.spec.status: "passed" first, then the twelve failures, in the schema's order.
const std::vector<std::string>& runStatuses();
bool isRunStatus(std::string_view status);
bool isFailureStatus(std::string_view status); // one of the twelve that are not "passed"

// ^[a-z][a-z0-9_]*$ : metric, unit, statistic, comparator, timer, label keys, dtypes, architectures...
bool isName(std::string_view text);
// Text made into such a name: camelCase words split, lower case, runs of anything but [a-z0-9] one '_', none at
// either end, "x_" before a leading digit; "value" when nothing is left. "GB/s" -> "gb_s", "Elements{io}" ->
// "elements_io", "smClockHz" -> "sm_clock_hz".
std::string toName(std::string_view text);
// A unit as the format spells it: "B" -> "bytes", "GB/s" -> "gb_s", "MB" -> "mb", "ms" -> "ms"; else toName().
std::string unitName(std::string_view unit);

// The members timing.latencyNs may have: median, mean, p05, p95, minimum, maximum, mad, confidence95.
const std::vector<std::string>& latencyNsKeys();
bool isLatencyNsKey(std::string_view key);

// ^sha256:[0-9a-f]{64}$
bool isDigest(std::string_view text);

// metadata.name: ^[a-z0-9][a-z0-9._-]*$, at most 200 characters. Lower case, runs of anything else one '-', none at
// either end; "unnamed" when nothing is left.
std::string metadataName(std::string_view text);
// sourceNative.source: ^[a-z0-9][a-z0-9-]*$, at most 100 characters.
std::string sourceName(std::string_view text);

// At most `count` Unicode code points of UTF-8 `text` (JSON Schema's maxLength counts code points).
std::string truncateCodePoints(std::string_view text, std::size_t count);

inline constexpr std::size_t kMaxLabelValue = 200; // metadata.labels values
inline constexpr std::size_t kMaxTitle = 200;
inline constexpr std::size_t kMaxDescription = 2000;
inline constexpr std::size_t kMaxComparabilityNotes = 1000;

} // namespace kix::format
