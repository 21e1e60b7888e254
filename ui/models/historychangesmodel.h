// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Regressions panel's rows: each change of the history, then each unplaceable run; and the proxy that sorts
// them by any column (numbers as numbers) and filters them by kind and text.

#include "model/history/history.h"
#include "model/history/historyreport.h"
#include "ui/charts/chartstyle.h"
#include "ui/disposal.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

namespace kix {

class HistoryChangesModel : public QAbstractTableModel
{
public:
    enum Column { Kind, Ratio, Series, Before, After, Evidence, ColumnCount };
    enum Role {
        // What a column sorts by: the kind's rank (regressions first), the ratio and the levels as numbers, the
        // texts as text; an invalid QVariant where a row has no value (an unplaceable run's ratio).
        SortRole = Qt::UserRole + 1,
        KindRole, // int: a KindRank
    };
    enum KindRank { RegressionRank, ImprovementRank, OutlierRank, UnplaceableRank };

    using QAbstractTableModel::QAbstractTableModel;

    void setHistory(History history)
    {
        beginResetModel();
        std::swap(m_history, history);
        endResetModel();
        // the old one: a million runs' history takes long to free
        const bool large = history.changes.size() + history.unplaceable.size() > 1000 || history.series.size() > 1000;
        disposeOffThread(std::move(history), large);
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
            if (role == KindRole || (role == SortRole && index.column() == Kind))
                return int(UnplaceableRank);
            if (role == SortRole && (index.column() == Series || index.column() == Evidence))
                return data(index, Qt::DisplayRole).toString().toLower();
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
        if (role == KindRole || (role == SortRole && index.column() == Kind))
            return int(c.kind == ChangeKind::Regression ? RegressionRank
                    : c.kind == ChangeKind::Improvement ? ImprovementRank
                                                        : OutlierRank);
        if (role == SortRole) {
            switch (index.column()) {
            case Ratio:
                return c.change.ratio;
            case Before:
                return c.change.before;
            case After:
                return c.change.after;
            default:
                return data(index, Qt::DisplayRole).toString().toLower();
            }
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

class HistoryChangesProxy : public QSortFilterProxyModel
{
public:
    enum class Kinds { All, Regressions, Improvements, Outliers };

    explicit HistoryChangesProxy(QObject* parent = nullptr)
        : QSortFilterProxyModel(parent)
    {
        setSortRole(HistoryChangesModel::SortRole);
        setFilterCaseSensitivity(Qt::CaseInsensitive);
        setFilterKeyColumn(-1); // the text filter looks at every column
    }
    void setKinds(Kinds kinds)
    {
        m_kinds = kinds;
        invalidate();
    }
    Kinds kinds() const { return m_kinds; }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override
    {
        const int rank = sourceModel()->index(row, 0, parent).data(HistoryChangesModel::KindRole).toInt();
        switch (m_kinds) {
        case Kinds::Regressions:
            if (rank != HistoryChangesModel::RegressionRank)
                return false;
            break;
        case Kinds::Improvements:
            if (rank != HistoryChangesModel::ImprovementRank)
                return false;
            break;
        case Kinds::Outliers:
            if (rank != HistoryChangesModel::OutlierRank)
                return false;
            break;
        case Kinds::All:
            break;
        }
        return QSortFilterProxyModel::filterAcceptsRow(row, parent);
    }
    // Numbers as numbers, texts as text; a row without a value (an unplaceable run's ratio) is last either way.
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override
    {
        const QVariant l = left.data(sortRole());
        const QVariant r = right.data(sortRole());
        if (l.isValid() != r.isValid())
            return l.isValid() ? sortOrder() == Qt::AscendingOrder : sortOrder() == Qt::DescendingOrder;
        if (!l.isValid())
            return false;
        if (l.typeId() == QMetaType::QString || r.typeId() == QMetaType::QString)
            return QString::localeAwareCompare(l.toString(), r.toString()) < 0;
        return l.toDouble() < r.toDouble();
    }

private:
    Kinds m_kinds = Kinds::All;
};

} // namespace kix
