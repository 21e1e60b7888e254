// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/compare/comparison.h"
#include "model/run.h"

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QAbstractSeries;
class QChart;
class QScatterSeries;
QT_END_NAMESPACE

namespace kix {

// The look shared by every chart: light or dark after the system palette, one qualitative colour per series,
// verdict colours, and a title that carries subtitles and comparability warnings (so exported figures keep them).
class ChartStyle
{
public:
    static bool isDark(const QPalette& palette);
    // Call before adding series: Qt's theme decorates series as they are added.
    static void apply(QChart* chart, bool dark);
    static QColor seriesColor(int index, bool dark);
    // Colour means provider, the same in every chart: a fixed colour for the known providers and a stable one for
    // any other, from the Okabe–Ito palette (distinguishable with the common forms of colour blindness).
    static QColor providerColor(const QString& provider, bool dark);
    // A second run of one provider in a chart (another GPU, pass or implementation) is told apart by a pattern.
    static Qt::BrushStyle variantBrush(int variant);
    static Qt::PenStyle variantPen(int variant);
    // Lines that can be told apart: six colours (Okabe–Ito without yellow and grey) × two dash patterns (solid,
    // dashed). A chart of lines draws at most this many and says how many it left out.
    static int distinctLineCount();
    // Line `index` (< distinctLineCount()): the colour cycles first, then the dash.
    static QColor lineColor(int index, bool dark);
    static Qt::PenStyle lineDash(int index);
    static QColor verdictColor(Verdict verdict, bool dark);
    static QColor warningColor(bool dark);
    // Category labels "backward · 2048" as two lines (Qt elides long single-line category labels).
    static QStringList categoryLabels(const QStringList& labels);
    // Legend at the bottom for a few series, at the right (one entry per line) for many.
    static void placeLegend(QChart* chart, int seriesCount);
    // A legend at the top or bottom gives each entry an equal share of the chart's `width` and elides what is wider:
    // `font` (the legend's own, before any shrinking), or a smaller one (not below 6 pt) where an entry would not fit.
    static void fitLegend(QChart* chart, const QFont& font, double width);
    // Shows or hides a line and its p20-p80 band. The line's legend marker stays, dimmed when hidden, so that it
    // can be clicked back; the band has no marker of its own.
    static void setLineVisible(QChart* chart, QAbstractSeries* line, QAbstractSeries* band, bool visible);
    // The run selected in the table, marked in every chart that draws it: a ring over its points (in the chart's
    // values on x and y), over the series, with a legend entry "current run" (the panel's read-out line names the
    // run: currentRunLabel); hovering the ring reports
    // `readout` as the element under it would. No points, or no run: no marker. Returns the marker series.
    static QScatterSeries* markCurrentRun(QChart* chart, const RunPtr& run, const QList<QPointF>& points,
        QAbstractAxis* x, QAbstractAxis* y, const QString& readout, bool dark);
    // The chart's current-run marker; nullptr when it has none.
    static QScatterSeries* currentRunMarker(const QChart* chart);
    // "current run: liger · B200 · backward · batch128-channels2048-fp32"
    static QString currentRunLabel(const Run& run);
    // Rich-text title: the title, then each subtitle line, then up to three warnings ("⚠ ...").
    static QString titleHtml(
        const QString& title, const QStringList& subtitles, const QStringList& warnings, bool dark);
    // The same with every line wrapped at word boundaries to `width` pixels of `font`, so that Qt Charts never
    // elides it ("fixed: batch_size=2, dtype=fp..."); width <= 0: no wrapping.
    static QString titleHtml(const QString& title, const QStringList& subtitles, const QStringList& warnings, bool dark,
        const QFont& font, double width);
    // `text` as rich text broken into lines no wider than `width` pixels of `font` (at spaces; a word wider than
    // the width is a line of its own): for axis titles, which Qt Charts elides.
    static QString wrappedHtml(const QString& text, const QFont& font, double width);
};

} // namespace kix
