// SPDX-License-Identifier: Apache-2.0
#include "ui/models/rundiffmodel.h"

#include <QColor>
#include <QFont>

namespace kix {

namespace {

// The documents in the order a reader checks comparability: what was run, how, where, on what, with what result.
const QStringList sectionOrder
    = { QStringLiteral("run"), QStringLiteral("protocol"), QStringLiteral("environment"), QStringLiteral("workload"),
          QStringLiteral("headline"), QStringLiteral("digests"), QStringLiteral("links"), QStringLiteral("json") };

} // namespace

RunDiffModel::RunDiffModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

QString RunDiffModel::sectionTitle(const QString& section)
{
    if (section == QLatin1String("run"))
        return QStringLiteral("Run");
    if (section == QLatin1String("protocol"))
        return QStringLiteral("Protocol");
    if (section == QLatin1String("environment"))
        return QStringLiteral("Environment");
    if (section == QLatin1String("workload"))
        return QStringLiteral("Workload");
    if (section == QLatin1String("headline"))
        return QStringLiteral("Metric and measurements");
    if (section == QLatin1String("digests"))
        return QStringLiteral("Digests (comparison key, documents)");
    if (section == QLatin1String("links"))
        return QStringLiteral("Implementation and names (linked documents)");
    if (section == QLatin1String("json"))
        return QStringLiteral("Every field of the documents (JSON pointer)");
    return section;
}

QString RunDiffModel::kindMarker(const DiffRow& row)
{
    if (row.equal)
        return QStringLiteral("= equal");
    if (row.kind == DiffKind::Material)
        return QStringLiteral("! material");
    return diffKindName(row.kind);
}

void RunDiffModel::setDiff(RunDiff diff)
{
    beginResetModel();
    m_diff = std::move(diff);
    m_groups.clear();
    QHash<QString, int> groupOf;
    QStringList sections = sectionOrder;
    for (const DiffRow& row : std::as_const(m_diff.rows)) {
        if (!sections.contains(row.section))
            sections << row.section; // a section rundiff adds later: after the known ones
    }
    for (const QString& s : std::as_const(sections)) {
        groupOf.insert(s, int(m_groups.size()));
        m_groups.append(Group { s, {}, 0, 0, 0, 0 });
    }
    for (int i = 0; i < m_diff.rows.size(); ++i) { // the diff lists differences first: kept within each group
        const DiffRow& row = m_diff.rows[i];
        Group& g = m_groups[groupOf.value(row.section)];
        g.rows << i;
        if (row.equal)
            ++g.equal;
        else if (row.kind == DiffKind::Material)
            ++g.material;
        else if (row.kind == DiffKind::Measurement)
            ++g.measurement;
        else
            ++g.cosmetic;
    }
    m_groups.removeIf([](const Group& g) { return g.rows.isEmpty(); });
    layoutLines();
    endResetModel();
}

void RunDiffModel::setShowEqual(bool show)
{
    if (show == m_showEqual)
        return;
    beginResetModel();
    m_showEqual = show;
    layoutLines();
    endResetModel();
}

void RunDiffModel::layoutLines()
{
    m_lines.clear();
    for (int g = 0; g < m_groups.size(); ++g) {
        m_lines.append(Line { SectionRow, g, -1 });
        for (int r : std::as_const(m_groups[g].rows)) {
            if (m_showEqual || !m_diff.rows[r].equal)
                m_lines.append(Line { FieldRow, g, r });
        }
        if (!m_showEqual && m_groups[g].equal > 0)
            m_lines.append(Line { FoldedRow, g, -1 });
    }
}

QString RunDiffModel::sectionOf(int row) const
{
    return row >= 0 && row < m_lines.size() ? m_groups[m_lines[row].group].section : QString();
}

const DiffRow* RunDiffModel::diffRow(int row) const
{
    if (row < 0 || row >= m_lines.size() || m_lines[row].type != FieldRow)
        return nullptr;
    return &m_diff.rows[m_lines[row].row];
}

QString RunDiffModel::sectionLine(const Group& g) const
{
    QStringList counts;
    if (g.material)
        counts << QStringLiteral("%1 material").arg(g.material);
    if (g.measurement)
        counts << QStringLiteral("%1 measurement").arg(g.measurement);
    if (g.cosmetic)
        counts << QStringLiteral("%1 cosmetic").arg(g.cosmetic);
    const QString differences = counts.isEmpty() ? QStringLiteral("no difference")
                                                 : counts.join(QStringLiteral(", "))
            + (counts.size() == 1 && g.material + g.measurement + g.cosmetic == 1 ? QStringLiteral(" difference")
                                                                                  : QStringLiteral(" differences"));
    return QStringLiteral("%1 — %2; %3 equal").arg(sectionTitle(g.section), differences).arg(g.equal);
}

int RunDiffModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_lines.size());
}

int RunDiffModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || m_diff.runs.isEmpty() ? 0 : FirstRunColumn + runCount();
}

QVariant RunDiffModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_lines.size() || index.column() >= columnCount())
        return {};
    const Line& line = m_lines[index.row()];
    const Group& group = m_groups[line.group];
    if (role == RowTypeRole)
        return int(line.type);
    if (line.type != FieldRow) {
        const bool section = line.type == SectionRow;
        switch (role) {
        case Qt::DisplayRole:
        case Qt::ToolTipRole:
            if (index.column() != FieldColumn)
                return {};
            return section ? sectionLine(group)
                           : QStringLiteral("%1 equal field%2 folded: tick “Show equal fields” to list them")
                                 .arg(group.equal)
                                 .arg(group.equal == 1 ? QString() : QStringLiteral("s"));
        case Qt::FontRole: {
            QFont font;
            font.setBold(section);
            font.setItalic(!section);
            return font;
        }
        case Qt::BackgroundRole:
            return section ? QVariant(QColor(128, 128, 128, 48)) : QVariant();
        case Qt::ForegroundRole:
            return section ? QVariant() : QVariant(QColor(128, 128, 128));
        case DiffKindRole:
            return -1;
        default:
            return {};
        }
    }
    const DiffRow& row = m_diff.rows[line.row];
    const int run = index.column() - FirstRunColumn;
    const std::optional<QString> value = run >= 0 ? row.values[std::size_t(run)] : std::nullopt;
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == FieldColumn)
            return row.path;
        if (index.column() == KindColumn)
            return kindMarker(row);
        return value ? QString(*value).replace(QLatin1Char('\n'), QStringLiteral(" ⏎ ")) : QStringLiteral("—");
    case Qt::ToolTipRole:
        if (index.column() == FieldColumn)
            return QStringLiteral("%1: %2").arg(sectionTitle(row.section), row.path);
        if (index.column() == KindColumn)
            return row.equal ? QStringLiteral("Every run has this value")
                : row.kind == DiffKind::Material
                ? QStringLiteral("Material: the runs differ in what was measured or how (protocol, environment, "
                                 "workload, operation, correctness, metric): they are not comparable on it")
                : row.kind == DiffKind::Measurement ? QStringLiteral("Measurement: the results differ")
                                                    : QStringLiteral("Cosmetic: titles, names, labels, metadata");
        return value ? *value : QStringLiteral("%1 has no such field").arg(m_diff.headers.value(run));
    case Qt::FontRole: {
        QFont font;
        // The kind said in bold where it matters; a run's value bold where it differs from the first run's.
        font.setBold((index.column() == KindColumn && !row.equal && row.kind == DiffKind::Material)
            || (run > 0 && !row.equal && value != row.values.front()));
        return font;
    }
    case Qt::BackgroundRole:
        if (!row.equal && row.kind == DiffKind::Material)
            return QColor(230, 70, 40, 60); // a warm tint that reads on light and dark palettes
        if (!row.equal && row.kind == DiffKind::Measurement)
            return QColor(230, 180, 30, 40);
        return {};
    case Qt::ForegroundRole: // greyed: an equal row, a run that lacks the field
        if (row.equal || (run >= 0 && !value))
            return QColor(128, 128, 128);
        return {};
    case DiffKindRole:
        return int(row.kind);
    case EqualRole:
        return row.equal;
    default:
        return {};
    }
}

QVariant RunDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section == FieldColumn)
        return role == Qt::DisplayRole ? QVariant(QStringLiteral("Field")) : QVariant();
    if (section == KindColumn)
        return role == Qt::DisplayRole ? QVariant(QStringLiteral("Difference")) : QVariant();
    const int i = section - FirstRunColumn;
    const Run& run = *m_diff.runs[i];
    if (role == Qt::DisplayRole) {
        QString second = run.authorText();
        if (!second.isEmpty() && m_diff.headers[i].contains(second))
            second.clear();
        const QString digest = run.runDigest.toString();
        const QString shortDigest = digest.startsWith(QLatin1String("sha256:")) ? digest.mid(7, 10) : digest.left(10);
        if (!shortDigest.isEmpty())
            second += (second.isEmpty() ? QString() : QStringLiteral(" · ")) + shortDigest;
        return QStringLiteral("%1. %2\n%3").arg(i + 1).arg(m_diff.headers[i], second);
    }
    if (role == Qt::ToolTipRole)
        return QStringLiteral("%1\n%2%3\nrun digest %4")
            .arg(m_diff.headers[i], run.file, run.pointer.isEmpty() ? QString() : QLatin1Char('#') + run.pointer,
                run.runDigest.toString());
    return {};
}

} // namespace kix
