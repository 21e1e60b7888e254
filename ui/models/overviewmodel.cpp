// SPDX-License-Identifier: Apache-2.0
#include "ui/models/overviewmodel.h"

#include <QBrush>
#include <QFont>
#include <QPalette>

namespace kix {

OverviewModel::OverviewModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void OverviewModel::setOverview(OverviewData data)
{
    beginResetModel();
    m_data = std::move(data);
    endResetModel();
}

int OverviewModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || m_data.isEmpty() ? 0 : int(m_data.kernels.size()) + 1;
}

int OverviewModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || m_data.isEmpty() ? 0 : int(m_data.gpus.size()) + 1;
}

QString OverviewModel::kernelLabel(int row) const
{
    if (row == 0)
        return QStringLiteral("All kernels");
    const QString& name = m_data.kernels.value(row - 1);
    return name.isEmpty() ? QStringLiteral("(no kernel)") : name;
}

QString OverviewModel::gpuLabel(int column) const
{
    if (column == 0)
        return QStringLiteral("All GPUs");
    const QString& name = m_data.gpus.value(column - 1);
    return name.isEmpty() ? QStringLiteral("(no GPU)") : name;
}

QString OverviewModel::wrapLabel(const QString& label)
{
    if (label.size() <= 14)
        return label;
    qsizetype best = -1;
    qsizetype bestLength = label.size();
    for (qsizetype i = label.indexOf(QLatin1Char(' ')); i > 0; i = label.indexOf(QLatin1Char(' '), i + 1)) {
        const qsizetype longer = std::max(i, label.size() - i - 1);
        if (longer < bestLength) {
            best = i;
            bestLength = longer;
        }
    }
    if (best < 0)
        return label;
    return label.left(best) + QLatin1Char('\n') + label.mid(best + 1);
}

QString OverviewModel::wrapName(const QString& name, int maxChars)
{
    if (name.size() <= maxChars)
        return name;
    QStringList lines;
    QString line;
    qsizetype start = 0;
    while (start < name.size()) {
        qsizetype end = start;
        while (end < name.size() && name[end] != QLatin1Char('-') && name[end] != QLatin1Char('_')
            && name[end] != QLatin1Char(' '))
            ++end;
        const QString piece = name.mid(start, end - start + 1); // with its separator
        start = end + 1;
        if (!line.isEmpty() && line.size() + piece.size() > maxChars) {
            lines << line;
            line.clear();
        }
        line += piece;
    }
    if (!line.isEmpty())
        lines << line;
    for (QString& l : lines) // a space that broke the line is not drawn; '-' and '_' are part of the name
        if (l.endsWith(QLatin1Char(' ')))
            l.chop(1);
    return lines.join(QLatin1Char('\n'));
}

QString OverviewModel::cellText(const OverviewCell& cell)
{
    if (cell.runs == 0)
        return {};
    QString text = QString::number(cell.runs);
    if (cell.implementations > 0)
        text += QStringLiteral(" · %1 impl.").arg(cell.implementations);
    if (cell.failed > 0)
        text += QStringLiteral(", %1 failed").arg(cell.failed);
    return text;
}

const OverviewCell& OverviewModel::cellAt(int row, int column) const
{
    if (row == 0)
        return column == 0 ? m_data.total : m_data.gpuTotals[column - 1];
    if (column == 0)
        return m_data.kernelTotals[row - 1];
    return m_data.cell(row - 1, column - 1);
}

QString OverviewModel::clauseAt(int row, int column) const
{
    if (row == 0)
        return column == 0 ? QString() : m_data.gpuClauses.value(column - 1);
    if (column == 0)
        return m_data.kernelClauses.value(row - 1);
    return m_data.cellClause(row - 1, column - 1);
}

QVariant OverviewModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const int row = index.row();
    const int column = index.column();
    const OverviewCell& cell = cellAt(row, column);
    switch (role) {
    case Qt::DisplayRole:
        return cellText(cell);
    case Qt::TextAlignmentRole:
        return int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
        if (row == 0 || column == 0) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ToolTipRole: {
        if (cell.runs == 0)
            return QStringLiteral("No %1 run on %2").arg(kernelLabel(row), gpuLabel(column));
        const QString where = row == 0 && column == 0 ? QStringLiteral("Every kernel on every GPU")
            : row == 0                                ? QStringLiteral("Every kernel on %1").arg(gpuLabel(column))
            : column == 0                             ? QStringLiteral("%1 on every GPU").arg(kernelLabel(row))
                          : QStringLiteral("%1 on %2").arg(kernelLabel(row), gpuLabel(column));
        QString tip = QStringLiteral("%1: %2 run(s) of %3 implementation(s), %4 failed")
                          .arg(where)
                          .arg(cell.runs)
                          .arg(cell.implementations)
                          .arg(cell.failed);
        const QString clause = clauseAt(row, column);
        if (!clause.isEmpty())
            tip += QStringLiteral("\nClick to filter: %1").arg(clause);
        else if (row != 0 || column != 0)
            tip += QStringLiteral("\nNo filter clause selects exactly these runs (a name the filter cannot tell "
                                  "from another): use the Facets");
        return tip;
    }
    case ClauseRole:
        return clauseAt(row, column);
    default:
        return {};
    }
}

QVariant OverviewModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    const bool horizontal = orientation == Qt::Horizontal;
    if (section < 0 || section >= (horizontal ? columnCount() : rowCount()))
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return horizontal ? wrapLabel(gpuLabel(section)) : wrapName(kernelLabel(section));
    case Qt::ToolTipRole: {
        const QString label = horizontal ? gpuLabel(section) : kernelLabel(section);
        const QString clause = horizontal ? clauseAt(0, section) : clauseAt(section, 0);
        return clause.isEmpty() ? label : QStringLiteral("%1\nClick to filter: %2").arg(label, clause);
    }
    case Qt::FontRole:
        if (section == 0) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::TextAlignmentRole:
        return horizontal ? int(Qt::AlignCenter) : int(Qt::AlignLeft | Qt::AlignVCenter);
    case ClauseRole:
        return horizontal ? clauseAt(0, section) : clauseAt(section, 0);
    default:
        return {};
    }
}

QString OverviewModel::toTsv() const
{
    QStringList lines;
    QStringList header { QStringLiteral("kernel") };
    for (int c = 0; c < columnCount(); ++c)
        header << gpuLabel(c);
    lines << header.join(QLatin1Char('\t'));
    for (int r = 0; r < rowCount(); ++r) {
        QStringList line { kernelLabel(r) };
        for (int c = 0; c < columnCount(); ++c)
            line << QString::number(cellAt(r, c).runs);
        lines << line.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace kix
