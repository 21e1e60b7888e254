// SPDX-License-Identifier: Apache-2.0
#include "ui/panels/issuespanel.h"

#include "ui/models/diagnosticsmodel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace kix {

IssuesPanel::IssuesPanel(DiagnosticsModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_view(new QTableView(this))
    , m_summary(new QLabel(this))
{
    m_view->setModel(model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setColumnWidth(DiagnosticsModel::SeverityColumn, 90);
    m_view->setColumnWidth(DiagnosticsModel::FileColumn, 220);
    m_view->setColumnWidth(DiagnosticsModel::LocationColumn, 160);

    auto* clear = new QPushButton(QStringLiteral("Clear"), this);
    connect(clear, &QPushButton::clicked, this, &IssuesPanel::clearRequested);
    connect(clear, &QPushButton::clicked, model, &DiagnosticsModel::clear);

    auto* top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(clear);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_view);

    connect(model, &QAbstractItemModel::rowsInserted, this, &IssuesPanel::updateSummary);
    connect(model, &QAbstractItemModel::modelReset, this, &IssuesPanel::updateSummary);
    updateSummary();
}

QString issueCountText(int errors, int warnings)
{
    auto count = [](int n, const char* one) {
        return QStringLiteral("%1 %2%3").arg(n).arg(QLatin1String(one)).arg(n == 1 ? QString() : QStringLiteral("s"));
    };
    return count(errors, "error") + QStringLiteral(", ") + count(warnings, "warning");
}

void IssuesPanel::updateSummary()
{
    if (m_model->rowCount() == 0)
        m_summary->setText(QStringLiteral("No problems found while loading."));
    else
        m_summary->setText(
            issueCountText(m_model->errorCount(), m_model->warningCount()) + QStringLiteral(" while loading"));
}

QString IssuesPanel::summaryText() const
{
    return m_summary->text();
}

} // namespace kix
