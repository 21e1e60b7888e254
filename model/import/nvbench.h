// SPDX-License-Identifier: Apache-2.0
#pragma once
// nvbench's JSON output (its `--json` file): one run per benchmark state.

#include "model/import/importresult.h"

namespace kix::interop {

ImportResult importNvbench(const nlohmann::json& value, const QString& file);

} // namespace kix::interop
