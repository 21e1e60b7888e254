// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/chartdata/speedupdata.h"
#include "ui/charts/chartoptions.h"

#include <QChart>
#include <QFont>
#include <QHash>

#include <memory>

QT_BEGIN_NAMESPACE
class QAbstractBarSeries;
class QGraphicsSceneResizeEvent;
class QBarSet;
class QScatterSeries;
QT_END_NAMESPACE

namespace kix {

class ValueLabels;

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
    ~SpeedupChart() override;

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
    // The bars' value labels as drawn (those that would overlap are left out, with a note).
    const ValueLabels* valueLabels() const { return m_valueLabels.get(); }

    static QString tooltip(const ComparisonPair& pair) { return speedupTooltip(pair); }
    // "▲" faster, "◆" slower, "●" same, "□" ambiguous: the shapes of the markers.
    static QString verdictSymbol(Verdict verdict) { return kix::verdictSymbol(verdict); }

    // The lines a workload label takes at 6 pt at the chart's width now: 1, or more where a label is wider than the
    // axis at 6 pt and wraps between its parameters (ChartPanel then draws fewer rows, each as tall as its label).
    // Whatever the rows' height: the rows the panel fits to it must not change it.
    int rowLines() const { return m_rowLines; }

protected:
    void resizeEvent(QGraphicsSceneResizeEvent* event) override;

private:
    void addBarSets(int categoryCount, const ChartOptions& options);
    void addVerdictMarkers(QAbstractAxis* x, QAbstractAxis* y, const ChartOptions& options);
    struct LabelFit
    {
        QFont font;
        QStringList labels; // the workload labels as drawn: whole lines, or wrapped with <br>
        int lines = 1;
    };
    // The labels' font and lines for rows `room` px tall (less padding) and an axis `width` px wide.
    LabelFit fitLabels(const QFont& base, double room, double width) const;
    // The lines the widest-wrapping label takes at 6 pt on an axis `width` px wide (the same wrapping as fitLabels).
    int smallestLines(double width) const;
    // The title wrapped to the chart's width, the axis titles to the plot's: Qt Charts would elide them.
    void fitTitles();

    SpeedupData m_data;
    bool m_dark = false;
    QSizeF m_fittedSize;
    QSizeF m_fittedPlot;
    QFont m_labelFont; // the category axis' label font, before any shrinking to fit
    int m_rowLines = 1;
    QFont m_legendFont; // the legend's, likewise
    QAbstractBarSeries* m_bars = nullptr;
    QHash<const QBarSet*, QHash<int, int>> m_pairIndex; // set -> category (top first) -> pair
    QHash<int, QPointF> m_barEnd; // pair -> (ratio, y) in series coordinates
    QHash<int, QScatterSeries*> m_markers;
    std::unique_ptr<ValueLabels> m_valueLabels;
};

} // namespace kix
