// SPDX-License-Identifier: Apache-2.0
// The three charts built from fixture runs: the values the series hold, axes, legend toggling, verdict markers,
// and the warnings and notes the titles carry.
#include "model/read/runloader.h"
#include "ui/charts/chartbanner.h"
#include "ui/charts/chartfactory.h"
#include "ui/charts/quantilechart.h"
#include "ui/charts/speedupchart.h"
#include "ui/charts/sweepchart.h"

#include "tests/ui/uitestsupport.h"

#include "tests/support/testmain.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChartView>
#include <QFile>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

using namespace kix;

namespace {

template<typename T>
T* axisOf(QChart* chart, Qt::Orientation orientation)
{
    const QList<QAbstractAxis*> axes = chart->axes(orientation);
    return axes.isEmpty() ? nullptr : qobject_cast<T*>(axes.front());
}

bool near(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

} // namespace

class TestCharts : public QObject
{
    Q_OBJECT
private slots:
    void quantiles();
    void quantilesLogAndDark();
    void quantilePlaceholders();
    void sweep();
    void sweepChooseX();
    void speedup();
    void speedupRunBaseline();
    void emptySelection();
    void speedupOfTwoToolFiles();
    void emptySpeedupSaysWhy();
};

void TestCharts::quantiles()
{
    ChartInfo info;
    auto chart = buildChart(ChartKind::Quantiles, kixtest::allRuns(), {}, &info);
    auto* q = dynamic_cast<QuantileChart*>(chart.get());
    QVERIFY(q);
    QVERIFY(info.notes.join(QLatin1Char(' ')).contains(QStringLiteral("2 memory run(s) not shown")));
    QCOMPARE(q->data().scale.unit, QStringLiteral("µs"));
    QCOMPARE(axisOf<QValueAxis>(q, Qt::Vertical)->titleText(), QStringLiteral("latency (µs)"));
    QCOMPARE(axisOf<QBarCategoryAxis>(q, Qt::Horizontal)->titleText(), QStringLiteral("pass · channels"));
    QCOMPARE(q->boxSeries().size(), 5); // huggingface and liger on B200 and H100, liger on A100
    int boxes = 0;
    for (QBoxPlotSeries* series : q->boxSeries()) {
        for (QBoxSet* set : series->boxSets()) {
            const QuantileBox* box = q->boxFor(set);
            if (!box)
                continue;
            ++boxes;
            const Run& run = *box->run;
            QVERIFY(series->name().startsWith(run.provider + QStringLiteral(" · ")));
            QVERIFY(near(set->at(QBoxSet::Median), run.median / 1e3));
            QVERIFY(near(set->at(QBoxSet::LowerQuartile), run.p20 / 1e3));
            QVERIFY(near(set->at(QBoxSet::UpperQuartile), run.p80 / 1e3));
            if (run.gpuProduct == QLatin1String("NVIDIA B200") && run.pass == QLatin1String("backward")) {
                QVERIFY(box->hasExtremes);
                QVERIFY(near(set->at(QBoxSet::LowerExtreme), qRound(run.median * 0.97) / 1e3));
                QVERIFY(near(set->at(QBoxSet::UpperExtreme), qRound(run.median * 1.05) / 1e3));
            }
        }
    }
    QCOMPARE(boxes, 33);
    // The exact values on hover.
    const QuantileBox& first = q->data().boxes.front();
    const QString tip = QuantileChart::tooltip(first, q->data().scale);
    QVERIFY(tip.contains(QStringLiteral("median 36 µs (36000 ns)")));
    QVERIFY(tip.contains(QStringLiteral("p20 35.64 µs · p80 36.36 µs")));
    QVERIFY(tip.contains(QStringLiteral("min 34.92 µs · max 37.8 µs")));
}

void TestCharts::quantilesLogAndDark()
{
    ChartOptions options;
    options.logY = true;
    options.dark = true;
    auto chart = buildChart(ChartKind::Quantiles, kixtest::sweepRuns(), options);
    QVERIFY(axisOf<QLogValueAxis>(chart.get(), Qt::Vertical));
    QCOMPARE(chart->theme(), QChart::ChartThemeDark);
    const QStringList categories = axisOf<QBarCategoryAxis>(chart.get(), Qt::Horizontal)->categories();
    QCOMPARE(categories.front(), QStringLiteral("32"));
    QCOMPARE(categories.back(), QStringLiteral("2048"));
}

void TestCharts::quantilePlaceholders()
{
    // liger has a box at channels 32 only: its series keeps its slot elsewhere with an invisible placeholder.
    RunList runs = kixtest::sweepRuns();
    RunList some;
    for (const RunPtr& run : runs) {
        if (run->provider == QLatin1String("huggingface") || run->paramNumber(QStringLiteral("channels")) == 32)
            some.append(run);
    }
    auto chart = buildChart(ChartKind::Quantiles, some, {});
    auto* q = dynamic_cast<QuantileChart*>(chart.get());
    int real = 0, placeholders = 0;
    for (QBoxPlotSeries* series : q->boxSeries()) {
        QCOMPARE(series->count(), 7);
        for (QBoxSet* set : series->boxSets()) {
            if (q->boxFor(set)) {
                ++real;
            } else {
                ++placeholders;
                QCOMPARE(set->pen().color().alpha(), 0);
            }
        }
    }
    QCOMPARE(real, 16);
    QCOMPARE(placeholders, 12);
}

void TestCharts::sweep()
{
    ChartInfo info;
    auto chart = buildChart(ChartKind::Sweep, kixtest::sweepRuns(), {}, &info);
    auto* s = dynamic_cast<SweepChart*>(chart.get());
    QVERIFY(s);
    QChartView view(chart.release()); // legend markers are only visible in a shown chart
    view.resize(1000, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCOMPARE(info.xParam, QStringLiteral("channels"));
    QCOMPARE(s->lineCount(), 4);
    auto* x = axisOf<QLogValueAxis>(s, Qt::Horizontal);
    QVERIFY(x);
    QCOMPARE(x->base(), 2.0);
    QCOMPARE(x->titleText(), QStringLiteral("channels"));
    QVERIFY(axisOf<QValueAxis>(s, Qt::Vertical));
    QVERIFY(s->title().contains(QStringLiteral("fixed: batch=128, channels_per_group=4, hidden=512, dtype=fp32")));
    for (int i = 0; i < s->lineCount(); ++i) {
        const SweepSeries& series = s->data().series[i];
        QLineSeries* line = s->line(i);
        QCOMPARE(line->name(), series.label);
        QCOMPARE(line->count(), 7);
        QCOMPARE(s->band(i)->upperSeries()->count(), 7);
        for (int k = 0; k < 7; ++k) {
            const SweepPoint& p = series.points[k];
            QCOMPARE(line->at(k).x(), p.x);
            QVERIFY(near(line->at(k).y(), p.run->median / 1e3));
            QVERIFY(near(s->band(i)->upperSeries()->at(k).y(), p.run->p80 / 1e3));
            QVERIFY(near(s->band(i)->lowerSeries()->at(k).y(), p.run->p20 / 1e3));
        }
    }
    // huggingface on B200: 20000 + 500 * channels ns
    QCOMPARE(s->data().series[0].label, QStringLiteral("huggingface · B200"));
    QVERIFY(near(s->line(0)->at(6).y(), (20000 + 500 * 2048) / 1e3));

    // The legend toggles a line with its band; the band never has a legend entry of its own.
    QCOMPARE(s->legend()->markers(s->band(0)).front()->isVisible(), false);
    s->legend()->markers(s->line(1)).front()->clicked();
    QVERIFY(!s->line(1)->isVisible());
    QVERIFY(!s->band(1)->isVisible());
    QVERIFY(s->legend()->markers(s->line(1)).front()->isVisible());
    s->legend()->markers(s->line(1)).front()->clicked();
    QVERIFY(s->line(1)->isVisible());
    QVERIFY(s->band(1)->isVisible());

    ChartOptions log;
    log.logY = true;
    auto logChart = buildChart(ChartKind::Sweep, kixtest::sweepRuns(), log);
    QCOMPARE(axisOf<QLogValueAxis>(logChart.get(), Qt::Vertical)->base(), 10.0);
    const QString tip = SweepChart::tooltip(
        s->data().series[0], s->data().series[0].points[0], QStringLiteral("channels"), s->data().scale);
    QVERIFY(tip.contains(QStringLiteral("channels = 32")));
    QVERIFY(tip.contains(QStringLiteral("median 36 µs (36000 ns)")));
}

void TestCharts::sweepChooseX()
{
    RunList runs = kixtest::sweepRuns();
    auto extra = std::make_shared<Run>(*runs.front());
    extra->workload[0] = { QStringLiteral("batch"), QStringLiteral("256"), 256 };
    extra->workloadSlug = QStringLiteral("batch256-channels32-channels_per_group4-hidden512-fp32");
    extra->externalId += QStringLiteral("-b256");
    runs.append(extra);
    ChartInfo info;
    ChartOptions options;
    auto chart = buildChart(ChartKind::Sweep, runs, options, &info);
    QCOMPARE(info.xCandidates, (QStringList { QStringLiteral("channels"), QStringLiteral("batch") }));
    QCOMPARE(info.xParam, QStringLiteral("channels"));
    options.xParam = QStringLiteral("batch");
    chart = buildChart(ChartKind::Sweep, runs, options, &info);
    QCOMPARE(info.xParam, QStringLiteral("batch"));
    QVERIFY(chart->title().contains(QStringLiteral("one line per channels")));
}

void TestCharts::speedup()
{
    ChartInfo info;
    auto chart = buildChart(ChartKind::Speedup, kixtest::allRuns(), {}, &info);
    auto* s = dynamic_cast<SpeedupChart*>(chart.get());
    QVERIFY(s);
    QCOMPARE(info.baseline.providers, QStringList { QStringLiteral("huggingface") });
    QCOMPARE(info.comparison.pairs.size(), 17);
    QCOMPARE(s->categories().size(), 9); // 7 backward + 2 forward workloads
    int bars = 0;
    for (QBarSet* set : s->bars()->barSets()) {
        for (int c = 0; c < set->count(); ++c) {
            const ComparisonPair* pair = s->pairAt(set, c);
            const int row = set->count() - 1 - c; // horizontal bars: the first workload at the top
            if (!pair) {
                QCOMPARE(set->at(row), 0.0);
                continue;
            }
            ++bars;
            QCOMPARE(set->at(row), pair->ratio);
            if (set->label().startsWith(QStringLiteral("liger · B200 · backward")))
                QCOMPARE(set->at(row), 2.0);
        }
    }
    QCOMPARE(bars, 17);
    QCOMPARE(s->verdictMarkers(Verdict::Faster)->count(), 15);
    QCOMPARE(s->verdictMarkers(Verdict::Same)->count(), 1);
    QCOMPARE(s->verdictMarkers(Verdict::Ambiguous)->count(), 1);
    QVERIFY(!s->verdictMarkers(Verdict::Slower));
    // The exported figure keeps the geometric mean and the warning.
    QVERIFY(s->title().contains(QStringLiteral("geomean liger 1.51×")));
    QVERIFY(s->title().contains(QStringLiteral("different GPU: NVIDIA B200 (baseline) vs NVIDIA A100-SXM4-80GB")));
    QCOMPARE(info.warnings,
        QStringList { QStringLiteral("different GPU: NVIDIA B200 (baseline) vs NVIDIA A100-SXM4-80GB (1 pair)") });
    QVERIFY(info.notes.contains(QStringLiteral("same workload digest: 17 of 17 pairs")));
    QVERIFY(info.notes.contains(QStringLiteral("same environment digest: 16 of 17 pairs")));

    const ComparisonPair& a100 = *std::find_if(info.comparison.pairs.begin(), info.comparison.pairs.end(),
        [](const ComparisonPair& p) { return p.run->gpuSlug.contains("a100"); });
    const QString tip = SpeedupChart::tooltip(a100);
    QVERIFY2(tip.startsWith(QStringLiteral("1.16× ▲ — faster than huggingface")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("verdict faster: p20–p80 intervals apart")), qPrintable(tip));
    QVERIFY(tip.contains(QStringLiteral("⚠ different GPU")));

    ChartOptions liger;
    liger.baseline = Baseline::ofProvider(QStringLiteral("liger"));
    auto inverse = buildChart(ChartKind::Speedup, kixtest::sweepRuns(), liger, &info);
    QCOMPARE(info.comparison.pairs.size(), 14);
    QVERIFY(dynamic_cast<SpeedupChart*>(inverse.get())->verdictMarkers(Verdict::Slower));
}

void TestCharts::speedupRunBaseline()
{
    const RunList runs = kixtest::sweepRuns();
    ChartOptions options;
    options.baseline = Baseline::ofRun(runs.front()); // huggingface, B200, channels 32
    ChartInfo info;
    auto chart = buildChart(ChartKind::Speedup, runs, options, &info);
    QCOMPARE(info.comparison.pairs.size(), 27);
    QVERIFY(!info.warnings.isEmpty());
    QVERIFY(info.warnings.join(QLatin1Char('\n')).contains(QStringLiteral("different workload: channels 32 vs 64")));
    // The title lists the first three distinct pair warnings and counts the rest; this fixture has more than three,
    // so the count is always checked.
    QStringList distinct;
    for (const ComparisonPair& p : info.comparison.pairs) {
        for (const QString& w : p.warnings) {
            if (!distinct.contains(w))
                distinct << w;
        }
    }
    QVERIFY2(distinct.size() > 3, qPrintable(distinct.join(QLatin1Char('\n'))));
    const QString title = chart->title();
    for (int i = 0; i < 3; ++i)
        QVERIFY2(title.contains(distinct[i].toHtmlEscaped()), qPrintable(distinct[i]));
    QVERIFY2(!title.contains(distinct[3].toHtmlEscaped()), qPrintable(title));
    QVERIFY2(title.contains(QStringLiteral("and %1 more warnings").arg(distinct.size() - 3)), qPrintable(title));
}

void TestCharts::emptySelection()
{
    for (ChartKind kind : { ChartKind::Quantiles, ChartKind::Sweep, ChartKind::Speedup }) {
        ChartInfo info;
        auto chart = buildChart(kind, {}, {}, &info);
        QVERIFY(chart);
        QVERIFY(info.isEmpty);
    }
    ChartInfo info;
    buildChart(ChartKind::Sweep, kixtest::loadUi({ QStringLiteral("liger-mini.csv") }), {}, &info);
    QVERIFY(info.isEmpty);
    QVERIFY(info.notes.join(QLatin1Char(' ')).contains(QStringLiteral("memory run(s) not shown")));
}

void TestCharts::speedupOfTwoToolFiles()
{
    // Two nvbench files whose names say nothing: the first opened is the baseline, though it sorts last.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString first = dir.filePath(QStringLiteral("zz_first.json"));
    const QString second = dir.filePath(QStringLiteral("aa_second.json"));
    QVERIFY(QFile::copy(QStringLiteral(KIX_TEST_DATA_DIR "/interop/nvbench_ref.json"), first));
    QVERIFY(QFile::copy(QStringLiteral(KIX_TEST_DATA_DIR "/interop/nvbench_cmp.json"), second));
    const RunList runs = loadPaths({ first, second }).runs;
    QVERIFY(!runs.isEmpty());
    const PreparedChart prepared = prepareChart(ChartKind::Speedup, runs, {});
    QCOMPARE(prepared.defaultBaseline.providers, QStringList { QStringLiteral("zz_first") });
    ChartInfo info;
    buildChart(ChartKind::Speedup, runs, {}, &info);
    QCOMPARE(info.baseline.providers, QStringList { QStringLiteral("zz_first") });
    QVERIFY(!info.comparison.pairs.isEmpty());
    for (const ComparisonPair& pair : info.comparison.pairs)
        QCOMPARE(pair.baseline->provider, QStringLiteral("zz_first"));
    // Opened the other way round, the other one.
    buildChart(ChartKind::Speedup, loadPaths({ second, first }).runs, {}, &info);
    QCOMPARE(info.baseline.providers, QStringList { QStringLiteral("aa_second") });
}

void TestCharts::emptySpeedupSaysWhy()
{
    // Runs of one provider: the banner says why nothing is drawn and what to select, not only "Nothing to draw".
    RunList liger;
    for (const RunPtr& run : kixtest::sweepRuns()) {
        if (run->provider == QLatin1String("liger"))
            liger << run;
    }
    QVERIFY(liger.size() > 1);
    ChartInfo info;
    buildChart(ChartKind::Speedup, liger, {}, &info);
    QVERIFY(info.isEmpty);
    const QString banner = chartBannerHtml(info, false, {}, false, false);
    QVERIFY2(banner.contains(QStringLiteral("Nothing to draw:")), qPrintable(banner));
    QVERIFY2(banner.contains(QStringLiteral("of one provider (liger): select runs of two providers on one workload")),
        qPrintable(banner));
    // A baseline not among the runs: named, with the providers there are.
    ChartOptions options;
    options.baseline = Baseline::ofProvider(QStringLiteral("cudnn"));
    buildChart(ChartKind::Speedup, kixtest::sweepRuns(), options, &info);
    QVERIFY(info.isEmpty);
    QVERIFY2(chartBannerHtml(info, false, {}, false, false).contains(QStringLiteral("no baseline provider (cudnn)")),
        qPrintable(chartBannerHtml(info, false, {}, false, false)));
}

KIX_TEST_MAIN(TestCharts)
#include "tst_charts.moc"
