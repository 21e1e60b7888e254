// SPDX-License-Identifier: Apache-2.0
#pragma once
// Google Benchmark's JSON output (`--benchmark_out_format=json`): one run per benchmark, aggregates folded in.

#include "model/import/importresult.h"

namespace kix::interop {

ImportResult importGoogleBenchmark(const nlohmann::json& value, const QString& file);

} // namespace kix::interop
