// SPDX-License-Identifier: Apache-2.0
#include "model/read/catalogrows.h"

#include "model/read/jsonreader.h"
#include "model/read/runextract.h"

namespace kix::catalog {

namespace {

using jsondom::Element;

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

constexpr const char* kEmbedded[4] = { "workload", "operation", "implementation", "project" };

} // namespace

const char* skipSpace(const char* p, const char* end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
        ++p;
    return p;
}

QString linePointer(int index)
{
    return QLatin1Char('/') + QString::number(index);
}

bool isBlank(std::string_view line)
{
    return skipSpace(line.data(), line.data() + line.size()) == line.data() + line.size();
}

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
        addRun(row, index, id, duplicates);
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

void Catalog::addRun(simdjson::dom::object row, int index, const std::string& id, bool duplicates)
{
    PendingRun run;
    run.line = index;
    if (!manifestOf(row, index, run.manifest))
        return;
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

void Catalog::noteOtherTables()
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
}

// Every document in one buffer that the runs share, each run keeping its span.
std::shared_ptr<const std::string> Catalog::buildDocuments(Spans& spans)
{
    std::size_t bytes = 0;
    for (const PendingRun& run : m_runs)
        bytes += run.manifest.size() + 64;
    auto buffer = std::make_shared<std::string>();
    buffer->reserve(bytes);
    spans.reserve(m_runs.size());
    for (PendingRun& run : m_runs) {
        const std::size_t offset = buffer->size();
        buildDocument(run, *buffer);
        spans.emplace_back(offset, buffer->size() - offset);
        std::string().swap(run.manifest);
    }
    return buffer;
}

// The export's record ledger onto the runs it credits, previous holders by their digest.
Catalog::Credits Catalog::creditRecords()
{
    Credits credited;
    if (m_records.empty())
        return credited;
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
        m_result.diagnostics.append(makeWarning(
            m_file, {}, QStringLiteral("%1 record_events name a run the export does not hold: not kept").arg(unknown)));
    std::vector<PendingRecord>().swap(m_records);
    return credited;
}

void Catalog::extractRuns(const std::shared_ptr<const std::string>& shared, const Spans& spans, Credits& credited)
{
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

void Catalog::finish()
{
    noteOtherTables();
    if (m_runs.empty()) {
        m_result.diagnostics.append(
            makeError(m_file, {}, QStringLiteral("the catalog export holds no benchmark runs")));
        return;
    }
    Spans spans;
    const std::shared_ptr<const std::string> shared = buildDocuments(spans);
    Credits credited = creditRecords();
    extractRuns(shared, spans, credited);
}

} // namespace kix::catalog
