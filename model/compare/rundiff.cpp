// SPDX-License-Identifier: Apache-2.0
#include "model/compare/rundiff.h"

#include "model/compare/rank.h"
#include "model/write/csvwriter.h"

#include <QFileInfo>
#include <QHash>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <list>
#include <unordered_map>

namespace kix {

namespace {

// An array of more scalars than this is one row (its length and a hash of its text), not one row per element:
// inline samples would otherwise bury the fields.
constexpr std::size_t kMaxArrayRows = 32;
// Table cells longer than this are cut (Markdown, CSV and JSON keep every character).
constexpr int kMaxTableCell = 40;

QString number(double v)
{
    return QString::number(v, 'g', 12);
}

class FieldList
{
public:
    explicit FieldList(QVector<DiffField>& out)
        : m_out(out)
    {
    }
    void add(const QString& section, const QString& path, const QString& value)
    {
        if (!value.isEmpty())
            m_out.append({ section, path, value });
    }
    void add(const QString& section, const QString& path, double value)
    {
        if (!std::isnan(value))
            m_out.append({ section, path, number(value) });
    }

private:
    QVector<DiffField>& m_out;
};

QString pointerToken(const std::string& key)
{
    QString token = QString::fromStdString(key);
    token.replace(QLatin1Char('~'), QLatin1String("~0"));
    token.replace(QLatin1Char('/'), QLatin1String("~1"));
    return token;
}

QString scalarText(const nlohmann::ordered_json& v)
{
    if (v.is_string())
        return QString::fromStdString(v.get<std::string>());
    return QString::fromStdString(v.dump());
}

void flattenJson(const nlohmann::ordered_json& v, const QString& pointer, QVector<DiffField>& out)
{
    if (v.is_object()) {
        if (v.empty())
            out.append({ QStringLiteral("json"), pointer, QStringLiteral("{}") });
        for (auto it = v.begin(); it != v.end(); ++it)
            flattenJson(it.value(), pointer + QLatin1Char('/') + pointerToken(it.key()), out);
        return;
    }
    if (v.is_array()) {
        if (v.empty()) {
            out.append({ QStringLiteral("json"), pointer, QStringLiteral("[]") });
            return;
        }
        const bool scalars = std::all_of(v.begin(), v.end(), [](const auto& e) { return e.is_primitive(); });
        if (scalars && v.size() > kMaxArrayRows) {
            const std::string text = v.dump();
            out.append({ QStringLiteral("json"), pointer,
                QStringLiteral("[%1 values, hash %2]")
                    .arg(v.size())
                    .arg(RawSource::hashOf(text) & 0xffffffffffffull, 12, 16, QLatin1Char('0')) });
            return;
        }
        for (std::size_t i = 0; i < v.size(); ++i)
            flattenJson(v[i], pointer + QLatin1Char('/') + QString::number(i), out);
        return;
    }
    out.append({ QStringLiteral("json"), pointer, scalarText(v) });
}

QString checkText(DigestCheck check)
{
    switch (check) {
    case DigestCheck::NotCarried:
        return {}; // absent: the run carries only the digest
    case DigestCheck::Verified:
        return QStringLiteral("verified");
    case DigestCheck::Mismatch:
        return QStringLiteral("does not match");
    case DigestCheck::VerifiedKix010:
        return QStringLiteral("verified (kix 0.1.0)");
    }
    return {};
}

bool isMetricName(const QString& last)
{
    static const QStringList names = { QStringLiteral("metric"), QStringLiteral("unit"), QStringLiteral("statistic"),
        QStringLiteral("primaryStatistic"), QStringLiteral("primaryMetric"), QStringLiteral("primaryUnit") };
    return names.contains(last);
}

// The classification of a leaf of the document, at `pointer`.
DiffKind classifyJson(const QString& pointer)
{
    static const QStringList resources = { QStringLiteral("run"), QStringLiteral("protocol"),
        QStringLiteral("environment"), QStringLiteral("workload"), QStringLiteral("operation"),
        QStringLiteral("implementation"), QStringLiteral("project") };
    static const QStringList envelope
        = { QStringLiteral("apiVersion"), QStringLiteral("kind"), QStringLiteral("metadata"), QStringLiteral("spec") };
    const QStringList parts = pointer.split(QLatin1Char('/')).mid(1);
    if (parts.isEmpty())
        return DiffKind::Cosmetic;
    QString resource;
    QStringList rest;
    if (resources.contains(parts[0])) {
        resource = parts[0];
        rest = parts.mid(1);
    } else if (envelope.contains(parts[0])) {
        resource = QStringLiteral("run"); // a document that is the run resource alone
        rest = parts;
    } else {
        return isMetricName(parts.last()) ? DiffKind::Material : DiffKind::Cosmetic; // a member kix does not know
    }
    const QString top = rest.value(0);
    if (top == QLatin1String("metadata"))
        return DiffKind::Cosmetic;
    if (resource == QLatin1String("implementation") || resource == QLatin1String("project"))
        return DiffKind::Cosmetic;
    if (resource != QLatin1String("run"))
        return DiffKind::Material; // protocol, environment, workload, operation: their spec, apiVersion, kind
    if (top != QLatin1String("spec"))
        return DiffKind::Material; // apiVersion, kind
    const QString field = rest.value(1);
    if (field == QLatin1String("protocolDigest") || field == QLatin1String("environmentDigest")
        || field == QLatin1String("workloadDigest") || field == QLatin1String("status")
        || field == QLatin1String("correctness"))
        return DiffKind::Material;
    if (field == QLatin1String("implementationDigest") || field == QLatin1String("observedAt")
        || field == QLatin1String("evidence"))
        return DiffKind::Cosmetic;
    if (field == QLatin1String("sourceNative"))
        return rest.value(2) == QLatin1String("metrics") ? DiffKind::Measurement : DiffKind::Cosmetic;
    if (isMetricName(rest.last()))
        return DiffKind::Material;
    return DiffKind::Measurement; // timing, measurements' values, any other result the run records
}

} // namespace

QVector<DiffField> runDiffFields(const Run& run, QString* error)
{
    QVector<DiffField> out;
    FieldList f(out);
    const QString r = QStringLiteral("run");
    f.add(r, QStringLiteral("file"), run.file);
    f.add(r, QStringLiteral("pointer"), run.pointer);
    f.add(r, QStringLiteral("externalId"), run.externalId);
    f.add(r, QStringLiteral("name"), run.name);
    f.add(r, QStringLiteral("title"), run.title);
    f.add(r, QStringLiteral("apiVersion"), run.apiVersion);
    f.add(r, QStringLiteral("status"), run.status);
    if (run.observedAt.isValid())
        f.add(r, QStringLiteral("observedAt"), run.observedAt.toString(Qt::ISODateWithMs));
    f.add(r, QStringLiteral("kernel"), run.kernel);
    f.add(r, QStringLiteral("pass"), run.pass);
    f.add(r, QStringLiteral("provider"), run.provider);
    f.add(r, QStringLiteral("source"), run.source);
    f.add(r, QStringLiteral("benchmark"), run.benchmark);
    if (run.writtenByKix010)
        f.add(r, QStringLiteral("dialect"), QStringLiteral("kix 0.1.0"));
    for (const KeyValue& kv : run.labels)
        f.add(r, QStringLiteral("labels/") + kv.key, kv.value);

    const RunLinks& l = run.links();
    const QString links = QStringLiteral("links");
    f.add(links, QStringLiteral("operationTitle"), l.operationTitle);
    f.add(links, QStringLiteral("operationAliases"), l.operationAliases.join(QStringLiteral(", ")));
    f.add(links, QStringLiteral("implementationTitle"), l.implementationTitle);
    f.add(links, QStringLiteral("implementationLabel"), run.implementationLabel());
    f.add(links, QStringLiteral("authors"), l.authors.join(QStringLiteral(", ")));
    f.add(links, QStringLiteral("project"), l.project);
    f.add(links, QStringLiteral("workloadTitle"), l.workloadTitle);

    const QString d = QStringLiteral("digests");
    f.add(d, QStringLiteral("comparisonKey"), l.comparisonKey.toString());
    f.add(d, QStringLiteral("protocolDigest"), run.protocolDigest);
    f.add(d, QStringLiteral("protocolCheck"), checkText(run.protocolCheck));
    f.add(d, QStringLiteral("environmentDigest"), run.environmentDigest);
    f.add(d, QStringLiteral("environmentCheck"), checkText(run.environmentCheck));
    f.add(d, QStringLiteral("workloadDigest"), run.workloadDigest);
    f.add(d, QStringLiteral("workloadCheck"), checkText(run.workloadCheck));
    f.add(d, QStringLiteral("operationDigest"), run.operationDigest);
    f.add(d, QStringLiteral("operationCheck"), checkText(run.operationCheck));
    f.add(d, QStringLiteral("implementationDigest"), run.implementationDigest);
    f.add(d, QStringLiteral("implementationCheck"), checkText(run.implementationCheck));
    f.add(d, QStringLiteral("runDigest"), run.runDigest.toString());

    const QString p = QStringLiteral("protocol");
    f.add(p, QStringLiteral("name"), l.protocolName);
    f.add(p, QStringLiteral("family"), run.protocolFamily);
    f.add(p, QStringLiteral("timer"), l.timer);
    f.add(p, QStringLiteral("notes"), run.protocolNotes);

    const QString e = QStringLiteral("environment");
    f.add(e, QStringLiteral("gpuVendor"), run.gpuVendor);
    f.add(e, QStringLiteral("gpuProduct"), run.gpuProduct);
    f.add(e, QStringLiteral("gpuArchitecture"), run.gpuArchitecture);
    f.add(e, QStringLiteral("gpuSlug"), run.gpuSlug);
    for (const KeyValue& kv : run.software)
        f.add(e, QStringLiteral("software/") + kv.key, kv.value);

    const QString w = QStringLiteral("workload");
    f.add(w, QStringLiteral("slug"), run.workloadSlug);
    f.add(w, QStringLiteral("dtype"), run.dtype);
    for (const WorkloadParam& param : run.workload)
        f.add(w, QStringLiteral("params/") + param.key, param.value);

    const QString h = QStringLiteral("headline");
    f.add(h, QStringLiteral("metric"), run.metricName());
    f.add(h, QStringLiteral("statistic"), run.headlineStatistic);
    f.add(h, QStringLiteral("unit"), run.unit);
    f.add(h, QStringLiteral("value"), run.median);
    f.add(h, QStringLiteral("p20"), run.p20);
    f.add(h, QStringLiteral("p80"), run.p80);
    for (const Measurement& m : run.statistics)
        f.add(h, QStringLiteral("statistics/") + m.statistic, m.value);
    if (!run.samples.empty())
        f.add(h, QStringLiteral("samples"), QStringLiteral("%1 values").arg(run.samples.size()));
    if (!run.cpuSamples.empty())
        f.add(h, QStringLiteral("cpuSamples"), QStringLiteral("%1 values").arg(run.cpuSamples.size()));
    for (const Measurement& m : run.measurements)
        f.add(h, QStringLiteral("measurements/%1:%2:%3").arg(m.metric, m.statistic, m.unit), m.value);

    QString unread;
    if (!run.raw.empty() || run.raw.source()) {
        if (!run.raw.load(&unread)) {
            if (error)
                *error = unread;
        } else {
            try {
                flattenJson(nlohmann::ordered_json::parse(run.raw.view()), QString(), out);
            } catch (const nlohmann::json::exception& ex) {
                if (error)
                    *error = QStringLiteral("the document is not JSON: %1").arg(QString::fromUtf8(ex.what()));
            }
        }
    }
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
        return classifyJson(path);
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

    // Rows in the order the runs list them: a field only a later run has goes after that run's previous field.
    struct Key
    {
        QString section;
        QString path;
    };
    std::list<Key> order;
    QHash<QString, std::list<Key>::iterator> where;
    QHash<QString, std::vector<std::optional<QString>>> values;
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

    // The verdict: the strict comparison key, and how the runs differ from the first in its parts.
    if (n == 0)
        return diff;
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
    QVector<int> widths(header.size());
    for (int c = 0; c < header.size(); ++c)
        widths[c] = int(header[c].size());
    for (const QStringList& row : rows)
        for (int c = 0; c < row.size(); ++c)
            widths[c] = std::max(widths[c], int(row[c].size()));
    auto line = [&](const QStringList& cells) {
        QString out;
        for (int c = 0; c < cells.size(); ++c) {
            if (c > 0)
                out += QStringLiteral("  ");
            out += c + 1 == cells.size() ? cells[c] : cells[c].leftJustified(widths[c]);
        }
        text += out + QLatin1Char('\n');
    };
    line(header);
    for (const QStringList& row : rows)
        line(row);
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
