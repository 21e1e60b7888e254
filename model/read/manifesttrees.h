// SPDX-License-Identifier: Apache-2.0
#pragma once
// Each JSON value a file holds, as written, for checks of the text itself (kix validate --strict): a JSON file's
// document (or array, or bundle), each JSON Lines line, each catalog row's manifest (plain or Zstandard), or a
// YAML file's document. Duplicate keys are diagnostics: a warning in JSON (where kix reads the last value), an
// error in YAML (refused, as the format refuses them). The limits of the ordinary reading apply.

#include "model/diagnostic.h"
#include "model/read/readlimits.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <functional>

namespace kix {

using TreeVisitor = std::function<void(const nlohmann::json& value, const QString& pointer)>;

// False when the file is not read at all (missing, too large, not JSON or YAML); what was wrong is in `out`.
bool readManifestTrees(const QString& path, const ParseLimits& limits, const TreeVisitor& visit, Diagnostics& out);

} // namespace kix
