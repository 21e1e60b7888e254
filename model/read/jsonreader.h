// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

#include <nlohmann/json.hpp>

#include <cstddef>

namespace kix {

// Result of checking one JSON text: valid, or a syntax error with its position. Runs are read by simdjson
// (model/jsondom.h); this strict reader only says where and why a refused text is wrong.
struct JsonReadResult
{
    bool ok = false;
    QString error; // for a person: what is wrong
    std::size_t errorOffset = 0; // byte offset of the error
    int line = 0; // 1-based line and column of the error
    int column = 0;
    bool tooDeep = false;
};

// Checks one JSON value in [begin, end); nesting deeper than maxDepth is refused.
JsonReadResult readJson(const char* begin, const char* end, int maxDepth);

// Escapes one token for a JSON pointer (RFC 6901).
QString pointerToken(const std::string& key);

} // namespace kix
