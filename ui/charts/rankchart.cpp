// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/rankchart.h"

#include "model/chartdata/quantiledata.h"
#include "ui/charts/charthover.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/valuelabels.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QFontMetricsF>
#include <QGraphicsSceneResizeEvent>
#include <QHorizontalBarSeries>
#include <QLegendMarker>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace kix {

namespace {

constexpr Distinguishable kinds[]
    = { Distinguishable::Best, Distinguishable::Yes, Distinguishable::No, Distinguishable::Unknown };

QString markerName(Distinguishable d)
{
    switch (d) {
    case Distinguishable::Best:
        return QStringLiteral("best");
    case Distinguishable::Yes:
        return QStringLiteral("slower beyond the noise");
    case Distinguishable::No:
        return QStringLiteral("not distinguishable from the best");
    case Distinguishable::Unknown:
        break;
    }
    return QStringLiteral("no noise recorded");
}

QScatterSeries::MarkerShape markerShape(Distinguishable d)
{
    switch (d) {
    case Distinguishable::Best:
        return QScatterSeries::MarkerShapeStar;
    case Distinguishable::Yes:
        return QScatterSeries::MarkerShapeRotatedRectangle;
    case Distinguishable::No:
        return QScatterSeries::MarkerShapeCircle;
    case Distinguishable::Unknown:
        break;
    }
    return QScatterSeries::MarkerShapeRectangle;
}

// What Qt Charts spends around an axis label (document margins, label padding) and around the plot (title gap,
// legend, value axis), in pixels beyond the text: measured on Qt 6.4 and rounded up.
constexpr double labelChrome = 12;
constexpr double axisChrome = 40;
const QString xTitle = QStringLiteral("best value / the cohort's best (×): 1× is the best, lower is better");

} // namespace

QStringList RankChart::wrapLabel(const QString& text, const QFontMetricsF& metrics, double width)
{
    QStringList pieces; // each ends after a break character
    QString piece;
    for (const QChar c : text) {
        piece += c;
        if (c == QLatin1Char('-') || c == QLatin1Char('_') || c == QLatin1Char('/') || c == QLatin1Char('.')
            || c == QLatin1Char(' ')) {
            pieces << piece;
            piece.clear();
        }
    }
    if (!piece.isEmpty())
        pieces << piece;
    QStringList lines;
    QString line;
    for (QString p : std::as_const(pieces)) {
        if (!line.isEmpty() && metrics.horizontalAdvance(line + p) > width) {
            lines << line;
            line.clear();
        }
        while (metrics.horizontalAdvance(line + p) > width && p.size() > 1) { // too wide alone: split anywhere
            int n = 1;
            while (n < p.size() && metrics.horizontalAdvance(line + p.left(n + 1)) <= width)
                ++n;
            lines << line + p.left(n);
            line.clear();
            p = p.mid(n);
        }
        line += p;
    }
    if (!line.isEmpty() || lines.isEmpty())
        lines << line;
    return lines;
}

RankChart::RankChart(RankCohort cohort, const ChartOptions& options)
    : m_cohort(std::move(cohort))
    , m_options(options)
{
    ChartStyle::apply(this, options.dark);
    m_bars = new QHorizontalBarSeries;
    m_set = new QBarSet(QStringLiteral("ratio to the best (lower is better)"));
    const QColor color = ChartStyle::seriesColor(0, options.dark);
    m_set->setBrush(color);
    m_set->setBorderColor(color.darker(130));
    m_set->setLabelColor(options.dark ? QColor(Qt::white) : QColor(Qt::black));
    m_bars->append(m_set);
    m_bars->setBarWidth(0.7);
    m_bars->setLabelsVisible(false); // ValueLabels: never overlapping, right of the marker
    m_axis = new QBarCategoryAxis;
    m_x = new QValueAxis;
    m_x->setLabelFormat(QStringLiteral("%g"));
    m_x->setTitleText(xTitle);
    addAxis(m_axis, Qt::AlignLeft);
    addAxis(m_x, Qt::AlignBottom);
    addSeries(m_bars);
    m_bars->attachAxis(m_x);
    m_bars->attachAxis(m_axis);
    const QColor ink = options.dark ? QColor(0xee, 0xee, 0xee) : QColor(0x20, 0x20, 0x20);
    for (Distinguishable d : kinds) {
        bool any = false;
        for (const RankEntry& e : std::as_const(m_cohort.entries))
            any = any || e.distinguishable == d;
        if (!any)
            continue;
        auto* markers = new QScatterSeries;
        markers->setName(markerName(d));
        markers->setMarkerSize(11);
        markers->setMarkerShape(markerShape(d));
        markers->setColor(d == Distinguishable::Unknown ? (options.dark ? QColor(Qt::black) : QColor(Qt::white)) : ink);
        markers->setBorderColor(ink);
        addSeries(markers);
        markers->attachAxis(m_x);
        markers->attachAxis(m_axis);
        m_markers.insert(int(d), markers);
    }
    m_valueLabels = std::make_unique<ValueLabels>(this, m_bars, options.dark ? QColor(Qt::white) : QColor(Qt::black));
    legend()->setAlignment(Qt::AlignBottom); // at the right it would take the labels' width
    m_legendFont = legend()->font();
    QObject::connect(this, &QChart::plotAreaChanged, this, [this](const QRectF& plot) {
        if (plot.width() > 0) // Qt Charts would elide it
            m_x->setTitleText(ChartStyle::wrappedHtml(xTitle, m_x->titleFont(), plot.width() - 16));
    });
    for (QLegendMarker* marker : legend()->markers(m_bars))
        marker->setShape(QLegend::MarkerShapeRectangle);
    QObject::connect(m_bars, &QAbstractBarSeries::hovered, m_bars, [this](bool state, int index, QBarSet*) {
        const int entry = m_shown - 1 - index;
        ChartHover::of(this)->hover(
            state && entry >= 0 && entry < m_shown ? tooltip(m_cohort.entries[entry], m_cohort.key) : QString());
    });
    QObject::connect(m_bars, &QAbstractBarSeries::clicked, m_bars, [this](int index, QBarSet*) {
        const int entry = m_shown - 1 - index;
        if (entry >= 0 && entry < m_shown)
            ChartHover::of(this)->click(tooltip(m_cohort.entries[entry], m_cohort.key));
    });
    layoutFor(QSizeF(1200, 800));
}

RankChart::~RankChart() = default;

void RankChart::resizeEvent(QGraphicsSceneResizeEvent* event)
{
    QChart::resizeEvent(event);
    layoutFor(event->newSize());
}

void RankChart::layoutFor(const QSizeF& size)
{
    if (size.width() <= 0 || size.height() <= 0)
        return;
    // less the chart's margins and the title's own document margins
    const double titleWidth = size.width() - margins().left() - margins().right() - 16;
    ChartStyle::fitLegend(this, m_legendFont, size.width() - margins().left() - margins().right());
    if (titleWidth != m_titleWidth) {
        m_titleWidth = titleWidth;
        updateTitle();
    }
    const QFontMetricsF metrics(m_axis->labelsFont());
    // Qt gives the left axis at most 40% of the chart's width; the labels get that less the padding and tick.
    const double wrapWidth = std::max(60.0, std::floor(0.4 * (size.width() - 40) - 24));
    const int total = int(m_cohort.entries.size());
    // Height: title, legend and value axis take their lines; every drawn label needs its lines and some room.
    const double line = metrics.lineSpacing();
    const double titleLines
        = std::max<double>(3 + (m_cohort.failed.isEmpty() ? 0 : 1), title().count(QStringLiteral("<br>")) + 1);
    const double plot = size.height() - titleLines * line * 1.3 - 3 * line - axisChrome;
    int shown = total;
    for (int pass = 0; pass < 3; ++pass) {
        int maxLines = 1;
        for (int i = 0; i < shown; ++i)
            maxLines = std::max<int>(
                maxLines, int(wrapLabel(m_cohort.entries[i].implementation, metrics, wrapWidth).size()));
        const int fits = std::max(1, int(std::floor(plot / (maxLines * line + labelChrome))));
        if (fits >= shown)
            break;
        shown = fits;
    }
    shown = std::min(shown, total);
    if (shown == m_shown && wrapWidth == m_wrapWidth)
        return;
    fill(shown, wrapWidth);
}

void RankChart::fill(int shown, double wrapWidth)
{
    m_shown = shown;
    m_wrapWidth = wrapWidth;
    const QFontMetricsF metrics(m_axis->labelsFont());
    m_labels.clear();
    for (int i = 0; i < shown; ++i) {
        QStringList lines = wrapLabel(m_cohort.entries[i].implementation, metrics, wrapWidth);
        for (QString& l : lines)
            l = l.toHtmlEscaped();
        QString label = lines.join(QStringLiteral("<br>"));
        for (int n = 2; m_labels.contains(label); ++n) // a category axis drops a repeated label
            label = lines.join(QStringLiteral("<br>")) + QStringLiteral(" (%1)").arg(n);
        m_labels << label;
    }
    QStringList rows = m_labels;
    std::reverse(rows.begin(), rows.end()); // the best at the top: category 0 is at the bottom
    m_set->remove(0, m_set->count());
    double top = 1.0;
    for (int r = 0; r < shown; ++r) {
        const double ratio = m_cohort.entries[shown - 1 - r].ratio;
        m_set->append(std::isfinite(ratio) ? ratio : 0);
        if (std::isfinite(ratio))
            top = std::max(top, ratio);
    }
    m_axis->clear();
    m_axis->append(rows);
    for (QScatterSeries* markers : std::as_const(m_markers))
        markers->clear();
    for (int i = 0; i < shown; ++i) {
        const RankEntry& e = m_cohort.entries[i];
        if (QScatterSeries* markers = m_markers.value(int(e.distinguishable)); markers && std::isfinite(e.ratio))
            markers->append(e.ratio, shown - 1 - i);
    }
    if (QScatterSeries* old = ChartStyle::currentRunMarker(this)) { // the current run: a ring at its entry's end
        removeSeries(old);
        old->deleteLater(); // its marker may be the item whose event is being handled
    }
    for (int i = 0; i < shown && m_options.currentRun; ++i) {
        const RankEntry& e = m_cohort.entries[i];
        if (e.runs.contains(m_options.currentRun) && std::isfinite(e.ratio))
            ChartStyle::markCurrentRun(this, m_options.currentRun, { QPointF(e.ratio, shown - 1 - i) }, m_x, m_axis,
                tooltip(e, m_cohort.key), m_options.dark);
    }
    m_x->setRange(0, top * 1.25); // room for the value labels
    m_x->applyNiceNumbers();
    QVector<ValueLabels::Label> labels;
    for (int i = 0; i < shown; ++i) { // best first: the first labels are kept
        const double ratio = m_cohort.entries[i].ratio;
        if (std::isfinite(ratio))
            labels.append({ QPointF(ratio, shown - 1 - i), ValueLabels::ratioLabel(ratio) });
    }
    m_valueLabels->setLabels(labels);
    QVector<QPointF> marks;
    for (const ValueLabels::Label& l : std::as_const(labels))
        marks << l.value;
    m_valueLabels->setObstacles(marks, 5.5); // the markers at the bars' ends
    updateTitle();
}

void RankChart::updateTitle()
{
    const CohortKey& k = m_cohort.key;
    QStringList subtitles;
    subtitles << QStringLiteral("%1 · %2 %3 (%4), lower is better · %5 implementation%6, %7 run%8")
                     .arg(k.protocol.isEmpty() ? QStringLiteral("(no protocol family)") : k.protocol, k.metric,
                         k.statistic, k.unit)
                     .arg(m_cohort.entries.size())
                     .arg(m_cohort.entries.size() == 1 ? QString() : QStringLiteral("s"))
                     .arg(m_cohort.runCount())
                     .arg(m_cohort.runCount() == 1 ? QString() : QStringLiteral("s"));
    if (!m_cohort.entries.isEmpty()) {
        const RankEntry& best = m_cohort.entries.front();
        QString line
            = QStringLiteral("best: %1 %2")
                  .arg(best.implementation,
                      best.bestRun ? formatValue(*best.bestRun, best.best) : formatRankValue(best.best, k.unit));
        if (m_shown < m_cohort.entries.size())
            line += QStringLiteral(" · the best %1 of %2 drawn (kix rank lists all)")
                        .arg(m_shown)
                        .arg(m_cohort.entries.size());
        subtitles << line;
    }
    subtitles << QStringLiteral("cohort: %1 · each implementation at its best observation").arg(k.scopeText());
    if (!m_cohort.failed.isEmpty()) {
        QStringList names;
        for (int i = 0; i < std::min<int>(4, int(m_cohort.failed.size())); ++i)
            names << QStringLiteral("%1 (%2)").arg(m_cohort.failed[i].implementation, m_cohort.failed[i].reason);
        if (m_cohort.failed.size() > 4)
            names << QStringLiteral("and %1 more").arg(m_cohort.failed.size() - 4);
        subtitles << QStringLiteral("failed, unranked: ") + names.join(QStringLiteral(", "));
    }
    // Only the parts the cohort has: an empty pass, workload or GPU leaves no empty "· ·" behind.
    const QString operation
        = QStringList { k.kernel, k.pass }.filter(QRegularExpression(QStringLiteral("\\S"))).join(QLatin1Char(' '));
    const QStringList parts
        = QStringList { operation, k.workload.isEmpty() ? k.workloadTitle : k.workload, shortGpuName(k.gpuName) }
              .filter(QRegularExpression(QStringLiteral("\\S")));
    setTitle(ChartStyle::titleHtml(
        parts.isEmpty() ? QStringLiteral("Rank") : QStringLiteral("Rank — ") + parts.join(QStringLiteral(" · ")),
        subtitles, {}, m_options.dark, titleFont(), m_titleWidth));
}

QString RankChart::tooltip(const RankEntry& e, const CohortKey& key)
{
    QString text = QStringLiteral("#%1 %2 — %3 the best\n").arg(e.rank).arg(e.implementation, rankRatioText(e.ratio));
    // One unit per figure: the best run's, as the run table and Details show it (formatValue).
    auto figure = [&](double v) { return e.bestRun ? formatValue(*e.bestRun, v) : formatRankValue(v, key.unit); };
    text += QStringLiteral("best %1").arg(figure(e.best));
    if (e.count > 1)
        text += QStringLiteral(" · median %1 of %2 observations").arg(figure(e.median)).arg(e.count);
    text += QLatin1Char('\n');
    text += QStringLiteral("vs best: %1 (%2)\n").arg(distinguishableName(e.distinguishable), e.evidence);
    for (const QString& d : e.differences)
        text += QStringLiteral("differs from the best: %1\n").arg(d);
    if (e.bestRun) // which run: its id where it has one ("external id 28584" reads as what it is)
        text += e.bestRun->externalId.isEmpty() ? QStringLiteral("file ") + e.bestRun->file
                                                : QStringLiteral("external id ") + e.bestRun->externalId;
    return text.trimmed();
}

std::unique_ptr<QChart> buildRankChart(const RunList& runs, const ChartOptions& options, ChartInfo& info)
{
    return buildRankChart(
        rankRuns(runs, 0.05, options.rankWidened ? CohortScope::Family : CohortScope::Strict), options, info);
}

std::unique_ptr<QChart> buildRankChart(const Ranking& ranking, const ChartOptions& options, ChartInfo& info)
{
    return drawRankChart(ranking, chooseRankCohort(ranking, options, info), options);
}

std::unique_ptr<QChart> drawRankChart(const Ranking& ranking, int cohort, const ChartOptions& options)
{
    if (cohort < 0 || cohort >= ranking.cohorts.size())
        return std::make_unique<RankChart>(RankCohort {}, options);
    return std::make_unique<RankChart>(ranking.cohorts[cohort], options);
}

int chooseRankCohort(const Ranking& ranking, const ChartOptions& options, ChartInfo& info)
{
    // The chooser: cohorts with something ranked, most implementations first.
    QVector<int> order;
    for (int i = 0; i < ranking.cohorts.size(); ++i) {
        if (!ranking.cohorts[i].entries.isEmpty())
            order << i;
    }
    std::stable_sort(order.begin(), order.end(),
        [&ranking](int a, int b) { return ranking.cohorts[a].entries.size() > ranking.cohorts[b].entries.size(); });
    constexpr int maxChoices = 300;
    for (int i = 0; i < std::min<int>(maxChoices, int(order.size())); ++i) {
        const RankCohort& c = ranking.cohorts[order[i]];
        info.cohortIds << c.key.id();
        info.cohorts << QStringLiteral("%1 (%2)").arg(c.key.describe()).arg(c.entries.size());
    }
    if (order.size() > maxChoices)
        info.notes << QStringLiteral("%1 cohorts in scope: the chooser lists the %2 largest; filter to reach the rest")
                          .arg(order.size())
                          .arg(maxChoices);
    int chosen = -1;
    if (!options.cohort.isEmpty()) {
        chosen = ranking.findCohort(options.cohort);
        for (int i = 0; chosen < 0 && i < order.size(); ++i) {
            if (ranking.cohorts[order[i]].key.describe().contains(options.cohort, Qt::CaseInsensitive))
                chosen = order[i];
        }
        if (chosen < 0)
            info.notes << QStringLiteral("the chosen cohort is not in scope: showing the %1")
                              .arg(options.cohortRun ? QStringLiteral("current run's") : QStringLiteral("largest"));
    }
    if (chosen < 0 && options.cohortRun)
        chosen = ranking.cohortOf(options.cohortRun);
    if (chosen >= 0 && ranking.cohorts[chosen].entries.isEmpty())
        chosen = -1;
    if (chosen < 0)
        chosen = ranking.largestCohort();
    info.notes += ranking.notes;
    if (order.size() > 1)
        info.notes << QStringLiteral("%1 cohorts of comparable runs in scope: one is drawn, choose another above")
                          .arg(order.size());
    if (chosen < 0) {
        info.title = QStringLiteral("Rank");
        info.notes.prepend(QStringLiteral("no cohort with a ranked run"));
        info.isEmpty = true;
        return -1;
    }
    const RankCohort& cohort = ranking.cohorts[chosen];
    info.cohort = cohort.key.id();
    info.title = QStringLiteral("Rank — ") + cohort.key.describe();
    info.isEmpty = false;
    return chosen;
}

} // namespace kix
