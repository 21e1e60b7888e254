// SPDX-License-Identifier: Apache-2.0
// Dense charts stay legible (issue 20 point 6), on the real widgets at 1280×720 and 1600×1000: value labels of the
// speed-up and Rank charts never overlap (the densest are left out with a note), the notes above a chart come one
// line per kind with a count, History draws at most as many lines as it can tell apart (colour × dash) and its
// legend shows every entry whole, and the speed-up chart's title and axis titles are not elided down to 1024×640.
#include "model/chartdata/notes.h"
#include "model/filter/runtablemodel.h"
#include "model/read/runloader.h"
#include "model/runfields.h"
#include "ui/charts/chartfactory.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/historychart.h"
#include "ui/charts/rankchart.h"
#include "ui/charts/speedupchart.h"
#include "ui/charts/valuelabels.h"

#include "tests/model/runfactory.h"
#include "tests/ui/windowtestsupport.h"

#include "tests/support/testmain.h"

#include <QBarCategoryAxis>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QSet>
#include <QTest>

using namespace kix;
using namespace kixtest;

namespace {

QString ligerCsv()
{
    const QString shared = qEnvironmentVariable("KIX_SHARED_DIR");
    const QString path = shared + QStringLiteral("/data/liger/all_benchmark_data.csv");
    return shared.isEmpty() || !QFile::exists(path) ? QString() : path;
}

#define REQUIRE_LIGER(path)                                                                                            \
    const QString path = ligerCsv();                                                                                   \
    if (path.isEmpty())                                                                                                \
    QSKIP("the shared Liger CSV is not available (set KIX_SHARED_DIR to the project's shared/ folder)")

// The labels drawn do not overlap one another and lie in the plot (or at the bar's end just left of it).
void checkLabels(const QChart* chart, const ValueLabels* labels)
{
    QVERIFY(labels);
    const QVector<QRectF> rects = labels->shownRects();
    QCOMPARE(rects.size() + labels->hiddenCount(), labels->count());
    QVERIFY2(!rects.isEmpty(), "no value label drawn");
    for (int i = 0; i < rects.size(); ++i) {
        QVERIFY(rects[i].height() > 5 && rects[i].width() > 10); // real text
        QVERIFY2(chart->rect().contains(rects[i]), qPrintable(QStringLiteral("label %1 outside the chart").arg(i)));
        for (int k = i + 1; k < rects.size(); ++k)
            QVERIFY2(!rects[i].intersects(rects[k]),
                qPrintable(QStringLiteral("labels %1 '%2' and %3 '%4' overlap")
                               .arg(i)
                               .arg(labels->shownTexts()[i])
                               .arg(k)
                               .arg(labels->shownTexts()[k])));
    }
    if (labels->hiddenCount() > 0) {
        QVERIFY(labels->note().startsWith(
            QStringLiteral("%1 of %2 value labels hidden").arg(labels->hiddenCount()).arg(labels->count())));
        const QRectF note = labels->noteRect();
        QVERIFY(!note.isEmpty() && chart->plotArea().contains(note));
        for (const QRectF& r : rects)
            QVERIFY(!note.intersects(r));
    } else {
        QVERIFY(labels->note().isEmpty());
    }
}

std::unique_ptr<MainWindow> ligerWindow(const QString& path, const QSize& size)
{
    auto w = std::make_unique<MainWindow>();
    w->resize(size);
    w->show();
    w->openPaths({ path });
    return w;
}

// 20 series of one kernel over four days: one liger line per channel count, a 30 % step in every third one.
RunList twentySeries()
{
    RunList runs;
    const QDateTime day0(QDate(2026, 2, 2), QTime(9, 0), Qt::UTC);
    for (int s = 0; s < 20; ++s) {
        for (int day = 0; day < 4; ++day) {
            const double median = (1000 + 50 * s) * (s % 3 == 0 && day >= 2 ? 1.3 : 1.0);
            auto run = makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 32 * (s + 1), median);
            run->observedAt = day0.addDays(day);
            run->externalId += QString::number(day);
            run->finalize();
            runs << run;
        }
    }
    return runs;
}

} // namespace

class TestDenseCharts : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void speedupLabelsDoNotOverlap_data() { addSizes(); }
    void speedupLabelsDoNotOverlap();
    void sparseSpeedupShowsEveryLabel();
    void rankLabelsDoNotOverlap_data() { addSizes(); }
    void rankLabelsDoNotOverlap();
    void notesOneLinePerKind();
    void historyDrawsWhatItCanTellApart();
    void historyLegendWhole_data() { addSizes(); }
    void historyLegendWhole();
    void speedupTitlesWhole_data() { addSizes(true); }
    void speedupTitlesWhole();
    void longWorkloadLabelsWrap();
    void rowLinesIgnoreHeight();

private:
    QTemporaryDir m_settings;
};

void TestDenseCharts::initTestCase()
{
    isolateSettings(m_settings);
}

void TestDenseCharts::speedupLabelsDoNotOverlap()
{
    QFETCH(QSize, size);
    REQUIRE_LIGER(path);
    auto w = ligerWindow(path, size);
    QTRY_VERIFY_WITH_TIMEOUT(w->session()->model()->rowCount() > 2000, 20000);
    QVERIFY(waitForCharts(*w));
    w->chartPanel()->setKind(ChartKind::Speedup);
    QVERIFY(waitForCharts(*w));
    QVERIFY(settleChart(w->chartPanel())); // before taking the chart: a rebuild for the view's size frees the one shown
    auto* chart = dynamic_cast<SpeedupChart*>(w->chartPanel()->chart());
    QVERIFY(chart);
    // The first view's speed-up has more bars than rows of text: some labels must go, and the note says how many.
    // (Only as many workloads as the plot labels whole are drawn, below the pairs' table: 18 bars at 1280x720.)
    QVERIFY2(chart->valueLabels()->count() >= 16,
        qPrintable(QStringLiteral("%1 labels; %2").arg(chart->valueLabels()->count()).arg(chart->data().chartTitle)));
    checkLabels(chart, chart->valueLabels());
    QVERIFY(chart->valueLabels()->hiddenCount() > 0);
    QVERIFY(sceneTexts(w->chartPanel()->chartView()).contains(chart->valueLabels()->note()));
}

void TestDenseCharts::sparseSpeedupShowsEveryLabel()
{
    // Few bars: every one keeps its label, and the labels read the ratios.
    std::unique_ptr<MainWindow> w(speedupWindow(QSize(1280, 720)));
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QVERIFY(waitForCharts(*w));
    QVERIFY(settleChart(w->chartPanel())); // before taking the chart: a later rebuild frees the one shown
    auto* chart = dynamic_cast<SpeedupChart*>(w->chartPanel()->chart());
    QVERIFY(chart);
    checkLabels(chart, chart->valueLabels());
    QCOMPARE(chart->valueLabels()->hiddenCount(), 0);
    QCOMPARE(chart->valueLabels()->count(), chart->data().bars.size());
    QStringList expected;
    for (const SpeedupBar& bar : chart->data().bars)
        expected << ValueLabels::ratioLabel(bar.ratio);
    QCOMPARE(chart->valueLabels()->shownTexts(), expected);
    QCOMPARE(ValueLabels::ratioLabel(2.0), QStringLiteral("2×"));
    QCOMPARE(ValueLabels::ratioLabel(0.8423), QStringLiteral("0.842×"));
    QCOMPARE(ValueLabels::ratioLabel(10.46), QStringLiteral("10.5×"));
}

void TestDenseCharts::rankLabelsDoNotOverlap()
{
    QFETCH(QSize, size);
    REQUIRE_LIGER(path);
    auto w = ligerWindow(path, size);
    QTRY_VERIFY_WITH_TIMEOUT(w->session()->model()->rowCount() > 2000, 20000);
    QVERIFY(waitForCharts(*w));
    w->chartPanel()->setKind(ChartKind::Rank);
    QTest::qWait(50);
    auto* chart = dynamic_cast<RankChart*>(w->chartPanel()->chart());
    QVERIFY(chart);
    checkLabels(chart, chart->valueLabels());
    QCOMPARE(chart->valueLabels()->count(), chart->shownEntries());
}

void TestDenseCharts::notesOneLinePerKind()
{
    REQUIRE_LIGER(path);
    const RunList runs = loadPaths({ path }).runs;
    QVERIFY(runs.size() > 2000);
    ChartInfo info;
    buildChart(ChartKind::Speedup, runs, {}, &info);
    QVERIFY(!info.isEmpty);
    // Every note is a kind of its own: noise notes of many pairs are one line with the spread's range and a count.
    QCOMPARE(noteKinds(info.notes).size(), info.notes.size());
    QVERIFY2(info.notes.size() <= 8, qPrintable(info.notes.join(QLatin1Char('\n'))));
    int noisy = 0;
    const QString pairs = QStringLiteral(" of %1 pairs").arg(info.comparison.pairs.size());
    for (const QString& n : std::as_const(info.notes)) {
        if (n.contains(QStringLiteral(" is noisy ("))) {
            ++noisy;
            QVERIFY2(n.contains(QStringLiteral("% of the median): ")) && n.endsWith(pairs), qPrintable(n));
            QVERIFY2(!n.contains(QStringLiteral(": 1 of ")), qPrintable(n)); // many pairs, one line
        }
    }
    QVERIFY(noisy >= 1);
}

void TestDenseCharts::historyDrawsWhatItCanTellApart()
{
    QCOMPARE(ChartStyle::distinctLineCount(), 12);
    ChartInfo info;
    auto chart = buildChart(ChartKind::History, twentySeries(), {}, &info);
    auto* h = dynamic_cast<HistoryChart*>(chart.get());
    QVERIFY(h);
    QCOMPARE(h->lineCount(), ChartStyle::distinctLineCount());
    QVERIFY2(info.notes.contains(QStringLiteral("8 more series not drawn: narrow the filter (the 12 with the largest "
                                                "changes are drawn)")),
        qPrintable(info.notes.join(QLatin1Char('\n'))));
    // The seven series with a step are among those drawn.
    int stepped = 0;
    for (int i = 0; i < h->lineCount(); ++i)
        stepped += h->lineSeries(i).changes.isEmpty() ? 0 : 1;
    QCOMPARE(stepped, 7);
    // No two lines look alike: colour × dash differ for every pair.
    QSet<QString> looks;
    for (int i = 0; i < h->lineCount(); ++i) {
        const QPen pen = h->line(i)->pen();
        looks.insert(pen.color().name() + QString::number(int(pen.style())));
    }
    QCOMPARE(looks.size(), h->lineCount());
    // ... and so do their legend entries: a dashed line's says so (a legend marker is too short to show a dash).
    for (int i = 0; i < h->lineCount(); ++i)
        QCOMPARE(h->line(i)->name().endsWith(QStringLiteral(" ┄┄")), h->line(i)->pen().style() == Qt::DashLine);
    // Fewer series than that: all drawn, no note.
    ChartOptions few;
    few.maxSeries = 5;
    buildChart(ChartKind::History, twentySeries(), few, &info);
    QVERIFY(info.notes.join(QLatin1Char(' ')).contains(QStringLiteral("15 more series not drawn")));
}

void TestDenseCharts::historyLegendWhole()
{
    QFETCH(QSize, size);
    MainWindow w;
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.addRuns(twentySeries());
    w.chartPanel()->setKind(ChartKind::History);
    QVERIFY(waitForCharts(w));
    QTest::qWait(50);
    auto* h = dynamic_cast<HistoryChart*>(w.chartPanel()->chart());
    QVERIFY(h);
    QCOMPARE(h->lineCount(), 12);
    QChartView* view = w.chartPanel()->chartView();
    const QRectF visible = view->mapToScene(view->viewport()->rect()).boundingRect();
    const QStringList texts = sceneTexts(view);
    QVERIFY2(elided(texts).isEmpty(), qPrintable(elided(texts).join(QStringLiteral(" | "))));
    // Every line's legend entry is drawn, whole, inside the visible part of the view.
    QHash<QString, QRectF> textRects;
    for (QGraphicsItem* item : view->scene()->items()) {
        if (auto* text = dynamic_cast<QGraphicsTextItem*>(item); text && text->isVisible())
            textRects.insert(text->toPlainText(), text->sceneBoundingRect());
    }
    for (int i = 0; i < h->lineCount(); ++i) {
        const QString name = h->line(i)->name();
        const QList<QLegendMarker*> markers = h->legend()->markers(h->line(i));
        QCOMPARE(markers.size(), 1);
        QVERIFY(markers.front()->isVisible());
        QVERIFY2(textRects.contains(name), qPrintable(name + QStringLiteral(" not in the legend")));
        QVERIFY2(visible.contains(textRects.value(name)), qPrintable(name + QStringLiteral(" cut off")));
    }
}

void TestDenseCharts::speedupTitlesWhole()
{
    QFETCH(QSize, size);
    REQUIRE_LIGER(path);
    auto w = ligerWindow(path, size);
    QTRY_VERIFY_WITH_TIMEOUT(w->session()->model()->rowCount() > 2000, 20000);
    QVERIFY(waitForCharts(*w));
    w->chartPanel()->setKind(ChartKind::Speedup);
    QVERIFY(waitForCharts(*w));
    QVERIFY(settleChart(w->chartPanel())); // before taking the chart: a rebuild for the view's size frees the one shown
    auto* chart = dynamic_cast<SpeedupChart*>(w->chartPanel()->chart());
    QVERIFY(chart);
    // The chart's title and both axis titles are drawn whole (wrapped where they are long).
    const SpeedupData& data = chart->data();
    QVERIFY(!data.categoryTitle.isEmpty());
    auto flat = [](QString s) {
        return s.replace(QChar(0x2029), QLatin1Char(' ')).replace(QChar(0x2028), ' ').replace(QLatin1Char('\n'), ' ');
    };
    QStringList texts;
    for (QGraphicsItem* item : w->chartPanel()->chartView()->scene()->items()) {
        if (auto* text = dynamic_cast<QGraphicsTextItem*>(item); text && text->isVisible())
            texts << flat(text->toPlainText());
    }
    for (const QString& expected : { data.chartTitle, data.xTitle, data.categoryTitle }) {
        const QString start = expected.left(12);
        const auto it
            = std::find_if(texts.cbegin(), texts.cend(), [&start](const QString& t) { return t.startsWith(start); });
        QVERIFY2(it != texts.cend(), qPrintable(expected + QStringLiteral(" not drawn")));
        QVERIFY2(!it->contains(QChar(0x2026)) && !it->contains(QLatin1String("...")), qPrintable(*it));
        // every word of it is there (wrapping only adds line breaks)
        QCOMPARE(it->simplified().left(expected.size()), expected.simplified());
    }
}

namespace {

// Six workloads in which every parameter varies (so that each label names them all), liger against huggingface: labels
// wider than Qt's axis at narrow widths.
RunList longLabelRuns()
{
    RunList runs;
    for (int i = 0; i < 6; ++i) {
        for (const char* provider : { "huggingface", "liger" }) {
            auto run = makeRun(QString::fromLatin1(provider), QStringLiteral("NVIDIA H100"), 64 << i,
                QByteArray(provider) == "liger" ? 80.0 + i : 100.0 + i);
            run->workloadSlug = QStringLiteral("dilation%1-hidden_size%2-kernel_size%3-num_heads%4-seq_len%5-fp32")
                                    .arg(1 + i % 2)
                                    .arg(512 << (i % 3))
                                    .arg(7 + 2 * (i % 2))
                                    .arg(8 << (i % 3))
                                    .arg(64 << i);
            parseWorkloadSlug(run->workloadSlug, run->workload, run->dtype);
            run->externalId += QString::number(i);
            run->finalize();
            runs << run;
        }
    }
    return runs;
}

} // namespace

// Workload labels wider than Qt's axis (0.4 of the chart's width) even at 6 pt wrap between their parameters into rows
// tall enough for them, never elided; the chart says how many lines a row takes (the panel draws fewer rows then).
void TestDenseCharts::longWorkloadLabelsWrap()
{
    const RunList runs = longLabelRuns();
    for (const QSize& size : { QSize(1200, 600), QSize(520, 600) }) {
        auto* chart = new SpeedupChart(buildSpeedupData(runs, Baseline()), ChartOptions());
        QChartView view(chart);
        view.resize(size);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTest::qWait(50);
        const auto axes = chart->axes(Qt::Vertical);
        QVERIFY(!axes.isEmpty());
        auto* y = qobject_cast<QBarCategoryAxis*>(axes.front());
        QVERIFY(y);
        QCOMPARE(y->count(), 6);
        const QStringList texts = sceneTexts(&view);
        QVERIFY2(elided(texts).isEmpty(), qPrintable(elided(texts).join(QStringLiteral(" | "))));
        for (const QString& label : chart->categories()) { // every word of every label drawn
            const bool drawn = std::any_of(texts.cbegin(), texts.cend(), [&label](QString t) {
                return t.replace(QLatin1Char('\n'), QLatin1Char(' ')).replace(QChar(0x2028), QLatin1Char(' ')) == label;
            });
            QVERIFY2(drawn, qPrintable(label));
        }
        if (size.width() >= 1200)
            QCOMPARE(chart->rowLines(), 1); // room for each label on one line
        else
            QVERIFY2(chart->rowLines() >= 2, qPrintable(QString::number(chart->rowLines())));
    }
}

// The lines a row needs do not depend on the chart's height: the panel fits its rows to them, and lines counted at the
// font a height allows (a tall chart keeps a large font that wraps, a short one shrinks to a font that does not) made
// fewer rows call for more and more rows for fewer, a rebuild after each, for ever.
void TestDenseCharts::rowLinesIgnoreHeight()
{
    const RunList runs = longLabelRuns();
    for (const int width : { 640, 760, 900 }) {
        QList<int> lines;
        for (const int height : { 1000, 600, 330 }) {
            auto* chart = new SpeedupChart(buildSpeedupData(runs, Baseline()), ChartOptions());
            QChartView view(chart);
            view.resize(width, height);
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            QTest::qWait(50);
            lines << chart->rowLines();
        }
        QVERIFY2(lines.count(lines.front()) == lines.size(),
            qPrintable(QStringLiteral("width %1: lines at heights 1000/600/330: %2/%3/%4")
                           .arg(width)
                           .arg(lines[0])
                           .arg(lines[1])
                           .arg(lines[2])));
    }
}

KIX_TEST_MAIN(TestDenseCharts)
#include "tst_densecharts.moc"
