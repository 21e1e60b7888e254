// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Frame stage as the Source stage sees it (model/read: Source -> Frame -> Extract, documentparser.h). A source
// hands a file's text on in the form it has it: whole in memory, decompressed in pieces, or the whole lines of a
// file on disk a window at a time. documentparser.cpp joins a source to the frame (documenttext.h); no file of the
// Source stage includes a reader of the Frame stage, so that calls run one way.

#include "model/read/readlimits.h"

#include <QString>

#include <cstddef>
#include <string_view>
#include <vector>

#include <sys/stat.h>

namespace kix::parsing {

class TextSink
{
public:
    virtual ~TextSink() = default;

    // All of a file's bytes, in memory and not empty: `input` as read, `text` the same without a UTF-8 BOM.
    // `padded`: simdjson::SIMDJSON_PADDING readable bytes follow them. `onDisk`: the file's status when its bytes
    // were read from disk (all of `input`, as it was when opened), else null.
    virtual void whole(
        const QString& file, std::string_view input, std::string_view text, bool padded, const struct stat* onDisk)
        = 0;

    // Decompressed text, in pieces of any size, in order; false stops the source (cancelled, or the text refused).
    virtual bool piece(const QString& file, std::string_view piece) = 0;
    // After the last piece, unless the source was stopped or gave no text before an error.
    virtual void endOfPieces(const QString& file) = 0;

    // Whether a file whose first bytes are [begin, end) is read as kernelindex JSON Lines, which its source may then
    // hand on a window of whole lines at a time (and otherwise reads whole).
    virtual bool takesWindows(const char* begin, const char* end) const = 0;
    // One window of whole lines of such a file, the first being line `firstLine` (0-based), read into `part`. Called
    // from the parse pool's threads, several windows at once. `origin`: where the lines are in the file. `padded`:
    // simdjson::SIMDJSON_PADDING readable bytes follow `end`. `recordEnds`: the offset from `begin` of each record's
    // end. `multiLine`: records are documents over several lines.
    virtual void window(const QString& file, const char* begin, const char* end, int firstLine,
        const LineOrigin& origin, bool padded, const std::vector<std::size_t>& recordEnds, bool multiLine,
        ParseResult& part) const = 0;
};

} // namespace kix::parsing
