// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QProgressBar;
class QToolButton;
QT_END_NAMESPACE

namespace kix {

// The status bar's right side: run counts (loaded, shown, selected), the issue counts in the Issues panel's words
// (a click shows the panel) and, while loading, progress with Cancel.
class LoadStatus : public QWidget
{
    Q_OBJECT
public:
    explicit LoadStatus(QWidget* parent = nullptr);

    void setCounts(int loaded, int shown, int selected);
    void setIssueCounts(int errors, int warnings); // hidden when both are 0
    void setLoading(int fileCount); // -1: not known yet
    void setProgress(int done, int total);
    void setIdle();

    QString countsText() const;
    QString issuesText() const; // "" when hidden
    bool isLoading() const;

signals:
    void cancelRequested();
    void issuesRequested();

private:
    QLabel* m_counts;
    QProgressBar* m_progress;
    QToolButton* m_cancel;
    QToolButton* m_issues;
};

} // namespace kix
