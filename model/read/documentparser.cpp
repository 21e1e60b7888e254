// SPDX-License-Identifier: Apache-2.0
#include "model/read/documentparser.h"

#include "model/read/documentlines.h"
#include "model/read/documenttext.h"
#include "model/read/jsonlstream.h"
#include "model/read/wholefile.h"

namespace kix {

bool ParseResult::hasErrors() const
{
    for (const Diagnostic& d : diagnostics) {
        if (d.isError())
            return true;
    }
    return false;
}

ParseResult parseBytes(const QByteArray& input, const QString& file, const ParseLimits& limits)
{
    ParseResult result;
    parsing::Frame frame(limits, result);
    parsing::parseWhole(
        std::string_view(input.constData(), static_cast<size_t>(input.size())), false, file, limits, result, frame);
    return result;
}

// Which source the file is: a big JSON Lines file read in windows, or a file read whole (or decompressed as it is
// read); either hands its text on to the Frame stage.
void parseFileInto(const QString& path, const ParseLimits& limits, ParseResult& result)
{
    parsing::reserveThreadHeap();
    parsing::Frame frame(limits, result);
    if (!path.startsWith(QLatin1Char(':')) && streamJsonLines(path, limits, result, frame))
        return; // a big JSON Lines file on disk (not a Qt resource), streamed
    parsing::parseWholeFile(path, limits, result, frame);
}

ParseResult parseFile(const QString& path, const ParseLimits& limits)
{
    ParseResult result;
    parseFileInto(path, limits, result);
    return result;
}

} // namespace kix
