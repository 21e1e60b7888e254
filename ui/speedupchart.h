#pragma once

#include "model/comparison.h"
#include "ui/chartoptions.h"

#include <QChart>
#include <QHash>

QT_BEGIN_NAMESPACE
class QBarSeries;
class QBarSet;
class QScatterSeries;
QT_END_NAMESPACE

namespace kix {

// Speed-up against the baseline: baseline median / run median per workload (the categories), one bar set per
// provider·GPU·pass, a marker on each bar for its verdict, a line at 1×. The title carries the geometric mean per
// provider and the comparability warnings, so that an exported figure keeps them.
class SpeedupChart : public QChart
{
public:
    SpeedupChart(Comparison comparison, const ChartOptions& options);

    const Comparison& comparison() const { return m_comparison; }
    QBarSeries* bars() const { return m_bars; }
    QStringList categories() const { return m_categories; }
    // The pair drawn as bar `category` of `set`; nullptr where that set has no pair.
    const ComparisonPair* pairAt(const QBarSet* set, int category) const;
    QScatterSeries* verdictMarkers(Verdict verdict) const { return m_markers.value(int(verdict)); }

    static QString tooltip(const ComparisonPair& pair);
    // "liger 1.62× (17 pairs; 3 GPUs)"
    static QString summaryLine(const ProviderSummary& summary);

private:
    Comparison m_comparison;
    QBarSeries* m_bars = nullptr;
    QStringList m_categories;
    QHash<const QBarSet*, QHash<int, int>> m_pairIndex; // set -> category -> pair
    QHash<int, QScatterSeries*> m_markers;
};

} // namespace kix
