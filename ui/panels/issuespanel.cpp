// SPDX-License-Identifier: Apache-2.0
#include "ui/panels/issuespanel.h"

#include "ui/models/diagnosticsmodel.h"
#include "ui/models/issuetreemodel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

namespace kix {

namespace {

constexpr int kExpandAllBelow = 200; // occurrences: up to this many shown, every group is open

} // namespace

IssuesPanel::IssuesPanel(DiagnosticsModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_tree(new IssueTreeModel(model, this))
    , m_view(new QTreeView(this))
    , m_summary(new QLabel(this))
    , m_filter(new QLineEdit(this))
    , m_grouping(new QComboBox(this))
    , m_filterTimer(new QTimer(this))
{
    m_view->setModel(m_tree);
    m_view->setUniformRowHeights(true); // thousands of rows
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(IssueTreeModel::IssueColumn, QHeaderView::Stretch);
    m_view->header()->setSectionResizeMode(IssueTreeModel::CountColumn, QHeaderView::Interactive);
    m_view->header()->resizeSection(IssueTreeModel::CountColumn, 170);

    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_filter->setPlaceholderText(QStringLiteral("Filter issues: file, problem, line…"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setAccessibleName(QStringLiteral("Filter issues"));
    m_filter->setMinimumWidth(160);
    m_grouping->addItem(QStringLiteral("By file"));
    m_grouping->addItem(QStringLiteral("By problem"));
    m_grouping->setToolTip(QStringLiteral("Group the issues by file, then problem; or by problem, then file"));
    m_filterTimer->setSingleShot(true);
    m_filterTimer->setInterval(150); // ms: one regroup once typing pauses, not one per key
    connect(m_filter, &QLineEdit::textChanged, m_filterTimer, qOverload<>(&QTimer::start));
    connect(m_filterTimer, &QTimer::timeout, this, [this] { m_tree->setFilterText(m_filter->text()); });
    connect(m_grouping, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_tree->setGrouping(index == 1 ? IssueTreeModel::Grouping::ByProblem : IssueTreeModel::Grouping::ByFile);
    });

    auto* clear = new QPushButton(QStringLiteral("Clear"), this);
    clear->setToolTip(QStringLiteral("Forget the issues listed (the runs stay loaded)"));
    connect(clear, &QPushButton::clicked, model, &DiagnosticsModel::clear);

    auto* top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_filter, 1);
    top->addWidget(m_grouping);
    top->addWidget(clear);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_view);

    connect(model, &QAbstractItemModel::rowsInserted, this, &IssuesPanel::updateSummary);
    connect(model, &QAbstractItemModel::modelReset, this, &IssuesPanel::updateSummary);
    connect(m_tree, &QAbstractItemModel::modelReset, this, [this] {
        expandGroups();
        updateSummary();
    });
    updateSummary();
}

QString issueCountText(int errors, int warnings)
{
    const QLocale locale;
    auto count = [&locale](int n, const char* one) {
        return QStringLiteral("%1 %2%3").arg(
            locale.toString(n), QLatin1String(one), n == 1 ? QString() : QStringLiteral("s"));
    };
    return count(errors, "error") + QStringLiteral(", ") + count(warnings, "warning");
}

void IssuesPanel::expandGroups()
{
    if (m_tree->shownErrors() + m_tree->shownWarnings() <= kExpandAllBelow) {
        m_view->expandAll();
        return;
    }
    for (int row = 0; row < m_tree->rowCount(); ++row) // the first level open: each group's parts and counts
        m_view->expand(m_tree->index(row, 0));
}

void IssuesPanel::updateSummary()
{
    const int errors = m_model->errorCount();
    const int warnings = m_model->warningCount();
    if (m_model->rowCount() == 0) {
        m_summary->setText(QStringLiteral("No problems found while loading."));
    } else {
        QString text = issueCountText(errors, warnings) + QStringLiteral(" while loading");
        const int shown = m_tree->shownErrors() + m_tree->shownWarnings();
        if (!m_tree->filterText().trimmed().isEmpty())
            text += QStringLiteral(" · %1 shown").arg(QLocale().toString(shown));
        m_summary->setText(text);
    }
    emit countsChanged(errors, warnings);
}

QString IssuesPanel::summaryText() const
{
    return m_summary->text();
}

QString IssuesPanel::titleText() const
{
    if (m_model->rowCount() == 0)
        return QStringLiteral("Issues");
    return QStringLiteral("Issues (%1)").arg(issueCountText(m_model->errorCount(), m_model->warningCount()));
}

} // namespace kix
