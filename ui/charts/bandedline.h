// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QColor>
#include <QList>
#include <QPointF>
#include <QString>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QAreaSeries;
class QChart;
class QLineSeries;
QT_END_NAMESPACE

namespace kix {

struct BandedLine
{
    QLineSeries* line = nullptr;
    QAreaSeries* band = nullptr;
};

// A median line over its band (p20 to p80, or low to high), both added to `chart` on the axes x and y, the band in
// the line's colour made translucent and left out of the legend: how the sweep and history charts draw a series.
// The band's bounds belong to the chart (a QAreaSeries does not own them). The line's name is set before it is
// added, so its legend entry shows it.
BandedLine addBandedLine(QChart* chart, const QList<QPointF>& medians, const QList<QPointF>& highs,
    const QList<QPointF>& lows, const QString& name, const QString& bandName, const QColor& color, Qt::PenStyle dash,
    bool dark, QAbstractAxis* x, QAbstractAxis* y);

} // namespace kix
