// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/speedupchart.h"

#include "model/chartdata/quantiledata.h"
#include "model/chartdata/timescale.h"
#include "model/workload.h"
#include "ui/charts/charthover.h"
#include "ui/charts/chartstyle.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QHorizontalBarSeries>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSet>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace kix {

namespace {

QString ratioText(double ratio)
{
    return std::isfinite(ratio) ? QString::number(ratio, 'f', 2) + QStringLiteral("×") : QStringLiteral("–");
}

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

QString SpeedupChart::verdictSymbol(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Faster:
        return QStringLiteral("▲");
    case Verdict::Slower:
        return QStringLiteral("◆");
    case Verdict::Same:
        return QStringLiteral("●");
    case Verdict::Ambiguous:
        break;
    }
    return QStringLiteral("□");
}

SpeedupChart::SpeedupChart(Comparison comparison, const ChartOptions& options)
    : m_comparison(std::move(comparison))
{
    ChartStyle::apply(this, options.dark);
    const QVector<ComparisonPair>& pairs = m_comparison.pairs;

    // Pairs come sorted by kernel, pass and workload: a category is a stretch of pairs of one workload, and those
    // beyond maxGroups are a tail that is not drawn (no work per pair there: a comparison may hold 100k pairs).
    auto sameWorkload = [](const Run& a, const Run& b) {
        return a.kernel == b.kernel && a.pass == b.pass && compareWorkloads(a, b) == 0;
    };
    qsizetype drawn = 0;
    for (int categories = 0; drawn < pairs.size(); ++drawn) {
        if (drawn == 0 || !sameWorkload(*pairs[drawn - 1].run, *pairs[drawn].run)) {
            if (categories == options.maxGroups)
                break;
            ++categories;
        }
    }
    int dropped = int(pairs.size() - drawn);
    RunList paired;
    paired.reserve(drawn);
    for (qsizetype i = 0; i < drawn; ++i)
        paired.append(pairs[i].run);
    const WorkloadLabeler labeler(paired);
    const ParamVariation& variation = labeler.variation();
    QSet<QString> gpus;
    for (const RunPtr& run : std::as_const(paired))
        gpus.insert(run->gpuDisplayName());

    // Sets: provider (·GPU when GPUs vary) (·pass when passes vary). Colour = provider; a provider's further sets
    // get a pattern.
    QHash<QString, int> setIndex;
    QStringList setLabels;
    QStringList setProviders;
    struct Cell
    {
        int set;
        int category;
        int pair;
    };
    QVector<Cell> cells;
    int category = -1;
    for (int i = 0; i < drawn; ++i) {
        const Run& run = *pairs[i].run;
        if (i == 0 || !sameWorkload(*pairs[i - 1].run, run)) {
            ++category;
            m_categories << labeler.label(run);
        }
        QString setLabel = run.provider;
        if (gpus.size() > 1)
            setLabel += QStringLiteral(" · ") + shortGpuName(run.gpuDisplayName());
        if (variation.passVaries)
            setLabel += QStringLiteral(" · ") + run.pass;
        auto s = setIndex.constFind(setLabel);
        if (s == setIndex.constEnd()) {
            if (setLabels.size() >= options.maxSeries) {
                ++dropped;
                continue;
            }
            s = setIndex.insert(setLabel, int(setLabels.size()));
            setLabels << setLabel;
            setProviders << run.provider;
        }
        cells.append({ *s, category, i });
    }
    const int categoryCount = int(m_categories.size());
    auto row = [categoryCount](int c) { return categoryCount - 1 - c; }; // the first workload at the top

    auto* bars = new QHorizontalBarSeries;
    m_bars = bars;
    QVector<QBarSet*> sets;
    QHash<QString, int> variants;
    for (int s = 0; s < setLabels.size(); ++s) {
        auto* set = new QBarSet(setLabels[s]);
        const QColor color = ChartStyle::providerColor(setProviders[s], options.dark);
        const int variant = variants[setProviders[s]]++;
        set->setBrush(QBrush(color, ChartStyle::variantBrush(variant)));
        set->setBorderColor(color.darker(130));
        set->setLabelColor(options.dark ? QColor(Qt::white) : QColor(Qt::black));
        for (int c = 0; c < categoryCount; ++c)
            set->append(0);
        sets << set;
    }
    double top = 1.0;
    const double width = m_bars->barWidth();
    const int setCount = std::max<int>(1, int(sets.size()));
    for (const Cell& cell : std::as_const(cells)) {
        const double ratio = pairs[cell.pair].ratio;
        sets[cell.set]->replace(row(cell.category), std::isfinite(ratio) ? ratio : 0);
        m_pairIndex[sets[cell.set]].insert(cell.category, cell.pair);
        if (std::isfinite(ratio)) {
            top = std::max(top, ratio);
            // a bar series' sets share the middle `barWidth` of a category, the first set lowest
            m_barEnd.insert(
                cell.pair, QPointF(ratio, row(cell.category) - width / 2 + (cell.set + 0.5) * width / setCount));
        }
    }
    for (QBarSet* set : std::as_const(sets))
        m_bars->append(set);
    // Each bar carries its value; the (non-breaking: labels are HTML) spaces leave room for the verdict marker at
    // the bar's end.
    m_bars->setLabelsVisible(true);
    m_bars->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    m_bars->setLabelsFormat(QString(3, QChar(0x00A0)) + QStringLiteral("@value×"));
    m_bars->setLabelsPrecision(3);

    auto* y = new QBarCategoryAxis;
    QStringList rows = m_categories;
    std::reverse(rows.begin(), rows.end());
    for (int i = 0; i < rows.size(); ++i) { // a category axis drops a repeated label, shifting every later one
        const QString label = rows[i];
        for (int n = 2; rows.indexOf(rows[i]) < i; ++n)
            rows[i] = label + QStringLiteral(" (%1)").arg(n);
    }
    y->append(rows);
    if (!m_categories.isEmpty()) // an empty category axis draws its title in a corner
        y->setTitleText(labeler.title());
    auto* x = new QValueAxis;
    x->setLabelFormat(QStringLiteral("%g")); // printf format: a "×" in it would not survive
    x->setTitleText(
        QStringLiteral("speed-up (×) = %1 median / run median; above 1× faster")
            .arg(m_comparison.baseline.isRun() ? QStringLiteral("baseline run") : m_comparison.baseline.describe()));
    x->setRange(0, top * 1.25); // room for the value labels
    x->applyNiceNumbers();
    addAxis(y, Qt::AlignLeft);
    addAxis(x, Qt::AlignBottom);
    addSeries(m_bars);
    m_bars->attachAxis(x);
    m_bars->attachAxis(y);
    QObject::connect(m_bars, &QAbstractBarSeries::hovered, m_bars, [this](bool state, int index, QBarSet* set) {
        const ComparisonPair* pair = pairAt(set, int(m_categories.size()) - 1 - index);
        ChartHover::of(this)->hover(state && pair ? tooltip(*pair) : QString());
    });
    QObject::connect(m_bars, &QAbstractBarSeries::clicked, m_bars, [this](int index, QBarSet* set) {
        if (const ComparisonPair* pair = pairAt(set, int(m_categories.size()) - 1 - index))
            ChartHover::of(this)->click(tooltip(*pair));
    });

    // 1× line across the categories (category c is centred on y = c).
    auto* one = new QLineSeries;
    one->setName(QStringLiteral("1× = as fast as the baseline"));
    one->append(1, -0.5);
    one->append(1, std::max(1, categoryCount) - 0.5);
    addSeries(one);
    one->attachAxis(x);
    one->attachAxis(y);
    one->setPen(QPen(options.dark ? QColor(Qt::white) : QColor(Qt::black), 1, Qt::DashLine));

    // The verdict as a marker shape at the end of each bar, in the foreground colour: no series colour is reused.
    const QColor ink = options.dark ? QColor(0xee, 0xee, 0xee) : QColor(0x20, 0x20, 0x20);
    for (const Cell& cell : std::as_const(cells)) {
        const ComparisonPair& p = pairs[cell.pair];
        if (!m_barEnd.contains(cell.pair))
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
        markers->append(m_barEnd.value(cell.pair));
    }
    for (Verdict v : { Verdict::Faster, Verdict::Slower, Verdict::Same, Verdict::Ambiguous }) {
        if (QScatterSeries* markers = m_markers.value(int(v))) {
            addSeries(markers);
            markers->attachAxis(x);
            markers->attachAxis(y);
        }
    }
    for (const Cell& cell : std::as_const(cells)) { // the current run: a ring at its bar's end
        if (options.currentRun && pairs[cell.pair].run == options.currentRun && m_barEnd.contains(cell.pair))
            ChartStyle::markCurrentRun(
                this, options.currentRun, { m_barEnd.value(cell.pair) }, x, y, tooltip(pairs[cell.pair]), options.dark);
    }
    legend()->setAlignment(Qt::AlignBottom);
    for (QLegendMarker* marker : legend()->markers(m_bars))
        marker->setShape(QLegend::MarkerShapeRectangle); // bars "from series" would draw hollow
    QStringList subtitles;
    QStringList means;
    for (const ProviderSummary& s : m_comparison.providers)
        means << summaryLine(s);
    QStringList first;
    if (!means.isEmpty())
        first << QStringLiteral("geomean ") + means.join(QStringLiteral(" · "));
    const QString fixed = variation.describeFixed();
    if (!fixed.isEmpty())
        first << QStringLiteral("fixed: ") + fixed;
    if (!first.isEmpty())
        subtitles << first.join(QStringLiteral(" — "));
    // How verdicts are decided is in the legend's shapes, each bar's read-out and the table's "Why" column: the
    // title stays two lines so the plot keeps its height.
    if (std::any_of(m_comparison.pairs.cbegin(), m_comparison.pairs.cend(),
            [](const ComparisonPair& p) { return p.method == VerdictMethod::NvbenchNoise; }))
        subtitles << QStringLiteral("nvbench pairs: headline = mean cold GPU time; same when |%diff| ≤ the smaller "
                                    "relative stdev (nvbench_compare)");
    if (dropped > 0)
        subtitles << QStringLiteral("%1 pair(s) beyond %2 workloads / %3 sets not drawn")
                         .arg(dropped)
                         .arg(options.maxGroups)
                         .arg(options.maxSeries);
    QStringList warnings;
    QSet<QString> seen;
    for (const ComparisonPair& p : pairs) {
        for (const QString& w : p.warnings) {
            if (!seen.contains(w)) {
                seen.insert(w);
                warnings << w;
            }
        }
    }
    setTitle(ChartStyle::titleHtml(
        selectionTitle(paired) + QStringLiteral(" — speed-up vs ") + m_comparison.baseline.describe(), subtitles,
        warnings, options.dark));
}

const ComparisonPair* SpeedupChart::pairAt(const QBarSet* set, int category) const
{
    const auto s = m_pairIndex.constFind(set);
    if (s == m_pairIndex.constEnd())
        return nullptr;
    const auto c = s->constFind(category);
    return c == s->constEnd() ? nullptr : &m_comparison.pairs[*c];
}

QPointF SpeedupChart::barEnd(int pairIndex) const
{
    if (!m_bars || !m_barEnd.contains(pairIndex))
        return {};
    return const_cast<SpeedupChart*>(this)->mapToPosition(
        m_barEnd.value(pairIndex), m_bars); // Qt lacks a const overload
}

QString SpeedupChart::tooltip(const ComparisonPair& pair)
{
    const Run& r = *pair.run;
    const Run& b = *pair.baseline;
    QString text = QStringLiteral("%1 %2 — %3 than %4\n")
                       .arg(ratioText(pair.ratio), verdictSymbol(pair.verdict),
                           pair.verdict == Verdict::Ambiguous  ? QStringLiteral("ambiguous")
                               : pair.verdict == Verdict::Same ? QStringLiteral("no faster")
                                                               : verdictName(pair.verdict),
                           b.provider);
    text
        += QStringLiteral("%1 · %2 · %3 · %4\n")
               .arg(r.provider, shortGpuName(r.gpuDisplayName()), r.kernel + QLatin1Char(' ') + r.pass, r.workloadSlug);
    text += QStringLiteral("median %1 vs %2 %3").arg(formatValue(r, r.median), b.provider, formatValue(b, b.median));
    if (b.gpuDisplayName() != r.gpuDisplayName())
        text += QStringLiteral(" (on %1)").arg(shortGpuName(b.gpuDisplayName()));
    text += QLatin1Char('\n');
    if (!pair.reason.isEmpty())
        text += QStringLiteral("verdict %1: %2\n").arg(verdictName(pair.verdict), pair.reason);
    for (const QString& w : pair.warnings)
        text += QStringLiteral("⚠ ") + w + QLatin1Char('\n');
    return text.trimmed();
}

QString SpeedupChart::summaryLine(const ProviderSummary& s)
{
    QString line = QStringLiteral("%1 %2 (%3 pair%4")
                       .arg(s.provider, ratioText(s.geomean))
                       .arg(s.pairs)
                       .arg(s.pairs == 1 ? QString() : QStringLiteral("s"));
    if (s.gpus.size() > 1)
        line += QStringLiteral("; %1 GPUs").arg(s.gpus.size());
    if (s.passes.size() > 1)
        line += QStringLiteral("; %1 passes").arg(s.passes.size());
    return line + QLatin1Char(')');
}

} // namespace kix
