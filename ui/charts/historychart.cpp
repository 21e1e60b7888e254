// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/historychart.h"

#include "ui/charts/bandedline.h"

#include "ui/charts/chartstyle.h"
#include "ui/disposal.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QCursor>
#include <QDateTimeAxis>
#include <QGraphicsSceneResizeEvent>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace kix {

namespace {

QString markName(ChangeKind kind)
{
    switch (kind) {
    case ChangeKind::Regression:
        return QStringLiteral("▲ regression");
    case ChangeKind::Improvement:
        return QStringLiteral("◆ improvement");
    case ChangeKind::Outlier:
        break;
    }
    return QStringLiteral("○ outlier");
}

} // namespace

HistoryChart::HistoryChart(HistoryData data, const ChartOptions& options)
    : m_data(std::move(data))
    , m_dark(options.dark)
{
    ChartStyle::apply(this, options.dark);
    QAbstractAxis* x = nullptr;
    if (m_data.byLabel) {
        auto* axis = new QCategoryAxis;
        axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        for (int i = 0; i < m_data.ordinal.size(); ++i)
            axis->append(m_data.ordinal[i], i);
        x = axis;
    } else {
        auto* axis = new QDateTimeAxis;
        axis->setFormat(QStringLiteral("yyyy-MM-dd"));
        x = axis;
    }
    x->setTitleText(m_data.xTitle);
    QAbstractAxis* y = nullptr;
    if (options.logY) {
        auto* axis = new QLogValueAxis;
        axis->setBase(10);
        axis->setMinorTickCount(8);
        axis->setLabelFormat(QStringLiteral("%g"));
        y = axis;
    } else {
        auto* axis = new QValueAxis;
        axis->setLabelFormat(QStringLiteral("%g"));
        y = axis;
    }
    y->setTitleText(m_data.yTitle);
    addAxis(x, Qt::AlignBottom);
    addAxis(y, Qt::AlignLeft);

    addLines(x, y, options);
    addChangeMarks(x, y, options);

    if (m_data.hasRange) {
        if (m_data.byLabel)
            x->setRange(m_data.xMin, m_data.xMax);
        else
            static_cast<QDateTimeAxis*>(x)->setRange(QDateTime::fromMSecsSinceEpoch(qint64(m_data.xMin), Qt::UTC),
                QDateTime::fromMSecsSinceEpoch(qint64(m_data.xMax), Qt::UTC));
        y->setRange(m_data.yMin, m_data.yMax);
        if (auto* linear = qobject_cast<QValueAxis*>(y); linear && !m_data.logY)
            linear->applyNiceNumbers();
    }
    for (int i = 0; i < m_data.lines.size() && options.currentRun; ++i) { // the current run: a ring on its point
        const QVector<HistoryPoint>& points = lineSeries(i).points;
        for (int k = 0; k < points.size(); ++k) {
            const int drawn = m_data.lines[i].drawnPoint(k); // the current run's point is drawn (HistoryDataOptions)
            if (points[k].run == options.currentRun && drawn >= 0)
                ChartStyle::markCurrentRun(
                    this, options.currentRun, { valueAt(i, drawn) }, x, y, tooltip(i, k), options.dark);
        }
    }
    ChartStyle::placeLegend(this, int(m_data.lines.size()));
    setTitle(ChartStyle::titleHtml(m_data.title, m_data.subtitles, m_data.warnings, options.dark));
}

// One median line per series with its band (low to high) beneath it; a legend click shows or hides the line.
void HistoryChart::addLines(QAbstractAxis* x, QAbstractAxis* y, const ChartOptions& options)
{
    for (int i = 0; i < m_data.lines.size(); ++i) {
        const HistoryLineData& data = m_data.lines[i];
        // A legend marker is too short to show a dash: a dashed line's entry says it with "┄┄".
        const Qt::PenStyle dash = ChartStyle::lineDash(i);
        const QString name = dash == Qt::SolidLine ? data.name : data.name + QStringLiteral(" ┄┄");
        QList<QPointF> medians, highs, lows;
        medians.reserve(data.x.size());
        highs.reserve(data.x.size());
        lows.reserve(data.x.size());
        for (int k = 0; k < data.x.size(); ++k) {
            medians.append({ data.x[k], data.median[k] });
            highs.append({ data.x[k], data.high[k] });
            lows.append({ data.x[k], data.low[k] });
        }
        const auto [line, band] = addBandedLine(this, medians, highs, lows, name, data.bandName,
            ChartStyle::lineColor(i, options.dark), dash, options.dark, x, y);
        for (QLegendMarker* m : legend()->markers(line))
            QObject::connect(m, &QLegendMarker::clicked, m, [this, i] { setLineVisible(i, !m_lines[i]->isVisible()); });
        QObject::connect(
            line, &QLineSeries::hovered, line, [this, i](const QPointF& at, bool state) { hover(i, at, state); });
        m_lines << line;
        m_bands << band;
    }
}

// Change points: one scatter per kind, over the lines.
void HistoryChart::addChangeMarks(QAbstractAxis* x, QAbstractAxis* y, const ChartOptions& options)
{
    for (ChangeKind kind : { ChangeKind::Regression, ChangeKind::Improvement, ChangeKind::Outlier }) {
        auto* marks = new QScatterSeries;
        marks->setName(markName(kind));
        marks->setMarkerSize(15);
        const QColor color = kind == ChangeKind::Regression ? ChartStyle::verdictColor(Verdict::Slower, options.dark)
            : kind == ChangeKind::Improvement               ? ChartStyle::verdictColor(Verdict::Faster, options.dark)
                                                            : ChartStyle::warningColor(options.dark);
        marks->setMarkerShape(kind == ChangeKind::Regression ? QScatterSeries::MarkerShapeTriangle
                : kind == ChangeKind::Improvement            ? QScatterSeries::MarkerShapeRotatedRectangle
                                                             : QScatterSeries::MarkerShapeCircle);
        marks->setColor(kind == ChangeKind::Outlier ? QColor(Qt::transparent) : color);
        marks->setBorderColor(color);
        marks->setPen(QPen(color, 2));
        for (const HistoryMarkData& mark : std::as_const(m_data.marks)) {
            if (mark.kind == kind)
                marks->append(mark.x, mark.y);
        }
        addSeries(marks);
        marks->attachAxis(x);
        marks->attachAxis(y);
        if (marks->count() == 0) {
            for (QLegendMarker* m : legend()->markers(marks))
                m->setVisible(false);
        }
        QObject::connect(marks, &QScatterSeries::hovered, marks, [this](const QPointF& at, bool state) {
            // the line whose point is nearest (in chart values) to the mark
            int best = -1;
            double bestDistance = std::numeric_limits<double>::infinity();
            for (int i = 0; i < m_lines.size(); ++i) {
                for (int k = 0; k < m_data.lines[i].x.size(); ++k) {
                    const QPointF p = valueAt(i, k);
                    const double d = std::abs(p.x() - at.x()) + std::abs(p.y() - at.y());
                    if (m_lines[i]->isVisible() && d < bestDistance) {
                        bestDistance = d;
                        best = i;
                    }
                }
            }
            if (best >= 0)
                hover(best, at, state);
        });
        m_marks[int(kind)] = marks;
    }
}

HistoryChart::~HistoryChart()
{
    // The history of a million runs (every series, every point) takes long to free: a pool thread frees it.
    qsizetype points = m_data.history.unplaceable.size();
    for (const HistorySeries& s : std::as_const(m_data.history.series))
        points += s.points.size();
    disposeOffThread(std::move(m_data.history), points > 5000);
}

void HistoryChart::resizeEvent(QGraphicsSceneResizeEvent* event)
{
    QChart::resizeEvent(event);
    const double width = size().width() - margins().left() - margins().right() - 16;
    if (width <= 0 || width == m_fittedWidth)
        return;
    m_fittedWidth = width;
    setTitle(ChartStyle::titleHtml(m_data.title, m_data.subtitles, m_data.warnings, m_dark, titleFont(), width));
}

QPointF HistoryChart::valueAt(int line, int point) const
{
    if (line < 0 || line >= m_lines.size() || point < 0 || point >= m_lines[line]->count())
        return {};
    return m_lines[line]->at(point);
}

void HistoryChart::setLineVisible(int i, bool visible)
{
    if (i >= 0 && i < m_lines.size())
        ChartStyle::setLineVisible(this, m_lines[i], m_bands[i], visible);
}

void HistoryChart::hover(int line, const QPointF& at, bool state)
{
    if (!state) {
        QToolTip::hideText();
        return;
    }
    // The nearest point of the line by x (and by y among points at the same x: same-time runs).
    const QVector<double>& xs = m_data.lines[line].x;
    int best = -1;
    double bestDistance = std::numeric_limits<double>::infinity();
    const double xSpan = std::max(1.0, xs.isEmpty() ? 1.0 : xs.back() - xs.front());
    for (int k = 0; k < xs.size(); ++k) {
        const QPointF p = valueAt(line, k);
        const double d = std::abs(p.x() - at.x()) / xSpan + 1e-9 * std::abs(p.y() - at.y());
        if (d < bestDistance) {
            bestDistance = d;
            best = k;
        }
    }
    if (best < 0)
        return;
    const int point = m_data.lines[line].seriesPoint(best); // a thinned line draws some of its points
    m_hoveredRun = lineSeries(line).points[point].run;
    m_hoverText = tooltip(line, point);
    QToolTip::showText(QCursor::pos(), m_hoverText);
}

} // namespace kix
