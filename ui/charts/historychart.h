// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/chartdata/historydata.h"
#include "ui/charts/chartoptions.h"

#include <QChart>

#include <memory>

QT_BEGIN_NAMESPACE
class QAreaSeries;
class QGraphicsSceneResizeEvent;
class QLineSeries;
class QScatterSeries;
QT_END_NAMESPACE

namespace kix {

// Median over time with the p20-p80 band, one line per series of the runs (kernel, pass, provider, GPU, workload,
// metric, protocol family), the x axis by time or by version label (ordinal), change points marked (▲ regression,
// ◆ improvement, ○ outlier). Hovering a line or a mark shows the run. Clicking a legend entry hides the line.
// Everything it shows comes from HistoryData (model/chartdata/historydata.h): the chart only draws it.
class HistoryChart : public QChart
{
public:
    HistoryChart(HistoryData data, const ChartOptions& options);
    ~HistoryChart() override;

    const HistoryData& data() const { return m_data; }
    const History& history() const { return m_data.history; }
    bool byLabel() const { return m_data.byLabel; }
    int lineCount() const { return int(m_lines.size()); }
    QLineSeries* line(int i) const { return m_lines.value(i); }
    QAreaSeries* band(int i) const { return m_bands.value(i); }
    const HistorySeries& lineSeries(int i) const { return m_data.history.series[m_data.lines[i].series]; }
    QScatterSeries* marks(ChangeKind kind) const { return m_marks[int(kind)]; }
    // The chart value (x, y) of a point of line i, as drawn.
    QPointF valueAt(int line, int point) const;
    void setLineVisible(int i, bool visible);

    // What hovering showed last: the run and the text (also shown as a tooltip).
    RunPtr hoveredRun() const { return m_hoveredRun; }
    QString hoverText() const { return m_hoverText; }
    QString tooltip(int line, int point) const { return m_data.tooltip(line, point); }

protected:
    // The title wrapped to the chart's width: Qt Charts would elide it.
    void resizeEvent(QGraphicsSceneResizeEvent* event) override;

private:
    void addLines(QAbstractAxis* x, QAbstractAxis* y, const ChartOptions& options);
    void addChangeMarks(QAbstractAxis* x, QAbstractAxis* y, const ChartOptions& options);
    void hover(int line, const QPointF& at, bool state);

    HistoryData m_data;
    QList<QLineSeries*> m_lines;
    QList<QAreaSeries*> m_bands;
    QScatterSeries* m_marks[3] = { nullptr, nullptr, nullptr };
    bool m_dark = false;
    double m_fittedWidth = -1;
    RunPtr m_hoveredRun;
    QString m_hoverText;
};

} // namespace kix
