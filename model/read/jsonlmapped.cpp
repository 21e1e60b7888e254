// SPDX-License-Identifier: Apache-2.0
#include "model/read/jsonlmapped.h"

#include "model/jobs/pools.h"
#include "model/read/documentframes.h"

#include <QThreadPool>
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

int countNewlines(const char* from, const char* to)
{
    int n = 0;
    for (const char* q = from; (q = static_cast<const char*>(std::memchr(q, '\n', std::size_t(to - q)))); ++q)
        ++n;
    return n;
}

namespace {

// Windows are parsed in batches of 2 x threads (QtConcurrent::mapped), two batches in flight: a thread done
// with its part of the older batch goes on with the newer one, so none waits at a batch's end. The older
// batch's runs are taken, in file order, before a third is started.
struct Flight
{
    std::vector<MappedWindow> windows;
    QFuture<ParseResult> parsed;
};

// One mapped file streamed: its windows found, parsed in batches and their pages given back.
class MappedStream
{
public:
    MappedStream(const MappedFile& file, int fd, const QString& path, const std::shared_ptr<const RawSource>& shared,
        const ParseLimits& limits, ParseResult& result, const parsing::TextSink& frame)
        : m_file(file)
        , m_fd(fd)
        , m_path(path)
        , m_shared(shared)
        , m_limits(limits)
        , m_result(result)
        , m_frame(frame)
        , m_base(file.data())
        , m_size(file.size())
        , m_window(std::size_t(std::max<qint64>(limits.streamWindowBytes, 64)))
        , m_page(std::size_t(std::max(4096L, ::sysconf(_SC_PAGESIZE))))
        , m_readable((m_size + m_page - 1) / m_page * m_page) // the last page is zero-filled past the end
        , m_mapping(const_cast<char*>(m_base))
    {
    }

    Mapped run();

private:
    void populate(std::size_t from, std::size_t to)
    {
        from = from / m_page * m_page;
        if (to > from)
            ::madvise(m_mapping + from, to - from, MADV_POPULATE_READ); // one call, not a fault per page; may fail
    }
    void release(std::size_t upTo)
    {
        upTo = upTo / m_page * m_page;
        if (upTo > m_released) {
            ::madvise(m_mapping + m_released, upTo - m_released, MADV_DONTNEED); // read again from the cache if touched
            m_released = upTo;
        }
    }
    ParseResult parse(const MappedWindow& w) const
    {
        ParseResult part;
        const LineOrigin origin { m_shared, qint64(w.begin), true };
        m_frame.window(
            m_path, m_base + w.begin, m_base + w.end, w.firstLine, origin, w.padded, w.newlines, m_multiLine, part);
        return part;
    }
    std::size_t oldestInFlight(std::size_t otherwise) const
    {
        if (!m_flight.empty())
            return m_flight.front().windows.front().begin;
        return m_batch.empty() ? otherwise : m_batch.front().begin;
    }
    void takeOldest(std::size_t next);
    void submit(std::size_t next);
    void submitWhenFull();
    bool shrankBelow();
    void nextRecords();
    void nextLines();

    const MappedFile& m_file;
    const int m_fd;
    const QString& m_path;
    const std::shared_ptr<const RawSource>& m_shared;
    const ParseLimits& m_limits;
    ParseResult& m_result;
    const parsing::TextSink& m_frame;
    const char* const m_base;
    std::size_t m_size;
    const std::size_t m_window;
    const std::size_t m_page;
    const std::size_t m_readable;
    char* const m_mapping;
    std::size_t m_released = 0; // the pages before it are given back
    bool m_multiLine = false;
    int m_threads = 1;
    std::deque<Flight> m_flight; // a deque: a batch in flight keeps its place while another is added
    std::vector<MappedWindow> m_batch; // found, not yet started
    std::size_t m_pos = 0;
    int m_line = 0;
};

void MappedStream::takeOldest(std::size_t next)
{
    Flight& f = m_flight.front();
    f.parsed.waitForFinished();
    for (const ParseResult& part : f.parsed.results()) {
        m_result.runs += part.runs;
        m_result.diagnostics += part.diagnostics;
    }
    m_flight.pop_front();
    release(oldestInFlight(next));
}

void MappedStream::submit(std::size_t next)
{
    if (m_batch.empty())
        return;
    m_flight.push_back(Flight { std::move(m_batch), {} });
    m_batch.clear();
    Flight& f = m_flight.back();
    f.parsed = QtConcurrent::mapped(
        parsePool(), f.windows.cbegin(), f.windows.cend(), [this](const MappedWindow& w) { return parse(w); });
    while (m_flight.size() > 2)
        takeOldest(next);
}

// A full batch, or the last one, is parsed while the next batch is found.
void MappedStream::submitWhenFull()
{
    if (int(m_batch.size()) >= 2 * m_threads || m_pos >= m_size) {
        submit(m_pos);
        if (m_limits.fileProgress)
            m_limits.fileProgress(qint64(m_pos), qint64(m_size));
    }
}

// A file that shrank is read no further than its end now (what was past it reads as zeros). True when that end is
// reached.
bool MappedStream::shrankBelow()
{
    if (!m_file.shrank())
        return false;
    struct stat now
    {
    };
    if (::fstat(m_fd, &now) == 0 && std::size_t(now.st_size) < m_size)
        m_size = std::max(m_pos, std::size_t(now.st_size));
    return m_pos >= m_size;
}

// Documents over several lines: the window ends after its last whole one.
void MappedStream::nextRecords()
{
    MappedWindow w;
    std::size_t reach = std::min(m_pos + m_window, m_size);
    while (true) {
        populate(m_pos, reach);
        w.newlines.clear();
        findRecordEnds(m_base + m_pos, m_base + reach, w.newlines);
        if (reach == m_size || !w.newlines.empty() || qint64(reach - m_pos) > m_limits.maxLineBytes)
            break;
        reach = std::min(m_size, m_pos + 2 * (reach - m_pos)); // one document longer than the window
    }
    if (reach < m_size && w.newlines.empty()) {
        m_result.diagnostics.append(makeError(m_path, QLatin1Char('/') + QString::number(m_line),
            QStringLiteral("a document longer than the limit of %1 bytes: not read").arg(m_limits.maxLineBytes)));
        m_line += countNewlines(m_base + m_pos, m_base + reach);
        m_pos = reach;
        return;
    }
    w.begin = m_pos;
    w.end = reach == m_size ? m_size : m_pos + w.newlines.back() + 1;
    w.firstLine = m_line;
    w.padded = m_readable - w.end >= kPad;
    m_line += countNewlines(m_base + w.begin, m_base + w.end);
    m_batch.push_back(std::move(w));
    m_pos = m_batch.back().end;
    submitWhenFull();
}

// JSON Lines: the window ends after its last whole line.
void MappedStream::nextLines()
{
    const std::size_t stop = std::min(m_pos + m_window, m_size);
    populate(m_pos, stop);
    std::size_t end = m_size;
    if (stop < m_size) {
        const char* last = static_cast<const char*>(::memrchr(m_base + m_pos, '\n', stop - m_pos));
        if (last) {
            end = std::size_t(last - m_base) + 1;
        } else { // a line longer than the window: its end, a window at a time
            const char* nl = nullptr;
            std::size_t at = stop;
            while (!nl && at < m_size) {
                const std::size_t next = std::min(at + m_window, m_size);
                populate(at, next);
                nl = static_cast<const char*>(std::memchr(m_base + at, '\n', next - at));
                at = next;
                if (!nl && qint64(at - m_pos) > m_limits.maxLineBytes) // not kept: no need to hold it
                    release(std::min(at, oldestInFlight(at)));
            }
            const std::size_t lineEnd = nl ? std::size_t(nl - m_base) : m_size;
            if (qint64(lineEnd - m_pos) > m_limits.maxLineBytes) {
                m_result.diagnostics.append(makeError(m_path, QLatin1Char('/') + QString::number(m_line),
                    QStringLiteral("the line is longer than the limit of %1 bytes: not read")
                        .arg(m_limits.maxLineBytes)));
                ++m_line;
                m_pos = nl ? lineEnd + 1 : m_size;
                return;
            }
            end = nl ? lineEnd + 1 : m_size;
        }
    }
    MappedWindow w;
    w.begin = m_pos;
    w.end = end;
    w.firstLine = m_line;
    w.padded = m_readable - end >= kPad;
    for (const char* q = m_base + m_pos;
         (q = static_cast<const char*>(std::memchr(q, '\n', end - std::size_t(q - m_base))));) {
        w.newlines.push_back(std::size_t(q - (m_base + m_pos)));
        ++m_line;
        ++q;
    }
    m_batch.push_back(std::move(w));
    m_pos = end;
    submitWhenFull();
}

Mapped MappedStream::run()
{
    populate(0, std::min(m_window, m_size));
    if (!m_frame.takesWindows(m_base, m_base + std::min(m_window, m_size)))
        return Mapped::NotStreamable;
    m_multiLine = firstDocumentSpansLines(m_base, m_base + std::min(m_window, m_size));
    m_threads = std::max(1, parsePool()->maxThreadCount());
    m_pos = m_size >= 3 && std::memcmp(m_base, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    while (m_pos < m_size) {
        if (m_limits.cancel && m_limits.cancel->load(std::memory_order_relaxed))
            break;
        if (shrankBelow())
            break;
        if (m_multiLine)
            nextRecords();
        else
            nextLines();
    }
    submit(m_pos);
    while (!m_flight.empty())
        takeOldest(m_pos);
    if (m_file.shrank())
        m_result.diagnostics.append(makeError(m_path, {},
            QStringLiteral(
                "the file shrank while it was read: what was past its new end is not read (load it again)")));
    return Mapped::Streamed;
}

} // namespace

Mapped streamMapped(const MappedFile& file, int fd, const QString& path, const std::shared_ptr<const RawSource>& shared,
    const ParseLimits& limits, ParseResult& result, const parsing::TextSink& frame)
{
    return MappedStream(file, fd, path, shared, limits, result, frame).run();
}

} // namespace kix::jsonl
