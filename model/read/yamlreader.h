// SPDX-License-Identifier: Apache-2.0
#pragma once
// YAML manifests and submission bundles, read as the format's own parser reads them (§9.2 step 1): YAML 1.2 with
// the core schema (timestamps and yes/no stay strings; true/false, null, integers and floats as in JSON), no
// custom tags, duplicate mapping keys refused, at most 100 alias resolutions per document, bounded nesting and a
// bounded number of nodes (an alias bomb is refused, never expanded). The result is a JSON value.

#include <QString>

#include <nlohmann/json.hpp>

namespace kix {

struct YamlLimits
{
    int maxDepth = 64;
    int maxAliases = 100;
    qint64 maxNodes = 0; // 0: derived from the text's size (4 per byte, at least 100,000)
};

struct YamlReadResult
{
    bool ok = false;
    QString error; // for a person
    int line = 0; // 1-based, 0 when unknown
    int column = 0;
    nlohmann::json value;
};

// Reads one YAML document (a second one is refused).
YamlReadResult readYaml(const char* begin, const char* end, const YamlLimits& limits = {});

} // namespace kix
