// SPDX-License-Identifier: Apache-2.0
#include "ui/panels/loadstatus.h"

#include "ui/panels/issuespanel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QToolButton>

namespace kix {

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
    return !m_progress->isHidden();
}

void LoadStatus::setLoading(int fileCount)
{
    m_progress->show();
    m_cancel->show();
    if (fileCount > 0) {
        m_progress->setRange(0, fileCount);
        m_progress->setValue(0);
    } else {
        m_progress->setRange(0, 0); // busy until the first progress report
    }
}

void LoadStatus::setProgress(int done, int total)
{
    if (total <= 0)
        return;
    m_progress->setRange(0, total);
    m_progress->setValue(done);
    m_progress->setFormat(QStringLiteral("%1 / %2 files").arg(done).arg(total));
}

void LoadStatus::setIdle()
{
    m_progress->hide();
    m_cancel->hide();
}

} // namespace kix
