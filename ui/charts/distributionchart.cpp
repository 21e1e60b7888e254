// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/distributionchart.h"

#include "ui/charts/charthover.h"
#include "ui/charts/chartstyle.h"

#include <QAreaSeries>
#include <QGraphicsSceneResizeEvent>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace kix {

namespace {

// The run's colour: its provider's, as in every chart; a provider's further runs take the next line colours.
QColor runColor(const DistributionData& data, int index, bool dark)
{
    const QString& provider = data.runs[index].run->provider;
    int earlier = 0;
    for (int i = 0; i < index; ++i)
        earlier += data.runs[i].run->provider == provider ? 1 : 0;
    if (earlier == 0)
        return ChartStyle::providerColor(provider, dark);
    return ChartStyle::lineColor(index + earlier, dark);
}

// A log axis labels only the powers of its base: base 10 leaves a range within one decade with one label or none.
// The base is 10^(1/m), m the fewest steps per decade that give the range at least four labels ("100", "126",
// "158", ...), each at three significant digits.
void fitLogAxis(QLogValueAxis* axis, double lo, double hi)
{
    const double decades = std::log10(hi / lo);
    int steps = 1;
    for (int m : { 1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000 }) {
        steps = m;
        if (decades * m >= 4)
            break;
    }
    axis->setBase(std::pow(10.0, 1.0 / steps));
    axis->setLabelFormat(steps == 1 ? QStringLiteral("%g") : QStringLiteral("%.3g"));
    axis->setMinorTickCount(steps == 1 ? 8 : 0);
    axis->setRange(lo, hi);
}

QString percent(double fraction)
{
    return QStringLiteral("%1%").arg(fraction * 100, 0, 'f', fraction < 0.1 ? 1 : 0);
}

} // namespace

DistributionChart::DistributionChart(DistributionData data, QuantileView view, const ChartOptions& options)
    : m_data(std::move(data))
    , m_view(view)
    , m_dark(options.dark)
{
    ChartStyle::apply(this, options.dark);
    const TimeScale& scale = m_data.scale;
    auto* x = new QLogValueAxis;
    x->setTitleText(QStringLiteral("latency (%1, log scale)").arg(scale.unit));
    addAxis(x, Qt::AlignBottom);
    auto* y = new QValueAxis;
    y->setLabelFormat(QStringLiteral("%.2g"));
    const bool ecdf = view == QuantileView::Ecdf;
    y->setTitleText(ecdf ? QStringLiteral("fraction of samples ≤ latency") : QStringLiteral("fraction of samples"));
    addAxis(y, Qt::AlignLeft);

    double top = 0;
    for (int i = 0; i < m_data.runs.size(); ++i) {
        addRun(i, x, y, options.dark);
        for (double f : m_data.runs[i].fractions)
            top = std::max(top, f);
    }
    if (!m_data.edges.empty()) {
        // A little room either side on the log axis, so that the first and last steps are not on the frame.
        fitLogAxis(x, scale.fromNs(m_data.edges.front()) / 1.05, scale.fromNs(m_data.edges.back()) * 1.05);
    }
    if (ecdf)
        y->setRange(0, 1);
    else {
        y->setRange(0, std::max(0.05, top * 1.08));
        y->applyNiceNumbers();
    }
    ChartStyle::placeLegend(this, int(m_data.runs.size()));
    for (QLegendMarker* marker : legend()->markers())
        marker->setShape(QLegend::MarkerShapeRectangle);

    m_subtitles << (ecdf ? QStringLiteral("ECDF: the fraction of each run's raw samples at or below a latency")
                         : QStringLiteral("Histogram: the fraction of each run's raw samples per log-spaced bin"))
            + QStringLiteral(" · vs %1 (baseline) at α = %2").arg(m_data.runs.value(0).name).arg(m_data.alpha);
    m_subtitles += m_data.notes.filter(QStringLiteral("fixed: ")); // as the boxes say what every run shares
    for (const DistributionVerdict& v : std::as_const(m_data.verdicts))
        m_subtitles << v.line;
    setTitle(ChartStyle::titleHtml(m_data.title, m_subtitles, m_data.warnings, options.dark));
}

QXYSeries* DistributionChart::addRun(int index, QAbstractAxis* x, QAbstractAxis* y, bool dark)
{
    const DistributionRun& r = m_data.runs[index];
    const TimeScale& scale = m_data.scale;
    const QColor color = runColor(m_data, index, dark);
    auto* line = new QLineSeries(this); // the chart owns it; as an area's bound it is not the chart's series
    QPen pen(color, 2);
    pen.setStyle(index >= 2 ? Qt::DashLine : Qt::SolidLine); // four overlaid runs stay apart where colours merge
    line->setPen(pen);
    QList<QPointF> points;
    QAbstractSeries* series = line;
    if (m_view == QuantileView::Ecdf) {
        // A step at each distinct sample: flat up to it, then up to its fraction; flat to the axis' end after.
        double previous = 0;
        points << QPointF(scale.fromNs(m_data.edges.front()) / 1.05, 0); // from the axis' start
        for (size_t i = 0; i < r.ecdfX.size(); ++i) {
            const double at = scale.fromNs(r.ecdfX[i]);
            points << QPointF(at, previous) << QPointF(at, r.ecdfY[i]);
            previous = r.ecdfY[i];
        }
        points << QPointF(scale.fromNs(m_data.edges.back()) * 1.05, 1);
        line->replace(points);
        line->setName(r.name);
    } else {
        // The outline of the bins, down to 0 at both ends; the area under it is filled translucently.
        points << QPointF(scale.fromNs(m_data.edges.front()), 0);
        for (size_t b = 0; b < r.fractions.size(); ++b) {
            points << QPointF(scale.fromNs(m_data.edges[b]), r.fractions[b])
                   << QPointF(scale.fromNs(m_data.edges[b + 1]), r.fractions[b]);
        }
        points << QPointF(scale.fromNs(m_data.edges.back()), 0);
        line->replace(points);
        auto* area = new QAreaSeries(line);
        area->setName(r.name);
        area->setPen(pen);
        QColor fill = color;
        fill.setAlpha(60);
        area->setBrush(fill);
        series = area;
    }
    addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
    const auto hover = [this, index](const QPointF& at, bool state) {
        ChartHover::of(this)->hover(state ? hoverText(index, at.x()) : QString());
    };
    const auto click = [this, index](const QPointF& at) { ChartHover::of(this)->click(hoverText(index, at.x())); };
    if (auto* area = qobject_cast<QAreaSeries*>(series)) {
        QObject::connect(area, &QAreaSeries::hovered, area, hover);
        QObject::connect(area, &QAreaSeries::clicked, area, click);
    } else {
        QObject::connect(line, &QLineSeries::hovered, line, hover);
        QObject::connect(line, &QLineSeries::clicked, line, click);
    }
    return line;
}

QString DistributionChart::hoverText(int index, double x) const
{
    const DistributionRun& r = m_data.runs[index];
    const double ns = m_data.scale.toNs(x);
    QString text = QStringLiteral("%1 · %2 samples · ").arg(r.name).arg(r.samples);
    if (m_view == QuantileView::Ecdf) {
        const auto above = std::upper_bound(r.ecdfX.begin(), r.ecdfX.end(), ns);
        const double fraction = above == r.ecdfX.begin() ? 0 : r.ecdfY[size_t(above - r.ecdfX.begin() - 1)];
        return text + QStringLiteral("%1 of samples ≤ %2").arg(percent(fraction), m_data.scale.format(ns));
    }
    const auto above = std::upper_bound(m_data.edges.begin(), m_data.edges.end(), ns);
    const size_t bin
        = std::min(r.fractions.size() - 1, size_t(std::max<ptrdiff_t>(0, above - m_data.edges.begin() - 1)));
    return text
        + QStringLiteral("%1 of samples in %2 – %3")
              .arg(percent(r.fractions[bin]), m_data.scale.format(m_data.edges[bin]),
                  m_data.scale.format(m_data.edges[bin + 1]));
}

void DistributionChart::resizeEvent(QGraphicsSceneResizeEvent* event)
{
    QChart::resizeEvent(event);
    const double width = size().width() - margins().left() - margins().right() - 16;
    if (width <= 0 || width == m_fittedWidth)
        return;
    m_fittedWidth = width;
    setTitle(ChartStyle::titleHtml(m_data.title, m_subtitles, m_data.warnings, m_dark, titleFont(), width));
}

} // namespace kix
