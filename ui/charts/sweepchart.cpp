// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/sweepchart.h"

#include "ui/charts/bandedline.h"

#include "ui/charts/charthover.h"
#include "ui/charts/chartstyle.h"

#include <QAreaSeries>
#include <QHash>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>

#include <cmath>

namespace kix {

namespace {

QAbstractAxis* makeAxis(bool log, double base, const QString& title)
{
    if (log) {
        auto* axis = new QLogValueAxis;
        axis->setBase(base);
        axis->setLabelFormat(QStringLiteral("%g"));
        axis->setMinorTickCount(base == 2 ? 0 : 8);
        axis->setTitleText(title);
        return axis;
    }
    auto* axis = new QValueAxis;
    axis->setLabelFormat(QStringLiteral("%g"));
    axis->setTitleText(title);
    return axis;
}

} // namespace

SweepChart::SweepChart(SweepData data, const ChartOptions& options)
    : m_data(std::move(data))
{
    ChartStyle::apply(this, options.dark);
    const TimeScale& scale = m_data.scale;
    const bool logX = m_data.logXPossible;
    QAbstractAxis* x = makeAxis(logX, 2, m_data.xParam.isEmpty() ? QStringLiteral("workload") : m_data.xParam);
    QAbstractAxis* y = makeAxis(options.logY, 10, QStringLiteral("latency (%1)").arg(scale.unit));
    addAxis(x, Qt::AlignBottom);
    addAxis(y, Qt::AlignLeft);

    double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo, ylo = xlo, yhi = -xlo;
    QHash<QString, int> variants;
    for (int i = 0; i < m_data.series.size(); ++i) {
        const SweepSeries& s = m_data.series[i];
        QList<QPointF> medians, highs, lows;
        for (const SweepPoint& p : s.points) {
            medians.append({ p.x, scale.fromNs(p.median) });
            highs.append({ p.x, scale.fromNs(p.p80) });
            lows.append({ p.x, scale.fromNs(p.p20) });
            xlo = std::min(xlo, p.x);
            xhi = std::max(xhi, p.x);
            ylo = std::min(ylo, scale.fromNs(p.p20));
            yhi = std::max(yhi, scale.fromNs(p.p80));
        }
        const int variant = variants[s.provider]++; // a provider's second line (pass, GPU) is dashed
        const auto [line, band] = addBandedLine(this, medians, highs, lows, s.label,
            s.label + QStringLiteral(" p20–p80"), ChartStyle::providerColor(s.provider, options.dark),
            ChartStyle::variantPen(variant), options.dark, x, y);
        for (QLegendMarker* m : legend()->markers(line))
            QObject::connect(m, &QLegendMarker::clicked, m, [this, i] { setLineVisible(i, !m_lines[i]->isVisible()); });
        QObject::connect(line, &QLineSeries::hovered, line, [this, i](const QPointF& at, bool state) {
            ChartHover::of(this)->hover(state ? pointText(i, at) : QString());
        });
        QObject::connect(line, &QLineSeries::clicked, line,
            [this, i](const QPointF& at) { ChartHover::of(this)->click(pointText(i, at)); });
        m_lines << line;
        m_bands << band;
    }

    if (std::isfinite(xlo)) {
        if (logX) {
            x->setRange(xlo / 1.4, xhi * 1.4);
        } else {
            x->setRange(xlo - (xhi - xlo) * 0.05 - (xhi == xlo), xhi + (xhi - xlo) * 0.05 + (xhi == xlo));
            static_cast<QValueAxis*>(x)->applyNiceNumbers();
        }
        if (options.logY && ylo > 0) {
            y->setRange(ylo / 1.25, yhi * 1.25);
        } else {
            y->setRange(0, yhi * 1.05 + (yhi == 0));
            static_cast<QValueAxis*>(y)->applyNiceNumbers();
        }
    }
    for (const SweepSeries& s : std::as_const(m_data.series)) { // the current run: a ring on its point
        for (const SweepPoint& p : s.points) {
            if (options.currentRun && p.run == options.currentRun)
                ChartStyle::markCurrentRun(this, p.run, { QPointF(p.x, scale.fromNs(p.median)) }, x, y,
                    tooltip(s, p, m_data.xParam, scale), options.dark);
        }
    }
    ChartStyle::placeLegend(this, int(m_data.series.size()));

    QStringList subtitles;
    subtitles << QStringLiteral("median, p20–p80 band");
    if (!m_data.fixedDescription.isEmpty())
        subtitles << QStringLiteral("fixed: ") + m_data.fixedDescription;
    if (!m_data.splitBy.isEmpty())
        subtitles << QStringLiteral("one line per ") + m_data.splitBy.join(QStringLiteral(", "));
    setTitle(ChartStyle::titleHtml(m_data.title, subtitles, m_data.warnings, options.dark));
}

void SweepChart::setLineVisible(int i, bool visible)
{
    if (i >= 0 && i < m_lines.size())
        ChartStyle::setLineVisible(this, m_lines[i], m_bands[i], visible);
}

QString SweepChart::pointText(int line, const QPointF& at) const
{
    // the nearest point by x (in log space when the axis is)
    const SweepSeries& s = m_data.series[line];
    int best = -1;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (int k = 0; k < s.points.size(); ++k) {
        const double d = m_data.logXPossible && at.x() > 0 ? std::abs(std::log2(s.points[k].x / at.x()))
                                                           : std::abs(s.points[k].x - at.x());
        if (d < bestDistance) {
            bestDistance = d;
            best = k;
        }
    }
    return best >= 0 ? tooltip(s, s.points[best], m_data.xParam, m_data.scale) : QString();
}

QString SweepChart::tooltip(
    const SweepSeries& series, const SweepPoint& point, const QString& xParam, const TimeScale& scale)
{
    // One unit per figure: as the run table and Details show the run (formatValue).
    auto figure = [&](double ns) { return point.run ? formatValue(*point.run, ns) : scale.format(ns); };
    QString text = QStringLiteral("%1\n%2 = %3\nmedian %4 (%5 ns)\np20 %6 · p80 %7")
                       .arg(series.label, xParam)
                       .arg(point.x, 0, 'g', 10)
                       .arg(figure(point.median))
                       .arg(point.median, 0, 'f', 0)
                       .arg(figure(point.p20), figure(point.p80));
    if (point.run && point.run->isNoisy())
        text += QStringLiteral("\n⚠ noisy: p20–p80 spread %1% of the median").arg(point.run->spread() * 100, 0, 'f', 0);
    if (point.run && std::isfinite(point.run->achievedGBs()))
        text += QStringLiteral("\n%1 GB/s").arg(point.run->achievedGBs(), 0, 'f', 1)
            + (std::isfinite(point.run->bandwidthFraction())
                    ? QStringLiteral(" · %1% of copy bandwidth").arg(point.run->bandwidthFraction() * 100, 0, 'f', 0)
                    : QString());
    return text;
}

} // namespace kix
