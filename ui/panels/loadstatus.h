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
    // After Cancel: the progress stays, as far as it got ("Cancelled after 1,234 of 5,000 files"), until the next load.
    void setCancelled();
    QString progressText() const; // the progress indicator's text; "" when it is hidden

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
    int m_done = 0; // files read of the current load, as last reported
    int m_total = 0;
};

} // namespace kix
