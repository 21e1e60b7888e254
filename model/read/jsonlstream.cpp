// SPDX-License-Identifier: Apache-2.0
#include "model/read/jsonlstream.h"

#include "model/read/documentframes.h"
#include "model/read/documentparser.h"
#include "model/read/jsonlmapped.h"
#include "model/read/mappedfile.h"

#include <simdjson.h>

#include <QFile>
#include <QThreadPool>
#include <QtConcurrent>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kix {

using namespace jsonl;

namespace {

bool isJsonLinesName(const QString& path)
{
    // no QString made: asked of every file the loader reads
    const qsizetype dot = path.lastIndexOf(QLatin1Char('.'));
    if (dot < 0)
        return false;
    const QStringView suffix = QStringView(path).mid(dot + 1);
    return suffix.compare(QLatin1String("jsonl"), Qt::CaseInsensitive) == 0
        || suffix.compare(QLatin1String("ndjson"), Qt::CaseInsensitive) == 0;
}

// Reads up to `want` bytes at `at` of `bytes`; fewer only at the end of the file.
qint64 readFully(int fd, char* at, qint64 want, QString& error)
{
    qint64 got = 0;
    while (got < want) {
        const ssize_t n = ::read(fd, at + got, std::size_t(want - got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            error = QString::fromLocal8Bit(std::strerror(errno));
            return got;
        }
        if (n == 0)
            break;
        got += n;
    }
    return got;
}

// Bytes, not cleared when grown (a window is filled by read() at once).
struct Buffer
{
    std::unique_ptr<char[]> bytes;
    std::size_t size = 0;
    std::size_t capacity = 0;

    char* data() const { return bytes.get(); }
    void reserve(std::size_t n)
    {
        if (n <= capacity)
            return;
        std::unique_ptr<char[]> grown(new char[n]);
        if (size > 0)
            std::memcpy(grown.get(), bytes.get(), size);
        bytes = std::move(grown);
        capacity = n;
    }
    void assign(const char* from, std::size_t n)
    {
        size = 0;
        reserve(n);
        if (n > 0)
            std::memcpy(bytes.get(), from, n);
        size = n;
    }
    Buffer take()
    {
        Buffer out;
        std::swap(out.bytes, bytes);
        std::swap(out.size, size);
        std::swap(out.capacity, capacity);
        return out;
    }
};

// Whole lines of the file: bytes [begin, end) of `bytes` (followed by kPad readable bytes), at `fileOffset`.
struct Window
{
    Buffer bytes;
    std::size_t begin = 0;
    std::size_t end = 0;
    qint64 fileOffset = 0; // of bytes[0]
    int firstLine = 0;
    std::vector<std::size_t> newlines; // offsets from begin of each '\n' in [begin, end)
};

} // namespace

bool streamJsonLines(const QString& path, const ParseLimits& limits, ParseResult& result)
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
    auto source = std::make_shared<RawSource>();
    source->path = path;
    source->device = quint64(info.st_dev);
    source->inode = quint64(info.st_ino);
    source->size = qint64(info.st_size);
    source->modifiedNs = qint64(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec;
    source->changedNs = qint64(info.st_ctim.tv_sec) * 1'000'000'000 + info.st_ctim.tv_nsec;
    source->minifyOnRead = true; // its lines (or documents) as written: minified when read back
    const std::shared_ptr<const RawSource> shared = source;

    const qsizetype runsBefore = result.runs.size();
    const qsizetype diagnosticsBefore = result.diagnostics.size();
    auto noDocuments = [&]() {
        if (result.runs.size() == runsBefore && result.diagnostics.size() == diagnosticsBefore)
            result.diagnostics.append(makeError(path, {}, QStringLiteral("the file holds no JSON Lines documents")));
    };
    // KIX_STREAM_READ set: read() as where mapping fails (what the tests of that path set)
    if (const MappedFile file(fd, qEnvironmentVariableIsSet("KIX_STREAM_READ") ? 0 : std::size_t(info.st_size));
        file.valid()) {
        const Mapped mapped = streamMapped(file, fd, path, shared, limits, result);
        ::close(fd);
        if (mapped == Mapped::NotStreamable)
            return false;
        noDocuments();
        return true;
    }
    // not mapped (a file system that cannot): read a window at a time
    const int threads = std::max(1, QThreadPool::globalInstance()->maxThreadCount());
    // One batch of windows is parsed on the pool while the next is read; buffers are used again, not given back.
    std::vector<Window> batch;
    std::vector<Window> inFlight;
    std::vector<Buffer> spare;
    QFuture<ParseResult> parsing;
    bool running = false;
    bool multiLine = false; // documents over several lines, found in the first window
    auto parse = [&](const Window& w) {
        ParseResult part;
        const LineOrigin origin { shared, w.fileOffset + qint64(w.begin) };
        parseDocumentLines(w.bytes.data() + w.begin, w.bytes.data() + w.end, w.firstLine, path, limits, part, &origin,
            true, &w.newlines, multiLine);
        return part;
    };
    auto finish = [&]() {
        if (!running)
            return;
        running = false;
        parsing.waitForFinished();
        for (const ParseResult& part : parsing.results()) {
            result.runs += part.runs;
            result.diagnostics += part.diagnostics;
        }
        parsing = QFuture<ParseResult>();
        for (Window& w : inFlight)
            spare.push_back(w.bytes.take());
        inFlight.clear();
    };
    auto flush = [&]() {
        finish();
        if (batch.empty())
            return;
        inFlight.swap(batch);
        parsing = QtConcurrent::mapped(windowPool(), inFlight.cbegin(), inFlight.cend(), parse);
        running = true;
    };

    Buffer carry; // the start of a line that the last window cut
    qint64 carryOffset = 0; // its place in the file
    qint64 readTotal = 0;
    int line = 0;
    bool skipping = false; // inside a line past maxLineBytes
    bool first = true;
    QString error;
    while (true) {
        if (limits.cancel && limits.cancel->load(std::memory_order_relaxed))
            break;
        Window w;
        if (!spare.empty()) {
            w.bytes = spare.back().take();
            spare.pop_back();
            w.bytes.assign(carry.data(), carry.size);
        } else {
            w.bytes = carry.take();
        }
        carry.size = 0;
        w.fileOffset = carryOffset;
        std::size_t have = w.bytes.size;
        w.bytes.reserve(have + std::size_t(window) + kPad);
        const qint64 n = readFully(fd, w.bytes.data() + have, window, error);
        readTotal += n;
        have += std::size_t(n);
        const bool atEnd = n < window;
        std::memset(w.bytes.data() + have, 0, kPad);
        if (first) {
            first = false;
            if (!streamable(w.bytes.data(), w.bytes.data() + have)) {
                ::close(fd);
                return false;
            }
            multiLine = firstDocumentSpansLines(w.bytes.data(), w.bytes.data() + have);
            if (have >= 3 && std::memcmp(w.bytes.data(), "\xEF\xBB\xBF", 3) == 0)
                w.begin = 3;
        }
        if (skipping) {
            const char* nl = static_cast<const char*>(std::memchr(w.bytes.data(), '\n', have));
            if (!nl) {
                carryOffset = w.fileOffset + qint64(have);
                if (atEnd)
                    break;
                continue;
            }
            skipping = false;
            ++line;
            w.begin = std::size_t(nl - w.bytes.data()) + 1;
        }
        const char* base = w.bytes.data();
        const char* last = nullptr; // the end of the last whole record
        w.newlines.clear();
        if (multiLine && have > w.begin) {
            findRecordEnds(base + w.begin, base + have, w.newlines);
            last = w.newlines.empty() ? nullptr : base + w.begin + w.newlines.back();
        } else if (have > w.begin) {
            last = static_cast<const char*>(::memrchr(base + w.begin, '\n', have - w.begin));
        }
        if (last || atEnd) {
            w.end = last && !atEnd ? std::size_t(last - base) + 1 : have;
            if (w.end < have) {
                carry.assign(base + w.end, have - w.end);
                carryOffset = w.fileOffset + qint64(w.end);
            }
            w.firstLine = line;
            if (multiLine) {
                line += countNewlines(base + w.begin, base + w.end);
            } else {
                for (const char* q = base + w.begin;
                     (q = static_cast<const char*>(std::memchr(q, '\n', std::size_t(base + w.end - q))));) {
                    w.newlines.push_back(std::size_t(q - (base + w.begin)));
                    ++line;
                    ++q;
                }
            }
            batch.push_back(std::move(w));
        } else if (qint64(have - w.begin) > limits.maxLineBytes) {
            result.diagnostics.append(makeError(path, QLatin1Char('/') + QString::number(line),
                QStringLiteral("the line is longer than the limit of %1 bytes: not read").arg(limits.maxLineBytes)));
            skipping = true;
            carryOffset = w.fileOffset + qint64(have);
        } else { // a line longer than the window: read on
            w.bytes.size = have;
            carry = w.bytes.take();
            carryOffset = w.fileOffset;
            if (w.begin > 0) {
                std::memmove(carry.data(), carry.data() + w.begin, have - w.begin);
                carry.size -= w.begin;
                carryOffset += qint64(w.begin);
            }
        }
        if (int(batch.size()) >= 2 * threads || atEnd) {
            flush(); // parses this batch while the next one is read
            if (limits.fileProgress)
                limits.fileProgress(readTotal, source->size);
        }
        if (atEnd)
            break;
    }
    flush();
    finish();
    ::close(fd);
    if (!error.isEmpty())
        result.diagnostics.append(makeError(path, {}, QStringLiteral("cannot read: ") + error));
    noDocuments();
    return true;
}

} // namespace kix
