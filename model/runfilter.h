#pragma once

#include "model/run.h"

#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>

namespace kix {

// The facets the explorer filters by.
enum class Facet { Kernel, Pass, Provider, Gpu, Dtype, Source, Metric, Status };

QString facetName(Facet facet);
QString facetValue(const Run& run, Facet facet);
const QVector<Facet>& allFacets();

// What the filter box and the facets select. Text: every whitespace-separated term must appear,
// case-insensitively, in one of the run's displayed fields ("group_norm backward b200").
// Facets: for each facet with a non-empty selection the run's value must be one of the selected values.
class RunFilter
{
public:
    void setText(const QString& text);
    const QString& text() const { return m_text; }
    void setFacet(Facet facet, const QSet<QString>& values);
    QSet<QString> facet(Facet facet) const { return m_facets.value(facet); }
    void clearFacets() { m_facets.clear(); }
    bool isEmpty() const;

    bool matches(const Run& run) const;
    RunList apply(const RunList& runs) const;

private:
    QString m_text;
    QList<QByteArray> m_terms; // lower-case UTF-8
    QHash<Facet, QSet<QString>> m_facets;
};

} // namespace kix
