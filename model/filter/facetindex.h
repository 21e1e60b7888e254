// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/filter/filterindex.h"
#include "model/filter/runfilter.h"

#include <QStringList>
#include <QVector>

#include <vector>

namespace kix {

// Facet values and their counts for the facets panel, fast enough to recount on every keystroke over 1M runs: the
// runs' filter columns (FilterIndex) are built once in setRuns(), and each facet value is named per distinct value
// of its field group; counting is then integer work plus the text match over the index, which is cached while only
// facet selections change, and narrowed (only the previous matches are tested) while the user types forward.
//
// Counts are drill-down counts: a value's count is the number of runs that match the text and every other
// facet's selection, i.e. how many runs the table would show if that value were (also) selected.
class FacetIndex
{
public:
    explicit FacetIndex(QVector<Facet> facets = allFacets());

    void setRuns(const RunList& runs);
    int runCount() const { return int(m_runs.size()); }
    const QVector<Facet>& facets() const { return m_facets; }

    // Sorted values of a facet (an empty value stands for runs that lack it).
    const QStringList& values(Facet facet) const;

    struct Counts
    {
        QVector<QVector<int>> perFacet; // [facet index][value index]
        int matching = 0; // runs that pass the whole filter
    };
    Counts count(const RunFilter& filter) const;

private:
    int facetIndex(Facet facet) const { return int(m_facets.indexOf(facet)); }
    void updateTextMatches(const QString& text) const;

    QVector<Facet> m_facets;
    RunList m_runs;
    QVector<QStringList> m_values; // per facet
    int valueId(int facet, size_t run) const
    {
        return m_valueOfGroupValue[size_t(facet)][m_filterIndex->valueOf(m_groupOf[facet], qsizetype(run))];
    }
    std::shared_ptr<const FilterIndex> m_filterIndex;
    QVector<int> m_groupOf; // per facet: its FilterIndex group
    std::vector<std::vector<int>> m_valueOfGroupValue; // per facet, per value of its group: the facet's value
    mutable QString m_cachedText;
    mutable bool m_cacheValid = false;
    mutable std::vector<char> m_textMatches;
};

} // namespace kix
