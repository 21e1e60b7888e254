// SPDX-License-Identifier: Apache-2.0
#include "ui/models/diagnosticsmodel.h"

#include <QApplication>
#include <QFileInfo>
#include <QStyle>

namespace kix {

DiagnosticsModel::DiagnosticsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_diagnostics.size());
}

int DiagnosticsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_diagnostics.size())
        return {};
    const Diagnostic& d = m_diagnostics[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn:
            return d.isError() ? QStringLiteral("error") : QStringLiteral("warning");
        case FileColumn:
            return QFileInfo(d.file).fileName();
        case LocationColumn:
            if (d.line > 0 && d.column > 0)
                return QStringLiteral("line %1, column %2").arg(d.line).arg(d.column);
            if (d.line > 0) // a JSON Lines document or a catalog row: the pointer within it, and its line
                return QString(
                    (d.pointer.isEmpty() ? QStringLiteral("/") : d.pointer) + QStringLiteral(" (line %1)").arg(d.line));
            return d.pointer.isEmpty() ? QStringLiteral("/") : d.pointer;
        case MessageColumn:
            return d.message;
        }
        return {};
    case Qt::ToolTipRole:
        return d.toString();
    case Qt::DecorationRole:
        if (index.column() == SeverityColumn && qobject_cast<QApplication*>(QCoreApplication::instance()))
            return QApplication::style()->standardIcon(
                d.isError() ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxWarning);
        return {};
    default:
        return {};
    }
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case SeverityColumn:
        return QStringLiteral("Severity");
    case FileColumn:
        return QStringLiteral("File");
    case LocationColumn:
        return QStringLiteral("Where");
    case MessageColumn:
        return QStringLiteral("Problem");
    }
    return {};
}

void DiagnosticsModel::append(const Diagnostics& diagnostics)
{
    if (diagnostics.isEmpty())
        return;
    beginInsertRows({}, int(m_diagnostics.size()), int(m_diagnostics.size() + diagnostics.size()) - 1);
    for (const Diagnostic& d : diagnostics) {
        m_diagnostics.append(d);
        m_errors += d.isError() ? 1 : 0;
    }
    endInsertRows();
}

void DiagnosticsModel::clear()
{
    beginResetModel();
    m_diagnostics.clear();
    m_errors = 0;
    endResetModel();
}

} // namespace kix
