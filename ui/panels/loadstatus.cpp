// SPDX-License-Identifier: Apache-2.0
#include "ui/panels/loadstatus.h"

#include "ui/panels/issuespanel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QToolButton>

#include <algorithm>

namespace kix {

namespace {

// The default locale, with its thousands separator even where it is C's ("1,234 of 5,000 files").
QLocale grouping()
{
    QLocale locale;
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    return locale;
}

} // namespace

LoadStatus::LoadStatus(QWidget* parent)
    : QWidget(parent)
    , m_counts(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_cancel(new QToolButton(this))
    , m_issues(new QToolButton(this))
{
    m_progress->setMaximumWidth(180);
    m_progress->setTextVisible(true);
    m_cancel->setText(QStringLiteral("Cancel"));
    m_cancel->setToolTip(QStringLiteral("Stop loading (runs already read are dropped)"));
    connect(m_cancel, &QToolButton::clicked, this, &LoadStatus::cancelRequested);
    m_issues->setAutoRaise(true);
    m_issues->setToolTip(QStringLiteral("Problems found while loading: show the Issues panel"));
    m_issues->hide();
    connect(m_issues, &QToolButton::clicked, this, &LoadStatus::issuesRequested);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_progress);
    layout->addWidget(m_cancel);
    layout->addWidget(m_issues);
    layout->addWidget(m_counts);
    setIdle();
    setCounts(0, 0, 0);
}

void LoadStatus::setCounts(int loaded, int shown, int selected)
{
    const QLocale locale;
    QString text = QStringLiteral("%1 runs · %2 shown").arg(locale.toString(loaded), locale.toString(shown));
    if (selected > 0)
        text += QStringLiteral(" · %1 selected").arg(locale.toString(selected));
    m_counts->setText(text);
}

void LoadStatus::setIssueCounts(int errors, int warnings)
{
    m_issues->setText(issueCountText(errors, warnings));
    m_issues->setVisible(errors > 0 || warnings > 0);
}

QString LoadStatus::issuesText() const
{
    return m_issues->isHidden() ? QString() : m_issues->text();
}

QString LoadStatus::countsText() const
{
    return m_counts->text();
}

bool LoadStatus::isLoading() const
{
    return !m_cancel->isHidden();
}

void LoadStatus::setLoading(int fileCount)
{
    m_progress->show();
    m_cancel->show();
    m_done = 0;
    m_total = std::max(0, fileCount);
    m_progress->setToolTip(QString());
    if (fileCount > 0) {
        m_progress->setRange(0, fileCount);
        m_progress->setValue(0);
        m_progress->setFormat(QStringLiteral("0 / %1 files").arg(grouping().toString(fileCount)));
    } else {
        m_progress->setRange(0, 0); // busy until the first progress report
        m_progress->setFormat(QStringLiteral("%p%"));
    }
}

void LoadStatus::setProgress(int done, int total)
{
    if (total <= 0)
        return;
    m_done = done;
    m_total = total;
    const QLocale locale = grouping();
    m_progress->setRange(0, total);
    m_progress->setValue(done);
    m_progress->setFormat(QStringLiteral("%1 / %2 files").arg(locale.toString(done), locale.toString(total)));
}

void LoadStatus::setCancelled()
{
    // What ran stays readable: the bar where it stopped, with the count, until the next load replaces it.
    const QLocale locale = grouping();
    m_cancel->hide();
    m_progress->show();
    if (m_total > 0) {
        m_progress->setRange(0, m_total);
        m_progress->setValue(m_done);
        m_progress->setFormat(
            QStringLiteral("Cancelled after %1 of %2 files").arg(locale.toString(m_done), locale.toString(m_total)));
    } else {
        m_progress->setRange(0, 1);
        m_progress->setValue(0);
        m_progress->setFormat(QStringLiteral("Cancelled before any file was read"));
    }
    m_progress->setToolTip(m_progress->format());
}

QString LoadStatus::progressText() const
{
    return m_progress->isHidden() ? QString() : m_progress->text();
}

void LoadStatus::setIdle()
{
    m_progress->hide();
    m_cancel->hide();
}

} // namespace kix
