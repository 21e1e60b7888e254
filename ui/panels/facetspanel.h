// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/filter/runfilter.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QFontMetrics;
class QLabel;
class QLineEdit;
class QModelIndex;
class QTreeView;
QT_END_NAMESPACE

namespace kix {

class FacetModel;

// The facets panel: each facet's values with their counts; clicking a value selects or deselects it (several per
// facet select any of them). Tells the window at once, so that the table reacts on the click. A box above the lists
// narrows the values listed (words of the name, any case); values with no matching run are hidden until "Show
// empty" is checked (a selected value always shows, so that it can be cleared).
class FacetsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit FacetsPanel(QWidget* parent = nullptr);

    FacetModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }

    void setRuns(const RunList& runs);
    void setFilterText(const QString& text);

    // The box that narrows the values listed, and the toggle that lists values with a count of 0.
    QLineEdit* valueFilter() const { return m_valueFilter; }
    QCheckBox* showEmptyBox() const { return m_showEmpty; }
    void setValueFilter(const QString& text);
    void setShowEmpty(bool show);
    // Whether a value row is listed now (neither narrowed out by the box nor an empty value hidden).
    bool isValueListed(const QModelIndex& index) const;

    // The text a value row draws in the room its style gives it: the whole name when it fits, else the name elided at
    // its end ("fused_linear_cross_e…"); the tooltip always has the whole name.
    QString shownName(const QModelIndex& index) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

signals:
    void facetChanged(kix::Facet facet, const QSet<QString>& values);

private:
    void updateSummary();
    void updateHiddenRows(); // which value rows are listed: the box, the empty values

    FacetModel* m_model;
    QTreeView* m_view;
    QLabel* m_summary;
    QLineEdit* m_valueFilter;
    QCheckBox* m_showEmpty;
    int m_hiddenEmpty = 0; // empty values hidden by the last updateHiddenRows
};

} // namespace kix
