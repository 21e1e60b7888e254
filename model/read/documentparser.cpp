// SPDX-License-Identifier: Apache-2.0
#include "model/read/documentparser.h"

#include "model/read/documentlines.h"
#include "model/read/jsonlstream.h"
#include "model/read/wholefile.h"
#include "model/read/zstdstream.h"

#include <QFile>

namespace kix {

bool ParseResult::hasErrors() const
{
    for (const Diagnostic& d : diagnostics) {
        if (d.isError())
            return true;
    }
    return false;
}

namespace {

// Whether the path's suffix is `suffix`, in any case (no QString made: asked of every file the loader reads).
bool hasSuffix(const QString& path, QLatin1String suffix)
{
    const qsizetype dot = path.lastIndexOf(QLatin1Char('.'));
    return dot >= 0 && path.size() - dot - 1 == suffix.size()
        && QStringView(path).mid(dot + 1).compare(suffix, Qt::CaseInsensitive) == 0;
}

// A file named .zst that starts as another compression does (then it gets that compression's hint).
bool startsAsOtherCompression(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray head = f.read(8);
    return parsing::isOtherCompression(head.constData(), head.constData() + head.size());
}

} // namespace

ParseResult parseBytes(const QByteArray& input, const QString& file, const ParseLimits& limits)
{
    ParseResult result;
    parsing::parseWhole(
        std::string_view(input.constData(), static_cast<size_t>(input.size())), false, file, limits, result);
    return result;
}

// Which source the file is: a Zstandard stream, a big JSON Lines file read in windows, or a file read whole.
void parseFileInto(const QString& path, const ParseLimits& limits, ParseResult& result)
{
    parsing::reserveThreadHeap();
    if (!path.startsWith(QLatin1Char(':'))) { // not a Qt resource
        if (hasSuffix(path, QLatin1String("zst")) && !startsAsOtherCompression(path)) {
            parseZstdFile(path, limits, result); // streamed, never whole in memory
            return;
        }
        if (streamJsonLines(path, limits, result))
            return; // a big JSON Lines file, streamed
    }
    parsing::parseWholeFile(path, limits, result);
}

ParseResult parseFile(const QString& path, const ParseLimits& limits)
{
    ParseResult result;
    parseFileInto(path, limits, result);
    return result;
}

} // namespace kix
