// SPDX-License-Identifier: Apache-2.0
#include "ui/panels/facetspanel.h"

#include "ui/models/facetmodel.h"

#include <QApplication>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStyle>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace kix {

namespace {

// The text room of a value row (beside its check box), as the style lays it out.
int textRoom(const QStyleOptionViewItem& option, const QWidget* widget)
{
    const QStyle* style = widget ? widget->style() : QApplication::style();
    const QRect text = style->subElementRect(QStyle::SE_ItemViewItemText, &option, widget);
    return text.width() - 2 * (style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1);
}

} // namespace

QString FacetsPanel::shownName(const QModelIndex& index) const
{
    QStyleOptionViewItem option;
    option.initFrom(m_view);
    option.rect = m_view->visualRect(index);
    option.features = QStyleOptionViewItem::HasDisplay | QStyleOptionViewItem::HasCheckIndicator;
    option.font = m_view->font();
    option.fontMetrics = m_view->fontMetrics();
    option.widget = m_view;
    const QString name = index.data().toString();
    option.text = name;
    option.checkState = Qt::Unchecked;
    return option.fontMetrics.elidedText(name, m_view->textElideMode(), textRoom(option, m_view));
}

FacetsPanel::FacetsPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new FacetModel(this))
    , m_view(new QTreeView(this))
    , m_summary(new QLabel(this))
    , m_valueFilter(new QLineEdit(this))
    , m_showEmpty(new QCheckBox(QStringLiteral("Show empty"), this))
{
    m_view->setModel(m_model);
    m_view->setUniformRowHeights(true);
    m_view->setSelectionMode(QAbstractItemView::NoSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // A name that fits is drawn whole; one that does not is elided at its end only, never inside a word in the
    // middle (fused_linear_cpo_loss reads as itself up to where it is cut); the tooltip has the whole name.
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->setIndentation(fontMetrics().horizontalAdvance(QLatin1Char('0')) * 2);
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

    m_summary->setWordWrap(true); // "28 matching · 53 empty hidden" wraps rather than widening the dock
    m_valueFilter->setPlaceholderText(QStringLiteral("Filter values"));
    m_valueFilter->setClearButtonEnabled(true);
    m_valueFilter->setMinimumWidth(60); // the dock stays as narrow as before (the window works at 1024 px)
    m_valueFilter->setAccessibleName(QStringLiteral("Filter facet values"));
    m_valueFilter->setToolTip(QStringLiteral("Lists only the values whose names contain every word typed here (the "
                                             "runs shown do not change: the filter box above the table does that)"));
    connect(m_valueFilter, &QLineEdit::textChanged, this, &FacetsPanel::updateHiddenRows);
    m_showEmpty->setToolTip(QStringLiteral("List the values that no run matches under the current filter (count 0)"));
    connect(m_showEmpty, &QCheckBox::toggled, this, &FacetsPanel::updateHiddenRows);

    auto* top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(clear);
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(m_valueFilter, 1);
    filterRow->addWidget(m_showEmpty);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addLayout(filterRow);
    layout->addWidget(m_view);

    // A click anywhere on a value row, or Space on it, toggles it. (Not `activated`: some styles activate on a
    // single click too, which would toggle twice.)
    connect(m_view, &QTreeView::clicked, m_model, &FacetModel::toggle);
    m_view->installEventFilter(this);
    connect(m_model, &FacetModel::selectionChanged, this, &FacetsPanel::facetChanged);
    connect(m_model, &FacetModel::selectionChanged, this, &FacetsPanel::updateHiddenRows);
    connect(m_model, &FacetModel::countsChanged, this, &FacetsPanel::updateHiddenRows);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        // A count never exceeds the number of runs: the column is as wide as that number, and no wider.
        const QString widest = QString::number(std::max(99, m_model->runCount())) + QStringLiteral("0");
        m_view->header()->resizeSection(FacetModel::CountColumn, fontMetrics().horizontalAdvance(widest) + 12);
        m_view->expandAll();
        updateHiddenRows();
    });
    updateHiddenRows();
}

bool FacetsPanel::isValueListed(const QModelIndex& index) const
{
    if (!index.isValid() || !index.parent().isValid())
        return false;
    if (index.data(Qt::CheckStateRole).value<Qt::CheckState>() == Qt::Checked)
        return true; // a selected value always shows: it must be clearable
    if (!m_showEmpty->isChecked()
        && index.siblingAtColumn(FacetModel::CountColumn).data(FacetModel::CountRole).toInt() == 0)
        return false;
    const QString name = index.siblingAtColumn(FacetModel::NameColumn).data().toString();
    const QStringList words = m_valueFilter->text().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    return std::all_of(
        words.begin(), words.end(), [&](const QString& word) { return name.contains(word, Qt::CaseInsensitive); });
}

void FacetsPanel::setValueFilter(const QString& text)
{
    m_valueFilter->setText(text);
}

void FacetsPanel::setShowEmpty(bool show)
{
    m_showEmpty->setChecked(show);
}

void FacetsPanel::updateHiddenRows()
{
    // Rows are hidden in the view, not removed from the model: the model's rows and indexes stay as they are.
    const bool narrowing = !m_valueFilter->text().trimmed().isEmpty();
    m_hiddenEmpty = 0;
    for (int f = 0; f < m_model->rowCount(); ++f) {
        const QModelIndex facet = m_model->index(f, 0);
        const int values = m_model->rowCount(facet);
        int listed = 0;
        for (int row = 0; row < values; ++row) {
            const QModelIndex value = m_model->index(row, 0, facet);
            const bool shown = isValueListed(value);
            if (!shown && !m_showEmpty->isChecked()
                && value.siblingAtColumn(FacetModel::CountColumn).data(FacetModel::CountRole).toInt() == 0)
                ++m_hiddenEmpty;
            listed += shown ? 1 : 0;
            if (m_view->isRowHidden(row, facet) == shown)
                m_view->setRowHidden(row, facet, !shown);
        }
        // A facet with nothing left to list under the box goes too; an empty facet stays (its title says so).
        const bool hideFacet = narrowing && listed == 0;
        if (m_view->isRowHidden(f, {}) != hideFacet)
            m_view->setRowHidden(f, {}, hideFacet);
    }
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
    updateHiddenRows();
}

void FacetsPanel::updateSummary()
{
    QString text = QStringLiteral("%1 matching").arg(m_model->matchingCount());
    if (m_hiddenEmpty > 0)
        text += QStringLiteral(" · %1 empty hidden").arg(m_hiddenEmpty);
    m_summary->setText(text);
}

} // namespace kix
