// SPDX-License-Identifier: Apache-2.0
#include "model/read/jsonlstream.h"

#include "model/rawtext.h"
#include "model/read/jsonlmapped.h"
#include "model/read/jsonlread.h"
#include "model/read/mappedfile.h"
#include "model/read/readlimits.h"

#include <QFile>

#include <algorithm>
#include <memory>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kix {

using namespace jsonl;

namespace {

bool isJsonLinesName(const QString& path)
{
    return parsing::hasSuffix(path, QLatin1String("jsonl")) || parsing::hasSuffix(path, QLatin1String("ndjson"));
}

// What identifies the file, which the runs read their lines back from.
std::shared_ptr<const RawSource> sourceOf(const QString& path, const struct stat& info)
{
    auto source = std::make_shared<RawSource>(rawtext::sourceOfFile(path, info));
    source->minifyOnRead = true; // its lines (or documents) as written: minified when read back
    return source;
}

} // namespace

bool streamJsonLines(
    const QString& path, const ParseLimits& limits, ParseResult& result, const parsing::TextSink& frame)
{
    if (!isJsonLinesName(path))
        return false;
    const qint64 window = std::max<qint64>(limits.streamWindowBytes, 64);
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return false; // the plain reader names the problem
    struct stat info
    {
    };
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || info.st_size <= window) {
        ::close(fd);
        return false;
    }
    const std::shared_ptr<const RawSource> shared = sourceOf(path, info);

    const qsizetype runsBefore = result.runs.size();
    const qsizetype diagnosticsBefore = result.diagnostics.size();
    auto noDocuments = [&]() {
        if (result.runs.size() == runsBefore && result.diagnostics.size() == diagnosticsBefore)
            result.diagnostics.append(makeError(path, {}, QStringLiteral("the file holds no JSON Lines documents")));
    };
    // KIX_STREAM_READ set: read() as where mapping fails (what the tests of that path set)
    if (const MappedFile file(fd, qEnvironmentVariableIsSet("KIX_STREAM_READ") ? 0 : std::size_t(info.st_size));
        file.valid()) {
        const Mapped mapped = streamMapped(file, fd, path, shared, limits, result, frame);
        ::close(fd);
        if (mapped == Mapped::NotStreamable)
            return false;
        noDocuments();
        return true;
    }
    // not mapped (a file system that cannot): read a window at a time
    QString error;
    const bool streamed = streamRead(fd, path, shared, window, limits, result, frame, error);
    ::close(fd);
    if (!streamed)
        return false;
    if (!error.isEmpty())
        result.diagnostics.append(makeError(path, {}, QStringLiteral("cannot read: ") + error));
    noDocuments();
    return true;
}

} // namespace kix
