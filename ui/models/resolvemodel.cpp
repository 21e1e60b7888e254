// SPDX-License-Identifier: Apache-2.0
#include "ui/models/resolvemodel.h"

#include "model/compare/resolvereport.h"

#include <QBrush>
#include <QColor>

#include <cmath>

namespace kix {

void ResolveModel::setResolution(const Resolution& resolution)
{
    beginResetModel();
    m_resolution = resolution;
    m_rows.clear();
    for (int c = 0; c < m_resolution.cases.size(); ++c) {
        const ResolveCase& rc = m_resolution.cases[c];
        const int entries = rc.kind == ResolveKind::Exact ? int(rc.cohort.entries.size()) : 1;
        for (int e = 0; e < entries; ++e)
            m_rows.append({ c, e });
    }
    endResetModel();
}

RunList ResolveModel::runsOf(int row) const
{
    if (row < 0 || row >= m_rows.size())
        return {};
    const ResolveCase& c = m_resolution.cases[m_rows[row].resolveCase];
    return c.kind == ResolveKind::Exact ? c.cohort.entries[m_rows[row].entry].runs : c.runs();
}

int ResolveModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ResolveModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ResolveModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole) {
        static const char* const names[ColumnCount] = { "Match", "Workload", "#", "Best implementation", "Best", "Of",
            "Differs (requested → observed)", "Unconstrained" };
        return QString::fromUtf8(names[section]);
    }
    if (role == Qt::ToolTipRole && section == Implementations)
        return QStringLiteral("Implementations measured in the case (its cohort)");
    return {};
}

QVariant ResolveModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size() || index.column() >= ColumnCount)
        return {};
    const Row& row = m_rows[index.row()];
    const ResolveCase& c = m_resolution.cases[row.resolveCase];
    const RankEntry& e = c.cohort.entries[row.entry];
    if (role == RunsRole)
        return QVariant::fromValue(runsOf(index.row()));
    if (role == KindRole)
        return int(c.kind);
    if (role == Qt::ForegroundRole && index.column() == Match)
        return c.kind == ResolveKind::Exact ? QBrush(QColor(0x1b, 0x7a, 0x3d)) : QBrush(QColor(0x9a, 0x5b, 0x00));
    if (role == Qt::TextAlignmentRole
        && (index.column() == Rank || index.column() == Best || index.column() == Implementations))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (Column(index.column())) {
    case Match:
        return resolveMatchText(c);
    case Workload:
        return role == Qt::ToolTipRole ? c.cohort.key.describe() : c.workload;
    case Rank:
        return e.rank;
    case Implementation:
        return e.implementation;
    case Best:
        return resolveValueText(c, e);
    case Implementations:
        return int(c.cohort.entries.size());
    case Mismatches:
        return c.mismatches.isEmpty() ? QStringLiteral("– (exact)") : c.mismatchText();
    case Unconstrained:
        return c.unconstrainedText();
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace kix
