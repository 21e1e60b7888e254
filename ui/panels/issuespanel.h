// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QLineEdit;
class QTimer;
class QTreeView;
QT_END_NAMESPACE

namespace kix {

class DiagnosticsModel;
class IssueTreeModel;

// "26 errors, 12 warnings": the one wording of the issue counts, in the panel, its title and the status bar alike.
QString issueCountText(int errors, int warnings);

// The non-modal list of problems found while loading, for thousands of them: a tree grouped by file, then by
// problem (or by problem, then by file) with counts, newest first, each occurrence at its place
// ("runs.jsonl:1234"); a filter narrows it. Never a modal box for input problems.
class IssuesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit IssuesPanel(DiagnosticsModel* model, QWidget* parent = nullptr);

    QTreeView* view() const { return m_view; }
    IssueTreeModel* tree() const { return m_tree; }
    QLineEdit* filterEdit() const { return m_filter; }
    QComboBox* groupingBox() const { return m_grouping; }
    QString summaryText() const;
    // "Issues (26 errors, 12 warnings)", "Issues" when there are none: the dock's title.
    QString titleText() const;

signals:
    // The counts changed: every place that shows them (the dock's title, the status bar) follows.
    void countsChanged(int errors, int warnings);

private:
    void updateSummary();
    void expandGroups();

    DiagnosticsModel* m_model;
    IssueTreeModel* m_tree;
    QTreeView* m_view;
    QLabel* m_summary;
    QLineEdit* m_filter;
    QComboBox* m_grouping;
    QTimer* m_filterTimer;
};

} // namespace kix
