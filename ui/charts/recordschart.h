// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/compare/records.h"
#include "ui/charts/chartoptions.h"

#include <QChart>

#include <memory>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QDateTimeAxis;
class QGraphicsSceneResizeEvent;
class QGraphicsTextItem;
class QLineSeries;
class QScatterSeries;
QT_END_NAMESPACE

namespace kix {

// One cohort's record ledger (model/compare/records.h) over time: the record value as a staircase over observedAt
// (it steps down where a run beat the record; the last step holds until the cohort's latest observation), one
// marker per record, a log value axis when the records span a decade or more. Hovering a marker or the line names
// who set the record in effect there, its value, date and margin. Beside the plot, the standings of every cohort in
// scope: records held now and ever, per author and per project.
class RecordsChart : public QChart
{
public:
    RecordsChart(RecordTimeline timeline, const Records& all, const ChartOptions& options);
    ~RecordsChart() override;

    const RecordTimeline& timeline() const { return m_timeline; }
    QLineSeries* staircase() const { return m_line; }
    QScatterSeries* markers() const { return m_markers; }
    QAbstractAxis* valueAxis() const { return m_y; }
    bool isLogY() const { return m_logY; }
    // A record value as drawn on the value axis: times in the unit that suits them (µs for 232459 ns).
    double plotted(double value) const { return value * m_scale; }
    // The read-out of record `step` (0 = the first): who, value, date, margin over whom, how long it held.
    QString tooltip(int step) const;
    // The record in effect at `msecs` since the epoch (the last step at or before it; -1 before the first).
    int stepAt(double msecs) const;
    // The standings beside the plot, as plain text (the item draws them as a table).
    QString standingsText() const;
    const QGraphicsTextItem* standingsItem() const { return m_standings; }

protected:
    void resizeEvent(QGraphicsSceneResizeEvent* event) override;

private:
    QString measureSteps(double& lo, double& hi, int& undated);
    QDateTimeAxis* createAxes(const QString& axisUnit);
    QList<QPointF> addSeriesFor(const ChartOptions& options, double& end);
    void fitAxes(QDateTimeAxis* x, const QList<QPointF>& marks, double end, double lo, double hi);
    void setTitles(int undated);
    void addStandings(const Records& all, const ChartOptions& options);
    void placeStandings();

    RecordTimeline m_timeline;
    QVector<int> m_drawn; // the steps drawn (dated), in order: index into m_timeline.steps
    QLineSeries* m_line = nullptr;
    QScatterSeries* m_markers = nullptr;
    QAbstractAxis* m_x = nullptr;
    QAbstractAxis* m_y = nullptr;
    QGraphicsTextItem* m_standings = nullptr;
    QString m_standingsText;
    QString m_title;
    QStringList m_subtitles;
    QStringList m_warnings;
    bool m_logY = false;
    double m_scale = 1; // value axis units per unit of the cohort's values
    bool m_dark = false;
    double m_fittedWidth = -1;
};

// Records in two steps, like Rank (prepareChart / drawChart): chooseRecordsTimeline() fills `info` (the chooser's
// cohorts, the notes, the title) and returns the timeline to draw (-1: none), without creating a Qt object; the
// cohort is options.cohort (its id, or text its description contains), else options.cohortRun's, else the one with
// the most records.
int chooseRecordsTimeline(const Records& records, const ChartOptions& options, ChartInfo& info);
std::unique_ptr<QChart> drawRecordsChart(const Records& records, int timeline, const ChartOptions& options);

} // namespace kix
