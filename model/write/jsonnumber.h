// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one JSON number writer of kix's reports (comparison, tool comparison, history): JSON has no NaN or infinity,
// so a value kix does not know is written as null.

#include <nlohmann/json.hpp>

#include <cmath>

namespace kix {

inline nlohmann::ordered_json jsonNumber(double v)
{
    return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
}

} // namespace kix
