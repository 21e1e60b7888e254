// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/filter/runfilter.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QTreeView;
QT_END_NAMESPACE

namespace kix {

class FacetModel;

// The facets panel: each facet's values with their counts; clicking a value selects or deselects it (several per
// facet select any of them). Tells the window at once, so that the table reacts on the click.
class FacetsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit FacetsPanel(QWidget* parent = nullptr);

    FacetModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }

    void setRuns(const RunList& runs);
    void setFilterText(const QString& text);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

signals:
    void facetChanged(kix::Facet facet, const QSet<QString>& values);

private:
    void updateSummary();

    FacetModel* m_model;
    QTreeView* m_view;
    QLabel* m_summary;
};

} // namespace kix
