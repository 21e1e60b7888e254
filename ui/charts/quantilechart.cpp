// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/quantilechart.h"

#include "ui/charts/charthover.h"
#include "ui/charts/chartstyle.h"

#include "model/workload.h"

#include <QBarCategoryAxis>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QFontMetrics>
#include <QLegendMarker>
#include <QLogValueAxis>
#include <QValueAxis>

#include <cmath>

namespace kix {

namespace {

const WorkloadParam* findParam(const Run& run, const QString& key)
{
    for (const WorkloadParam& param : run.workload)
        if (param.key == key)
            return &param;
    return nullptr;
}

// With several varying parameters a label "bwd · E=128 T=32768 sweep_dimT" is wider than a column of a chart of
// 28 workloads (and Qt elides it). Only the values are kept, one per line ("bwd · 128 · 32768 · T"), the axis title
// naming them in the same order ("pass · E · T · sweep_dim"); "–" where a workload lacks the parameter. Keys without
// values (flags such as sweep_dimE, sweep_dimT) share one line: what follows their common prefix.
void compactLabels(const QuantileData& data, QStringList* labels, QString* title)
{
    QVector<const Run*> first(data.groups.size(), nullptr);
    RunList drawn;
    for (const QuantileBox& box : data.boxes) {
        drawn << box.run;
        if (!first[box.group])
            first[box.group] = box.run.get();
    }
    const ParamVariation variation = paramVariation(drawn);
    if (variation.varying.size() < 2 || std::find(first.begin(), first.end(), nullptr) != first.end())
        return;
    QStringList values;
    QStringList flags;
    for (const QString& key : variation.varying) {
        const bool flag = std::all_of(first.begin(), first.end(), [&key](const Run* run) {
            const WorkloadParam* param = findParam(*run, key);
            return !param || param->value.isEmpty();
        });
        (flag ? flags : values) << key;
    }
    QString prefix = flags.size() > 1 ? flags.front() : QString();
    for (const QString& flag : std::as_const(flags))
        while (!flag.startsWith(prefix))
            prefix.chop(1);
    QStringList names;
    if (variation.kernelVaries)
        names << QStringLiteral("kernel");
    if (variation.passVaries)
        names << QStringLiteral("pass");
    names += values;
    if (!flags.isEmpty())
        names << (prefix.isEmpty() ? flags.join(QLatin1Char('/')) : prefix);
    if (variation.dtypeVaries)
        names << QStringLiteral("dtype");
    QStringList out;
    for (int g = 0; g < data.groups.size(); ++g) {
        const Run& run = *first[g];
        QStringList parts;
        if (variation.kernelVaries || variation.passVaries) // the labeler's kernel and short pass, as they were
            parts = data.groups[g].split(QStringLiteral(" · ")).mid(0, variation.kernelVaries + variation.passVaries);
        bool any = false;
        for (const QString& key : std::as_const(values)) {
            const WorkloadParam* param = findParam(run, key);
            any = any || param;
            parts << (param ? param->value : QStringLiteral("–"));
        }
        if (!flags.isEmpty()) {
            QStringList set;
            for (const QString& flag : std::as_const(flags))
                if (findParam(run, flag))
                    set << (prefix.isEmpty() ? flag : flag.mid(prefix.size()));
            any = any || !set.isEmpty();
            parts << (set.isEmpty() ? QStringLiteral("–") : set.join(QLatin1Char('+')));
        }
        if (!any)
            return; // a workload known by its slug alone: keep the labeler's labels
        if (variation.dtypeVaries)
            parts << run.dtype;
        out << parts.join(QStringLiteral(" · "));
    }
    *labels = out;
    *title = names.join(QStringLiteral(" · "));
}

} // namespace

void QuantileChart::uprightLabelsIfCramped(QBarCategoryAxis* axis)
{
    // Qt elides a category label wider than its category (the column less twice the label padding); turned upright
    // a label needs its lines' height instead of its widest line. Whichever needs less is used, and where neither
    // fits, a smaller font: a label is never elided.
    m_labelFont = axis->labelsFont();
    const QFontMetrics metrics(m_labelFont);
    int widest = 0;
    int lines = 1;
    for (const QString& group : std::as_const(m_labels)) {
        const QStringList parts = group.split(QStringLiteral(" · "));
        lines = std::max(lines, int(parts.size()));
        for (const QString& part : parts)
            widest = std::max(widest, metrics.horizontalAdvance(part));
    }
    m_uprightWidth = widest;
    m_turnedWidth = lines * metrics.lineSpacing();
    applyLabelAngle();
    QObject::connect(this, &QChart::plotAreaChanged, this, [this] { applyLabelAngle(); });
}

void QuantileChart::applyLabelAngle()
{
    auto axes = this->axes(Qt::Horizontal);
    if (axes.isEmpty() || m_data.groups.isEmpty() || plotArea().width() <= 0)
        return;
    QAbstractAxis* axis = axes.front();
    // Qt: the column less twice its label padding (4 px), less the label document.s margins (4 px each side)
    const double room = plotArea().width() / m_data.groups.size() - 18;
    const bool turn = m_uprightWidth > room && m_turnedWidth < m_uprightWidth;
    const int need = turn ? m_turnedWidth : m_uprightWidth;
    QFont font = m_labelFont;
    if (need > room && room > 0 && font.pointSizeF() > 0)
        font.setPointSizeF(std::max(6.0, font.pointSizeF() * room / need));
    if (axis->labelsFont() != font)
        axis->setLabelsFont(font);
    const int angle = turn ? -90 : 0;
    if (axis->labelsAngle() != angle)
        axis->setLabelsAngle(angle);
}

QuantileChart::QuantileChart(QuantileData data, const ChartOptions& options)
    : m_data(std::move(data))
{
    ChartStyle::apply(this, options.dark);
    const TimeScale& scale = m_data.scale;

    auto* x = new QBarCategoryAxis;
    m_labels = m_data.groups;
    QString groupTitle = m_data.groupTitle;
    compactLabels(m_data, &m_labels, &groupTitle);
    x->append(ChartStyle::categoryLabels(m_labels));
    if (!m_data.groups.isEmpty()) // an empty category axis draws its title in a corner
        x->setTitleText(groupTitle);
    addAxis(x, Qt::AlignBottom);
    uprightLabelsIfCramped(x);
    QAbstractAxis* y = nullptr;
    if (options.logY) {
        auto* log = new QLogValueAxis;
        log->setBase(10);
        log->setLabelFormat(QStringLiteral("%g"));
        log->setMinorTickCount(8);
        y = log;
    } else {
        auto* linear = new QValueAxis;
        linear->setLabelFormat(QStringLiteral("%g"));
        y = linear;
    }
    y->setTitleText(QStringLiteral("latency (%1)").arg(scale.unit));
    addAxis(y, Qt::AlignLeft);

    // box index by (series, group)
    QVector<QVector<int>> cell(m_data.series.size(), QVector<int>(m_data.groups.size(), -1));
    QVector<double> groupMedian(m_data.groups.size(), std::numeric_limits<double>::quiet_NaN());
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < m_data.boxes.size(); ++i) {
        const QuantileBox& b = m_data.boxes[i];
        cell[b.series][b.group] = i;
        if (std::isnan(groupMedian[b.group]))
            groupMedian[b.group] = b.median;
        lo = std::min(lo, b.min);
        hi = std::max(hi, b.max);
    }

    addBoxSeries(cell, groupMedian, x, y, options);

    if (std::isfinite(lo) && std::isfinite(hi)) {
        lo = scale.fromNs(lo);
        hi = scale.fromNs(hi);
        if (options.logY && lo > 0)
            y->setRange(lo / 1.25, hi * 1.25);
        else {
            y->setRange(std::min(0.0, lo), hi * 1.05 + (hi == lo ? 1 : 0));
            static_cast<QValueAxis*>(y)->applyNiceNumbers();
        }
    }
    ChartStyle::placeLegend(this, int(m_data.series.size()));
    for (QLegendMarker* marker : legend()->markers())
        marker->setShape(QLegend::MarkerShapeRectangle); // boxes "from series" would draw hollow
    for (const QuantileBox& b : std::as_const(m_data.boxes)) { // the current run: a ring at its box's median
        if (options.currentRun && b.run == options.currentRun) {
            const double centre = b.group - 0.5 + (b.series + 0.5) / double(m_data.series.size()); // as Qt lays boxes
            ChartStyle::markCurrentRun(
                this, b.run, { QPointF(centre, scale.fromNs(b.median)) }, x, y, tooltip(b, scale), options.dark);
        }
    }

    QStringList subtitles;
    subtitles << QStringLiteral("box p20–p80, line at the median, whiskers min–max where recorded");
    subtitles += m_data.notes.filter(QStringLiteral("fixed: "));
    setTitle(ChartStyle::titleHtml(m_data.title, subtitles, m_data.warnings, options.dark));
}

// One box series per series, a box set per group (`cell` says which box, -1 none); hovering a box reads it out.
void QuantileChart::addBoxSeries(const QVector<QVector<int>>& cell, const QVector<double>& groupMedian,
    QAbstractAxis* x, QAbstractAxis* y, const ChartOptions& options)
{
    const TimeScale& scale = m_data.scale;
    QHash<QString, int> variants;
    for (int s = 0; s < m_data.series.size(); ++s) {
        auto* series = new QBoxPlotSeries;
        series->setName(m_data.series[s]);
        // colour = provider (the series' first box says which); a provider's further series get a pattern
        QString provider;
        for (const QuantileBox& b : std::as_const(m_data.boxes)) {
            if (b.series == s) {
                provider = b.run->provider;
                break;
            }
        }
        const QColor color = ChartStyle::providerColor(provider, options.dark);
        const int variant = variants[provider]++;
        QColor fill = color;
        fill.setAlpha(110);
        series->setBrush(QBrush(fill, ChartStyle::variantBrush(variant)));
        series->setPen(QPen(color, 1.5));
        for (int g = 0; g < m_data.groups.size(); ++g) {
            auto* set = new QBoxSet(m_data.groups[g]);
            const int i = cell[s][g];
            if (i >= 0) {
                const QuantileBox& b = m_data.boxes[i];
                set->setValue(QBoxSet::LowerExtreme, scale.fromNs(b.min));
                set->setValue(QBoxSet::LowerQuartile, scale.fromNs(b.p20));
                set->setValue(QBoxSet::Median, scale.fromNs(b.median));
                set->setValue(QBoxSet::UpperQuartile, scale.fromNs(b.p80));
                set->setValue(QBoxSet::UpperExtreme, scale.fromNs(b.max));
                m_boxBySet.insert(set, i);
            } else {
                // Keeps the other series' boxes in their slots; drawn as nothing.
                const double v = scale.fromNs(groupMedian[g]);
                for (int k = QBoxSet::LowerExtreme; k <= QBoxSet::UpperExtreme; ++k)
                    set->setValue(k, v);
                // Qt draws a set with Qt::NoPen in the series' pen: transparent is what hides it.
                set->setPen(QPen(Qt::transparent));
                set->setBrush(QBrush(Qt::transparent));
            }
            series->append(set);
        }
        addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
        QObject::connect(series, &QBoxPlotSeries::hovered, series, [this](bool state, QBoxSet* set) {
            const QuantileBox* box = boxFor(set);
            ChartHover::of(this)->hover(state && box ? tooltip(*box, m_data.scale) : QString());
        });
        QObject::connect(series, &QBoxPlotSeries::clicked, series, [this](QBoxSet* set) {
            if (const QuantileBox* box = boxFor(set))
                ChartHover::of(this)->click(tooltip(*box, m_data.scale));
        });
    }
}

QList<QBoxPlotSeries*> QuantileChart::boxSeries() const
{
    QList<QBoxPlotSeries*> out;
    for (QAbstractSeries* s : series()) {
        if (auto* box = qobject_cast<QBoxPlotSeries*>(s))
            out << box;
    }
    return out;
}

const QuantileBox* QuantileChart::boxFor(const QBoxSet* set) const
{
    const auto it = m_boxBySet.constFind(set);
    return it == m_boxBySet.constEnd() ? nullptr : &m_data.boxes[*it];
}

QString QuantileChart::tooltip(const QuantileBox& box, const TimeScale& /* the axis': figures read in the run's unit */)
{
    const Run& run = *box.run;
    QString text
        = QStringLiteral("%1 · %2 · %3\n%4\n").arg(run.provider, run.gpuDisplayName(), run.pass, run.workloadSlug);
    // One unit per figure: as the run table and Details show the run (formatValue).
    text += QStringLiteral("median %1 (%2 ns)\n").arg(formatValue(run, box.median)).arg(box.median, 0, 'f', 0);
    text += QStringLiteral("p20 %1 · p80 %2\n").arg(formatValue(run, box.p20), formatValue(run, box.p80));
    if (box.hasExtremes)
        text += QStringLiteral("min %1 · max %2\n").arg(formatValue(run, box.min), formatValue(run, box.max));
    const double spread = run.spread();
    if (std::isfinite(spread))
        text += QStringLiteral("spread %1%\n").arg(spread * 100, 0, 'f', 2);
    if (!run.samples.empty())
        text += QStringLiteral("%1 samples\n").arg(run.samples.size());
    return text.trimmed();
}

} // namespace kix
