// SPDX-License-Identifier: Apache-2.0
#include "model/read/documenttext.h"

#include "model/rawtext.h"
#include "model/read/bundlereader.h"
#include "model/read/catalogreader.h"
#include "model/read/documentframes.h"
#include "model/read/documentlines.h"
#include "model/read/inputformats.h"
#include "model/read/runextract.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace kix::parsing {

namespace {

using jsondom::Element;

// "json" for "runs/a.JSON" (QFileInfo asks the file system; this does not).
QString suffixOf(const QString& path)
{
    const qsizetype dot = path.lastIndexOf(QLatin1Char('.'));
    if (dot < 0 || path.indexOf(QLatin1Char('/'), dot) >= 0)
        return {};
    return path.mid(dot + 1).toLower();
}

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

// What identifies a file on disk that is one run's document: the run keeps this, not the text, and reads the file
// back when its text is asked for (RawText::load refuses a file changed since).
std::shared_ptr<const RawSource> wholeDocumentSource(
    const QString& path, const struct stat& info, std::string_view bytes)
{
    auto source = std::make_shared<RawSource>(rawtext::sourceOfFile(path, info));
    source->wholeDocument = true;
    source->contentHash = RawSource::hashOf(bytes);
    return source;
}

bool acceptsYaml(const QString& suffix, const char*, const char*)
{
    return suffix == QLatin1String("yaml") || suffix == QLatin1String("yml");
}

bool readYaml(const char* begin, const char* end, const QString& file, const ParseLimits& limits, ParseResult& result)
{
    parseYamlText(begin, end, file, limits, result);
    return true;
}

bool acceptsCatalog(const QString&, const char* begin, const char* end)
{
    return looksLikeCatalog(begin, end);
}

bool readCatalog(
    const char* begin, const char* end, const QString& file, const ParseLimits& limits, ParseResult& result)
{
    parseCatalogText(begin, end, file, limits, result);
    return true;
}

bool acceptsJsonLinesName(const QString& suffix, const char*, const char*)
{
    return suffix == QLatin1String("jsonl") || suffix == QLatin1String("ndjson");
}

bool readJsonLines(
    const char* begin, const char* end, const QString& file, const ParseLimits& limits, ParseResult& result)
{
    parseJsonLines(begin, end, file, limits, result);
    return true;
}

// The readers a file's text is offered to before it is parsed as one JSON document, in the order they are tried:
// YAML manifests and bundles (by name), the imported formats tried before JSON Lines (Liger CSV), a catalog export
// (by content), JSON Lines (by name). The first whose parse takes the text reads it.
const std::vector<InputFormat>& textReaders()
{
    static const std::vector<InputFormat> readers = [] {
        std::vector<InputFormat> list { { InputFormat::Stage::BeforeJsonLines, acceptsYaml, readYaml } };
        for (const InputFormat& format : importedFormats()) {
            if (format.stage == InputFormat::Stage::BeforeJsonLines)
                list.push_back(format);
        }
        list.push_back({ InputFormat::Stage::BeforeJsonLines, acceptsCatalog, readCatalog });
        list.push_back({ InputFormat::Stage::BeforeJsonLines, acceptsJsonLinesName, readJsonLines });
        return list;
    }();
    return readers;
}

// A whole-file document that is not an array: one run, or a manifest of another kind.
void parseOneDocument(Element root, std::string_view input, std::string_view text, bool duplicates, const QString& file,
    ParseResult& result, const struct stat* onDisk, std::string& compact)
{
    if (const QString kind = otherManifestKind(root); !kind.isEmpty()) {
        result.diagnostics.append(makeWarning(
            file, {}, QStringLiteral("a manifest of kind %1, not a benchmark run: nothing to list").arg(kind)));
        return;
    }
    if (std::shared_ptr<Run> run = extractDocument(root, file, {}, result.diagnostics, duplicates)) {
        if (onDisk && std::size_t(onDisk->st_size) == input.size()) {
            run->raw = RawText(wholeDocumentSource(file, *onDisk, input), 0, input.size());
        } else {
            jsondom::appendMinified(text, compact);
            run->raw = RawText(keep(compact), 0, compact.size());
        }
        result.runs.append(std::move(run));
    }
}

// An array of documents: one compact buffer for the file; each run keeps its element's span of it.
void parseArray(Element root, std::string_view text, bool duplicates, const QString& file, const ParseLimits& limits,
    ParseResult& result, std::string& compact)
{
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
    jsondom::appendMinified(text, compact);
    const auto spans = jsondom::arrayElementSpans(compact);
    const std::shared_ptr<const std::string> buffer = keep(compact);
    std::size_t i = 0;
    for (const Element element : array) {
        const QString pointer = QLatin1Char('/') + QString::number(i);
        if (std::shared_ptr<Run> run = extractDocument(element, file, pointer, result.diagnostics, duplicates)) {
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

// Whether a file's first bytes are read as kernelindex JSON Lines: an object first, no binary data, not a catalog
// export, and no other format claims them.
bool streamsAsJsonLines(const char* begin, const char* end)
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

// One file's text: recognised by content and suffix and handed to the reader of its format.
void parseText(std::string_view input, std::string_view text, bool padded, const QString& file,
    const ParseLimits& limits, ParseResult& result, const struct stat* onDisk)
{
    const char* begin = text.data();
    const char* end = begin + text.size();
    const QString suffix = suffixOf(file);
    for (const InputFormat& reader : textReaders()) {
        if (reader.accepts(suffix, begin, end) && reader.parse(begin, end, file, limits, result))
            return;
    }

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
    if (root.type() != simdjson::dom::element_type::ARRAY)
        parseOneDocument(root, input, text, duplicates, file, result, onDisk, compact);
    else
        parseArray(root, text, duplicates, file, limits, result, compact);
}

} // namespace

Frame::Frame(const ParseLimits& limits, ParseResult& result)
    : m_limits(limits)
    , m_result(result)
{
}

Frame::~Frame() = default;

void Frame::whole(
    const QString& file, std::string_view input, std::string_view text, bool padded, const struct stat* onDisk)
{
    parseText(input, text, padded, file, m_limits, m_result, onDisk);
}

LineRouter& Frame::router(const QString& file)
{
    if (!m_router)
        m_router = std::make_unique<LineRouter>(file, m_limits, m_result);
    return *m_router;
}

bool Frame::piece(const QString& file, std::string_view piece)
{
    return router(file).feed(piece);
}

void Frame::endOfPieces(const QString& file)
{
    router(file).finish();
}

bool Frame::takesWindows(const char* begin, const char* end) const
{
    return streamsAsJsonLines(begin, end);
}

void Frame::window(const QString& file, const char* begin, const char* end, int firstLine, const LineOrigin& origin,
    bool padded, const std::vector<std::size_t>& recordEnds, bool multiLine, ParseResult& part) const
{
    parseJsonLinesRange(begin, end, firstLine, file, m_limits, part, &origin, padded, &recordEnds, multiLine);
}

} // namespace kix::parsing
