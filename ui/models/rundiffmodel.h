// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/compare/rundiff.h"

#include <QAbstractTableModel>

namespace kix {

// A run comparison (model/compare/rundiff.h) as a table: a field column, a kind column ("! material",
// "measurement", "cosmetic", "= equal": the difference is said in words, the colour only repeats it), then one
// column per run. Rows are grouped by the document they come from (run, protocol, environment, workload, headline,
// digests, linked names, the document's own leaves), each group under a row that names it and counts its
// differences; within a group the differences come first, material before measurement before cosmetic. Equal
// fields are folded into one row per group unless showEqual.
class RunDiffModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { FieldColumn, KindColumn, FirstRunColumn }; // then one column per run
    enum Role {
        RowTypeRole = Qt::UserRole + 1, // RowType
        DiffKindRole, // a field row's DiffKind (int); -1 for other rows
        EqualRole, // a field row: every run has the same value
    };
    enum RowType { SectionRow, FieldRow, FoldedRow };

    explicit RunDiffModel(QObject* parent = nullptr);

    void setDiff(RunDiff diff);
    const RunDiff& diff() const { return m_diff; }
    void setShowEqual(bool show);
    bool showEqual() const { return m_showEqual; }
    int runCount() const { return int(m_diff.runs.size()); }
    // The section a row belongs to ("protocol"), and its DiffRow (nullptr for a section or folded row).
    QString sectionOf(int row) const;
    const DiffRow* diffRow(int row) const;

    // "Protocol", "Environment", ... for a rundiff section name.
    static QString sectionTitle(const QString& section);
    // The kind column's text: "! material", "measurement", "cosmetic" or "= equal".
    static QString kindMarker(const DiffRow& row);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Line
    {
        RowType type = FieldRow;
        int group = 0; // index into m_groups
        int row = -1; // index into m_diff.rows (FieldRow)
    };
    struct Group
    {
        QString section;
        QVector<int> rows; // into m_diff.rows: differences first, in the diff's order
        int material = 0, measurement = 0, cosmetic = 0, equal = 0;
    };
    void layoutLines();
    QString sectionLine(const Group& group) const;

    RunDiff m_diff;
    QVector<Group> m_groups;
    QVector<Line> m_lines;
    bool m_showEqual = false;
};

} // namespace kix
