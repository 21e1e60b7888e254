// SPDX-License-Identifier: Apache-2.0
#pragma once
// JSON Lines hold one document a line. What `jq .` or Python's json.dump(doc, f, indent=2) writes, one document
// after another, holds each over many lines. Both are read as records that end at a newline outside any JSON
// value: in JSON Lines every newline is such, so only a file whose first document spans lines is scanned this way.

#include <cstddef>
#include <vector>

namespace kix {

// Whether the first document in [begin, end) (a '{' or '[' after blank space) goes on past its first line. False
// for JSON Lines, for a file that is not JSON, and for a document that does not end in [begin, end) within its
// first line (then nothing tells).
bool firstDocumentSpansLines(const char* begin, const char* end);

// Whether [begin, end) holds two or more records, each an object, and its first document spans lines: documents
// one after another, not one document followed by other text (what a .json file of `jq . a.json b.json` holds).
bool holdsDocumentsOverLines(const char* begin, const char* end);

// Appends to `ends` the offset from `begin` of each newline in [begin, end) that ends a record: one outside any
// object, array or string, or one before a '{' at the start of a line (a document left open by a broken one
// before it ends there, so that one bad document does not take the rest of the file with it). A newline inside a
// string (not JSON) ends that string. [begin, end) starts outside any value. Returns the number of newlines seen.
int findRecordEnds(const char* begin, const char* end, std::vector<std::size_t>& ends);

} // namespace kix
