// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model: the one JSON tree that runs are read from (simdjson's DOM), and the text helpers that
// go with it. nlohmann/json stays for building documents and for the line and column of a refused input.

#include "model/diagnostic.h"

#include <simdjson.h>

#include <QString>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kix::jsondom {

using Element = simdjson::dom::element;

// The element as an object or array (the caller has checked its type).
inline simdjson::dom::object asObject(Element e)
{
    simdjson::dom::object o;
    if (e.get_object().get(o) != simdjson::SUCCESS)
        return {};
    return o;
}
inline simdjson::dom::array asArray(Element e)
{
    simdjson::dom::array a;
    if (e.get_array().get(a) != simdjson::SUCCESS)
        return {};
    return a;
}

// Parses text with the calling thread's parser; the element stays valid until that thread's next parse.
// `padded`: SIMDJSON_PADDING bytes after the text may be read (saves a copy).
simdjson::error_code parse(std::string_view text, bool padded, int maxDepth, Element& root);

// After a document of more than 16 MiB, the thread's parser gives its memory back (the last parse's elements
// become invalid).
void releaseLargeBuffers();

// A warning ("duplicate key: the last value is used") for each key that appears twice in one object; `prefix`
// is the pointer of root. Returns whether there was any.
bool reportDuplicateKeys(Element root, const QString& file, const QString& prefix, Diagnostics& out);

// Appends valid JSON text without its insignificant whitespace.
void appendMinified(std::string_view text, std::string& out);

// The [offset, size) of each element of compact, valid JSON array text.
std::vector<std::pair<std::size_t, std::size_t>> arrayElementSpans(std::string_view compactArray);

// "object", "array", "string", "number", "boolean", "null"
QString typeName(Element e);

} // namespace kix::jsondom
