// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Issues panel's tree over the flat list of load problems (DiagnosticsModel): grouped by file, then by problem
// (or by problem, then by file), each group with its counts; the leaves are the occurrences, each at its place
// ("runs.jsonl:1234 · /run/spec"). Newest first: the group whose latest problem was reported last is at the top.
// A filter keeps the occurrences whose file, place, severity and message contain every word of it.

#include "model/diagnostic.h"

#include <QAbstractItemModel>
#include <QVector>

namespace kix {

class DiagnosticsModel;

// Where a problem is, for a person: "runs.jsonl:1234 · /run/spec" (a JSON Lines document: its 1-based line, then
// the pointer within it), "broken.json:18:3" (a syntax error), "a.json · /run/spec", "a.json" (the whole file).
QString issueLocation(const Diagnostic& d);

// The problem a message is an instance of: quoted values and figures become "…" and "#", so that
// `"fast" is not a duration` and `"slow" is not a duration` group together.
QString problemPattern(const QString& message);

class IssueTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum class Grouping { ByFile, ByProblem };
    enum Column { IssueColumn, CountColumn, ColumnCount };
    enum Role {
        ErrorsRole = Qt::UserRole + 1, // int: errors in the group (the leaf's own: 0 or 1)
        WarningsRole,
        DiagnosticRole, // int: a leaf's index in DiagnosticsModel::diagnostics(), -1 for a group
    };

    explicit IssueTreeModel(DiagnosticsModel* source, QObject* parent = nullptr);

    void setGrouping(Grouping grouping);
    Grouping grouping() const { return m_grouping; }
    void setFilterText(const QString& text);
    QString filterText() const { return m_filter; }
    // The occurrences the filter keeps.
    int shownErrors() const;
    int shownWarnings() const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& index) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Node
    {
        int parent = -1;
        int row = 0;
        int depth = 0; // 1: file or problem, 2: the other, 3: an occurrence
        int diagnostic = -1; // the occurrence; for a group, its first occurrence
        int latest = -1; // the group's newest occurrence
        int errors = 0;
        int warnings = 0;
        bool mixed = false; // a problem group whose messages differ (its label is the pattern)
        QVector<int> children;
    };
    void rebuild();
    int child(int parent, const QString& key, QHash<QString, int>& keys, int diagnostic);
    bool isFileNode(const Node& n) const;
    const Diagnostic& diagnostic(const Node& n) const;

    DiagnosticsModel* m_source;
    Grouping m_grouping = Grouping::ByFile;
    QString m_filter;
    QVector<Node> m_nodes; // [0] is the root
};

} // namespace kix
