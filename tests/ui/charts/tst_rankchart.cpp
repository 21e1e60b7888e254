// SPDX-License-Identifier: Apache-2.0
// The Rank chart on the real window at 1280×720 and 1600×1000: the cohort in scope as bars, best at the top, every
// drawn implementation name whole on the axis (never elided), the cohort chooser, kix's own run ranked beside the
// imported ones, and the export.
#include "ui/charts/chartexporter.h"
#include "ui/charts/rankchart.h"
#include "ui/mainwindow.h"
#include "ui/panelinstall.h"
#include "ui/panels/chartpanel.h"
#include "ui/runsession.h"

#include "model/filter/runfilterproxy.h"
#include "tests/model/runfactory.h"
#include "tests/ui/uitestsupport.h"

#include "tests/support/testmain.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChartView>
#include <QComboBox>
#include <QFontMetricsF>
#include <QGraphicsTextItem>
#include <QHorizontalBarSeries>
#include <QLineEdit>
#include <QTest>
#include <QTextDocumentFragment>

using namespace kix;

namespace {

// Long, unbroken and short implementation names, as leaderboards have them.
const QStringList kNames { QStringLiteral("nvfp4-grouped-gemm-persistent-tma-warp-specialized-pingpong-v3"),
    QStringLiteral("cutlass_grouped_gemm_nvfp4_sm100_2sm_cooperative_kernel_schedule"), QStringLiteral("bob"),
    QStringLiteral("triton-nvfp4-group-gemm"), QStringLiteral("ThisNameHasNoBreakCharactersAtAllAndIsVeryLong1234"),
    QStringLiteral("dave"), QStringLiteral("cuBLASLt grouped GEMM (NVFP4, block scale 16)"),
    QStringLiteral("eve/submission-555004"), QStringLiteral("frank"), QStringLiteral("gpu-mode-reference") };

std::shared_ptr<Run> submission(const QString& name, const QString& gpu, double score, int index)
{
    auto run = std::make_shared<Run>();
    run->kernel = QStringLiteral("nvfp4_group_gemm");
    run->provider = name;
    run->implementationDigest = QStringLiteral("sha256:%1").arg(index, 64, 10, QLatin1Char('0'));
    run->gpuProduct = gpu;
    run->gpuSlug = gpu.toLower().replace(QLatin1Char(' '), QLatin1Char('-'));
    run->workloadSlug = QStringLiteral("g8-m256-n4096-k7168-nvfp4");
    run->dtype = QStringLiteral("nvfp4");
    run->protocolFamily = QStringLiteral("gpumode_kernelbot");
    run->headlineStatistic = QStringLiteral("geomean");
    run->unit = QStringLiteral("s");
    run->status = QStringLiteral("passed");
    run->median = score;
    run->externalId = QStringLiteral("submission/%1").arg(555000 + index);
    run->finalize();
    return run;
}

RunList leaderboard()
{
    RunList runs;
    for (int i = 0; i < kNames.size(); ++i) // the i-th name is the i-th best
        runs << submission(kNames[i], QStringLiteral("NVIDIA B200"), 0.001 * (1 + 0.1 * i), i);
    runs << submission(kNames[2], QStringLiteral("NVIDIA H100"), 0.002, 100);
    runs << submission(kNames[5], QStringLiteral("NVIDIA H100"), 0.003, 101);
    return runs;
}

QString squeeze(QString s)
{
    s.remove(QChar(QChar::LineSeparator));
    s.remove(QChar(QChar::ParagraphSeparator));
    s.remove(QLatin1Char('\n'));
    s.remove(QLatin1Char(' '));
    return s;
}

bool waitForCharts(MainWindow& w)
{
    return QTest::qWaitFor(
        [&] {
            return w.chartPanel()->runs().size() == w.session()->proxy()->rowCount()
                && !w.chartPanel()->isRebuildPending();
        },
        5000);
}

} // namespace

class TestRankChart : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { kixtest::isolateSettings(m_settings); }

    void wrapKeepsEveryCharacter()
    {
        const QFontMetricsF fm(QFont(QStringLiteral("Sans"), 9));
        for (const QString& name : kNames) {
            const QStringList lines = RankChart::wrapLabel(name, fm, 120);
            QCOMPARE(lines.join(QString()), name);
            for (const QString& line : lines)
                QVERIFY2(fm.horizontalAdvance(line) <= 120, qPrintable(line));
        }
        QCOMPARE(RankChart::wrapLabel(QStringLiteral("bob"), fm, 120), QStringList { QStringLiteral("bob") });
    }

    void labelsWholeInTheWindow_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<int>("atLeast"); // entries drawn
        QTest::newRow("1280x720") << QSize(1280, 720) << 4;
        QTest::newRow("1600x1000") << QSize(1600, 1000) << 7;
    }
    void labelsWholeInTheWindow()
    {
        QFETCH(QSize, size);
        QFETCH(int, atLeast);
        MainWindow w;
        installBenchmarkPanel(w);
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.addRuns(leaderboard());
        ChartPanel* panel = w.chartPanel();
        panel->setKind(ChartKind::Rank);
        QVERIFY(waitForCharts(w));
        panel->rebuildNow();
        QTest::qWait(50); // the view lays the chart out at its size
        auto* chart = dynamic_cast<RankChart*>(panel->chart());
        QVERIFY(chart);
        QCOMPARE(chart->cohort().key.gpuName, QStringLiteral("NVIDIA B200")); // the largest cohort
        const int shown = chart->shownEntries();
        QVERIFY2(shown >= atLeast, qPrintable(QString::number(shown)));
        qInfo("%d of %d drawn, axis labels: %s", shown, int(kNames.size()),
            qPrintable(chart->categoryAxis()->categories().join(QStringLiteral(" | "))));
        // best at the top: the axis' last category is the best
        const QStringList categories = chart->categoryAxis()->categories();
        QCOMPARE(categories.size(), shown);
        QCOMPARE(squeeze(QTextDocumentFragment::fromHtml(categories.last()).toPlainText()), squeeze(kNames[0]));
        QCOMPARE(chart->bars()->barSets().front()->at(shown - 1), 1.0);
        QVERIFY(qAbs(chart->bars()->barSets().front()->at(0) - (1 + 0.1 * (shown - 1))) < 1e-9);
        // every drawn name is drawn whole by a visible text item inside the view, none elided
        QStringList texts;
        const QRectF visible = panel->chartView()->mapToScene(panel->chartView()->viewport()->rect()).boundingRect();
        for (QGraphicsItem* item : panel->chartView()->scene()->items()) {
            auto* text = dynamic_cast<QGraphicsTextItem*>(item);
            if (!text || !text->isVisible())
                continue;
            QVERIFY2(!text->toPlainText().contains(QStringLiteral("...")), qPrintable(text->toPlainText()));
            QVERIFY2(!text->toPlainText().contains(QChar(0x2026)), qPrintable(text->toPlainText()));
            texts << squeeze(text->toPlainText());
            if (kNames.contains(text->toPlainText().remove(QChar(QChar::LineSeparator))))
                QVERIFY2(visible.contains(text->sceneBoundingRect()), qPrintable(text->toPlainText()));
        }
        for (int i = 0; i < shown; ++i)
            QVERIFY2(texts.contains(squeeze(kNames[i])), qPrintable(kNames[i] + QStringLiteral(" not drawn whole")));
        // each line of a label fits the width Qt leaves the axis labels
        const QFontMetricsF fm(chart->categoryAxis()->labelsFont());
        const double axisWidth = chart->plotArea().left();
        for (const QString& label : categories) {
            for (const QString& line : label.split(QStringLiteral("<br>")))
                QVERIFY2(fm.horizontalAdvance(QTextDocumentFragment::fromHtml(line).toPlainText()) < axisWidth,
                    qPrintable(line));
        }
        if (shown < kNames.size())
            QVERIFY(chart->title().contains(QStringLiteral("the best %1 of %2 drawn").arg(shown).arg(kNames.size())));
    }

    void cohortChooser()
    {
        MainWindow w;
        installBenchmarkPanel(w);
        w.resize(1280, 720);
        w.show();
        w.addRuns(leaderboard());
        ChartPanel* panel = w.chartPanel();
        panel->setKind(ChartKind::Rank);
        QVERIFY(waitForCharts(w));
        QComboBox* box = panel->cohortChooser();
        QVERIFY(box->isVisible());
        QCOMPARE(box->count(), 2);
        QVERIFY(box->itemText(0).contains(QStringLiteral("NVIDIA B200"))); // the most implementations first
        const int h100 = box->findText(QStringLiteral("NVIDIA H100"), Qt::MatchContains);
        QVERIFY(h100 >= 0);
        box->setCurrentIndex(h100);
        emit box->activated(h100);
        auto* chart = dynamic_cast<RankChart*>(panel->chart());
        QVERIFY(chart);
        QCOMPARE(chart->cohort().key.gpuName, QStringLiteral("NVIDIA H100"));
        QCOMPARE(chart->cohort().entries.size(), 2);
        QCOMPARE(chart->cohort().entries[1].ratio, 1.5);
        // the other kinds hide it; a filter down to one cohort hides it
        panel->setKind(ChartKind::Quantiles);
        QVERIFY(!box->isVisible());
        panel->setKind(ChartKind::Rank);
        w.searchBox()->setText(QStringLiteral("gpu=b200"));
        QVERIFY(waitForCharts(w));
        QVERIFY(!box->isVisible());
        QVERIFY(panel->bannerText().contains(QStringLiteral("chosen cohort is not in scope")));
    }

    void kixRunRanksBesideImported()
    {
        auto liger = kixtest::makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA H100"), 2048, 1000);
        auto torch = kixtest::makeRun(QStringLiteral("torch"), QStringLiteral("NVIDIA H100"), 2048, 1500);
        auto other = kixtest::makeRun(QStringLiteral("torch"), QStringLiteral("NVIDIA H100"), 4096, 3000);
        auto other2 = kixtest::makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA H100"), 4096, 2000);
        auto other3 = kixtest::makeRun(QStringLiteral("triton"), QStringLiteral("NVIDIA H100"), 4096, 2500);
        auto other4 = kixtest::makeRun(QStringLiteral("apex"), QStringLiteral("NVIDIA H100"), 4096, 2600);
        auto kix = kixtest::makeRun(QStringLiteral("kix-fused"), QStringLiteral("NVIDIA H100"), 2048, 800);
        kix->protocolFamily = QStringLiteral("kix_engine");
        kix->source = QStringLiteral("kix-engine");
        ChartPanel panel;
        panel.resize(1000, 600);
        panel.setKind(ChartKind::Rank);
        panel.setRuns({ liger, torch, other, other2, other3, other4, kix }, QStringLiteral("7 runs"));
        panel.rebuildNow();
        auto* chart = dynamic_cast<RankChart*>(panel.chart());
        QVERIFY(chart);
        QCOMPARE(chart->cohort().key.workload, other->workloadSlug); // the largest cohort: four implementations
        panel.setCurrentRun(kix); // the current run's cohort, with the imported runs of its workload and GPU
        panel.rebuildNow();
        chart = dynamic_cast<RankChart*>(panel.chart());
        QCOMPARE(chart->cohort().key.workload, kix->workloadSlug);
        QStringList names;
        for (const RankEntry& e : chart->cohort().entries)
            names << e.implementation;
        QCOMPARE(names, QStringList({ "kix-fused", "liger", "torch" }));
    }

    void exports()
    {
        ChartPanel panel;
        panel.setKind(ChartKind::Rank);
        panel.setRuns(leaderboard(), QStringLiteral("all"));
        panel.rebuildNow();
        for (const QSize& size : { QSize(1200, 800), QSize(640, 400) }) {
            const QImage image = ChartExporter::renderImage(panel.buildChart(false), size);
            QCOMPARE(image.size(), size);
        }
        const QByteArray svg = ChartExporter::renderSvg(panel.buildChart(false), QSize(1200, 800), QStringLiteral("r"));
        QVERIFY(svg.contains("bob"));
        QVERIFY(!svg.contains("..."));
        const QByteArray pdf = ChartExporter::renderPdf(panel.buildChart(false), QSize(1200, 800), QStringLiteral("r"));
        QVERIFY(pdf.startsWith("%PDF"));
    }

private:
    QTemporaryDir m_settings;
};

KIX_TEST_MAIN(TestRankChart)
#include "tst_rankchart.moc"
