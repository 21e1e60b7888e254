// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (the document parser): kernelindex documents one a line (JSON Lines, or records over several
// lines), parsed into runs, and the checks every document goes through whatever it arrived in.

#include "model/read/documentparser.h"
#include "model/read/jsondom.h"
#include "model/read/jsonreader.h"

#include <memory>
#include <string>
#include <vector>

namespace kix::parsing {

bool isBlank(const char* begin, const char* end);

// Every document goes through here; the caller gives the run its raw text.
std::shared_ptr<Run> readDocument(
    jsondom::Element document, const QString& file, const QString& pointer, Diagnostics& out, bool duplicateKeys);

// A text that simdjson refused: nlohmann/json says where and why (line and column).
void reportRefusedText(simdjson::error_code error, const char* begin, const char* end, const QString& file,
    const QString& pointer, int lineOffset, const ParseLimits& limits, Diagnostics& out);

// A compact copy of the text of the documents kept, shared by their runs.
std::shared_ptr<const std::string> keep(const std::string& compact);

// Grows the calling thread's heap once, up front (see the definition for why).
void reserveThreadHeap();

// `newlines`: the ends of the records (every '\n' of JSON Lines); with `multiLine`, records are documents over
// several lines (documentframes.h), found here when `newlines` is not given.
void parseJsonLinesRange(const char* begin, const char* end, int firstLine, const QString& file,
    const ParseLimits& limits, ParseResult& result, const LineOrigin* origin = nullptr, bool padded = false,
    const std::vector<std::size_t>* newlines = nullptr, bool multiLine = false);

// Large bundles are cut at line ends into chunks parsed on all cores, then merged in order.
void parseJsonLines(
    const char* begin, const char* end, const QString& file, const ParseLimits& limits, ParseResult& result);

// Two or more non-blank lines that each start with '{': JSON Lines even without the .jsonl extension.
bool looksLikeJsonLines(const char* begin, const char* end);

} // namespace kix::parsing
