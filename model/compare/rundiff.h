// SPDX-License-Identifier: Apache-2.0
#pragma once
// Runs compared field by field, as the format's home (KernelIndex's run comparison) shows them: every field kix
// holds for each run (its typed view, the names its linked documents give, digests, headline and measurements)
// and every leaf of its document as loaded (by JSON pointer, so that fields kix does not know appear too), aligned
// by (section, path) across the runs. A row whose values are not all the same is a difference, classified:
// material (protocol, environment, workload, operation, correctness, metric/statistic/unit, status, and the
// digests of those), measurement (values and statistics) or cosmetic (titles, names, labels, metadata, file
// places, timestamps, and the implementation: it is what a comparison compares, not part of the key).

#include "model/run.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>
#include <vector>

namespace kix {

// One field of one run: the section it belongs to ("run", "digests", "headline", "links", "protocol",
// "environment", "workload", or "json" for the document's own leaves) and its path (a name, or a JSON pointer
// for "json"), with its value as text.
struct DiffField
{
    QString section;
    QString path;
    QString value;
};

// Every field of `run`. The document is read back from its file when it is not in memory; when it cannot be,
// `error` says why and only the typed fields are listed.
QVector<DiffField> runDiffFields(const Run& run, QString* error = nullptr);

enum class DiffKind : quint8 { Material, Measurement, Cosmetic };
QString diffKindName(DiffKind kind); // "material", "measurement", "cosmetic"
// How a difference in the field at (section, path) counts.
DiffKind classifyDiffField(const QString& section, const QString& path);

struct DiffRow
{
    QString section;
    QString path;
    DiffKind kind = DiffKind::Cosmetic;
    bool equal = true; // every run has the field, with the same value
    std::vector<std::optional<QString>> values; // one per run; nullopt where the run lacks the field
};

struct RunDiff
{
    RunList runs;
    QStringList headers; // a compact, unique name per run: implementation label (or provider) and short id
    QVector<DiffRow> rows; // differences first (material, measurement, cosmetic), then the equal rows
    int material = 0;
    int measurement = 0;
    int cosmetic = 0;
    int equal = 0;
    bool comparable = false; // every run has a strict comparison key, and it is the same
    QString verdict; // "comparable: same strict comparison key" or "not comparable: differs in protocol, ..."
    QStringList notes; // documents that could not be read back
};

constexpr int minDiffRuns = 2;
constexpr int maxDiffRuns = 8;

// Why `count` runs cannot be compared ("9 runs selected: diff compares 2 to 8; narrow ..."), or empty.
QString runDiffCountProblem(qsizetype count);

// Compares `runs` (2 to 8: runDiffCountProblem() is the caller's check) field by field.
RunDiff diffRuns(const RunList& runs);

// A compact name for a run in a column header: "brandonin · submission 555004", "liger 2026-02-28-00-23-31".
QString runDiffLabel(const Run& run);

// The reports (UTF-8). Table and Markdown fold the equal rows into one line unless `all`; CSV and JSON hold every
// row with its `equal` flag. CSV columns: section,path,kind,equal,value1..valueN. JSON: {runs:[{file, pointer,
// externalId, label}], rows:[{section, path, kind, equal, values}], summary:{material, measurement, cosmetic,
// equal}, comparable, verdict}.
QByteArray runDiffToTable(const RunDiff& diff, bool all = false);
QByteArray runDiffToMarkdown(const RunDiff& diff, bool all = false);
QByteArray runDiffToCsv(const RunDiff& diff);
QByteArray runDiffToJson(const RunDiff& diff);

} // namespace kix
