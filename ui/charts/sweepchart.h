// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/chartdata/sweep.h"
#include "ui/charts/chartoptions.h"

#include <QChart>

QT_BEGIN_NAMESPACE
class QAreaSeries;
class QLineSeries;
QT_END_NAMESPACE

namespace kix {

// Latency against the workload parameter that varies: one line per (provider, GPU, pass) with its p20-p80 band,
// log-2 x axis, optional log y axis. Clicking a legend entry hides or shows the line and its band.
class SweepChart : public QChart
{
public:
    SweepChart(SweepData data, const ChartOptions& options);

    const SweepData& data() const { return m_data; }
    int lineCount() const { return int(m_lines.size()); }
    QLineSeries* line(int i) const { return m_lines.value(i); }
    QAreaSeries* band(int i) const { return m_bands.value(i); }
    void setLineVisible(int i, bool visible);

    // The read-out of the point of line `line` nearest to `at` (series coordinates).
    QString pointText(int line, const QPointF& at) const;

    static QString tooltip(
        const SweepSeries& series, const SweepPoint& point, const QString& xParam, const TimeScale& scale);

private:
    SweepData m_data;
    QList<QLineSeries*> m_lines;
    QList<QAreaSeries*> m_bands;
};

} // namespace kix
