// SPDX-License-Identifier: Apache-2.0
#pragma once
// The OperationSpec, WorkloadCase and ImplementationRevision of an engine run (GroupNorm), valid against the
// v1alpha1 schemas, as RunBuilder carries them beside the run.

#include "engine/benchmarkspec.h"

#include <nlohmann/json.hpp>

namespace kix {

// One operation per op, pass and dtype: axes batch, channels, hidden, channels_per_group (groups derived), the
// pass's input and output tensors.
nlohmann::json groupNormOperation(const BenchmarkSpec& spec);
// The workload: the axes' values, the tensors' shapes, dtypes and seeded data, eps, the correctness tolerance.
nlohmann::json groupNormWorkload(const BenchmarkSpec& spec, const nlohmann::json& operation, double tolerance);
// The implementation: kix's version, the backend's callable and build (compiler and flags as a build variant), the
// architecture and dtype it ran on; the backend's other facts as labels.
nlohmann::json groupNormImplementation(const BenchmarkSpec& spec, const nlohmann::json& operation,
    const nlohmann::json& implementationInfo, const QString& architecture);

} // namespace kix
