// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/chartdata/quantiledata.h"
#include "ui/charts/chartoptions.h"

#include <QChart>
#include <QFont>
#include <QHash>

QT_BEGIN_NAMESPACE
class QBoxPlotSeries;
class QBoxSet;
class QBarCategoryAxis;
QT_END_NAMESPACE

namespace kix {

// One box per latency run: p20-p80 box, median line, whiskers to min/max where the run has them. Workloads are
// the categories; each provider·GPU is a series (so its boxes share a colour and a legend entry). Hovering a box
// shows the exact values.
class QuantileChart : public QChart
{
public:
    QuantileChart(QuantileData data, const ChartOptions& options);

    const QuantileData& data() const { return m_data; }
    QList<QBoxPlotSeries*> boxSeries() const;
    // The box drawn for a set; nullptr for the invisible placeholders where a series lacks a workload.
    const QuantileBox* boxFor(const QBoxSet* set) const;

    static QString tooltip(const QuantileBox& box, const TimeScale& scale);

private:
    void addBoxSeries(const QVector<QVector<int>>& cell, const QVector<double>& groupMedian, QAbstractAxis* x,
        QAbstractAxis* y, const ChartOptions& options);
    void uprightLabelsIfCramped(QBarCategoryAxis* axis);
    void applyLabelAngle();
    int m_uprightWidth = 0; // px: the widest line of a category label
    int m_turnedWidth = 0; // px: the most lines of a category label, turned upright
    QFont m_labelFont; // the axis' label font, before any shrinking to fit
    QStringList m_labels; // the category labels as drawn, their lines joined by " · "
    QuantileData m_data;
    QHash<const QBoxSet*, int> m_boxBySet;
};

} // namespace kix
