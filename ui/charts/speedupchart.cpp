// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/speedupchart.h"

#include "ui/charts/charthover.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/valuelabels.h"
#include "ui/disposal.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QFontMetricsF>
#include <QGraphicsSceneResizeEvent>
#include <QHorizontalBarSeries>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace kix {

namespace {

QScatterSeries::MarkerShape verdictShape(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Faster:
        return QScatterSeries::MarkerShapeTriangle;
    case Verdict::Slower:
        return QScatterSeries::MarkerShapeRotatedRectangle;
    case Verdict::Same:
        return QScatterSeries::MarkerShapeCircle;
    case Verdict::Ambiguous:
        break;
    }
    return QScatterSeries::MarkerShapeRectangle;
}

} // namespace

SpeedupChart::SpeedupChart(SpeedupData data, const ChartOptions& options)
    : m_data(std::move(data))
    , m_dark(options.dark)
{
    ChartStyle::apply(this, options.dark);
    const QVector<ComparisonPair>& pairs = m_data.comparison.pairs;
    const int categoryCount = int(m_data.categories.size());
    addBarSets(categoryCount, options);

    auto* y = new QBarCategoryAxis;
    y->append(m_data.axisLabels);
    m_labelFont = y->labelsFont();
    if (!m_data.categoryTitle.isEmpty()) // an empty category axis draws its title in a corner
        y->setTitleText(m_data.categoryTitle);
    auto* x = new QValueAxis;
    x->setLabelFormat(QStringLiteral("%g")); // printf format: a "×" in it would not survive
    x->setTitleText(m_data.xTitle);
    x->setRange(0, m_data.top * 1.25); // room for the value labels
    x->applyNiceNumbers();
    addAxis(y, Qt::AlignLeft);
    addAxis(x, Qt::AlignBottom);
    addSeries(m_bars);
    m_bars->attachAxis(x);
    m_bars->attachAxis(y);
    QObject::connect(m_bars, &QAbstractBarSeries::hovered, m_bars, [this](bool state, int index, QBarSet* set) {
        const ComparisonPair* pair = pairAt(set, int(m_data.categories.size()) - 1 - index);
        ChartHover::of(this)->hover(state && pair ? tooltip(*pair) : QString());
    });
    QObject::connect(m_bars, &QAbstractBarSeries::clicked, m_bars, [this](int index, QBarSet* set) {
        if (const ComparisonPair* pair = pairAt(set, int(m_data.categories.size()) - 1 - index))
            ChartHover::of(this)->click(tooltip(*pair));
    });

    // 1× line across the categories (category c is centred on y = c).
    auto* one = new QLineSeries;
    one->setName(QStringLiteral("1× = baseline")); // short: a long legend entry is elided
    one->append(1, -0.5);
    one->append(1, std::max(1, categoryCount) - 0.5);
    addSeries(one);
    one->attachAxis(x);
    one->attachAxis(y);
    one->setPen(QPen(options.dark ? QColor(Qt::white) : QColor(Qt::black), 1, Qt::DashLine));

    addVerdictMarkers(x, y, options);
    m_valueLabels = std::make_unique<ValueLabels>(this, m_bars, options.dark ? QColor(Qt::white) : QColor(Qt::black));
    QVector<ValueLabels::Label> labels;
    for (const SpeedupBar& bar : std::as_const(m_data.bars)) { // top first: the first labels are kept
        if (m_barEnd.contains(bar.pair))
            labels.append({ m_barEnd.value(bar.pair), ValueLabels::ratioLabel(bar.ratio) });
    }
    m_valueLabels->setLabels(labels);
    m_valueLabels->setObstacles(m_barEnd.values().toVector(), 5.5); // no label covers another bar's verdict marker
    for (const SpeedupBar& bar : std::as_const(m_data.bars)) { // the current run: a ring at its bar's end
        if (options.currentRun && pairs[bar.pair].run == options.currentRun && m_barEnd.contains(bar.pair))
            ChartStyle::markCurrentRun(
                this, options.currentRun, { m_barEnd.value(bar.pair) }, x, y, tooltip(pairs[bar.pair]), options.dark);
    }
    legend()->setAlignment(Qt::AlignBottom);
    m_legendFont = legend()->font();
    for (QLegendMarker* marker : legend()->markers(m_bars))
        marker->setShape(QLegend::MarkerShapeRectangle); // bars "from series" would draw hollow
    setTitle(ChartStyle::titleHtml(m_data.chartTitle, m_data.subtitles, m_data.pairWarnings, options.dark));
    QObject::connect(this, &QChart::plotAreaChanged, this, [this] { fitTitles(); });
}

// One bar set per set, its bars at their categories (the first workload at the top); records where each bar ends.
void SpeedupChart::addBarSets(int categoryCount, const ChartOptions& options)
{
    auto row = [categoryCount](int c) { return categoryCount - 1 - c; }; // the first workload at the top

    auto* bars = new QHorizontalBarSeries;
    m_bars = bars;
    QVector<QBarSet*> sets;
    for (const SpeedupSet& s : std::as_const(m_data.sets)) {
        auto* set = new QBarSet(s.label);
        const QColor color = ChartStyle::providerColor(s.provider, options.dark);
        set->setBrush(QBrush(color, ChartStyle::variantBrush(s.variant)));
        set->setBorderColor(color.darker(130));
        set->setLabelColor(options.dark ? QColor(Qt::white) : QColor(Qt::black));
        for (int c = 0; c < categoryCount; ++c)
            set->append(0);
        sets << set;
    }
    const double width = m_bars->barWidth();
    const int setCount = std::max<int>(1, int(sets.size()));
    for (const SpeedupBar& bar : std::as_const(m_data.bars)) {
        sets[bar.set]->replace(row(bar.category), std::isfinite(bar.ratio) ? bar.ratio : 0);
        m_pairIndex[sets[bar.set]].insert(bar.category, bar.pair);
        if (std::isfinite(bar.ratio)) {
            // a bar series' sets share the middle `barWidth` of a category, the first set lowest
            m_barEnd.insert(
                bar.pair, QPointF(bar.ratio, row(bar.category) - width / 2 + (bar.set + 0.5) * width / setCount));
        }
    }
    for (QBarSet* set : std::as_const(sets))
        m_bars->append(set);
    // Each bar carries its value, right of the verdict marker at its end; where bars are too dense for their labels,
    // the labels that would overlap are left out and counted (ValueLabels): Qt's own bar labels overlap.
    m_bars->setLabelsVisible(false);
}

// The verdict as a marker shape at the end of each bar, in the foreground colour: no series colour is reused.
void SpeedupChart::addVerdictMarkers(QAbstractAxis* x, QAbstractAxis* y, const ChartOptions& options)
{
    const QVector<ComparisonPair>& pairs = m_data.comparison.pairs;
    const QColor ink = options.dark ? QColor(0xee, 0xee, 0xee) : QColor(0x20, 0x20, 0x20);
    for (const SpeedupBar& bar : std::as_const(m_data.bars)) {
        const ComparisonPair& p = pairs[bar.pair];
        if (!m_barEnd.contains(bar.pair))
            continue;
        QScatterSeries*& markers = m_markers[int(p.verdict)];
        if (!markers) {
            markers = new QScatterSeries;
            markers->setName(verdictName(p.verdict)); // the legend draws the shape
            markers->setMarkerSize(11);
            markers->setMarkerShape(verdictShape(p.verdict));
            const bool hollow = p.verdict == Verdict::Ambiguous;
            markers->setColor(hollow ? (options.dark ? QColor(Qt::black) : QColor(Qt::white)) : ink);
            markers->setBorderColor(ink);
        }
        markers->append(m_barEnd.value(bar.pair));
    }
    for (Verdict v : { Verdict::Faster, Verdict::Slower, Verdict::Same, Verdict::Ambiguous }) {
        if (QScatterSeries* markers = m_markers.value(int(v))) {
            addSeries(markers);
            markers->attachAxis(x);
            markers->attachAxis(y);
        }
    }
}

void SpeedupChart::resizeEvent(QGraphicsSceneResizeEvent* event)
{
    QChart::resizeEvent(event);
    fitTitles();
}

int SpeedupChart::smallestLines(double width) const
{
    QFont font = m_labelFont;
    font.setPointSizeF(6);
    const QFontMetricsF metrics(font);
    int lines = 1;
    for (const QString& label : m_data.axisLabels) {
        int rows = 0;
        QString row;
        for (const QString& word : label.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            if (rows > 0 && metrics.horizontalAdvance(row + QLatin1Char(' ') + word) <= width)
                row += QLatin1Char(' ') + word;
            else {
                row = word;
                ++rows;
            }
        }
        lines = std::max(lines, rows);
    }
    return lines;
}

SpeedupChart::LabelFit SpeedupChart::fitLabels(const QFont& base, double room, double width) const
{
    const auto widest = [&](const QFont& font) {
        const QFontMetricsF metrics(font);
        double most = 0;
        for (const QString& label : m_data.axisLabels)
            most = std::max(most, metrics.horizontalAdvance(label));
        return most;
    };
    // The largest font, not below 6 pt, at which every label is one whole line.
    for (QFont font = base;; font.setPointSizeF(std::max(6.0, font.pointSizeF() - 0.5))) {
        if (QFontMetricsF(font).lineSpacing() <= room && widest(font) <= width)
            return { font, m_data.axisLabels, 1 };
        if (font.pointSizeF() <= 6)
            break;
    }
    // Else the labels wrapped at their spaces (between parameters) to the axis' width: the largest font at which
    // the lines of each label fit its row. `lines` says how many a row needs, so that the panel can draw fewer
    // rows where even 6 pt does not fit (ChartPanel::refitGroups).
    QFont font = base;
    for (;; font.setPointSizeF(std::max(6.0, font.pointSizeF() - 0.5))) {
        const QFontMetricsF metrics(font);
        QStringList wrapped;
        int lines = 1;
        for (const QString& label : m_data.axisLabels) {
            QStringList rows;
            for (const QString& word : label.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
                if (!rows.isEmpty() && metrics.horizontalAdvance(rows.back() + QLatin1Char(' ') + word) <= width)
                    rows.back() += QLatin1Char(' ') + word;
                else
                    rows << word;
            }
            lines = std::max(lines, int(rows.size()));
            wrapped << rows.join(QStringLiteral("<br>"));
        }
        if (lines * metrics.lineSpacing() <= room || font.pointSizeF() <= 6)
            return { font, wrapped, lines };
    }
}

void SpeedupChart::fitTitles()
{
    const QSizeF size = this->size();
    if (size.width() <= 0 || size.height() <= 0)
        return;
    if (size != m_fittedSize) {
        m_fittedSize = size;
        // less the chart's margins and the title's own document margins
        setTitle(ChartStyle::titleHtml(m_data.chartTitle, m_data.subtitles, m_data.pairWarnings, m_dark, titleFont(),
            size.width() - margins().left() - margins().right() - 16));
        ChartStyle::fitLegend(this, m_legendFont, size.width() - margins().left() - margins().right());
    }
    const QRectF plot = plotArea();
    if (plot.isEmpty() || plot.size() == m_fittedPlot)
        return;
    m_fittedPlot = plot.size();
    const QList<QAbstractAxis*> xs = axes(Qt::Horizontal), ys = axes(Qt::Vertical);
    if (!ys.isEmpty() && !m_data.axisLabels.isEmpty()) {
        // Qt elides a workload label taller than its row: the plot's height over the categories plus one, less
        // twice the label padding (4 px), less the label document's margins (4 px above and below). It elides one
        // wider than the axis, which Qt Charts gives at most 0.4 of the chart's width, less the axis title's line.
        const double room = plot.height() / (m_data.axisLabels.size() + 1) - 9;
        const double titleLine = m_data.categoryTitle.isEmpty() ? 0 : QFontMetricsF(ys.front()->titleFont()).height();
        const double width = 0.4 * (size.width() - margins().left() - margins().right()) - titleLine - 28;
        const LabelFit fit = fitLabels(m_labelFont, room, width);
        // The lines at 6 pt, not at the font chosen: that one depends on the row's height, so on how many rows
        // are drawn, and a panel fitting the rows to it would go back and forth between two counts for ever.
        m_rowLines = smallestLines(width);
        auto* y = static_cast<QBarCategoryAxis*>(ys.front());
        if (y->labelsFont() != fit.font)
            y->setLabelsFont(fit.font);
        if (y->categories() != fit.labels)
            y->setCategories(fit.labels);
    }
    if (!xs.isEmpty())
        xs.front()->setTitleText(ChartStyle::wrappedHtml(m_data.xTitle, xs.front()->titleFont(), plot.width() - 16));
    if (!ys.isEmpty() && !m_data.categoryTitle.isEmpty())
        ys.front()->setTitleText(
            ChartStyle::wrappedHtml(m_data.categoryTitle, ys.front()->titleFont(), plot.height() - 16));
}

SpeedupChart::~SpeedupChart()
{
    // The comparison of a million runs takes long to free: a pool thread frees it (the items below need no pair).
    const bool large = m_data.comparison.pairs.size() > 1000;
    disposeOffThread(std::move(m_data.comparison), large);
}

const ComparisonPair* SpeedupChart::pairAt(const QBarSet* set, int category) const
{
    const auto s = m_pairIndex.constFind(set);
    if (s == m_pairIndex.constEnd())
        return nullptr;
    const auto c = s->constFind(category);
    return c == s->constEnd() ? nullptr : &m_data.comparison.pairs[*c];
}

QPointF SpeedupChart::barEnd(int pairIndex) const
{
    if (!m_bars || !m_barEnd.contains(pairIndex))
        return {};
    return const_cast<SpeedupChart*>(this)->mapToPosition(
        m_barEnd.value(pairIndex), m_bars); // Qt lacks a const overload
}

} // namespace kix
