// SPDX-License-Identifier: Apache-2.0
// What the format-input tests read back from a parse (tst_formatinputs, tst_manifestinputs): a JSON value as text,
// a run's document, whether a diagnostic says something.
#pragma once

#include "model/read/documentparser.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace kixtest::formatinputs {

// A JSON value as text: a string as it is, anything else as JSON ("2048", "true").
inline QString text(const nlohmann::json& v)
{
    return QString::fromStdString(v.is_string() ? v.get<std::string>() : v.dump());
}

inline nlohmann::json documentOf(const kix::RunPtr& run)
{
    return nlohmann::json::parse(run->raw.view());
}

inline bool hasMessage(const kix::Diagnostics& diagnostics, const QString& part, bool error)
{
    return std::any_of(diagnostics.begin(), diagnostics.end(),
        [&](const kix::Diagnostic& d) { return d.isError() == error && d.message.contains(part); });
}

} // namespace kixtest::formatinputs
