#pragma once

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <cstddef>

namespace kix {

// Result of reading one JSON text: the value, or a syntax error with its position. Duplicate object keys are
// reported (the last value wins) instead of being silently merged.
struct JsonReadResult
{
    nlohmann::json value;
    bool ok = false;
    QString error; // for a person: what is wrong
    std::size_t errorOffset = 0; // byte offset of the error
    int line = 0; // 1-based line and column of the error
    int column = 0;
    bool tooDeep = false;
    QStringList duplicateKeys; // JSON pointers of keys that appeared twice
};

// Reads one JSON value from [begin, end); nesting deeper than maxDepth is refused.
JsonReadResult readJson(const char* begin, const char* end, int maxDepth);

// Escapes one token for a JSON pointer (RFC 6901).
QString pointerToken(const std::string& key);

} // namespace kix
