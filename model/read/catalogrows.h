// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (the catalog reader): the rows of a KernelIndex catalog export, read one line at a time, and
// the kernelindex documents built from them once every table is read.

#include "model/read/jsondom.h"
#include "model/read/readlimits.h"
#include "model/run.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kix::catalog {

const char* skipSpace(const char* p, const char* end);
bool isBlank(std::string_view line);
QString linePointer(int index); // a row's JSON pointer: its line, 0-based

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
    void addRun(simdjson::dom::object row, int index, const std::string& id, bool duplicates);
    void buildDocument(const PendingRun& run, std::string& out);
    void noteOtherTables();
    using Spans = std::vector<std::pair<std::size_t, std::size_t>>; // each run's document in the shared buffer
    std::shared_ptr<const std::string> buildDocuments(Spans& spans);
    using Credits = std::unordered_map<std::size_t, QVector<ExportedRecord>>; // by index into m_runs
    Credits creditRecords();
    void extractRuns(const std::shared_ptr<const std::string>& shared, const Spans& spans, Credits& credited);

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

} // namespace kix::catalog
