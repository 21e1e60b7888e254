// SPDX-License-Identifier: Apache-2.0
#include "model/compare/rundiff.h"

#include "model/compare/rank.h"
#include "model/compare/rundifffields.h"
#include "model/write/csvwriter.h"
#include "model/write/texttable.h"

#include <QFileInfo>
#include <QHash>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <list>
#include <unordered_map>

namespace kix {

namespace {

// Table cells longer than this are cut (Markdown, CSV and JSON keep every character).
constexpr int kMaxTableCell = 40;

// Rows in the order the runs list them: a field only a later run has goes after that run's previous field.
struct Key
{
    QString section;
    QString path;
};
using Values = QHash<QString, std::vector<std::optional<QString>>>; // by section + U+001F + path, one a run

void collectFields(const RunList& runs, RunDiff& diff, std::list<Key>& order, Values& values)
{
    const int n = int(runs.size());
    QHash<QString, std::list<Key>::iterator> where;
    for (int i = 0; i < n; ++i) {
        QString error;
        const QVector<DiffField> fields = runDiffFields(*runs[i], &error);
        if (!error.isEmpty())
            diff.notes << QStringLiteral("%1: document not read: %2").arg(diff.headers[i], error);
        QHash<QString, int> seen; // a path a run lists twice (a label key repeated) gets "#2", "#3", ...
        auto previous = order.begin();
        bool first = true;
        for (const DiffField& field : fields) {
            QString path = field.path;
            const QString base = field.section + QChar(0x1f) + path;
            if (const int count = ++seen[base]; count > 1)
                path += QStringLiteral("#%1").arg(count);
            const QString key = field.section + QChar(0x1f) + path;
            auto it = where.find(key);
            if (it == where.end()) {
                const auto at = first ? order.begin() : std::next(previous);
                it = where.insert(key, order.insert(at, Key { field.section, path }));
                values[key].resize(std::size_t(n));
            }
            values[key][std::size_t(i)] = field.value;
            previous = it.value();
            first = false;
        }
    }
}

// The rows, classified: the differing ones by kind (material, measurement, cosmetic), then the equal ones.
void classifyRows(const std::list<Key>& order, const Values& values, RunDiff& diff)
{
    QVector<DiffRow> differing[3];
    QVector<DiffRow> equal;
    for (const Key& k : order) {
        DiffRow row;
        row.section = k.section;
        row.path = k.path;
        row.kind = classifyDiffField(k.section, k.path);
        row.values = values.value(k.section + QChar(0x1f) + k.path);
        row.equal = std::all_of(row.values.begin(), row.values.end(),
            [&](const std::optional<QString>& v) { return v.has_value() && v == row.values.front(); });
        if (row.equal)
            equal.append(std::move(row));
        else
            differing[int(row.kind)].append(std::move(row));
    }
    diff.material = int(differing[0].size());
    diff.measurement = int(differing[1].size());
    diff.cosmetic = int(differing[2].size());
    diff.equal = int(equal.size());
    for (auto& rows : differing)
        diff.rows += rows;
    diff.rows += equal;
}

// The verdict: the strict comparison key, and how the runs differ from the first in its parts.
void judgeComparability(const RunList& runs, RunDiff& diff)
{
    const int n = int(runs.size());
    const Run& first = *runs[0];
    QStringList parts;
    QStringList missing; // "run 2 (no workload document (operation, correctness))"
    bool sameKey = true;
    for (int i = 0; i < n; ++i) {
        const Run& run = *runs[i];
        if (run.links().comparisonKey.isEmpty())
            missing
                << QStringLiteral("run %1 (no %2)").arg(i + 1).arg(run.strictKeyMissing().join(QStringLiteral(", ")));
        if (i == 0)
            continue;
        sameKey = sameKey && run.links().comparisonKey == first.links().comparisonKey;
        const bool bothKeyed = !run.links().comparisonKey.isEmpty() && !first.links().comparisonKey.isEmpty();
        for (const QString& d : strictKeyDifferences(first, run)) {
            const bool keyOnly = d == QLatin1String("correctness or metric");
            if (keyOnly && !bothKeyed)
                continue; // a missing key differs from any key: no part of it is known to differ
            const QString part = keyOnly ? d : d.section(QLatin1Char(' '), 0, 0);
            if (!parts.contains(part))
                parts << part;
        }
    }
    diff.comparable = missing.isEmpty() && sameKey;
    if (diff.comparable) {
        diff.verdict = QStringLiteral("comparable: same strict comparison key");
    } else {
        QStringList why;
        if (!parts.isEmpty())
            why << QStringLiteral("differs in ") + parts.join(QStringLiteral(", "));
        if (!missing.isEmpty()) {
            // The same reason for every run is said once.
            QString reason = missing.front().section(QLatin1Char(' '), 2);
            const bool one = missing.size() == n && std::all_of(missing.begin(), missing.end(), [&](const QString& m) {
                return m.section(QLatin1Char(' '), 2) == reason;
            });
            why << (one ? QStringLiteral("no run has a strict comparison key %1").arg(reason)
                        : QStringLiteral("no strict comparison key for ") + missing.join(QStringLiteral(", ")));
        }
        diff.verdict = QStringLiteral("not comparable: ") + why.join(QStringLiteral("; "));
    }
}

} // namespace

QVector<DiffField> runDiffFields(const Run& run, QString* error)
{
    QVector<DiffField> out;
    rundiff::addRecordFields(run, out);
    rundiff::addDocumentFields(run, out, error);
    return out;
}

QString diffKindName(DiffKind kind)
{
    switch (kind) {
    case DiffKind::Material:
        return QStringLiteral("material");
    case DiffKind::Measurement:
        return QStringLiteral("measurement");
    case DiffKind::Cosmetic:
        break;
    }
    return QStringLiteral("cosmetic");
}

DiffKind classifyDiffField(const QString& section, const QString& path)
{
    if (section == QLatin1String("json"))
        return rundiff::classifyJson(path);
    if (section == QLatin1String("protocol") || section == QLatin1String("environment")
        || section == QLatin1String("workload"))
        return DiffKind::Material;
    if (section == QLatin1String("digests")) {
        static const QStringList material = { QStringLiteral("comparisonKey"), QStringLiteral("protocolDigest"),
            QStringLiteral("protocolCheck"), QStringLiteral("environmentDigest"), QStringLiteral("environmentCheck"),
            QStringLiteral("workloadDigest"), QStringLiteral("workloadCheck"), QStringLiteral("operationDigest"),
            QStringLiteral("operationCheck") };
        return material.contains(path) ? DiffKind::Material : DiffKind::Cosmetic;
    }
    if (section == QLatin1String("headline")) {
        return path == QLatin1String("metric") || path == QLatin1String("statistic") || path == QLatin1String("unit")
            ? DiffKind::Material
            : DiffKind::Measurement;
    }
    if (section == QLatin1String("run"))
        return path == QLatin1String("status") || path == QLatin1String("apiVersion") ? DiffKind::Material
                                                                                      : DiffKind::Cosmetic;
    return DiffKind::Cosmetic; // links: names and titles
}

QString runDiffLabel(const Run& run)
{
    QString label = run.implementationLabel();
    if (label.isEmpty())
        label = run.provider;
    QString id = run.externalId.section(QLatin1Char('/'), -1);
    if (id.size() > 20)
        id = id.left(19) + QChar(0x2026);
    if (!id.isEmpty() && !label.contains(id))
        label = label.isEmpty() ? id : label + QLatin1Char(' ') + id;
    if (label.isEmpty())
        label = QFileInfo(run.file).fileName() + (run.pointer.isEmpty() ? QString() : QLatin1Char('#') + run.pointer);
    return label;
}

QString runDiffCountProblem(qsizetype count)
{
    if (count < minDiffRuns)
        return QStringLiteral("%1 run(s) selected: diff compares %2 to %3; name more runs (files, FILE#POINTER, a "
                              "sha256: digest prefix, --run ID) or widen --filter")
            .arg(count)
            .arg(minDiffRuns)
            .arg(maxDiffRuns);
    if (count > maxDiffRuns)
        return QStringLiteral("%1 runs selected: diff compares %2 to %3; narrow with --filter, FILE#POINTER, a "
                              "sha256: digest prefix or --run ID")
            .arg(count)
            .arg(minDiffRuns)
            .arg(maxDiffRuns);
    return {};
}

RunDiff diffRuns(const RunList& runs)
{
    RunDiff diff;
    diff.runs = runs;
    const int n = int(runs.size());
    for (int i = 0; i < n; ++i) {
        QString label = runDiffLabel(*runs[i]);
        if (diff.headers.contains(label))
            label += QStringLiteral(" #%1").arg(i + 1);
        diff.headers << label;
    }

    std::list<Key> order;
    Values values;
    collectFields(runs, diff, order, values);
    classifyRows(order, values, diff);
    if (n == 0)
        return diff;
    judgeComparability(runs, diff);
    return diff;
}

namespace {

QString kindCell(const DiffRow& row)
{
    if (row.equal)
        return QStringLiteral("=");
    return row.kind == DiffKind::Material ? QStringLiteral("! material") : diffKindName(row.kind);
}

QString oneLine(QString text)
{
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    text.replace(QLatin1Char('\r'), QLatin1Char(' '));
    text.replace(QLatin1Char('\t'), QLatin1Char(' '));
    return text;
}

QString summaryLine(const RunDiff& diff)
{
    return QStringLiteral("differences: %1 material, %2 measurement, %3 cosmetic; %4 equal")
        .arg(diff.material)
        .arg(diff.measurement)
        .arg(diff.cosmetic)
        .arg(diff.equal);
}

QString foldedLine(const RunDiff& diff)
{
    return QStringLiteral("%1 equal fields folded; --all shows them").arg(diff.equal);
}

QString runPlace(const Run& run)
{
    return run.pointer.isEmpty() ? run.file : run.file + QLatin1Char('#') + run.pointer;
}

} // namespace

QByteArray runDiffToTable(const RunDiff& diff, bool all)
{
    QString text;
    for (int i = 0; i < diff.runs.size(); ++i)
        text += QStringLiteral("run %1  %2  %3\n").arg(i + 1).arg(diff.headers[i], runPlace(*diff.runs[i]));
    text += QLatin1Char('\n');
    QStringList header = { QStringLiteral("kind"), QStringLiteral("section"), QStringLiteral("path") };
    header += diff.headers;
    QVector<QStringList> rows;
    for (const DiffRow& row : diff.rows) {
        if (row.equal && !all)
            continue;
        QStringList cells = { kindCell(row), row.section, row.path };
        // Long values that differ past a common beginning (ids, paths) are shown from a little before it.
        const QString* first = nullptr;
        qsizetype common = 0;
        for (const auto& v : row.values) {
            if (!v)
                continue;
            if (!first) {
                first = &*v;
                common = v->size();
            }
            qsizetype k = 0;
            while (k < common && k < v->size() && (*first)[k] == (*v)[k])
                ++k;
            common = k;
        }
        for (const auto& v : row.values) {
            QString cell = v ? oneLine(*v) : QStringLiteral("—");
            if (v && !row.equal && cell.size() > kMaxTableCell && common > 16)
                cell = QChar(0x2026) + cell.mid(common - 8);
            if (cell.size() > kMaxTableCell)
                cell = cell.left(kMaxTableCell - 1) + QChar(0x2026);
            cells << cell;
        }
        rows << cells;
    }
    text += QString::fromUtf8(alignedRows(QVector<QStringList> { header } + rows));
    if (!all && diff.equal > 0)
        text += foldedLine(diff) + QLatin1Char('\n');
    for (const QString& note : diff.notes)
        text += QStringLiteral("note: ") + note + QLatin1Char('\n');
    text += summaryLine(diff) + QLatin1Char('\n');
    text += diff.verdict + QLatin1Char('\n');
    return text.toUtf8();
}

QByteArray runDiffToMarkdown(const RunDiff& diff, bool all)
{
    auto cell = [](const QString& value) {
        QString text = oneLine(value);
        text.replace(QLatin1Char('|'), QLatin1String("\\|"));
        return text;
    };
    QString text;
    for (int i = 0; i < diff.runs.size(); ++i)
        text += QStringLiteral("%1. **%2**: `%3`\n").arg(i + 1).arg(cell(diff.headers[i]), runPlace(*diff.runs[i]));
    text += QStringLiteral("\n| kind | section | path |");
    for (const QString& h : diff.headers)
        text += QLatin1Char(' ') + cell(h) + QStringLiteral(" |");
    text += QStringLiteral("\n|---|---|---|");
    for (int i = 0; i < diff.headers.size(); ++i)
        text += QStringLiteral("---|");
    text += QLatin1Char('\n');
    for (const DiffRow& row : diff.rows) {
        if (row.equal && !all)
            continue;
        text += QStringLiteral("| %1 | %2 | `%3` |").arg(kindCell(row), row.section, cell(row.path));
        for (const auto& v : row.values)
            text += QLatin1Char(' ') + (v ? cell(*v) : QStringLiteral("—")) + QStringLiteral(" |");
        text += QLatin1Char('\n');
    }
    text += QLatin1Char('\n');
    if (!all && diff.equal > 0)
        text += foldedLine(diff) + QStringLiteral(".\n\n");
    for (const QString& note : diff.notes)
        text += QStringLiteral("Note: ") + note + QStringLiteral("\n\n");
    text += summaryLine(diff) + QStringLiteral(".\n\n**") + diff.verdict + QStringLiteral("**\n");
    return text.toUtf8();
}

QByteArray runDiffToCsv(const RunDiff& diff)
{
    QStringList header
        = { QStringLiteral("section"), QStringLiteral("path"), QStringLiteral("kind"), QStringLiteral("equal") };
    for (int i = 0; i < diff.runs.size(); ++i)
        header << QStringLiteral("value%1").arg(i + 1);
    QByteArray out = csvLine(header);
    for (const DiffRow& row : diff.rows) {
        QStringList cells = { row.section, row.path, diffKindName(row.kind),
            row.equal ? QStringLiteral("true") : QStringLiteral("false") };
        for (const auto& v : row.values)
            cells << v.value_or(QString());
        out += csvLine(cells);
    }
    return out;
}

QByteArray runDiffToJson(const RunDiff& diff)
{
    nlohmann::ordered_json j;
    j["runs"] = nlohmann::ordered_json::array();
    for (int i = 0; i < diff.runs.size(); ++i) {
        const Run& run = *diff.runs[i];
        j["runs"].push_back({ { "file", run.file.toStdString() }, { "pointer", run.pointer.toStdString() },
            { "externalId", run.externalId.toStdString() }, { "label", diff.headers[i].toStdString() } });
    }
    j["rows"] = nlohmann::ordered_json::array();
    for (const DiffRow& row : diff.rows) {
        nlohmann::ordered_json values = nlohmann::ordered_json::array();
        for (const auto& v : row.values)
            values.push_back(v ? nlohmann::ordered_json(v->toStdString()) : nlohmann::ordered_json());
        j["rows"].push_back({ { "section", row.section.toStdString() }, { "path", row.path.toStdString() },
            { "kind", diffKindName(row.kind).toStdString() }, { "equal", row.equal }, { "values", values } });
    }
    j["summary"] = { { "material", diff.material }, { "measurement", diff.measurement }, { "cosmetic", diff.cosmetic },
        { "equal", diff.equal } };
    j["comparable"] = diff.comparable;
    j["verdict"] = diff.verdict.toStdString();
    nlohmann::ordered_json notes = nlohmann::ordered_json::array();
    for (const QString& note : diff.notes)
        notes.push_back(note.toStdString());
    j["notes"] = notes;
    return QByteArray::fromStdString(j.dump(2)) + '\n';
}

} // namespace kix
