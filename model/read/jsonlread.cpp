// SPDX-License-Identifier: Apache-2.0
#include "model/read/jsonlread.h"

#include "model/jobs/pools.h"
#include "model/read/documentframes.h"
#include "model/read/jsonlmapped.h"

#include <QThreadPool>
#include <QtConcurrent>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

namespace kix::jsonl {

namespace {

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

// A file that cannot be mapped, read a window at a time: one batch of windows is parsed on the pool while the next
// is read; buffers are used again, not given back.
class ReadStream
{
public:
    ReadStream(int fd, const QString& path, const std::shared_ptr<const RawSource>& shared, qint64 window,
        const ParseLimits& limits, ParseResult& result, const parsing::TextSink& frame)
        : m_fd(fd)
        , m_path(path)
        , m_shared(shared)
        , m_window(window)
        , m_limits(limits)
        , m_result(result)
        , m_frame(frame)
        , m_threads(std::max(1, parsePool()->maxThreadCount()))
    {
    }

    // False when the first window is not one to stream (nothing is read then).
    bool run();
    const QString& error() const { return m_error; }

private:
    ParseResult parse(const Window& w) const
    {
        ParseResult part;
        const LineOrigin origin { m_shared, w.fileOffset + qint64(w.begin) };
        m_frame.window(m_path, w.bytes.data() + w.begin, w.bytes.data() + w.end, w.firstLine, origin, true, w.newlines,
            m_multiLine, part);
        return part;
    }
    void finish();
    void flush();
    Window fill(std::size_t& have, bool& atEnd);
    bool skipLongLine(Window& w, std::size_t have);
    void cut(Window& w, std::size_t have, bool atEnd);

    const int m_fd;
    const QString& m_path;
    const std::shared_ptr<const RawSource>& m_shared;
    const qint64 m_window;
    const ParseLimits& m_limits;
    ParseResult& m_result;
    const parsing::TextSink& m_frame;
    const int m_threads;
    std::vector<Window> m_batch;
    std::vector<Window> m_inFlight;
    std::vector<Buffer> m_spare;
    QFuture<ParseResult> m_parsing;
    bool m_running = false;
    bool m_multiLine = false; // documents over several lines, found in the first window
    Buffer m_carry; // the start of a line that the last window cut
    qint64 m_carryOffset = 0; // its place in the file
    qint64 m_readTotal = 0;
    int m_line = 0;
    bool m_skipping = false; // inside a line past maxLineBytes
    QString m_error;
};

void ReadStream::finish()
{
    if (!m_running)
        return;
    m_running = false;
    m_parsing.waitForFinished();
    for (const ParseResult& part : m_parsing.results()) {
        m_result.runs += part.runs;
        m_result.diagnostics += part.diagnostics;
    }
    m_parsing = QFuture<ParseResult>();
    for (Window& w : m_inFlight)
        m_spare.push_back(w.bytes.take());
    m_inFlight.clear();
}

void ReadStream::flush()
{
    finish();
    if (m_batch.empty())
        return;
    m_inFlight.swap(m_batch);
    m_parsing = QtConcurrent::mapped(
        parsePool(), m_inFlight.cbegin(), m_inFlight.cend(), [this](const Window& w) { return parse(w); });
    m_running = true;
}

// The next window: the carried start of a line, then up to a window of the file (`have` bytes in all).
Window ReadStream::fill(std::size_t& have, bool& atEnd)
{
    Window w;
    if (!m_spare.empty()) {
        w.bytes = m_spare.back().take();
        m_spare.pop_back();
        w.bytes.assign(m_carry.data(), m_carry.size);
    } else {
        w.bytes = m_carry.take();
    }
    m_carry.size = 0;
    w.fileOffset = m_carryOffset;
    have = w.bytes.size;
    w.bytes.reserve(have + std::size_t(m_window) + kPad);
    const qint64 n = readFully(m_fd, w.bytes.data() + have, m_window, m_error);
    m_readTotal += n;
    have += std::size_t(n);
    atEnd = n < m_window;
    std::memset(w.bytes.data() + have, 0, kPad);
    return w;
}

// Inside a line past maxLineBytes: false when the window holds no end of it.
bool ReadStream::skipLongLine(Window& w, std::size_t have)
{
    const char* nl = static_cast<const char*>(std::memchr(w.bytes.data(), '\n', have));
    if (!nl) {
        m_carryOffset = w.fileOffset + qint64(have);
        return false;
    }
    m_skipping = false;
    ++m_line;
    w.begin = std::size_t(nl - w.bytes.data()) + 1;
    return true;
}

// The window's whole lines (or records) into the batch, the cut one carried to the next window.
void ReadStream::cut(Window& w, std::size_t have, bool atEnd)
{
    const char* base = w.bytes.data();
    const char* last = nullptr; // the end of the last whole record
    w.newlines.clear();
    if (m_multiLine && have > w.begin) {
        findRecordEnds(base + w.begin, base + have, w.newlines);
        last = w.newlines.empty() ? nullptr : base + w.begin + w.newlines.back();
    } else if (have > w.begin) {
        last = static_cast<const char*>(::memrchr(base + w.begin, '\n', have - w.begin));
    }
    if (last || atEnd) {
        w.end = last && !atEnd ? std::size_t(last - base) + 1 : have;
        if (w.end < have) {
            m_carry.assign(base + w.end, have - w.end);
            m_carryOffset = w.fileOffset + qint64(w.end);
        }
        w.firstLine = m_line;
        if (m_multiLine) {
            m_line += countNewlines(base + w.begin, base + w.end);
        } else {
            for (const char* q = base + w.begin;
                 (q = static_cast<const char*>(std::memchr(q, '\n', std::size_t(base + w.end - q))));) {
                w.newlines.push_back(std::size_t(q - (base + w.begin)));
                ++m_line;
                ++q;
            }
        }
        m_batch.push_back(std::move(w));
    } else if (qint64(have - w.begin) > m_limits.maxLineBytes) {
        m_result.diagnostics.append(makeError(m_path, QLatin1Char('/') + QString::number(m_line),
            QStringLiteral("the line is longer than the limit of %1 bytes: not read").arg(m_limits.maxLineBytes)));
        m_skipping = true;
        m_carryOffset = w.fileOffset + qint64(have);
    } else { // a line longer than the window: read on
        w.bytes.size = have;
        m_carry = w.bytes.take();
        m_carryOffset = w.fileOffset;
        if (w.begin > 0) {
            std::memmove(m_carry.data(), m_carry.data() + w.begin, have - w.begin);
            m_carry.size -= w.begin;
            m_carryOffset += qint64(w.begin);
        }
    }
}

bool ReadStream::run()
{
    bool first = true;
    while (true) {
        if (m_limits.cancel && m_limits.cancel->load(std::memory_order_relaxed))
            break;
        std::size_t have = 0;
        bool atEnd = false;
        Window w = fill(have, atEnd);
        if (first) {
            first = false;
            if (!m_frame.takesWindows(w.bytes.data(), w.bytes.data() + have))
                return false;
            m_multiLine = firstDocumentSpansLines(w.bytes.data(), w.bytes.data() + have);
            if (have >= 3 && std::memcmp(w.bytes.data(), "\xEF\xBB\xBF", 3) == 0)
                w.begin = 3;
        }
        if (m_skipping && !skipLongLine(w, have)) {
            if (atEnd)
                break;
            continue;
        }
        cut(w, have, atEnd);
        if (int(m_batch.size()) >= 2 * m_threads || atEnd) {
            flush(); // parses this batch while the next one is read
            if (m_limits.fileProgress)
                m_limits.fileProgress(m_readTotal, m_shared->size);
        }
        if (atEnd)
            break;
    }
    flush();
    finish();
    return true;
}

} // namespace

bool streamRead(int fd, const QString& path, const std::shared_ptr<const RawSource>& shared, qint64 window,
    const ParseLimits& limits, ParseResult& result, const parsing::TextSink& frame, QString& error)
{
    ReadStream stream(fd, path, shared, window, limits, result, frame);
    const bool streamed = stream.run();
    error = stream.error();
    return streamed;
}

} // namespace kix::jsonl
