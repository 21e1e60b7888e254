// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/historychart.h"

#include "model/chartdata/quantiledata.h"
#include "model/history/historyreport.h"
#include "ui/charts/chartstyle.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QCursor>
#include <QDateTimeAxis>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSet>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>

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

// The ordinal key of a point on a label axis: its label, else its time.
QString ordinalKey(const HistoryPoint& p)
{
    return p.label.isEmpty() ? p.run->observedAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")) : p.label;
}

} // namespace

HistoryChart::HistoryChart(History history, QVector<int> drawn, bool byLabel, const QString& title,
    const QStringList& warnings, const ChartOptions& options)
    : m_history(std::move(history))
    , m_drawn(std::move(drawn))
    , m_byLabel(byLabel)
{
    ChartStyle::apply(this, options.dark);
    std::vector<double> medians;
    for (int s : std::as_const(m_drawn)) {
        m_latency = m_history.series[s].key.metric == QLatin1String("latency");
        for (const HistoryPoint& p : m_history.series[s].points)
            medians.push_back(p.run->median);
    }
    if (m_latency)
        m_scale = chooseTimeScale(medians);
    auto yOf = [this](double v) { return m_latency ? m_scale.fromNs(v) : v; };

    // x: milliseconds since the epoch, or the ordinal position of the label (in order of first appearance in time).
    QStringList ordinal;
    if (m_byLabel) {
        std::vector<const HistoryPoint*> all;
        for (int s : std::as_const(m_drawn)) {
            for (const HistoryPoint& p : m_history.series[s].points)
                all.push_back(&p);
        }
        std::stable_sort(all.begin(), all.end(),
            [](const HistoryPoint* a, const HistoryPoint* b) { return a->run->observedAt < b->run->observedAt; });
        for (const HistoryPoint* p : all) {
            if (!ordinal.contains(ordinalKey(*p)))
                ordinal << ordinalKey(*p);
        }
    }
    QAbstractAxis* x = nullptr;
    if (m_byLabel) {
        auto* axis = new QCategoryAxis;
        axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        for (int i = 0; i < ordinal.size(); ++i)
            axis->append(ordinal[i], i);
        axis->setTitleText(QStringLiteral("version label (in order of time)"));
        x = axis;
    } else {
        auto* axis = new QDateTimeAxis;
        axis->setFormat(QStringLiteral("yyyy-MM-dd"));
        axis->setTitleText(QStringLiteral("observedAt (UTC)"));
        x = axis;
    }
    QAbstractAxis* y = nullptr;
    const QString yTitle = m_latency ? QStringLiteral("latency (%1)").arg(m_scale.unit) : QStringLiteral("memory (MB)");
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
    y->setTitleText(yTitle);
    addAxis(x, Qt::AlignBottom);
    addAxis(y, Qt::AlignLeft);

    // Legend names: only what differs among the lines (the title says the rest).
    auto fields = [](const HistorySeries& s) {
        return QStringList { s.key.kernel, s.key.pass, s.key.provider, s.points.front().run->gpuDisplayName(),
            s.key.workload, s.key.protocolFamily };
    };
    QVector<bool> varies(6, false);
    QSet<QString> commonWorkload; // the workload slug's parts every line shares ("batch128", "fp32")
    for (int s : std::as_const(m_drawn)) {
        const QStringList f = fields(m_history.series[s]), first = fields(m_history.series[m_drawn.front()]);
        for (int k = 0; k < 6; ++k)
            varies[k] = varies[k] || f[k] != first[k];
        const QStringList parts = f[4].split(QLatin1Char('-'));
        const QSet<QString> set(parts.begin(), parts.end());
        commonWorkload = s == m_drawn.front() ? set : commonWorkload.intersect(set);
    }
    auto shortField = [&commonWorkload](int k, const QString& value) {
        if (k == 3)
            return shortGpuName(value);
        if (k != 4)
            return value;
        QStringList kept;
        for (const QString& part : value.split(QLatin1Char('-'))) {
            if (!commonWorkload.contains(part))
                kept << part;
        }
        return kept.join(QLatin1Char('-'));
    };
    double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo, ylo = xlo, yhi = -xlo;
    for (int i = 0; i < m_drawn.size(); ++i) {
        const HistorySeries& s = m_history.series[m_drawn[i]];
        auto* line = new QLineSeries;
        auto* upper = new QLineSeries(this); // QAreaSeries does not own its bounds
        auto* lower = new QLineSeries(this);
        QStringList name;
        const QStringList f = fields(s);
        for (int k = 0; k < 6; ++k) {
            if (varies[k])
                name << shortField(k, f[k]);
        }
        line->setName(
            name.isEmpty() ? s.key.provider + QStringLiteral(" · ") + s.key.pass : name.join(QStringLiteral(" · ")));
        QVector<double> xs;
        for (const HistoryPoint& p : s.points) {
            const double px
                = m_byLabel ? double(ordinal.indexOf(ordinalKey(p))) : double(p.run->observedAt.toMSecsSinceEpoch());
            const double lo = std::isfinite(p.run->p20) ? p.run->p20 : p.run->median;
            const double hi = std::isfinite(p.run->p80) ? p.run->p80 : p.run->median;
            xs << px;
            line->append(px, yOf(p.run->median));
            upper->append(px, yOf(hi));
            lower->append(px, yOf(lo));
            xlo = std::min(xlo, px);
            xhi = std::max(xhi, px);
            ylo = std::min(ylo, yOf(lo));
            yhi = std::max(yhi, yOf(hi));
        }
        m_x << xs;
        auto* band = new QAreaSeries(upper, lower);
        band->setName(s.title + QStringLiteral(" p20–p80"));
        const QColor color = ChartStyle::seriesColor(i, options.dark);
        QColor fill = color;
        fill.setAlpha(options.dark ? 70 : 55);
        band->setColor(fill);
        band->setBorderColor(Qt::transparent);
        band->setPen(Qt::NoPen);
        addSeries(band);
        addSeries(line);
        line->setPen(QPen(color, 2));
        line->setPointsVisible(true);
        for (QAbstractSeries* series : { static_cast<QAbstractSeries*>(band), static_cast<QAbstractSeries*>(line) }) {
            series->attachAxis(x);
            series->attachAxis(y);
        }
        for (QLegendMarker* m : legend()->markers(band))
            m->setVisible(false);
        for (QLegendMarker* m : legend()->markers(line))
            QObject::connect(m, &QLegendMarker::clicked, m, [this, i] { setLineVisible(i, !m_lines[i]->isVisible()); });
        QObject::connect(
            line, &QLineSeries::hovered, line, [this, i](const QPointF& at, bool state) { hover(i, at, state); });
        m_lines << line;
        m_bands << band;
    }

    // Change points: one scatter per kind, over the lines.
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
        for (int i = 0; i < m_drawn.size(); ++i) {
            const HistorySeries& s = m_history.series[m_drawn[i]];
            for (int c : s.changes) {
                const HistoryChange& change = m_history.changes[c];
                if (change.kind == kind)
                    marks->append(m_x[i][change.change.index], yOf(s.points[change.change.index].run->median));
            }
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
                for (int k = 0; k < m_x[i].size(); ++k) {
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

    if (std::isfinite(xlo)) {
        if (m_byLabel) {
            x->setRange(-0.5, std::max(0.5, double(ordinal.size()) - 0.5));
        } else {
            const double pad = xhi > xlo ? (xhi - xlo) * 0.05 : 86400000.0;
            static_cast<QDateTimeAxis*>(x)->setRange(QDateTime::fromMSecsSinceEpoch(qint64(xlo - pad), Qt::UTC),
                QDateTime::fromMSecsSinceEpoch(qint64(xhi + pad), Qt::UTC));
        }
        if (options.logY && ylo > 0) {
            y->setRange(ylo / 1.25, yhi * 1.25);
        } else {
            y->setRange(0, yhi * 1.08 + (yhi == 0));
            static_cast<QValueAxis*>(y)->applyNiceNumbers();
        }
    }
    for (int i = 0; i < m_drawn.size() && options.currentRun; ++i) { // the current run: a ring on its point
        const QVector<HistoryPoint>& points = m_history.series[m_drawn[i]].points;
        for (int k = 0; k < points.size(); ++k) {
            if (points[k].run == options.currentRun)
                ChartStyle::markCurrentRun(
                    this, options.currentRun, { valueAt(i, k) }, x, y, tooltip(i, k), options.dark);
        }
    }
    ChartStyle::placeLegend(this, int(m_drawn.size()));
    QStringList subtitles;
    if (!m_drawn.isEmpty()) {
        QStringList common;
        const QStringList f = fields(m_history.series[m_drawn.front()]);
        for (int k = 0; k < 6; ++k) {
            if (!varies[k] && !f[k].isEmpty())
                common << (k == 3 ? shortGpuName(f[k]) : f[k]);
            else if (k == 4 && !commonWorkload.isEmpty()) {
                QStringList parts; // in the slug's order
                for (const QString& part : f[k].split(QLatin1Char('-'))) {
                    if (commonWorkload.contains(part))
                        parts << part;
                }
                common << parts.join(QLatin1Char('-'));
            }
        }
        if (!common.isEmpty())
            subtitles << common.join(QStringLiteral(" · "));
    }
    subtitles << QStringLiteral("median over time, p20–p80 band; changes at a %1 % threshold: %2 regression(s), %3 "
                                "improvement(s), %4 outlier(s)")
                     .arg(options.threshold * 100, 0, 'g', 3)
                     .arg(m_marks[0]->count())
                     .arg(m_marks[1]->count())
                     .arg(m_marks[2]->count());
    setTitle(ChartStyle::titleHtml(title, subtitles, warnings, options.dark));
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

QString HistoryChart::tooltip(int line, int point) const
{
    const HistorySeries& s = lineSeries(line);
    const HistoryPoint& p = s.points[point];
    const Run& run = *p.run;
    QStringList lines;
    lines << s.title;
    lines << (p.label.isEmpty() ? QString() : p.label + QStringLiteral(" · "))
            + run.observedAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
    lines << QStringLiteral("median %1 · p20 %2 · p80 %3")
                 .arg(formatValue(run, run.median), formatValue(run, run.p20), formatValue(run, run.p80));
    if (p.sameTime)
        lines << QStringLiteral("⚠ another run of this series has the same observedAt");
    for (int c : s.changes) {
        const HistoryChange& change = m_history.changes[c];
        if (change.change.index == point)
            lines << QStringLiteral("%1 ×%2: %3")
                         .arg(changeKindName(change.kind))
                         .arg(change.change.ratio, 0, 'f', 3)
                         .arg(change.change.evidence);
    }
    lines << run.externalId;
    lines << run.file + run.pointer;
    return lines.join(QLatin1Char('\n'));
}

void HistoryChart::hover(int line, const QPointF& at, bool state)
{
    if (!state) {
        QToolTip::hideText();
        return;
    }
    // The nearest point of the line by x (and by y among points at the same x: same-time runs).
    const QVector<double>& xs = m_x[line];
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
    m_hoveredRun = lineSeries(line).points[best].run;
    m_hoverText = tooltip(line, best);
    QToolTip::showText(QCursor::pos(), m_hoverText);
}

std::unique_ptr<QChart> buildHistoryChart(const RunList& runs, const ChartOptions& options, ChartInfo& info)
{
    HistoryOptions ho;
    ho.detection.threshold = options.threshold;
    History history = buildHistory(runs, ho);
    bool anyLatency = false;
    for (const HistorySeries& s : std::as_const(history.series))
        anyLatency = anyLatency || s.key.metric == QLatin1String("latency");
    const QString metric = anyLatency ? QStringLiteral("latency") : QStringLiteral("memory");
    QVector<int> candidates;
    int otherMetric = 0;
    for (int i = 0; i < history.series.size(); ++i) {
        if (history.series[i].key.metric == metric)
            candidates << i;
        else
            ++otherMetric;
    }
    // Series with the largest change first, then the longest.
    auto largest = [&history](int s) {
        double m = 0;
        for (int c : history.series[s].changes)
            m = std::max(m, history.changes[c].magnitude());
        return m;
    };
    std::stable_sort(candidates.begin(), candidates.end(), [&](int a, int b) {
        const double ma = largest(a), mb = largest(b);
        if (ma != mb)
            return ma > mb;
        return history.series[a].points.size() > history.series[b].points.size();
    });
    const int shown = std::min<int>(int(candidates.size()), std::max(1, options.maxSeries));
    QVector<int> drawn = candidates.mid(0, shown);
    std::sort(drawn.begin(), drawn.end());

    bool anyLabel = false;
    bool allLabels = true;
    RunList drawnRuns;
    for (int s : std::as_const(drawn)) {
        for (const HistoryPoint& p : history.series[s].points) {
            anyLabel = anyLabel || !p.label.isEmpty();
            allLabels = allLabels && !p.label.isEmpty();
            drawnRuns << p.run;
        }
    }
    const bool byLabel = anyLabel
        && (options.xParam == QLatin1String("label") || (options.xParam != QLatin1String("time") && allLabels));
    info.xCandidates = anyLabel ? QStringList { QStringLiteral("time"), QStringLiteral("label") }
                                : QStringList { QStringLiteral("time") };
    info.xParam = byLabel ? QStringLiteral("label") : QStringLiteral("time");
    info.title = QStringLiteral("History · ") + selectionTitle(drawnRuns);
    info.notes = history.notes;
    if (candidates.size() > shown)
        info.notes << QStringLiteral("%1 of %2 series drawn (those with the largest changes): select fewer runs for "
                                     "the others")
                          .arg(shown)
                          .arg(candidates.size());
    if (otherMetric > 0)
        info.notes << QStringLiteral("%1 memory series not drawn beside latency").arg(otherMetric);
    for (int i = 0; i < history.unplaceable.size() && i < 3; ++i) {
        const Run& run = *history.unplaceable[i];
        info.warnings << QStringLiteral("unplaceable (no usable observedAt): %1")
                             .arg(run.externalId.isEmpty() ? run.file + run.pointer : run.externalId);
    }
    if (history.unplaceable.size() > 3)
        info.warnings << QStringLiteral("and %1 more unplaceable runs").arg(history.unplaceable.size() - 3);
    info.isEmpty = drawn.isEmpty();
    return std::make_unique<HistoryChart>(
        std::move(history), std::move(drawn), byLabel, info.title, info.warnings, options);
}

} // namespace kix
