// SPDX-License-Identifier: Apache-2.0
#include "model/read/jsonlmapped.h"

#include "model/read/catalogreader.h"
#include "model/read/documentframes.h"
#include "model/read/inputformats.h"

#include <QtConcurrent>

#include <algorithm>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kix::jsonl {

namespace {

Q_GLOBAL_STATIC(QThreadPool, windowThreads)

// Where the lines of a window of a mapped file are: [begin, end) of the file, line `firstLine` first.
struct MappedWindow
{
    std::size_t begin = 0;
    std::size_t end = 0;
    int firstLine = 0;
    bool padded = false; // simdjson::SIMDJSON_PADDING readable bytes follow `end` in the mapping
    std::vector<std::size_t> newlines; // offsets from begin of each '\n' in [begin, end) (of each record's end)
};

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

} // namespace

QThreadPool* windowPool()
{
    return windowThreads();
}

bool streamable(const char* begin, const char* end)
{
    const char* p = begin;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
        ++p;
    if (p == end || *p != '{')
        return false;
    if (std::memchr(begin, 0, std::size_t(std::min<std::ptrdiff_t>(end - begin, 4096))))
        return false;
    if (looksLikeCatalog(begin, end))
        return false;
    for (const InputFormat& format : importedFormats()) {
        if (format.stage == InputFormat::Stage::BeforeJsonLines && format.accepts(QStringLiteral("jsonl"), begin, end))
            return false;
    }
    return true;
}

int countNewlines(const char* from, const char* to)
{
    int n = 0;
    for (const char* q = from; (q = static_cast<const char*>(std::memchr(q, '\n', std::size_t(to - q)))); ++q)
        ++n;
    return n;
}

Mapped streamMapped(const MappedFile& file, int fd, const QString& path, const std::shared_ptr<const RawSource>& shared,
    const ParseLimits& limits, ParseResult& result)
{
    const char* const base = file.data();
    std::size_t size = file.size();
    const std::size_t window = std::size_t(std::max<qint64>(limits.streamWindowBytes, 64));
    const std::size_t page = std::size_t(std::max(4096L, ::sysconf(_SC_PAGESIZE)));
    const std::size_t readable = (size + page - 1) / page * page; // the last page is zero-filled past the end
    char* const mapping = const_cast<char*>(base);
    auto populate = [&](std::size_t from, std::size_t to) {
        from = from / page * page;
        if (to > from)
            ::madvise(mapping + from, to - from, MADV_POPULATE_READ); // one call, not a fault per page; may fail
    };
    std::size_t released = 0; // the pages before it are given back
    auto release = [&](std::size_t upTo) {
        upTo = upTo / page * page;
        if (upTo > released) {
            ::madvise(mapping + released, upTo - released, MADV_DONTNEED); // read again from the cache if touched
            released = upTo;
        }
    };
    populate(0, std::min(window, size));
    if (!streamable(base, base + std::min(window, size)))
        return Mapped::NotStreamable;
    const bool multiLine = firstDocumentSpansLines(base, base + std::min(window, size));
    const int threads = std::max(1, QThreadPool::globalInstance()->maxThreadCount());
    // Windows are parsed in batches of 2 x threads (QtConcurrent::mapped), two batches in flight: a thread done
    // with its part of the older batch goes on with the newer one, so none waits at a batch's end. The older
    // batch's runs are taken, in file order, before a third is started.
    struct Flight
    {
        std::vector<MappedWindow> windows;
        QFuture<ParseResult> parsed;
    };
    std::deque<Flight> flight; // a deque: a batch in flight keeps its place while another is added
    std::vector<MappedWindow> batch; // found, not yet started
    auto parse = [&](const MappedWindow& w) {
        ParseResult part;
        const LineOrigin origin { shared, qint64(w.begin), true };
        parseDocumentLines(
            base + w.begin, base + w.end, w.firstLine, path, limits, part, &origin, w.padded, &w.newlines, multiLine);
        return part;
    };
    auto oldestInFlight = [&](std::size_t otherwise) {
        if (!flight.empty())
            return flight.front().windows.front().begin;
        return batch.empty() ? otherwise : batch.front().begin;
    };
    auto takeOldest = [&](std::size_t next) {
        Flight& f = flight.front();
        f.parsed.waitForFinished();
        for (const ParseResult& part : f.parsed.results()) {
            result.runs += part.runs;
            result.diagnostics += part.diagnostics;
        }
        flight.pop_front();
        release(oldestInFlight(next));
    };
    auto submit = [&](std::size_t next) {
        if (batch.empty())
            return;
        flight.push_back(Flight { std::move(batch), {} });
        batch.clear();
        Flight& f = flight.back();
        f.parsed = QtConcurrent::mapped(windowPool(), f.windows.cbegin(), f.windows.cend(), parse);
        while (flight.size() > 2)
            takeOldest(next);
    };
    std::size_t pos = size >= 3 && std::memcmp(base, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    int line = 0;
    while (pos < size) {
        if (limits.cancel && limits.cancel->load(std::memory_order_relaxed))
            break;
        if (file.shrank()) { // read no further than its end now (what was past it reads as zeros)
            struct stat now
            {
            };
            if (::fstat(fd, &now) == 0 && std::size_t(now.st_size) < size)
                size = std::max(pos, std::size_t(now.st_size));
            if (pos >= size)
                break;
        }
        if (multiLine) { // documents over several lines: the window ends after its last whole one
            MappedWindow w;
            std::size_t reach = std::min(pos + window, size);
            while (true) {
                populate(pos, reach);
                w.newlines.clear();
                findRecordEnds(base + pos, base + reach, w.newlines);
                if (reach == size || !w.newlines.empty() || qint64(reach - pos) > limits.maxLineBytes)
                    break;
                reach = std::min(size, pos + 2 * (reach - pos)); // one document longer than the window
            }
            if (reach < size && w.newlines.empty()) {
                result.diagnostics.append(makeError(path, QLatin1Char('/') + QString::number(line),
                    QStringLiteral("a document longer than the limit of %1 bytes: not read").arg(limits.maxLineBytes)));
                line += countNewlines(base + pos, base + reach);
                pos = reach;
                continue;
            }
            w.begin = pos;
            w.end = reach == size ? size : pos + w.newlines.back() + 1;
            w.firstLine = line;
            w.padded = readable - w.end >= kPad;
            line += countNewlines(base + w.begin, base + w.end);
            batch.push_back(std::move(w));
            pos = batch.back().end;
            if (int(batch.size()) >= 2 * threads || pos >= size) {
                submit(pos);
                if (limits.fileProgress)
                    limits.fileProgress(qint64(pos), qint64(size));
            }
            continue;
        }
        const std::size_t stop = std::min(pos + window, size);
        populate(pos, stop);
        std::size_t end = size;
        if (stop < size) {
            const char* last = static_cast<const char*>(::memrchr(base + pos, '\n', stop - pos));
            if (last) {
                end = std::size_t(last - base) + 1;
            } else { // a line longer than the window: its end, a window at a time
                const char* nl = nullptr;
                std::size_t at = stop;
                while (!nl && at < size) {
                    const std::size_t next = std::min(at + window, size);
                    populate(at, next);
                    nl = static_cast<const char*>(std::memchr(base + at, '\n', next - at));
                    at = next;
                    if (!nl && qint64(at - pos) > limits.maxLineBytes) // not kept: no need to hold it
                        release(std::min(at, oldestInFlight(at)));
                }
                const std::size_t lineEnd = nl ? std::size_t(nl - base) : size;
                if (qint64(lineEnd - pos) > limits.maxLineBytes) {
                    result.diagnostics.append(makeError(path, QLatin1Char('/') + QString::number(line),
                        QStringLiteral("the line is longer than the limit of %1 bytes: not read")
                            .arg(limits.maxLineBytes)));
                    ++line;
                    pos = nl ? lineEnd + 1 : size;
                    continue;
                }
                end = nl ? lineEnd + 1 : size;
            }
        }
        MappedWindow w;
        w.begin = pos;
        w.end = end;
        w.firstLine = line;
        w.padded = readable - end >= kPad;
        for (const char* q = base + pos;
             (q = static_cast<const char*>(std::memchr(q, '\n', end - std::size_t(q - base))));) {
            w.newlines.push_back(std::size_t(q - (base + pos)));
            ++line;
            ++q;
        }
        batch.push_back(std::move(w));
        pos = end;
        if (int(batch.size()) >= 2 * threads || pos >= size) {
            submit(pos); // parsed while the next batch is found
            if (limits.fileProgress)
                limits.fileProgress(qint64(pos), qint64(size));
        }
    }
    submit(pos);
    while (!flight.empty())
        takeOldest(pos);
    if (file.shrank())
        result.diagnostics.append(makeError(path, {},
            QStringLiteral(
                "the file shrank while it was read: what was past its new end is not read (load it again)")));
    return Mapped::Streamed;
}

} // namespace kix::jsonl
