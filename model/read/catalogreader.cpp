// SPDX-License-Identifier: Apache-2.0
#include "model/read/catalogreader.h"

#include "model/read/jsondom.h"
#include "model/read/jsonreader.h"
#include "model/read/linesplitter.h"
#include "model/read/runextract.h"
#include "model/read/zstdstream.h"

#include <QStringList>

#include <algorithm>
#include <cstring>
#include <map>
#include <unordered_map>
#include <vector>

namespace kix {

namespace {

using jsondom::Element;

const char* skipSpace(const char* p, const char* end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
        ++p;
    return p;
}

bool isBlank(std::string_view line)
{
    return skipSpace(line.data(), line.data() + line.size()) == line.data() + line.size();
}

std::string_view stringMember(simdjson::dom::object o, std::string_view key)
{
    std::string_view s;
    if (o[key].get_string().get(s) != simdjson::SUCCESS)
        return {};
    return s;
}

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString linePointer(int index)
{
    return QLatin1Char('/') + QString::number(index);
}

// One row of a table that runs link to: its manifest (compact JSON) and the id of its own parent.
struct Parent
{
    std::string manifest;
    std::string parentId; // workloads: operationId; implementations: projectId
};

struct PendingRun
{
    int line = 0;
    std::string manifest;
    std::string workloadId;
    std::string implementationId;
    bool duplicateKeys = false;
    // members the manifest already has (not replaced by the export's tables)
    bool has[4] = { false, false, false, false };
    std::string id; // the row's id, which record_events name
    std::string digest; // its runDigest
};

// A row of record_events: the export's ledger, kept on the runs it credits (Run::exportedRecords).
struct PendingRecord
{
    std::string runId;
    std::string previousRunId;
    QString comparisonKey;
    QString at;
};

constexpr const char* kEmbedded[4] = { "workload", "operation", "implementation", "project" };

// Reads catalog rows one line at a time and resolves the links once all are read.
class Catalog
{
public:
    Catalog(const QString& file, const ParseLimits& limits, ParseResult& result)
        : m_file(file)
        , m_limits(limits)
        , m_result(result)
    {
    }

    bool line(std::string_view text, int index);
    void tooLong(int index)
    {
        error(index, QStringLiteral("the line is longer than the limit of %1 bytes: not read").arg(kMaxLineBytes));
    }
    void finish();

    static constexpr qint64 kMaxLineBytes = qint64(4) << 20;

private:
    void error(int index, const QString& message, const QString& member = {})
    {
        Diagnostic d = makeError(m_file, linePointer(index) + member, message);
        d.line = index + 1;
        m_result.diagnostics.append(d);
    }
    void warning(int index, const QString& message, const QString& member = {})
    {
        Diagnostic d = makeWarning(m_file, linePointer(index) + member, message);
        d.line = index + 1;
        m_result.diagnostics.append(d);
    }
    bool manifestOf(simdjson::dom::object row, int index, std::string& out);
    void buildDocument(const PendingRun& run, std::string& out);

    const QString& m_file;
    const ParseLimits& m_limits;
    ParseResult& m_result;
    std::unordered_map<std::string, Parent> m_operations, m_workloads, m_implementations, m_projects;
    std::unordered_map<std::string, QStringList> m_aliases; // operation_aliases: the names of an operation
    std::vector<PendingRun> m_runs;
    std::vector<PendingRecord> m_records;
    std::map<std::string, qint64> m_other; // rows of tables not read, by table
    qint64 m_servingRuns = 0;
};

bool Catalog::manifestOf(simdjson::dom::object row, int index, std::string& out)
{
    Element manifest;
    if (row["manifest"].get(manifest) != simdjson::SUCCESS || manifest.type() != simdjson::dom::element_type::OBJECT) {
        error(index, QStringLiteral("the row has no manifest object"), QStringLiteral("/row/manifest"));
        return false;
    }
    out = simdjson::minify(manifest);
    if (qint64(out.size()) > m_limits.maxManifestBytes * 3) {
        error(index,
            QStringLiteral("the manifest is %1 bytes, more than the limit of %2")
                .arg(out.size())
                .arg(m_limits.maxManifestBytes * 3),
            QStringLiteral("/row/manifest"));
        return false;
    }
    return true;
}

bool Catalog::line(std::string_view text, int index)
{
    if (m_limits.cancel && m_limits.cancel->load(std::memory_order_relaxed))
        return false;
    if (isBlank(text))
        return true;
    Element root;
    if (const auto code = jsondom::parse(text, false, m_limits.maxDepth, root)) {
        const JsonReadResult read = readJson(text.data(), text.data() + text.size(), m_limits.maxDepth);
        Diagnostic d = makeError(m_file, linePointer(index),
            read.ok ? QStringLiteral("not read: ") + QLatin1String(simdjson::error_message(code)) : read.error);
        d.line = index + 1;
        d.column = read.ok ? 0 : read.column;
        m_result.diagnostics.append(d);
        return true;
    }
    const bool duplicates = jsondom::reportDuplicateKeys(root, m_file, linePointer(index), m_result.diagnostics);
    simdjson::dom::object object;
    simdjson::dom::object row;
    std::string_view table;
    if (root.get_object().get(object) != simdjson::SUCCESS || object["table"].get_string().get(table)
        || object["row"].get_object().get(row)) {
        error(index, QStringLiteral("not a catalog row: expected {\"table\": NAME, \"row\": {...}}"));
        return true;
    }
    const std::string id(stringMember(row, "id"));
    auto parent = [&](std::unordered_map<std::string, Parent>& into, std::string_view parentKey) {
        if (id.empty()) {
            error(index, QStringLiteral("the row has no id"), QStringLiteral("/row/id"));
            return;
        }
        Parent p;
        if (!manifestOf(row, index, p.manifest))
            return;
        if (!parentKey.empty())
            p.parentId = std::string(stringMember(row, parentKey));
        into[id] = std::move(p);
    };
    if (table == "benchmark_runs") {
        PendingRun run;
        run.line = index;
        if (!manifestOf(row, index, run.manifest))
            return true;
        run.workloadId = std::string(stringMember(row, "workloadId"));
        run.implementationId = std::string(stringMember(row, "implementationId"));
        run.id = id;
        run.digest = std::string(stringMember(row, "runDigest"));
        run.duplicateKeys = duplicates;
        Element manifest;
        if (row["manifest"].get(manifest) == simdjson::SUCCESS) {
            const simdjson::dom::object members = jsondom::asObject(manifest);
            for (int k = 0; k < 4; ++k)
                run.has[k] = members[kEmbedded[k]].error() == simdjson::SUCCESS;
        }
        m_runs.push_back(std::move(run));
    } else if (table == "workloads") {
        parent(m_workloads, "operationId");
    } else if (table == "operations") {
        parent(m_operations, {});
    } else if (table == "implementations") {
        parent(m_implementations, "projectId");
    } else if (table == "projects") {
        parent(m_projects, {});
    } else if (table == "operation_aliases") {
        const std::string_view alias = stringMember(row, "alias");
        if (!alias.empty())
            m_aliases[std::string(stringMember(row, "operationId"))] << qs(alias);
    } else if (table == "record_events") {
        PendingRecord record { std::string(stringMember(row, "runId")), std::string(stringMember(row, "previousRunId")),
            qs(stringMember(row, "comparisonKey")), qs(stringMember(row, "at")) };
        if (record.runId.empty() || record.comparisonKey.isEmpty())
            warning(index, QStringLiteral("a record event without a runId or comparisonKey: not kept"));
        else
            m_records.push_back(std::move(record));
    } else if (table == "serving_runs") {
        ++m_servingRuns;
    } else {
        ++m_other[std::string(table)];
    }
    return true;
}

void Catalog::buildDocument(const PendingRun& run, std::string& out)
{
    const std::size_t start = out.size();
    out += run.manifest;
    out.pop_back(); // its closing brace
    bool first = out.size() == start + 1;
    auto embed = [&](int k, const Parent* p) {
        if (!p || run.has[k])
            return;
        if (!first)
            out += ',';
        first = false;
        out += '"';
        out += kEmbedded[k];
        out += "\":";
        out += p->manifest;
    };
    auto find = [](const std::unordered_map<std::string, Parent>& in, const std::string& id) -> const Parent* {
        if (id.empty())
            return nullptr;
        const auto it = in.find(id);
        return it == in.end() ? nullptr : &it->second;
    };
    const Parent* workload = find(m_workloads, run.workloadId);
    const Parent* operation = workload ? find(m_operations, workload->parentId) : nullptr;
    const Parent* implementation = find(m_implementations, run.implementationId);
    const Parent* project = implementation ? find(m_projects, implementation->parentId) : nullptr;
    embed(0, workload);
    embed(1, operation);
    embed(2, implementation);
    embed(3, project);
    out += '}';
    if (!run.workloadId.empty() && !workload)
        warning(run.line,
            QStringLiteral("workload %1 is not in the export: the run's workload and operation are unknown")
                .arg(qs(run.workloadId)),
            QStringLiteral("/row/workloadId"));
    else if (workload && !workload->parentId.empty() && !operation)
        warning(run.line,
            QStringLiteral("operation %1 of the run's workload is not in the export").arg(qs(workload->parentId)),
            QStringLiteral("/row/workloadId"));
    if (!run.implementationId.empty() && !implementation)
        warning(run.line,
            QStringLiteral("implementation %1 is not in the export: the run's implementation is unknown")
                .arg(qs(run.implementationId)),
            QStringLiteral("/row/implementationId"));
}

void Catalog::finish()
{
    if (m_servingRuns > 0 || !m_other.empty()) {
        QStringList others;
        for (const auto& [table, count] : m_other)
            others << QStringLiteral("%1 %2").arg(count).arg(qs(table));
        QString note = m_servingRuns > 0
            ? QStringLiteral("%1 serving runs not shown: kix reads kernel benchmark runs").arg(m_servingRuns)
            : QStringLiteral("kix reads kernel benchmark runs");
        if (!others.isEmpty())
            note += QStringLiteral("; rows of other tables not read: ") + others.join(QStringLiteral(", "));
        m_result.diagnostics.append(makeWarning(m_file, {}, note));
    }
    if (m_runs.empty()) {
        m_result.diagnostics.append(
            makeError(m_file, {}, QStringLiteral("the catalog export holds no benchmark runs")));
        return;
    }
    // Every document in one buffer that the runs share, each run keeping its span.
    std::size_t bytes = 0;
    for (const PendingRun& run : m_runs)
        bytes += run.manifest.size() + 64;
    auto buffer = std::make_shared<std::string>();
    buffer->reserve(bytes);
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    spans.reserve(m_runs.size());
    for (PendingRun& run : m_runs) {
        const std::size_t offset = buffer->size();
        buildDocument(run, *buffer);
        spans.emplace_back(offset, buffer->size() - offset);
        std::string().swap(run.manifest);
    }
    const std::shared_ptr<const std::string> shared = buffer;
    // The export's record ledger onto the runs it credits, previous holders by their digest.
    std::unordered_map<std::size_t, QVector<ExportedRecord>> credited;
    if (!m_records.empty()) {
        std::unordered_map<std::string, std::size_t> byId;
        for (std::size_t i = 0; i < m_runs.size(); ++i)
            if (!m_runs[i].id.empty())
                byId.emplace(m_runs[i].id, i);
        qint64 unknown = 0;
        for (const PendingRecord& r : m_records) {
            const auto run = byId.find(r.runId);
            if (run == byId.end()) {
                ++unknown;
                continue;
            }
            QString previous;
            if (!r.previousRunId.empty()) {
                const auto p = byId.find(r.previousRunId);
                previous = p == byId.end() ? QStringLiteral("(run %1, not in the export)").arg(qs(r.previousRunId))
                                           : qs(m_runs[p->second].digest);
            }
            credited[run->second].append(ExportedRecord { r.comparisonKey, r.at, previous });
        }
        if (unknown > 0)
            m_result.diagnostics.append(makeWarning(m_file, {},
                QStringLiteral("%1 record_events name a run the export does not hold: not kept").arg(unknown)));
        std::vector<PendingRecord>().swap(m_records);
    }
    m_result.runs.reserve(m_result.runs.size() + qsizetype(m_runs.size()));
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        if (m_limits.cancel && m_limits.cancel->load(std::memory_order_relaxed))
            return;
        const std::string_view text(shared->data() + spans[i].first, spans[i].second);
        const QString pointer = linePointer(m_runs[i].line);
        const qsizetype reported = m_result.diagnostics.size();
        Element root;
        if (const auto code = jsondom::parse(text, false, m_limits.maxDepth + 2, root)) {
            Diagnostic d = makeError(
                m_file, pointer, QStringLiteral("not read: ") + QLatin1String(simdjson::error_message(code)));
            d.line = m_runs[i].line + 1;
            m_result.diagnostics.append(d);
            continue;
        }
        if (std::shared_ptr<Run> run
            = extractRun(root, m_file, pointer, m_result.diagnostics, m_runs[i].duplicateKeys)) {
            run->raw = RawText(shared, spans[i].first, spans[i].second);
            if (const auto c = credited.find(i); c != credited.end())
                run->exportedRecords = std::make_shared<const QVector<ExportedRecord>>(std::move(c->second));
            if (const auto workload = m_workloads.find(m_runs[i].workloadId); workload != m_workloads.end()) {
                if (const auto aliases = m_aliases.find(workload->second.parentId); aliases != m_aliases.end()) {
                    RunLinks links = run->links();
                    links.operationAliases = aliases->second; // the list shared by the operation's runs
                    run->linked = RunLinks::share(std::move(links));
                }
            }
            m_result.runs.append(std::move(run));
        }
        for (qsizetype d = reported; d < m_result.diagnostics.size(); ++d) // the row's line, 1-based
            if (m_result.diagnostics[d].line == 0)
                m_result.diagnostics[d].line = m_runs[i].line + 1;
    }
}

// Text that is not a catalog, in a compressed file: kernelindex JSON Lines, parsed a batch of lines at a time.
class Lines
{
public:
    Lines(const QString& file, const ParseLimits& limits, ParseResult& result)
        : m_file(file)
        , m_limits(limits)
        , m_result(result)
    {
    }
    void line(std::string_view text, int index)
    {
        if (m_text.empty())
            m_first = index;
        // lines skipped in between (too long, reported) keep the numbering: blank lines hold their place
        while (m_first + m_count < index) {
            m_text += '\n';
            ++m_count;
        }
        m_text.append(text.data(), text.size());
        m_text += '\n';
        ++m_count;
        if (m_text.size() >= (std::size_t(2) << 20))
            flush();
    }
    void flush()
    {
        if (m_text.empty())
            return;
        parseDocumentLines(m_text.data(), m_text.data() + m_text.size(), m_first, m_file, m_limits, m_result);
        m_text.clear();
        m_count = 0;
    }

private:
    const QString& m_file;
    const ParseLimits& m_limits;
    ParseResult& m_result;
    std::string m_text;
    int m_first = 0;
    int m_count = 0;
};

// Decides from the first non-blank line whether the text is a catalog or JSON Lines, and feeds the lines on.
class Router
{
public:
    Router(const QString& file, const ParseLimits& limits, ParseResult& result)
        : m_file(file)
        , m_result(result)
        , m_catalog(file, limits, result)
        , m_lines(file, limits, result)
        , m_splitter(
              Catalog::kMaxLineBytes, [this](std::string_view text, int index) { return line(text, index); },
              [this](int index) {
                  m_catalog.tooLong(index);
                  return true;
              })
        , m_limits(limits)
    {
    }
    LineSplitter& splitter() { return m_splitter; }
    void finish()
    {
        m_splitter.finish();
        if (m_mode == Mode::Catalog) {
            m_catalog.finish();
        } else if (m_mode == Mode::Lines) {
            m_lines.flush();
        } else if (m_mode == Mode::Unknown && !m_result.hasErrors()) {
            m_result.diagnostics.append(makeError(m_file, {}, QStringLiteral("the file is empty")));
        }
    }

private:
    bool line(std::string_view text, int index)
    {
        if (m_limits.cancel && m_limits.cancel->load(std::memory_order_relaxed))
            return false;
        if (m_mode == Mode::Unknown) {
            if (isBlank(text))
                return true;
            if (std::memchr(text.data(), 0, std::min<std::size_t>(text.size(), 4096))) {
                m_mode = Mode::Refused; // one error, not one per "line" of a binary file
                m_result.diagnostics.append(makeError(m_file, {},
                    QStringLiteral("a Zstandard-compressed file that holds binary data, not a catalog export or "
                                   "JSON Lines: kix reads .zst catalog exports and kernelindex JSON Lines")));
                return false;
            }
            m_mode = looksLikeCatalog(text.data(), text.data() + text.size()) ? Mode::Catalog : Mode::Lines;
            const std::string_view head = text.substr(text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0);
            const char* first = skipSpace(head.data(), head.data() + head.size());
            if (m_mode == Mode::Lines && first < head.data() + head.size()
                && *first != '{') // the lines are still read: a good one loads
                m_result.diagnostics.append(makeError(m_file, {},
                    QStringLiteral("decompressed from Zstandard, the text is neither a catalog export nor "
                                   "kernelindex JSON Lines (its first line does not start with '{')")));
        }
        if (m_mode == Mode::Catalog)
            return m_catalog.line(text, index);
        m_lines.line(text, index);
        return true;
    }

    enum class Mode { Unknown, Catalog, Lines, Refused };
    const QString& m_file;
    ParseResult& m_result;
    Catalog m_catalog;
    Lines m_lines;
    LineSplitter m_splitter;
    const ParseLimits& m_limits;
    Mode m_mode = Mode::Unknown;
};

ZstdLimits zstdLimits(const ParseLimits& limits)
{
    ZstdLimits z;
    z.maxDecompressedBytes = limits.maxDecompressedBytes;
    z.maxRatio = limits.maxDecompressionRatio;
    return z;
}

void finishZstd(const ZstdResult& z, const QString& file, Router& router, ParseResult& result)
{
    if (z.stopped)
        return; // cancelled: the loader drops the result
    if (!z.ok) {
        result.diagnostics.append(makeError(file, {}, z.error));
        if (z.decompressedBytes == 0)
            return;
    }
    router.finish();
}

} // namespace

bool looksLikeCatalog(const char* begin, const char* end)
{
    const char* p = skipSpace(begin, end);
    if (p < end && *p == '\xEF' && end - p >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        p = skipSpace(p + 3, end);
    if (p == end || *p != '{')
        return false;
    p = skipSpace(p + 1, end);
    return end - p >= 7 && std::memcmp(p, "\"table\"", 7) == 0;
}

void parseCatalogText(
    const char* begin, const char* end, const QString& file, const ParseLimits& limits, ParseResult& result)
{
    Router router(file, limits, result);
    if (router.splitter().feed(std::string_view(begin, std::size_t(end - begin))))
        router.finish();
}

void parseZstdFile(const QString& path, const ParseLimits& limits, ParseResult& result)
{
    Router router(path, limits, result);
    const ZstdResult z = decompressZstdFile(
        path, zstdLimits(limits), [&](std::string_view piece) { return router.splitter().feed(piece); },
        limits.fileProgress);
    finishZstd(z, path, router, result);
}

void parseZstdBytes(std::string_view compressed, const QString& file, const ParseLimits& limits, ParseResult& result)
{
    Router router(file, limits, result);
    const ZstdResult z = decompressZstdBytes(
        compressed, zstdLimits(limits), [&](std::string_view piece) { return router.splitter().feed(piece); });
    finishZstd(z, file, router, result);
}

} // namespace kix
