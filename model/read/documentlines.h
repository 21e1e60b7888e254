// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (the Frame stage of the read path, documentparser.h): kernelindex documents one a line
// (JSON Lines, or records over several lines), parsed into runs, and the checks every document goes through whatever
// it arrived in, on its way to the Extract stage (runextract.h).

#include "model/read/jsondom.h"
#include "model/read/jsonreader.h"
#include "model/read/readlimits.h"

#include <memory>
#include <string>
#include <vector>

namespace kix::parsing {

// A text that simdjson refused: nlohmann/json says where and why (line and column).
void reportRefusedText(simdjson::error_code error, const char* begin, const char* end, const QString& file,
    const QString& pointer, int lineOffset, const ParseLimits& limits, Diagnostics& out);

// A compact copy of the text of the documents kept, shared by their runs.
std::shared_ptr<const std::string> keep(const std::string& compact);

// Grows the calling thread's heap once, up front (see the definition for why).
void reserveThreadHeap();

// JSON Lines of kernelindex documents in [begin, end), the first line being line `firstLine` of the file (0-based):
// what every reader of lines ends in (the catalog's, the streamed windows, a text in memory cut into chunks). `origin`:
// where the lines are in a file on disk (their runs keep that place, not the text). `padded`:
// simdjson::SIMDJSON_PADDING readable bytes follow `end`. `newlines`: the ends of the records, as offsets from
// `begin` (every '\n' of JSON Lines), where the caller found them already; with `multiLine`, records are documents
// over several lines (documentframes.h), found here when `newlines` is not given, and a record's pointer is its
// first line.
void parseJsonLinesRange(const char* begin, const char* end, int firstLine, const QString& file,
    const ParseLimits& limits, ParseResult& result, const LineOrigin* origin = nullptr, bool padded = false,
    const std::vector<std::size_t>* newlines = nullptr, bool multiLine = false);

// Large bundles are cut at line ends into chunks parsed on all cores, then merged in order.
void parseJsonLines(
    const char* begin, const char* end, const QString& file, const ParseLimits& limits, ParseResult& result);

// Two or more non-blank lines that each start with '{': JSON Lines even without the .jsonl extension.
bool looksLikeJsonLines(const char* begin, const char* end);

} // namespace kix::parsing
