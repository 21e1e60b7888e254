// SPDX-License-Identifier: Apache-2.0
#include "ui/panels/facetspanel.h"

#include "ui/models/facetmodel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace kix {

FacetsPanel::FacetsPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new FacetModel(this))
    , m_view(new QTreeView(this))
    , m_summary(new QLabel(this))
{
    m_view->setModel(m_model);
    m_view->setUniformRowHeights(true);
    m_view->setSelectionMode(QAbstractItemView::NoSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(FacetModel::NameColumn, QHeaderView::Stretch);
    // The counts column is as wide as a seven-digit count, not sized to its contents: every recount would measure
    // every value row again (the kernel facet alone may have hundreds).
    m_view->header()->setSectionResizeMode(FacetModel::CountColumn, QHeaderView::Fixed);
    m_view->header()->resizeSection(
        FacetModel::CountColumn, fontMetrics().horizontalAdvance(QStringLiteral("0000000")) + 12);
    m_view->setAccessibleName(QStringLiteral("Facets"));

    auto* clear = new QPushButton(QStringLiteral("Clear"), this);
    clear->setToolTip(QStringLiteral("Deselect every facet value"));
    connect(clear, &QPushButton::clicked, m_model, &FacetModel::clearSelection);

    auto* top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(clear);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_view);

    // A click anywhere on a value row, or Space on it, toggles it. (Not `activated`: some styles activate on a
    // single click too, which would toggle twice.)
    connect(m_view, &QTreeView::clicked, m_model, &FacetModel::toggle);
    m_view->installEventFilter(this);
    connect(m_model, &FacetModel::selectionChanged, this, &FacetsPanel::facetChanged);
    connect(m_model, &FacetModel::selectionChanged, this, &FacetsPanel::updateSummary);
    connect(m_model, &FacetModel::countsChanged, this, &FacetsPanel::updateSummary);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        m_view->expandAll();
        updateSummary();
    });
    updateSummary();
}

bool FacetsPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view && event->type() == QEvent::KeyPress && static_cast<QKeyEvent*>(event)->key() == Qt::Key_Space
        && m_view->currentIndex().parent().isValid()) {
        m_model->toggle(m_view->currentIndex());
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void FacetsPanel::setRuns(const RunList& runs)
{
    m_model->setRuns(runs);
}

void FacetsPanel::setFilterText(const QString& text)
{
    m_model->setFilterText(text);
    updateSummary();
}

void FacetsPanel::updateSummary()
{
    m_summary->setText(QStringLiteral("%1 matching").arg(m_model->matchingCount()));
}

} // namespace kix
