#include "model/runfilter.h"

namespace kix {

QString facetName(Facet facet)
{
    switch (facet) {
    case Facet::Kernel:
        return QStringLiteral("Kernel");
    case Facet::Pass:
        return QStringLiteral("Pass");
    case Facet::Provider:
        return QStringLiteral("Provider");
    case Facet::Gpu:
        return QStringLiteral("GPU");
    case Facet::Dtype:
        return QStringLiteral("Dtype");
    case Facet::Source:
        return QStringLiteral("Source");
    case Facet::Metric:
        return QStringLiteral("Metric");
    case Facet::Status:
        return QStringLiteral("Status");
    }
    return {};
}

QString facetValue(const Run& run, Facet facet)
{
    switch (facet) {
    case Facet::Kernel:
        return run.kernel;
    case Facet::Pass:
        return run.pass;
    case Facet::Provider:
        return run.provider;
    case Facet::Gpu:
        return run.gpuDisplayName();
    case Facet::Dtype:
        return run.dtype;
    case Facet::Source:
        return run.source;
    case Facet::Metric:
        return run.isLatency() ? QStringLiteral("latency") : QStringLiteral("memory");
    case Facet::Status:
        return run.status;
    }
    return {};
}

const QVector<Facet>& allFacets()
{
    static const QVector<Facet> facets = { Facet::Kernel, Facet::Pass, Facet::Provider, Facet::Gpu, Facet::Dtype,
        Facet::Source, Facet::Metric, Facet::Status };
    return facets;
}

void RunFilter::setText(const QString& text)
{
    m_text = text;
    m_terms.clear();
    for (const QString& term : text.toLower().split(QLatin1Char(' '), Qt::SkipEmptyParts))
        m_terms.append(term.toUtf8());
}

void RunFilter::setFacet(Facet facet, const QSet<QString>& values)
{
    if (values.isEmpty())
        m_facets.remove(facet);
    else
        m_facets.insert(facet, values);
}

bool RunFilter::isEmpty() const
{
    return m_terms.isEmpty() && m_facets.isEmpty();
}

bool RunFilter::matches(const Run& run) const
{
    for (auto it = m_facets.cbegin(); it != m_facets.cend(); ++it) {
        if (!it.value().contains(facetValue(run, it.key())))
            return false;
    }
    for (const QByteArray& term : m_terms) {
        if (!run.searchText.contains(term))
            return false;
    }
    return true;
}

RunList RunFilter::apply(const RunList& runs) const
{
    if (isEmpty())
        return runs;
    RunList out;
    for (const RunPtr& run : runs) {
        if (matches(*run))
            out.append(run);
    }
    return out;
}

} // namespace kix
