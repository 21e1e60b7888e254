// SPDX-License-Identifier: Apache-2.0
#include "model/read/documentlines.h"

#include "model/jobs/pools.h"
#include "model/read/documentframes.h"
#include "model/read/runextract.h"

#include <QtConcurrent>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>

namespace kix::parsing {

namespace {

using jsondom::Element;

void reportJsonError(
    const JsonReadResult& read, const QString& file, const QString& pointer, int lineOffset, Diagnostics& out)
{
    Diagnostic d = makeError(file, pointer, read.error);
    if (read.line > 0) {
        d.line = read.line + lineOffset;
        d.column = read.column;
    }
    out.append(d);
}

// A run parsed from a line, waiting for its raw text.
struct Pending
{
    std::shared_ptr<Run> run;
    std::size_t offset;
    std::size_t size;
    qint64 fileOffset; // -1: the text is at offset in the compact buffer
};

// The runs of a range, each given its text: its place in the file, else its span of the compact buffer.
void attachRaw(std::vector<Pending>& pending, const std::string& compact, const LineOrigin* origin, ParseResult& result)
{
    if (pending.empty())
        return;
    const std::shared_ptr<const std::string> buffer = compact.empty() ? nullptr : keep(compact);
    result.runs.reserve(result.runs.size() + qsizetype(pending.size()));
    for (Pending& p : pending) {
        p.run->raw
            = p.fileOffset >= 0 ? RawText(origin->source, p.fileOffset, p.size) : RawText(buffer, p.offset, p.size);
        result.runs.append(std::move(p.run));
    }
}

} // namespace

void reportRefusedText(simdjson::error_code error, const char* begin, const char* end, const QString& file,
    const QString& pointer, int lineOffset, const ParseLimits& limits, Diagnostics& out)
{
    const JsonReadResult read = readJson(begin, end, limits.maxDepth);
    if (!read.ok) {
        reportJsonError(read, file, pointer, lineOffset, out);
        return;
    }
    if (error == simdjson::DEPTH_ERROR) {
        out.append(makeError(file, pointer, QStringLiteral("nesting deeper than %1 levels").arg(limits.maxDepth)));
        return;
    }
    out.append(makeError(file, pointer, QStringLiteral("not read: ") + QLatin1String(simdjson::error_message(error))));
}

// A compact copy of the text of the documents kept, shared by their runs.
std::shared_ptr<const std::string> keep(const std::string& compact)
{
    return std::make_shared<const std::string>(compact.data(), compact.size());
}

// glibc grows a thread's heap (not the main one, which keeps M_TOP_PAD spare) by as much as each allocation
// needs, an mprotect() call each time: a third of the loader's system calls on 20k files. Growing it once
// (allocating, then freeing, 56 MiB in pieces below the mmap threshold) leaves that much spare at its top: address
// space, not memory (the pages are not touched but for the pieces' headers), kept where the process set a
// trim threshold above it (kix's executables do: app/processpolicy.cpp).
void reserveThreadHeap()
{
#ifdef __GLIBC__
    thread_local bool reserved = false;
    if (reserved)
        return;
    reserved = true;
    constexpr std::size_t kPiece = std::size_t(96) << 10;
    constexpr std::size_t kPieces = (std::size_t(56) << 20) / kPiece;
    void* pieces[kPieces];
    for (void*& piece : pieces)
        piece = std::malloc(kPiece);
    for (std::size_t i = kPieces; i-- > 0;) // the last first: each joins the free top of the heap
        std::free(pieces[i]);
#endif
}

void parseJsonLinesRange(const char* begin, const char* end, int firstLine, const QString& file,
    const ParseLimits& limits, ParseResult& result, const LineOrigin* origin, bool padded,
    const std::vector<std::size_t>* newlines, bool multiLine)
{
    reserveThreadHeap();
    std::vector<std::size_t> recordEnds;
    if (multiLine && !newlines) {
        findRecordEnds(begin, end, recordEnds);
        newlines = &recordEnds;
    }
    std::vector<Pending> pending;
    thread_local std::string compact;
    compact.clear();
    int lineIndex = firstLine;
    int documents = 0;
    const char* lineStart = begin;
    std::size_t nextNewline = 0;
    while (lineStart < end) {
        const char* lineEnd = nullptr;
        if (newlines)
            lineEnd = nextNewline < newlines->size() ? begin + (*newlines)[nextNewline++] : end;
        else
            lineEnd = static_cast<const char*>(memchr(lineStart, '\n', static_cast<size_t>(end - lineStart)));
        if (!lineEnd)
            lineEnd = end;
        if (!isBlank(lineStart, lineEnd)) {
            char digits[16] = { '/' };
            const QString pointer = QString::fromLatin1(
                digits, std::to_chars(digits + 1, digits + sizeof digits, lineIndex).ptr - digits);
            const qsizetype reported = result.diagnostics.size();
            if (++documents > limits.maxDocuments) {
                result.diagnostics.append(makeError(file, pointer,
                    QStringLiteral("more than %1 documents: the rest is not read").arg(limits.maxDocuments)));
                break;
            }
            std::string_view text(lineStart, static_cast<size_t>(lineEnd - lineStart));
            // the text after a line (the next lines, or the buffer's padding) is readable: no copy
            bool textPadded = padded || end - lineEnd >= std::ptrdiff_t(simdjson::SIMDJSON_PADDING);
            thread_local std::string copy;
            if (origin && origin->mapped) {
                if (copy.size() < text.size() + simdjson::SIMDJSON_PADDING)
                    copy.resize(text.size() + simdjson::SIMDJSON_PADDING);
                std::memcpy(copy.data(), text.data(), text.size());
                text = std::string_view(copy.data(), text.size());
                textPadded = true;
            }
            Element root;
            if (const auto error = jsondom::parse(text, textPadded, limits.maxDepth, root)) {
                reportRefusedText(error, text.data(), text.data() + text.size(), file, pointer, lineIndex, limits,
                    result.diagnostics);
            } else {
                const bool duplicates = jsondom::reportDuplicateKeys(root, file, pointer, result.diagnostics);
                if (std::shared_ptr<Run> run = extractDocument(root, file, pointer, result.diagnostics, duplicates)) {
                    if (origin) {
                        // the line is read back from the file when asked, and minified then: however the author
                        // formatted it, the run holds no copy
                        pending.push_back({ std::move(run), 0, text.size(), origin->fileOffset + (lineStart - begin) });
                    } else {
                        const std::size_t offset = compact.size();
                        jsondom::appendMinified(text, compact);
                        pending.push_back({ std::move(run), offset, compact.size() - offset, -1 });
                    }
                }
            }
            if (copy.size() > (std::size_t(16) << 20))
                std::string().swap(copy); // a long line's copy: not kept
            // A JSON Lines problem names its line (1-based) beside the pointer ("/1233/run/spec"): "file.jsonl:1234".
            for (qsizetype i = reported; i < result.diagnostics.size(); ++i)
                if (result.diagnostics[i].line == 0)
                    result.diagnostics[i].line = lineIndex + 1;
        }
        if (multiLine) // a record's pointer and line are those of its first line
            lineIndex += int(std::count(lineStart, lineEnd, '\n'));
        lineStart = lineEnd + 1;
        ++lineIndex;
    }
    attachRaw(pending, compact, origin, result);
}

void parseJsonLines(
    const char* begin, const char* end, const QString& file, const ParseLimits& limits, ParseResult& result)
{
    constexpr qint64 kChunkBytes = 2 << 20;
    const qsizetype runsBefore = result.runs.size();
    const qsizetype diagnosticsBefore = result.diagnostics.size();
    struct Chunk
    {
        const char* begin;
        const char* end;
        int firstLine;
    };
    QVector<Chunk> chunks;
    int line = 0;
    // documents over several lines (jq's output): chunks end where records do
    const bool multiLine = firstDocumentSpansLines(begin, end);
    std::vector<std::size_t> recordEnds;
    if (multiLine)
        findRecordEnds(begin, end, recordEnds);
    std::size_t nextRecord = 0;
    for (const char* p = begin; p < end;) {
        const char* stop = end - p > kChunkBytes ? p + kChunkBytes : end;
        if (stop < end && multiLine) {
            while (nextRecord < recordEnds.size() && begin + recordEnds[nextRecord] < stop)
                ++nextRecord;
            stop = nextRecord < recordEnds.size() ? begin + recordEnds[nextRecord] + 1 : end;
        } else if (stop < end) {
            const char* nl = static_cast<const char*>(memchr(stop, '\n', static_cast<size_t>(end - stop)));
            stop = nl ? nl + 1 : end;
        }
        chunks.append({ p, stop, line });
        for (const char* q = p; (q = static_cast<const char*>(memchr(q, '\n', static_cast<size_t>(stop - q))));) {
            ++line;
            ++q;
        }
        p = stop;
    }
    if (chunks.size() <= 1) {
        parseJsonLinesRange(begin, end, 0, file, limits, result, nullptr, false, nullptr, multiLine);
    } else {
        const QList<ParseResult> parts
            = QtConcurrent::blockingMapped<QList<ParseResult>>(parsePool(), chunks, [&](const Chunk& c) {
                  ParseResult part;
                  parseJsonLinesRange(
                      c.begin, c.end, c.firstLine, file, limits, part, nullptr, false, nullptr, multiLine);
                  return part;
              });
        for (const ParseResult& part : parts) {
            result.runs += part.runs;
            result.diagnostics += part.diagnostics;
        }
    }
    if (result.runs.size() == runsBefore && result.diagnostics.size() == diagnosticsBefore)
        result.diagnostics.append(makeError(file, {}, QStringLiteral("the file holds no JSON Lines documents")));
}

// Two or more non-blank lines that each start with '{': JSON Lines even without the .jsonl extension.
bool looksLikeJsonLines(const char* begin, const char* end)
{
    int lines = 0;
    const char* p = begin;
    while (p < end) {
        const char* lineEnd = static_cast<const char*>(memchr(p, '\n', static_cast<size_t>(end - p)));
        if (!lineEnd)
            lineEnd = end;
        const char* q = p;
        while (q < lineEnd && (*q == ' ' || *q == '\t' || *q == '\r'))
            ++q;
        if (q < lineEnd) {
            if (*q != '{')
                return false;
            if (++lines >= 2)
                return true;
        }
        p = lineEnd + 1;
    }
    return false;
}

} // namespace kix::parsing
