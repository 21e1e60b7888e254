// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Regressions panel's rows: each change of the history, then each unplaceable run.

#include "model/history/history.h"

#include <QAbstractTableModel>

namespace kix {

class HistoryChangesModel : public QAbstractTableModel
{
public:
    enum Column { Kind, Ratio, Series, Before, After, Evidence, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;

    void setHistory(History history)
    {
        beginResetModel();
        m_history = std::move(history);
        endResetModel();
    }
    const History& history() const { return m_history; }

    int rowCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_history.changes.size() + m_history.unplaceable.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }

    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        static const char* const names[ColumnCount] = { "Kind", "Ratio", "Series", "Before", "After", "Evidence" };
        if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section >= 0 && section < ColumnCount)
            return QString::fromLatin1(names[section]);
        return {};
    }

    QVariant data(const QModelIndex& index, int role) const override
    {
        if (!index.isValid() || index.row() >= rowCount())
            return {};
        const int row = index.row();
        if (row >= m_history.changes.size()) {
            const Run& run = *m_history.unplaceable[row - m_history.changes.size()];
            if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
                return {};
            switch (index.column()) {
            case Kind:
                return QStringLiteral("unplaceable");
            case Series:
                return run.externalId.isEmpty() ? run.name : run.externalId;
            case Evidence:
                return QStringLiteral("no usable observedAt: %1").arg(run.file + run.pointer);
            default:
                return {};
            }
        }
        const HistoryChange& c = m_history.changes[row];
        const HistorySeries& s = m_history.series[c.series];
        if (role == Qt::ForegroundRole && index.column() == Kind) {
            const bool dark = false;
            return c.kind == ChangeKind::Regression ? ChartStyle::verdictColor(Verdict::Slower, dark)
                : c.kind == ChangeKind::Improvement ? ChartStyle::verdictColor(Verdict::Faster, dark)
                                                    : ChartStyle::warningColor(dark);
        }
        if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
            return {};
        auto side = [&s](const Run& run, const QString& label, double level) -> QString {
            const QString at = run.observedAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm"));
            return (label.isEmpty() ? at : label + QStringLiteral(" · ") + at) + QStringLiteral(" · ")
                + formatHistoryValue(level, s.unit);
        };
        switch (index.column()) {
        case Kind:
            return QString(changeKindName(c.kind) + (c.change.confirmed ? QString() : QStringLiteral(" (newest run)")));
        case Ratio:
            return QStringLiteral("%1×").arg(c.change.ratio, 0, 'f', 3);
        case Series:
            return s.title;
        case Before:
            return side(*c.before, s.points[c.change.beforeIndex].label, c.change.before);
        case After:
            return side(*c.after, s.points[c.change.index].label, c.change.after);
        case Evidence:
            return c.change.evidence;
        default:
            return {};
        }
    }

private:
    History m_history;
};

} // namespace kix
