// SPDX-License-Identifier: Apache-2.0
#include "model/read/documentparser.h"

#include "model/read/bundlereader.h"
#include "model/read/catalogreader.h"
#include "model/read/documentframes.h"
#include "model/read/inputformats.h"
#include "model/read/jsondom.h"
#include "model/read/jsonlstream.h"
#include "model/read/jsonreader.h"
#include "model/read/zstdstream.h"

#include <QFile>
#include <QFileInfo>
#include <QtConcurrent>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
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

// "json" for "runs/a.JSON" (QFileInfo asks the file system; this does not).
QString suffixOf(const QString& path)
{
    const qsizetype dot = path.lastIndexOf(QLatin1Char('.'));
    if (dot < 0 || path.indexOf(QLatin1Char('/'), dot) >= 0)
        return {};
    return path.mid(dot + 1).toLower();
}

// Whether the path's suffix is `suffix`, in any case (no QString made: asked of every file the loader reads).
bool hasSuffix(const QString& path, QLatin1String suffix)
{
    const qsizetype dot = path.lastIndexOf(QLatin1Char('.'));
    return dot >= 0 && path.size() - dot - 1 == suffix.size()
        && QStringView(path).mid(dot + 1).compare(suffix, Qt::CaseInsensitive) == 0;
}

bool isBlank(const char* begin, const char* end)
{
    for (const char* p = begin; p < end; ++p) {
        if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
            return false;
    }
    return true;
}

using jsondom::Element;

// The one place where a JSON document that is not kernelindex is refused, whatever it arrived in (a whole file,
// an array element, a JSON Lines line). Importers of other formats (nvbench, Google Benchmark, pytest-benchmark)
// hook in here: recognise `document`, convert it into kernelindex documents and add their runs instead.
bool isKernelindexShaped(Element document)
{
    if (document.type() != simdjson::dom::element_type::OBJECT)
        return false;
    for (const simdjson::dom::key_value_pair member : jsondom::asObject(document)) {
        if (member.key == "run" || member.key == "kind")
            return true;
    }
    return false;
}

void refuseForeignDocument(Element document, const QString& file, const QString& pointer, Diagnostics& out)
{
    if (document.type() != simdjson::dom::element_type::OBJECT)
        out.append(makeError(file, pointer,
            QStringLiteral("not a kernelindex document: expected an object, found %1")
                .arg(jsondom::typeName(document))));
    else
        out.append(makeError(file, pointer + QStringLiteral("/kind"),
            QStringLiteral("not a kernelindex document: no \"run\" member and no kind BenchmarkRun (kix reads "
                           "kernelindex, nvbench, Google Benchmark and pytest-benchmark JSON, and Liger-Kernel CSV)")));
}

// Every document goes through here; the caller gives the run its raw text.
std::shared_ptr<Run> readDocument(
    Element document, const QString& file, const QString& pointer, Diagnostics& out, bool duplicateKeys)
{
    if (!isKernelindexShaped(document)) {
        refuseForeignDocument(document, file, pointer, out);
        return nullptr;
    }
    return extractRun(document, file, pointer, out, duplicateKeys);
}

// A text that simdjson refused: nlohmann/json says where and why (line and column).
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

// `newlines`: the ends of the records (every '\n' of JSON Lines); with `multiLine`, records are documents over
// several lines (documentframes.h), found here when `newlines` is not given.
void parseJsonLinesRange(const char* begin, const char* end, int firstLine, const QString& file,
    const ParseLimits& limits, ParseResult& result, const LineOrigin* origin = nullptr, bool padded = false,
    const std::vector<std::size_t>* newlines = nullptr, bool multiLine = false)
{
    reserveThreadHeap();
    std::vector<std::size_t> recordEnds;
    if (multiLine && !newlines) {
        findRecordEnds(begin, end, recordEnds);
        newlines = &recordEnds;
    }
    struct Pending
    {
        std::shared_ptr<Run> run;
        std::size_t offset;
        std::size_t size;
        qint64 fileOffset; // -1: the text is at offset in the compact buffer
    };
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
                if (std::shared_ptr<Run> run = readDocument(root, file, pointer, result.diagnostics, duplicates)) {
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

// The chunks of large JSON Lines files are parsed on a pool of their own: the loader parses files on the global
// pool, and a file's task that waited there for its chunks could wait forever once every global thread is such a
// task (two big files on two cores did). The chunks' pool runs nothing that waits.
Q_GLOBAL_STATIC(QThreadPool, chunkPool)

// Large bundles are cut at line ends into chunks parsed on all cores, then merged in order.
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
            = QtConcurrent::blockingMapped<QList<ParseResult>>(chunkPool(), chunks, [&](const Chunk& c) {
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

} // namespace

namespace {

// A submission bundle: an object of lists, one of them a bundle's (runs, workloads, ...), and not a manifest.
bool isBundleShaped(Element root)
{
    if (root.type() != simdjson::dom::element_type::OBJECT)
        return false;
    bool named = false;
    std::size_t members = 0;
    for (const simdjson::dom::key_value_pair member : jsondom::asObject(root)) {
        ++members;
        if (member.value.type() != simdjson::dom::element_type::ARRAY)
            return false;
        for (const char* list :
            { "runs", "projects", "operations", "workloads", "implementations", "protocols", "environments" })
            named = named || member.key == list;
    }
    return members > 0 && named;
}

// Whether the results of other tools (model/import/interop.h) can be this document: an object with "benchmarks" and
// neither "run" nor "kind" (what interop::sniffFormat asks for first). Those readers leave the DOM as it is when
// they do not take the text.
bool mayBeOtherTools(Element root)
{
    if (root.type() != simdjson::dom::element_type::OBJECT)
        return false;
    bool benchmarks = false;
    for (const simdjson::dom::key_value_pair member : jsondom::asObject(root)) {
        if (member.key == "run" || member.key == "kind")
            return false;
        benchmarks = benchmarks || member.key == "benchmarks";
    }
    return benchmarks;
}

// The kind of a whole-file manifest that is a format resource but not a run ("WorkloadCase"), else "".
QString otherManifestKind(Element root)
{
    if (root.type() != simdjson::dom::element_type::OBJECT)
        return {};
    const simdjson::dom::object object = jsondom::asObject(root);
    std::string_view kind;
    if (object["run"].error() == simdjson::SUCCESS || object["kind"].get_string().get(kind) != simdjson::SUCCESS)
        return {};
    for (const char* known : { "BenchmarkProtocol", "ExecutionEnvironment", "WorkloadCase", "WorkloadSuite",
             "OperationSpec", "ImplementationRevision", "SoftwareProject", "ModelRevision", "ServingConfiguration",
             "ServingRun", "ServingStackRevision", "ServingWorkload" }) {
        if (kind == known)
            return QLatin1String(known);
    }
    return {};
}

// Compressions kix does not read, by their magic bytes: the hint names the tool that opens them.
struct Compression
{
    std::string_view magic;
    const char* name;
    const char* command;
};
const Compression kCompressions[]
    = { { "\x1F\x8B", "gzip", "gunzip" }, { "\xFD\x37\x7A\x58\x5A\x00", "xz", "unxz" }, { "BZh", "bzip2", "bunzip2" } };

// A file named .zst that starts as another compression does (then it gets that compression's hint).
bool startsAsOtherCompression(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray head = f.read(8);
    for (const Compression& c : kCompressions)
        if (head.startsWith(QByteArray::fromRawData(c.magic.data(), qsizetype(c.magic.size()))))
            return true;
    return false;
}

// What identifies a file on disk that is one run's document: the run keeps this, not the text, and reads the file
// back when its text is asked for (RawText::load refuses a file changed since).
std::shared_ptr<const RawSource> wholeDocumentSource(
    const QString& path, const struct stat& info, std::string_view bytes)
{
    auto source = std::make_shared<RawSource>();
    source->path = path;
    source->device = quint64(info.st_dev);
    source->inode = quint64(info.st_ino);
    source->size = qint64(info.st_size);
    source->modifiedNs = qint64(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec;
    source->changedNs = qint64(info.st_ctim.tv_sec) * 1'000'000'000 + info.st_ctim.tv_nsec;
    source->wholeDocument = true;
    source->contentHash = RawSource::hashOf(bytes);
    return source;
}

// One file's text. `padded`: simdjson::SIMDJSON_PADDING readable bytes follow it (the loader's own read buffer).
// `onDisk`: the file's status when its bytes were read from disk (all of `input`, as it was when opened): a file
// that is one run's document is then not kept in memory but read back when asked.
void parseText(std::string_view input, bool padded, const QString& file, const ParseLimits& limits, ParseResult& result,
    const struct stat* onDisk = nullptr)
{
    if (static_cast<qint64>(input.size()) > limits.maxFileBytes) {
        result.diagnostics.append(makeError(file, {},
            QStringLiteral("the file is %1 bytes, more than the limit of %2")
                .arg(input.size())
                .arg(limits.maxFileBytes)));
        return;
    }
    const char* begin = input.data();
    const char* end = begin + input.size();
    if (input.substr(0, 3) == "\xEF\xBB\xBF")
        begin += 3;
    if (isZstdFrame(begin, end)) {
        parseZstdBytes(std::string_view(begin, static_cast<size_t>(end - begin)), file, limits, result);
        return;
    }
    if (isBlank(begin, end)) {
        result.diagnostics.append(makeError(file, {}, QStringLiteral("the file is empty")));
        return;
    }

    // A compressed file kix does not read says which tool opens it (Zstandard, the catalog's compression, is read
    // before this: model/read/zstdstream.h).
    const std::string_view head(begin, static_cast<size_t>(std::min<qint64>(end - begin, 8)));
    for (const Compression& c : kCompressions) {
        if (head.substr(0, c.magic.size()) == c.magic) {
            result.diagnostics.append(makeError(file, {},
                QStringLiteral(
                    "a %1-compressed file: kix reads plain and Zstandard-compressed files; decompress it first "
                    "(%2 FILE) and open the result")
                    .arg(QLatin1String(c.name), QLatin1String(c.command))));
            return;
        }
    }
    if (memchr(begin, 0, static_cast<size_t>(std::min<qint64>(end - begin, 4096)))) {
        result.diagnostics.append(makeError(file, {}, QStringLiteral("not JSON: the file holds binary data")));
        return;
    }
    const QString suffix = suffixOf(file);
    if (suffix == QLatin1String("yaml") || suffix == QLatin1String("yml")) {
        parseYamlText(begin, end, file, limits, result);
        return;
    }
    for (const InputFormat& format : importedFormats()) {
        if (format.stage == InputFormat::Stage::BeforeJsonLines && format.accepts(suffix, begin, end)
            && format.parse(begin, end, file, limits, result))
            return;
    }
    if (looksLikeCatalog(begin, end)) {
        parseCatalogText(begin, end, file, limits, result);
        return;
    }
    if (suffix == QLatin1String("jsonl") || suffix == QLatin1String("ndjson")) {
        parseJsonLines(begin, end, file, limits, result);
        return;
    }

    const std::string_view text(begin, static_cast<size_t>(end - begin));
    Element root;
    const simdjson::error_code error = jsondom::parse(text, padded, limits.maxDepth, root);
    // Hook: other tools' results (nvbench, Google Benchmark, pytest-benchmark JSON), recognised by content; of a
    // text read, only one that can be such (not every kernelindex file searched through for "benchmarks").
    if (error || mayBeOtherTools(root)) {
        for (const InputFormat& format : importedFormats()) {
            if (format.stage == InputFormat::Stage::BeforeKernelindex && format.accepts(suffix, begin, end)
                && format.parse(begin, end, file, limits, result))
                return;
        }
    }
    if (error) {
        const JsonReadResult read = readJson(begin, end, limits.maxDepth);
        // JSON Lines without the extension, or whole documents one after another (`jq . a.json b.json`)
        if (!read.ok && !read.tooDeep && (looksLikeJsonLines(begin, end) || holdsDocumentsOverLines(begin, end)))
            parseJsonLines(begin, end, file, limits, result);
        else
            reportRefusedText(error, begin, end, file, {}, 0, limits, result.diagnostics);
        return;
    }
    const bool duplicates = jsondom::reportDuplicateKeys(root, file, {}, result.diagnostics);
    if (isBundleShaped(root)) {
        const nlohmann::json bundle = nlohmann::json::parse(simdjson::minify(root), nullptr, false);
        if (!bundle.is_discarded()) {
            readBundle(bundle, file, limits, result);
            return;
        }
    }
    thread_local std::string compact;
    compact.clear();
    if (root.type() != simdjson::dom::element_type::ARRAY) {
        if (const QString kind = otherManifestKind(root); !kind.isEmpty()) {
            result.diagnostics.append(makeWarning(
                file, {}, QStringLiteral("a manifest of kind %1, not a benchmark run: nothing to list").arg(kind)));
            return;
        }
        if (std::shared_ptr<Run> run = readDocument(root, file, {}, result.diagnostics, duplicates)) {
            if (onDisk && std::size_t(onDisk->st_size) == input.size()) {
                run->raw = RawText(wholeDocumentSource(file, *onDisk, input), 0, input.size());
            } else {
                jsondom::appendMinified(text, compact);
                run->raw = RawText(keep(compact), 0, compact.size());
            }
            result.runs.append(std::move(run));
        }
        return;
    }
    const simdjson::dom::array array = jsondom::asArray(root);
    if (array.size() == 0) {
        result.diagnostics.append(makeError(file, {}, QStringLiteral("an empty array holds no runs")));
        return;
    }
    if (static_cast<qint64>(array.size()) > limits.maxDocuments) {
        result.diagnostics.append(makeError(file, {},
            QStringLiteral("%1 documents in one array is more than the limit %2")
                .arg(array.size())
                .arg(limits.maxDocuments)));
        return;
    }
    // One compact buffer for the file; each run keeps its element's span of it.
    jsondom::appendMinified(text, compact);
    const auto spans = jsondom::arrayElementSpans(compact);
    const std::shared_ptr<const std::string> buffer = keep(compact);
    std::size_t i = 0;
    for (const Element element : array) {
        const QString pointer = QLatin1Char('/') + QString::number(i);
        if (std::shared_ptr<Run> run = readDocument(element, file, pointer, result.diagnostics, duplicates)) {
            run->raw = i < spans.size() ? RawText(buffer, spans[i].first, spans[i].second)
                                        : RawText(simdjson::minify(element));
            result.runs.append(std::move(run));
        }
        ++i;
    }
    if (text.size() > (std::size_t(16) << 20)) {
        jsondom::releaseLargeBuffers();
        std::string().swap(compact);
    }
}

} // namespace

ParseResult parseBytes(const QByteArray& input, const QString& file, const ParseLimits& limits)
{
    ParseResult result;
    parseText(std::string_view(input.constData(), static_cast<size_t>(input.size())), false, file, limits, result);
    return result;
}

namespace {

QString notRegularFile(mode_t mode)
{
    const char* kind = S_ISFIFO(mode)    ? "a FIFO"
        : S_ISSOCK(mode)                 ? "a socket"
        : S_ISCHR(mode) || S_ISBLK(mode) ? "a device"
        : S_ISDIR(mode)                  ? "a folder"
                                         : "not a plain file";
    return QStringLiteral("not a regular file (%1)").arg(QLatin1String(kind));
}

// Plain POSIX reads for files on disk into the thread's buffer, with simdjson's padding after the text: the
// loader opens tens of thousands of small files, and QFile's extra stat calls per file cost more than the read.
// `status`: the file's, when it was opened (st_size 0 if it is not known). `folder`: opens it, where given.
bool readPosix(const QString& path, qint64 maxBytes, std::string& bytes, std::size_t& size, QString& error,
    bool& tooLarge, struct stat& status, FolderHandle* folder)
{
    const QByteArray name = QFile::encodeName(path);
    // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below); no effect on regular files
    constexpr int kFlags = O_RDONLY | O_CLOEXEC | O_NONBLOCK;
    const int fd = folder ? folder->open(name, kFlags) : ::open(name.constData(), kFlags);
    if (fd < 0) {
        error = QString::fromLocal8Bit(std::strerror(errno));
        return false;
    }
    size = 0;
    tooLarge = false;
    status = {};
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
    constexpr std::size_t kPad = simdjson::SIMDJSON_PADDING;
    if (bytes.size() < 16384 + kPad)
        bytes.resize(16384 + kPad);
    // as many bytes as fstat said: no second read() to find the end (one system call a file saved); a file that
    // grows while it is read is read as it was when opened
    const std::size_t expected = status.st_size > 0 ? std::size_t(status.st_size) : 0;
    while (true) {
        if (size + kPad == bytes.size()) {
            if (static_cast<qint64>(size) > maxBytes) {
                tooLarge = true;
                break;
            }
            // past the buffer, size it from the file (it may have grown since fstat) rather than doubling it
            struct stat info
            {
            };
            const std::size_t want = ::fstat(fd, &info) == 0 && std::size_t(info.st_size) >= size
                ? std::size_t(info.st_size) + 1
                : size * 2;
            bytes.resize(std::min<std::size_t>(want, std::size_t(maxBytes) + 1) + kPad);
        }
        const ssize_t n = ::read(fd, bytes.data() + size, bytes.size() - kPad - size);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            error = QString::fromLocal8Bit(std::strerror(errno));
            ::close(fd);
            return false;
        }
        if (n == 0)
            break;
        size += std::size_t(n);
        if (size == expected)
            break;
    }
    ::close(fd);
    tooLarge = tooLarge || static_cast<qint64>(size) > maxBytes;
    std::memset(bytes.data() + size, 0, kPad); // the padding holds nothing of an earlier, longer file
    return true;
}

} // namespace

FolderHandle::~FolderHandle()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

int FolderHandle::open(const QByteArray& path, int flags)
{
    const qsizetype slash = path.lastIndexOf('/');
    if (slash <= 0 || slash + 1 == path.size())
        return ::open(path.constData(), flags);
    const QByteArrayView folder(path.constData(), slash);
    if (folder != m_folder) {
        if (m_fd >= 0)
            ::close(m_fd);
        m_folder = folder.toByteArray();
        m_fd = ::open(m_folder.constData(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    }
    if (m_fd < 0) // the folder cannot be opened: the file's own open names the problem
        return ::open(path.constData(), flags);
    return ::openat(m_fd, path.constData() + slash + 1, flags);
}

void parseFileInto(const QString& path, const ParseLimits& limits, ParseResult& result)
{
    reserveThreadHeap();
    auto tooLargeError = [&]() {
        result.diagnostics.append(makeError(
            path, {}, QStringLiteral("the file is larger than the limit of %1 bytes").arg(limits.maxFileBytes)));
    };
    if (!path.startsWith(QLatin1Char(':'))) { // not a Qt resource
        if (hasSuffix(path, QLatin1String("zst")) && !startsAsOtherCompression(path)) {
            parseZstdFile(path, limits, result); // streamed, never whole in memory
            return;
        }
        if (streamJsonLines(path, limits, result))
            return; // a big JSON Lines file, streamed
        thread_local std::string buffer;
        std::size_t size = 0;
        QString error;
        bool tooLarge = false;
        struct stat status
        {
        };
        if (!readPosix(path, limits.maxFileBytes, buffer, size, error, tooLarge, status, limits.folder)) {
            result.diagnostics.append(makeError(path, {}, QStringLiteral("cannot read: ") + error));
            return;
        }
        if (tooLarge) {
            tooLargeError();
            return;
        }
        parseText(
            std::string_view(buffer.data(), size), true, path, limits, result, status.st_size > 0 ? &status : nullptr);
        if (buffer.size() > (std::size_t(64) << 20))
            std::string().swap(buffer); // one big file read: give the memory back rather than keep it
        return;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        result.diagnostics.append(makeError(path, {}, QStringLiteral("cannot open: ") + f.errorString()));
        return;
    }
    if (f.size() > limits.maxFileBytes) {
        tooLargeError();
        return;
    }
    const QByteArray bytes = f.readAll();
    parseText(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())), false, path, limits, result);
}

void parseDocumentLines(const char* begin, const char* end, int firstLine, const QString& file,
    const ParseLimits& limits, ParseResult& result, const LineOrigin* origin, bool padded,
    const std::vector<std::size_t>* newlines, bool multiLine)
{
    parseJsonLinesRange(begin, end, firstLine, file, limits, result, origin, padded, newlines, multiLine);
}

ParseResult parseFile(const QString& path, const ParseLimits& limits)
{
    ParseResult result;
    parseFileInto(path, limits, result);
    return result;
}

} // namespace kix
