#include "model/documentparser.h"

#include "model/jsonreader.h"
#include "model/jsontape.h"
#include "model/ligercsv.h"

#include <QFile>
#include <QFileInfo>
#include <QtConcurrent>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kix {

using json = nlohmann::json;

bool ParseResult::hasErrors() const
{
    for (const Diagnostic& d : diagnostics) {
        if (d.isError())
            return true;
    }
    return false;
}

namespace {

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

void reportDuplicateKeys(const JsonReadResult& read, const QString& file, const QString& prefix, Diagnostics& out)
{
    for (const QString& key : read.duplicateKeys)
        out.append(makeWarning(file, prefix + key, QStringLiteral("duplicate key: the last value is used")));
}

// Adds the runs of one top-level JSON value: a document, or an array of documents.
void addValue(
    const json& value, const QString& file, const QString& pointer, const ParseLimits& limits, ParseResult& result)
{
    if (value.is_array()) {
        if (value.empty()) {
            result.diagnostics.append(makeError(file, pointer, QStringLiteral("an empty array holds no runs")));
            return;
        }
        if (static_cast<qint64>(value.size()) > limits.maxDocuments) {
            result.diagnostics.append(makeError(file, pointer,
                QStringLiteral("%1 documents in one array is more than the limit %2")
                    .arg(value.size())
                    .arg(limits.maxDocuments)));
            return;
        }
        for (std::size_t i = 0; i < value.size(); ++i) {
            const QString itemPointer = pointer + QLatin1Char('/') + QString::number(i);
            if (RunPtr run = runFromDocument(value[i], file, itemPointer, result.diagnostics))
                result.runs.append(run);
        }
        return;
    }
    if (RunPtr run = runFromDocument(value, file, pointer, result.diagnostics))
        result.runs.append(run);
}

bool isBlank(const char* begin, const char* end)
{
    for (const char* p = begin; p < end; ++p) {
        if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
            return false;
    }
    return true;
}

void parseJsonLinesRange(const char* begin, const char* end, int firstLine, const QString& file,
    const ParseLimits& limits, ParseResult& result)
{
    int lineIndex = firstLine;
    JsonTape tape;
    int documents = 0;
    const char* lineStart = begin;
    while (lineStart < end) {
        const char* lineEnd = static_cast<const char*>(memchr(lineStart, '\n', static_cast<size_t>(end - lineStart)));
        if (!lineEnd)
            lineEnd = end;
        if (!isBlank(lineStart, lineEnd)) {
            const QString pointer = QLatin1Char('/') + QString::number(lineIndex);
            if (++documents > limits.maxDocuments) {
                result.diagnostics.append(makeError(file, pointer,
                    QStringLiteral("more than %1 documents: the rest is not read").arg(limits.maxDocuments)));
                return;
            }
            const std::string_view text(lineStart, static_cast<size_t>(lineEnd - lineStart));
            if (tape.parse(text, limits.maxDepth) && tape.nodes().front().type == JsonTape::Type::Object) {
                if (RunPtr run = runFromTape(tape, file, pointer, result.diagnostics))
                    result.runs.append(run);
            } else {
                // the strict reader says exactly what is wrong (or reads what the fast one left to it)
                const JsonReadResult read = readJson(lineStart, lineEnd, limits.maxDepth);
                if (!read.ok) {
                    reportJsonError(read, file, pointer, lineIndex, result.diagnostics);
                } else {
                    reportDuplicateKeys(read, file, pointer, result.diagnostics);
                    if (RunPtr run = runFromDocument(read.value, file, pointer, result.diagnostics, text))
                        result.runs.append(run);
                }
            }
        }
        lineStart = lineEnd + 1;
        ++lineIndex;
    }
}

// Large bundles are cut at line ends into chunks parsed on all cores, then merged in order.
// `mapped`: the text is in private pages of its own (parseMapped) that can be dropped once parsed, so a big bundle
// never holds its whole text and its runs in memory at once.
void parseJsonLines(const char* begin, const char* end, const QString& file, const ParseLimits& limits,
    ParseResult& result, bool mapped = false)
{
    constexpr qint64 kChunkBytes = 2 << 20;
    struct Chunk
    {
        const char* begin;
        const char* end;
        int firstLine;
    };
    QVector<Chunk> chunks;
    int line = 0;
    for (const char* p = begin; p < end;) {
        const char* stop = end - p > kChunkBytes ? p + kChunkBytes : end;
        if (stop < end) {
            const char* nl = static_cast<const char*>(memchr(stop, '\n', static_cast<size_t>(end - stop)));
            stop = nl ? nl + 1 : end;
        }
        chunks.append({ p, stop, line });
        line += static_cast<int>(std::count(p, stop, '\n'));
        p = stop;
    }
    if (chunks.size() <= 1) {
        parseJsonLinesRange(begin, end, 0, file, limits, result);
    } else {
        const QList<ParseResult> parts = QtConcurrent::blockingMapped<QList<ParseResult>>(chunks, [&](const Chunk& c) {
            ParseResult part;
            parseJsonLinesRange(c.begin, c.end, c.firstLine, file, limits, part);
            if (mapped) {
                const auto page = static_cast<quintptr>(::sysconf(_SC_PAGESIZE));
                const quintptr first = (reinterpret_cast<quintptr>(c.begin) + page - 1) / page * page;
                const quintptr last = reinterpret_cast<quintptr>(c.end) / page * page;
                if (last > first)
                    ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
            }
            return part;
        });
        for (const ParseResult& part : parts) {
            result.runs += part.runs;
            result.diagnostics += part.diagnostics;
        }
    }
    if (result.runs.isEmpty() && result.diagnostics.isEmpty())
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

void parseLiger(const QByteArray& bytes, const QString& file, ParseResult& result)
{
    LigerImport imported = importLigerCsv(bytes, file);
    result.diagnostics += imported.diagnostics;
    result.runs.reserve(static_cast<int>(imported.documents.size()));
    for (std::size_t i = 0; i < imported.documents.size(); ++i) {
        const int row = i < imported.documentRows.size() ? imported.documentRows[i] : static_cast<int>(i);
        const QString pointer = QStringLiteral("/rows/") + QString::number(row);
        const int firstNew = result.diagnostics.size();
        if (RunPtr run = runFromDocument(imported.documents[i], file, pointer, result.diagnostics))
            result.runs.append(run);
        if (i < imported.documentLines.size()) {
            for (int d = firstNew; d < result.diagnostics.size(); ++d)
                result.diagnostics[d].line = imported.documentLines[i];
        }
    }
}

} // namespace

namespace {
ParseResult parseText(const QByteArray& input, const QString& file, const ParseLimits& limits, bool mapped);
} // namespace

ParseResult parseBytes(const QByteArray& input, const QString& file, const ParseLimits& limits)
{
    return parseText(input, file, limits, false);
}

namespace {

ParseResult parseText(const QByteArray& input, const QString& file, const ParseLimits& limits, bool mapped)
{
    ParseResult result;
    if (input.size() > limits.maxFileBytes) {
        result.diagnostics.append(makeError(file, {},
            QStringLiteral("the file is %1 bytes, more than the limit of %2")
                .arg(input.size())
                .arg(limits.maxFileBytes)));
        return result;
    }
    const char* begin = input.constData();
    const char* end = begin + input.size();
    if (input.startsWith("\xEF\xBB\xBF"))
        begin += 3;
    if (isBlank(begin, end)) {
        result.diagnostics.append(makeError(file, {}, QStringLiteral("the file is empty")));
        return result;
    }

    if (memchr(begin, 0, static_cast<size_t>(std::min<qint64>(end - begin, 4096)))) {
        result.diagnostics.append(makeError(file, {}, QStringLiteral("not JSON: the file holds binary data")));
        return result;
    }
    const QString suffix = QFileInfo(file).suffix().toLower();
    if (suffix == QLatin1String("csv") || looksLikeLigerCsv(input)) {
        parseLiger(input, file, result);
        return result;
    }
    if (suffix == QLatin1String("jsonl") || suffix == QLatin1String("ndjson")) {
        parseJsonLines(begin, end, file, limits, result, mapped);
        return result;
    }

    const std::string_view text(begin, static_cast<size_t>(end - begin));
    {
        JsonTape tape;
        if (tape.parse(text, limits.maxDepth) && tape.nodes().front().type == JsonTape::Type::Object) {
            if (RunPtr run = runFromTape(tape, file, {}, result.diagnostics))
                result.runs.append(run);
            return result;
        }
    }
    const JsonReadResult read = readJson(begin, end, limits.maxDepth);
    if (!read.ok) {
        if (!read.tooDeep && looksLikeJsonLines(begin, end)) {
            parseJsonLines(begin, end, file, limits, result);
            return result;
        }
        reportJsonError(read, file, {}, 0, result.diagnostics);
        return result;
    }
    reportDuplicateKeys(read, file, {}, result.diagnostics);
    if (read.value.is_object()) {
        if (RunPtr run = runFromDocument(
                read.value, file, {}, result.diagnostics, std::string_view(begin, static_cast<size_t>(end - begin))))
            result.runs.append(run);
        return result;
    }
    addValue(read.value, file, {}, limits, result);
    return result;
}

} // namespace

namespace {

// Big JSON Lines bundles are read into pages that parseJsonLines drops as it goes.
bool parseMapped(const QString& path, const ParseLimits& limits, ParseResult& result)
{
    constexpr qint64 kMapFrom = 16 << 20;
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("jsonl") && suffix != QLatin1String("ndjson"))
        return false;
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return false;
    struct stat info
    {
    };
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || info.st_size < kMapFrom
        || info.st_size > limits.maxFileBytes) {
        ::close(fd);
        return false;
    }
    // Read into anonymous pages rather than mapping the file: a mapped file that shrinks while it is parsed (another
    // program rewriting it) raises SIGBUS on the pages past its new end. Parsed pages are still dropped as the
    // chunks finish, so the text and all of its runs are never in memory at once.
    const auto capacity = static_cast<size_t>(info.st_size);
    void* data = ::mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (data == MAP_FAILED) {
        ::close(fd);
        return false;
    }
    size_t size = 0;
    while (size < capacity) {
        const ssize_t n = ::read(fd, static_cast<char*>(data) + size, capacity - size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; // the file shrank (or failed) while read: what was read is parsed, a cut line is named
        size += static_cast<size_t>(n);
    }
    ::close(fd);
    const QByteArray text = QByteArray::fromRawData(static_cast<const char*>(data), qsizetype(size));
    result = parseText(text, path, limits, true);
    ::munmap(data, capacity);
    return true;
}

QString notRegularFile(mode_t mode)
{
    const char* kind = S_ISFIFO(mode)    ? "a FIFO"
        : S_ISSOCK(mode)                 ? "a socket"
        : S_ISCHR(mode) || S_ISBLK(mode) ? "a device"
        : S_ISDIR(mode)                  ? "a folder"
                                         : "not a plain file";
    return QStringLiteral("not a regular file (%1)").arg(QLatin1String(kind));
}

// Plain POSIX reads for files on disk: the loader opens tens of thousands of small files, and QFile's extra
// stat calls per file cost more than the read itself.
bool readPosix(const QString& path, qint64 maxBytes, QByteArray& bytes, QString& error, bool& tooLarge)
{
    const QByteArray name = QFile::encodeName(path);
    // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below); no effect on regular files
    const int fd = ::open(name.constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        error = QString::fromLocal8Bit(std::strerror(errno));
        return false;
    }
    tooLarge = false;
    struct stat status
    {
    };
    if (::fstat(fd, &status) == 0) {
        if (!S_ISREG(status.st_mode)) {
            error = notRegularFile(status.st_mode);
            ::close(fd);
            return false;
        }
        if (status.st_size > maxBytes) { // refused without reading it
            tooLarge = true;
            ::close(fd);
            return true;
        }
    }
    bytes.resize(16384);
    qint64 size = 0;
    while (true) {
        if (size == bytes.size()) {
            if (size > maxBytes) {
                tooLarge = true;
                break;
            }
            // past the first 16 KiB, ask for the size once rather than doubling (and copying) the buffer
            struct stat info
            {
            };
            const qint64 want = ::fstat(fd, &info) == 0 && info.st_size >= size ? qint64(info.st_size) + 1 : size * 2;
            bytes.resize(std::min<qint64>(want, maxBytes + 1));
        }
        const ssize_t n = ::read(fd, bytes.data() + size, static_cast<size_t>(bytes.size() - size));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            error = QString::fromLocal8Bit(std::strerror(errno));
            ::close(fd);
            return false;
        }
        if (n == 0)
            break;
        size += n;
    }
    ::close(fd);
    bytes.truncate(size);
    tooLarge = tooLarge || size > maxBytes;
    return true;
}

} // namespace

ParseResult parseFile(const QString& path, const ParseLimits& limits)
{
    ParseResult result;
    auto tooLargeError = [&]() {
        result.diagnostics.append(makeError(
            path, {}, QStringLiteral("the file is larger than the limit of %1 bytes").arg(limits.maxFileBytes)));
    };
    if (!path.startsWith(QLatin1Char(':'))) { // not a Qt resource
        if (parseMapped(path, limits, result))
            return result;
        QByteArray bytes;
        QString error;
        bool tooLarge = false;
        if (!readPosix(path, limits.maxFileBytes, bytes, error, tooLarge)) {
            result.diagnostics.append(makeError(path, {}, QStringLiteral("cannot read: ") + error));
            return result;
        }
        if (tooLarge) {
            tooLargeError();
            return result;
        }
        return parseBytes(bytes, path, limits);
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        result.diagnostics.append(makeError(path, {}, QStringLiteral("cannot open: ") + f.errorString()));
        return result;
    }
    if (f.size() > limits.maxFileBytes) {
        tooLargeError();
        return result;
    }
    return parseBytes(f.readAll(), path, limits);
}

} // namespace kix

namespace kix {

std::string minifyJson(std::string_view text)
{
    std::string out(text.size(), '\0');
    char* o = out.data();
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            *o++ = c;
            if (c == '\\' && i + 1 < text.size())
                *o++ = text[++i]; // an escaped character never ends the string
            else if (c == '"')
                inString = false;
        } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
            *o++ = c;
            inString = c == '"';
        }
    }
    out.resize(static_cast<std::size_t>(o - out.data()));
    out.shrink_to_fit();
    return out;
}

} // namespace kix
