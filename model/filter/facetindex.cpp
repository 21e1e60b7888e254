// SPDX-License-Identifier: Apache-2.0
#include "model/filter/facetindex.h"

#include "model/workload.h"

#include <QHash>

#include <algorithm>

namespace kix {

FacetIndex::FacetIndex(QVector<Facet> facets)
    : m_facets(std::move(facets))
{
    m_values.resize(m_facets.size());
    m_valueOfGroupValue.resize(size_t(m_facets.size()));
    for (Facet f : std::as_const(m_facets))
        m_groupOf << FilterIndex::groupOf(facetGroup(f));
    m_filterIndex = FilterIndex::extend(nullptr, RunList());
}

void FacetIndex::setRuns(const RunList& runs)
{
    m_runs = runs;
    m_cacheValid = false;
    m_filterIndex = FilterIndex::extend(nullptr, runs);
    for (int f = 0; f < m_facets.size(); ++f) {
        // Each distinct value of the facet's group names one value of the facet: collect them, then renumber them
        // in sorted order.
        const int g = m_groupOf[f];
        QHash<QString, int> firstIds;
        QStringList firstOrder;
        std::vector<int>& ids = m_valueOfGroupValue[size_t(f)];
        ids.assign(size_t(m_filterIndex->valueCount(g)), 0);
        for (int v = 0; v < m_filterIndex->valueCount(g); ++v) {
            const QString value = facetValue(m_filterIndex->valueRun(g, v), m_facets[f]);
            auto it = firstIds.constFind(value);
            if (it == firstIds.constEnd()) {
                it = firstIds.insert(value, int(firstOrder.size()));
                firstOrder << value;
            }
            ids[size_t(v)] = *it;
        }
        QStringList sorted = firstOrder;
        std::sort(sorted.begin(), sorted.end(),
            [](const QString& a, const QString& b) { return QString::compare(a, b, Qt::CaseInsensitive) < 0; });
        std::vector<int> remap(size_t(firstOrder.size()));
        for (int v = 0; v < sorted.size(); ++v)
            remap[size_t(firstIds.value(sorted[v]))] = v;
        for (int& id : ids)
            id = remap[size_t(id)];
        m_values[f] = sorted;
    }
}

const QStringList& FacetIndex::values(Facet facet) const
{
    static const QStringList none;
    const int f = facetIndex(facet);
    return f < 0 ? none : m_values[f];
}

void FacetIndex::updateTextMatches(const QString& text) const
{
    const size_t n = size_t(m_runs.size());
    RunFilter textOnly;
    textOnly.setText(text);
    RunFilter cached;
    cached.setText(m_cachedText);
    const bool incremental = m_cacheValid && m_textMatches.size() == n && filterTextNarrows(cached, textOnly);
    if (!incremental)
        m_textMatches.assign(n, 1);
    if (!textOnly.isEmpty()) {
        const FilterIndex::Matcher matcher(*m_filterIndex, textOnly);
        for (size_t i = 0; i < n; ++i) {
            if (m_textMatches[i])
                m_textMatches[i] = matcher.matches(qsizetype(i), m_runs) ? 1 : 0;
        }
    }
    m_cachedText = text;
    m_cacheValid = true;
}

FacetIndex::Counts FacetIndex::count(const RunFilter& filter) const
{
    const int facetCount = int(m_facets.size());
    const size_t n = m_runs.size();
    Counts counts;
    counts.perFacet.resize(facetCount);
    for (int f = 0; f < facetCount; ++f)
        counts.perFacet[f].fill(0, m_values[f].size());

    if (!m_cacheValid || m_cachedText != filter.text())
        updateTextMatches(filter.text());

    // Allowed value ids of each facet with a selection.
    struct Selection
    {
        int facet;
        std::vector<char> allowed;
    };
    std::vector<Selection> selections;
    for (int f = 0; f < facetCount; ++f) {
        const QSet<QString> selected = filter.facet(m_facets[f]);
        if (selected.isEmpty())
            continue;
        Selection s { f, std::vector<char>(size_t(m_values[f].size()), 0) };
        for (int v = 0; v < m_values[f].size(); ++v)
            s.allowed[size_t(v)] = selected.contains(m_values[f][v]) ? 1 : 0;
        selections.push_back(std::move(s));
    }

    for (size_t i = 0; i < n; ++i) {
        if (!m_textMatches[i])
            continue;
        int failures = 0;
        int failedFacet = -1;
        for (const Selection& s : selections) {
            if (!s.allowed[size_t(valueId(s.facet, i))]) {
                failedFacet = s.facet;
                if (++failures > 1)
                    break;
            }
        }
        if (failures == 0) {
            ++counts.matching;
            for (int f = 0; f < facetCount; ++f)
                ++counts.perFacet[f][valueId(f, i)];
        } else if (failures == 1) {
            ++counts.perFacet[failedFacet][valueId(failedFacet, i)];
        }
    }
    return counts;
}

} // namespace kix
