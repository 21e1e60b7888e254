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
    m_valueIds.resize(size_t(m_facets.size()));
}

void FacetIndex::setRuns(const RunList& runs)
{
    m_runs = runs;
    m_cacheValid = false;
    const size_t n = size_t(runs.size());
    for (int f = 0; f < m_facets.size(); ++f) {
        // Collect distinct values first, then renumber them in sorted order.
        QHash<QString, int> firstIds;
        QStringList firstOrder;
        std::vector<int>& ids = m_valueIds[size_t(f)];
        ids.assign(n, 0);
        QString last;
        int lastId = -1;
        for (size_t i = 0; i < n; ++i) {
            const QString value = facetValue(*runs[qsizetype(i)], m_facets[f]);
            // Neighbouring runs mostly share values, and the loader interns them: skip the hash then.
            if (lastId >= 0 && sameText(value, last)) {
                ids[i] = lastId;
                continue;
            }
            auto it = firstIds.constFind(value);
            if (it == firstIds.constEnd()) {
                it = firstIds.insert(value, int(firstOrder.size()));
                firstOrder << value;
            }
            ids[i] = lastId = *it;
            last = value;
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
        for (size_t i = 0; i < n; ++i) {
            if (m_textMatches[i])
                m_textMatches[i] = textOnly.matches(*m_runs[qsizetype(i)]) ? 1 : 0;
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
            if (!s.allowed[size_t(m_valueIds[size_t(s.facet)][i])]) {
                failedFacet = s.facet;
                if (++failures > 1)
                    break;
            }
        }
        if (failures == 0) {
            ++counts.matching;
            for (int f = 0; f < facetCount; ++f)
                ++counts.perFacet[f][m_valueIds[size_t(f)][i]];
        } else if (failures == 1) {
            ++counts.perFacet[failedFacet][m_valueIds[size_t(failedFacet)][i]];
        }
    }
    return counts;
}

} // namespace kix
