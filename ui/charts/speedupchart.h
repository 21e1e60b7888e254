// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/chartdata/speedupdata.h"
#include "ui/charts/chartoptions.h"

#include <QChart>
#include <QHash>

QT_BEGIN_NAMESPACE
class QAbstractBarSeries;
class QBarSet;
class QScatterSeries;
QT_END_NAMESPACE

namespace kix {

// Speed-up against the baseline: baseline median / run median, as horizontal bars so that every workload label
// reads in full on the left (first workload at the top), one bar set per provider·GPU·pass coloured by provider,
// each bar labelled with its value, its verdict as a marker shape at the bar's end (▲ faster, ◆ slower, ● same,
// □ ambiguous), a line at 1×. The title names kernel, pass, GPU, baseline and the fixed parameters, and carries the
// geometric mean per provider, so that an exported figure keeps them. Hover and click report through ChartHover.
// Everything it shows comes from SpeedupData (model/chartdata/speedupdata.h): the chart only draws it.
class SpeedupChart : public QChart
{
public:
    SpeedupChart(SpeedupData data, const ChartOptions& options);

    const SpeedupData& data() const { return m_data; }
    const Comparison& comparison() const { return m_data.comparison; }
    QAbstractBarSeries* bars() const { return m_bars; }
    // Workload labels in drawing order, top first.
    QStringList categories() const { return m_data.categories; }
    // The pair drawn as bar `category` (top first) of `set`; nullptr where that set has no pair.
    const ComparisonPair* pairAt(const QBarSet* set, int category) const;
    // Where the bar of `pair index` ends, in chart coordinates (tests hover there).
    QPointF barEnd(int pairIndex) const;
    QScatterSeries* verdictMarkers(Verdict verdict) const { return m_markers.value(int(verdict)); }

    static QString tooltip(const ComparisonPair& pair) { return speedupTooltip(pair); }
    // "liger 1.62× (17 pairs; 3 GPUs)"
    static QString summaryLine(const ProviderSummary& summary) { return providerSummaryLine(summary); }
    // "▲" faster, "◆" slower, "●" same, "□" ambiguous: the shapes of the markers.
    static QString verdictSymbol(Verdict verdict) { return kix::verdictSymbol(verdict); }

private:
    SpeedupData m_data;
    QAbstractBarSeries* m_bars = nullptr;
    QHash<const QBarSet*, QHash<int, int>> m_pairIndex; // set -> category (top first) -> pair
    QHash<int, QPointF> m_barEnd; // pair -> (ratio, y) in series coordinates
    QHash<int, QScatterSeries*> m_markers;
};

} // namespace kix
