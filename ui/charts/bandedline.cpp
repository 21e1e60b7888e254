// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/bandedline.h"

#include <QAreaSeries>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>

namespace kix {

BandedLine addBandedLine(QChart* chart, const QList<QPointF>& medians, const QList<QPointF>& highs,
    const QList<QPointF>& lows, const QString& name, const QString& bandName, const QColor& color, Qt::PenStyle dash,
    bool dark, QAbstractAxis* x, QAbstractAxis* y)
{
    auto* line = new QLineSeries;
    auto* upper = new QLineSeries(chart);
    auto* lower = new QLineSeries(chart);
    line->setName(name);
    line->replace(medians); // one replace() each: append() signals every point
    upper->replace(highs);
    lower->replace(lows);
    auto* band = new QAreaSeries(upper, lower);
    band->setName(bandName);
    QColor fill = color;
    fill.setAlpha(dark ? 70 : 55);
    band->setColor(fill);
    band->setBorderColor(Qt::transparent);
    band->setPen(Qt::NoPen);
    chart->addSeries(band);
    chart->addSeries(line);
    line->setPen(QPen(color, 2, dash));
    line->setPointsVisible(true);
    for (QAbstractSeries* series : { static_cast<QAbstractSeries*>(band), static_cast<QAbstractSeries*>(line) }) {
        series->attachAxis(x);
        series->attachAxis(y);
    }
    const QList<QLegendMarker*> bandMarkers = chart->legend()->markers(band);
    for (QLegendMarker* m : bandMarkers)
        m->setVisible(false);
    return { line, band };
}

} // namespace kix
