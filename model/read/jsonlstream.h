// SPDX-License-Identifier: Apache-2.0
#pragma once
// A JSON Lines file of kernelindex documents on disk, of any size, read a window at a time (ParseLimits::
// streamWindowBytes): each window's lines are parsed on all cores, then the window is freed, so memory holds the
// runs and a few windows, never the file. The runs keep where their line is (RawText(source, offset, size)) and read
// it back when asked; one line is at most ParseLimits::maxLineBytes. Part of the Source stage of the read path
// (documentparser.h): the windows go on to the Frame stage (textsink.h).

#include <QString>

namespace kix {

struct ParseLimits;
struct ParseResult;
namespace parsing {
class TextSink;
}

// False when `path` is not one to stream (not .jsonl/.ndjson, not larger than one window, or by its first bytes a
// catalog export, a compressed or binary file, another format): the caller reads it whole, as any other file.
bool streamJsonLines(
    const QString& path, const ParseLimits& limits, ParseResult& result, const parsing::TextSink& frame);

} // namespace kix
