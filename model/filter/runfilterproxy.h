// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/filter/runfilter.h"

#include <QSortFilterProxyModel>

namespace kix {

// Sorts by RunTableModel::SortRole and filters with a RunFilter (text terms and facets).
class RunFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit RunFilterProxy(QObject* parent = nullptr);

    void setFilterText(const QString& text);
    void setFacet(Facet facet, const QSet<QString>& values);
    void clearFacets();
    const RunFilter& runFilter() const { return m_filter; }

    // The runs that pass the filter, in the proxy's current order.
    RunList visibleRuns() const;
    // A filter result is being computed off the GUI thread (large scopes); the rows shown are the previous ones.
    bool isFilterPending() const { return false; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    RunFilter m_filter;
};

} // namespace kix
