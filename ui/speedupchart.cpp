#include "ui/speedupchart.h"

#include "model/quantiledata.h"
#include "model/timescale.h"
#include "model/workload.h"
#include "ui/chartstyle.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCursor>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSet>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace kix {

namespace {

QString ratioText(double ratio)
{
    return std::isfinite(ratio) ? QString::number(ratio, 'f', 2) + QStringLiteral("×") : QStringLiteral("–");
}

} // namespace

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

    // Sets: provider·GPU(·pass).
    QHash<QString, int> setIndex;
    QStringList setLabels;
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
        QString setLabel = run.provider + QStringLiteral(" · ") + shortGpuName(run.gpuDisplayName());
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
        }
        cells.append({ *s, category, i });
    }

    m_bars = new QBarSeries;
    QVector<QBarSet*> sets;
    for (int s = 0; s < setLabels.size(); ++s) {
        auto* set = new QBarSet(setLabels[s]);
        set->setColor(ChartStyle::seriesColor(s, options.dark));
        set->setBorderColor(ChartStyle::seriesColor(s, options.dark).darker(130));
        for (int c = 0; c < m_categories.size(); ++c)
            set->append(0);
        sets << set;
    }
    double top = 1.0;
    for (const Cell& cell : std::as_const(cells)) {
        const double ratio = pairs[cell.pair].ratio;
        sets[cell.set]->replace(cell.category, std::isfinite(ratio) ? ratio : 0);
        m_pairIndex[sets[cell.set]].insert(cell.category, cell.pair);
        if (std::isfinite(ratio))
            top = std::max(top, ratio);
    }
    for (QBarSet* set : std::as_const(sets))
        m_bars->append(set);

    auto* x = new QBarCategoryAxis;
    x->append(ChartStyle::categoryLabels(m_categories));
    if (!m_categories.isEmpty()) // an empty category axis draws its title in a corner
        x->setTitleText(labeler.title());
    auto* y = new QValueAxis;
    y->setLabelFormat(QStringLiteral("%.2f"));
    y->setTitleText(QStringLiteral("speed-up (×)"));
    y->setRange(0, top * 1.12);
    y->applyNiceNumbers();
    addAxis(x, Qt::AlignBottom);
    addAxis(y, Qt::AlignLeft);
    addSeries(m_bars);
    m_bars->attachAxis(x);
    m_bars->attachAxis(y);
    ChartStyle::placeLegend(this, int(setLabels.size()) + 2);
    QObject::connect(m_bars, &QBarSeries::hovered, m_bars, [this](bool state, int index, QBarSet* set) {
        const ComparisonPair* pair = pairAt(set, index);
        if (state && pair)
            QToolTip::showText(QCursor::pos(), tooltip(*pair));
        else
            QToolTip::hideText();
    });

    // 1× line across the categories (category c is centred on x = c).
    auto* one = new QLineSeries;
    one->setName(QStringLiteral("baseline = 1×"));
    one->append(-0.5, 1);
    one->append(std::max<qsizetype>(1, m_categories.size()) - 0.5, 1);
    addSeries(one);
    one->attachAxis(x);
    one->attachAxis(y);
    QPen dashed(options.dark ? QColor(Qt::white) : QColor(Qt::black), 1, Qt::DashLine);
    one->setPen(dashed);

    // A verdict marker on top of each bar: a bar series' sets share the middle `barWidth` of a category.
    const double width = m_bars->barWidth();
    const int setCount = std::max<int>(1, int(sets.size()));
    for (const Cell& cell : std::as_const(cells)) {
        const ComparisonPair& p = pairs[cell.pair];
        if (!std::isfinite(p.ratio))
            continue;
        QScatterSeries*& markers = m_markers[int(p.verdict)];
        if (!markers) {
            markers = new QScatterSeries;
            markers->setName(verdictName(p.verdict));
            markers->setMarkerSize(9);
            markers->setMarkerShape(p.verdict == Verdict::Ambiguous ? QScatterSeries::MarkerShapeRectangle
                                                                    : QScatterSeries::MarkerShapeCircle);
            markers->setColor(ChartStyle::verdictColor(p.verdict, options.dark));
            markers->setBorderColor(options.dark ? QColor(Qt::black) : QColor(Qt::white));
        }
        markers->append(cell.category - width / 2 + (cell.set + 0.5) * width / setCount, p.ratio);
    }
    for (Verdict v : { Verdict::Faster, Verdict::Slower, Verdict::Same, Verdict::Ambiguous }) {
        if (QScatterSeries* markers = m_markers.value(int(v))) {
            addSeries(markers);
            markers->attachAxis(x);
            markers->attachAxis(y);
        }
    }

    QStringList subtitles;
    QStringList means;
    for (const ProviderSummary& s : m_comparison.providers)
        means << summaryLine(s);
    if (!means.isEmpty())
        subtitles << QStringLiteral("geomean: ") + means.join(QStringLiteral(" · "));
    const QString method = QStringLiteral("verdict: Mann–Whitney U at α = %1 where both runs have samples, else "
                                          "p20–p80 overlap = ambiguous")
                               .arg(m_comparison.alpha);
    subtitles << QStringLiteral("speed-up = baseline median / run median; above 1× the run is faster") << method;
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
        QStringLiteral("Speed-up vs %1").arg(m_comparison.baseline.describe()), subtitles, warnings, options.dark));
}

const ComparisonPair* SpeedupChart::pairAt(const QBarSet* set, int category) const
{
    const auto s = m_pairIndex.constFind(set);
    if (s == m_pairIndex.constEnd())
        return nullptr;
    const auto c = s->constFind(category);
    return c == s->constEnd() ? nullptr : &m_comparison.pairs[*c];
}

QString SpeedupChart::tooltip(const ComparisonPair& pair)
{
    const Run& r = *pair.run;
    const Run& b = *pair.baseline;
    const TimeScale scale = chooseTimeScale({ r.median, b.median });
    QString text = QStringLiteral("%1 · %2 · %3\n%4\n").arg(r.provider, r.gpuDisplayName(), r.pass, r.workloadSlug);
    text += QStringLiteral("median %1 vs baseline %2 · %3 %4\n")
                .arg(scale.format(r.median), b.provider, b.gpuDisplayName(), scale.format(b.median));
    text += QStringLiteral("speed-up %1 — %2 (%3")
                .arg(ratioText(pair.ratio), verdictName(pair.verdict), verdictMethodName(pair.method));
    if (std::isfinite(pair.pValue))
        text += QStringLiteral(", p = %1").arg(pair.pValue, 0, 'g', 3);
    text += QStringLiteral(")");
    for (const QString& w : pair.warnings)
        text += QStringLiteral("\n⚠ ") + w;
    for (const QString& n : pair.notes)
        text += QStringLiteral("\n· ") + n;
    return text;
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
