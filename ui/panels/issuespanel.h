// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QTableView;
QT_END_NAMESPACE

namespace kix {

class DiagnosticsModel;

// "26 errors, 12 warnings": the one wording of the issue counts, in the panel and the status bar alike.
QString issueCountText(int errors, int warnings);

// The non-modal list of problems found while loading: file, where, what. Never a modal box for input problems.
class IssuesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit IssuesPanel(DiagnosticsModel* model, QWidget* parent = nullptr);

    QTableView* view() const { return m_view; }
    QString summaryText() const;

signals:
    void clearRequested();

private:
    void updateSummary();

    DiagnosticsModel* m_model;
    QTableView* m_view;
    QLabel* m_summary;
};

} // namespace kix
