// SPDX-License-Identifier: Apache-2.0
#pragma once
// pytest-benchmark's JSON (`--benchmark-json` or a saved run): one run per test.

#include "model/import/importresult.h"

namespace kix::interop {

ImportResult importPytestBenchmark(const nlohmann::json& value, const QString& file);

} // namespace kix::interop
