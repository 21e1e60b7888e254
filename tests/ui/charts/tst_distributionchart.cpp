// SPDX-License-Identifier: Apache-2.0
// The Quantiles view's Histogram and ECDF (DistributionChart) as the user reaches them: the chart panel's
// "Box | Histogram | ECDF" chooser, one series per run on a log time axis, the Mann–Whitney verdict under the title,
// a chooser that is disabled (and says why) for runs without raw samples, and the choice kept across sessions.
#include "ui/charts/chartfactory.h"
#include "ui/charts/distributionchart.h"
#include "ui/charts/quantilechart.h"
#include "ui/panels/chartpanel.h"

#include "tests/ui/uitestsupport.h"

#include "tests/support/testmain.h"

#include <QApplication>
#include <QAreaSeries>
#include <QCheckBox>
#include <QComboBox>
#include <QHelpEvent>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QSettings>
#include <QTest>
#include <QTextDocument>
#include <QToolTip>
#include <QValueAxis>

using namespace kix;

namespace {

// huggingface and liger on B200, one workload, 20 raw samples each (tests/data/ui/samples.jsonl).
RunList twoSampledRuns()
{
    RunList out;
    for (const RunPtr& run : kixtest::loadUi({ QStringLiteral("samples.jsonl") })) {
        if (run->workloadSlug.contains(QLatin1String("channels256")))
            out << run;
    }
    return out;
}

// Picks a view as a user does: the chooser focused, the arrow keys (QComboBox emits activated for them).
void choose(ChartPanel& panel, QuantileView view)
{
    QComboBox* chooser = panel.quantileViewChooser();
    chooser->setFocus();
    QTest::keyClick(chooser, Qt::Key_Home);
    for (int i = 0; i < int(view); ++i)
        QTest::keyClick(chooser, Qt::Key_Down);
}

} // namespace

class TestDistributionChart : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { kixtest::isolateSettings(m_settings); }
    void init() { QSettings().clear(); }
    void ecdfOfTwoSampledRuns();
    void histogramOfTwoSampledRuns();
    void disabledWithoutSamples();
    void choiceIsKept();
    void exportDrawsTheChoice();

private:
    QTemporaryDir m_settings;
};

void TestDistributionChart::ecdfOfTwoSampledRuns()
{
    const RunList runs = twoSampledRuns();
    QCOMPARE(runs.size(), 2);
    ChartPanel panel;
    panel.resize(1200, 700);
    panel.show();
    panel.setRuns(runs, QStringLiteral("2 selected runs"));
    panel.setKind(ChartKind::Quantiles);
    QTRY_VERIFY(!panel.isRebuildPending());
    QVERIFY(dynamic_cast<QuantileChart*>(panel.chart())); // Box, today's view, by default
    QComboBox* chooser = panel.quantileViewChooser();
    QVERIFY(chooser->isVisible());
    QVERIFY(chooser->isEnabled());
    QCOMPARE(chooser->currentText(), QStringLiteral("Box"));

    choose(panel, QuantileView::Ecdf);
    QTRY_VERIFY(!panel.isRebuildPending());
    QCOMPARE(chooser->currentText(), QStringLiteral("ECDF"));
    auto* chart = dynamic_cast<DistributionChart*>(panel.chart());
    QVERIFY(chart);
    QCOMPARE(chart->series().size(), 2); // one per run
    QStringList names;
    for (QAbstractSeries* series : chart->series()) {
        QVERIFY(qobject_cast<QLineSeries*>(series));
        const QList<QAbstractAxis*> axes = series->attachedAxes();
        QVERIFY(
            std::any_of(axes.begin(), axes.end(), [](QAbstractAxis* a) { return qobject_cast<QLogValueAxis*>(a); }));
        names << series->name();
    }
    QCOMPARE(names, (QStringList { QStringLiteral("huggingface · B200"), QStringLiteral("liger · B200") }));
    auto* x = qobject_cast<QLogValueAxis*>(chart->axes(Qt::Horizontal).value(0));
    QVERIFY(x);
    QCOMPARE(x->titleText(), QStringLiteral("latency (µs, log scale)"));
    // The ECDF ends at 1: the last point of each line.
    for (QAbstractSeries* series : chart->series())
        QCOMPARE(static_cast<QLineSeries*>(series)->points().last().y(), 1.0);
    // The verdict under the title, in the chart (so that an export keeps it).
    QCOMPARE(chart->data().verdicts.size(), 1);
    const QString verdict = chart->data().verdicts[0].line;
    QVERIFY2(verdict.startsWith(QStringLiteral("liger · B200 vs huggingface · B200: ")), qPrintable(verdict));
    QVERIFY(chart->subtitles().contains(verdict));
    QVERIFY2(chart->title().contains(QStringLiteral("Mann–Whitney p =")), qPrintable(chart->title()));
    QCOMPARE(QSettings().value(QStringLiteral("charts/quantileView")).toString(), QStringLiteral("ecdf"));
}

void TestDistributionChart::histogramOfTwoSampledRuns()
{
    ChartPanel panel;
    panel.resize(1200, 700);
    panel.show();
    panel.setRuns(twoSampledRuns(), QStringLiteral("2 selected runs"));
    panel.setKind(ChartKind::Quantiles);
    QTRY_VERIFY(!panel.isRebuildPending());
    choose(panel, QuantileView::Histogram);
    QTRY_VERIFY(!panel.isRebuildPending());
    auto* chart = dynamic_cast<DistributionChart*>(panel.chart());
    QVERIFY(chart);
    QCOMPARE(chart->view(), QuantileView::Histogram);
    QCOMPARE(chart->series().size(), 2);
    for (QAbstractSeries* series : chart->series())
        QVERIFY(qobject_cast<QAreaSeries*>(series));
    QVERIFY(qobject_cast<QLogValueAxis*>(chart->axes(Qt::Horizontal).value(0)));
    QCOMPARE(qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0))->titleText(),
        QStringLiteral("fraction of samples"));
    // The "Log scale" box is the boxes' choice: a distribution's time axis is always logarithmic.
    const QList<QCheckBox*> boxes = panel.findChildren<QCheckBox*>();
    const auto log = std::find_if(
        boxes.begin(), boxes.end(), [](QCheckBox* b) { return b->text() == QLatin1String("Log scale"); });
    QVERIFY(log != boxes.end());
    QVERIFY(!(*log)->isVisible());
}

void TestDistributionChart::disabledWithoutSamples()
{
    QSettings().setValue(QStringLiteral("charts/quantileView"), QStringLiteral("ecdf")); // chosen before
    ChartPanel panel;
    panel.resize(1200, 700);
    panel.show();
    panel.setRuns(kixtest::sweepRuns(), QStringLiteral("28 runs")); // no raw samples
    panel.setKind(ChartKind::Quantiles);
    QTRY_VERIFY(!panel.isRebuildPending());
    QVERIFY(dynamic_cast<QuantileChart*>(panel.chart())); // boxes, until the runs allow the choice
    QComboBox* chooser = panel.quantileViewChooser();
    QVERIFY(chooser->isVisible());
    QVERIFY(!chooser->isEnabled());
    QCOMPARE(chooser->currentText(), QStringLiteral("Box")); // the view drawn
    QVERIFY2(chooser->toolTip().contains(QStringLiteral("need 2 to 4 runs with raw samples")),
        qPrintable(chooser->toolTip()));
    QVERIFY2(chooser->toolTip().contains(QStringLiteral("0 of the")), qPrintable(chooser->toolTip()));
    QVERIFY(Qt::mightBeRichText(chooser->toolTip())); // wrapped, not one line past the screen's edge
    // The tooltip shows on the disabled chooser, where the user's mouse asks why.
    const QPoint at = chooser->rect().center();
    QHelpEvent help(QEvent::ToolTip, at, chooser->mapToGlobal(at));
    QApplication::sendEvent(chooser, &help);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(QStringLiteral("raw samples")), qPrintable(QToolTip::text()));
    QToolTip::hideText();
    QVERIFY2(panel.info().notes.join(QLatin1Char('\n')).contains(QStringLiteral("ECDF not drawn, boxes instead")),
        qPrintable(panel.info().notes.join(QLatin1Char('\n'))));

    // Runs with samples again: the choice comes back, the chooser is enabled.
    panel.setRuns(twoSampledRuns(), QStringLiteral("2 selected runs"));
    QTRY_VERIFY(!panel.isRebuildPending());
    QVERIFY(dynamic_cast<DistributionChart*>(panel.chart()));
    QVERIFY(chooser->isEnabled());
    QCOMPARE(chooser->currentText(), QStringLiteral("ECDF"));
}

void TestDistributionChart::choiceIsKept()
{
    {
        ChartPanel panel;
        panel.setRuns(twoSampledRuns(), QStringLiteral("2 selected runs"));
        panel.setKind(ChartKind::Quantiles);
        QTRY_VERIFY(!panel.isRebuildPending());
        choose(panel, QuantileView::Histogram);
        QTRY_VERIFY(!panel.isRebuildPending());
    }
    ChartPanel next; // the next session
    QCOMPARE(next.options().quantileView, QuantileView::Histogram);
}

void TestDistributionChart::exportDrawsTheChoice()
{
    // The route `kix chart --view ecdf` and the export dialog take: buildChart with the options.
    ChartOptions options;
    options.quantileView = QuantileView::Ecdf;
    ChartInfo info;
    auto chart = buildChart(ChartKind::Quantiles, twoSampledRuns(), options, &info);
    QVERIFY(dynamic_cast<DistributionChart*>(chart.get()));
    QCOMPARE(info.quantileView, QuantileView::Ecdf);
    QVERIFY(info.distributionUnavailable.isEmpty());
    QVERIFY(!info.isEmpty);
    // Four runs with samples but of two workloads: still drawn, each named by its workload.
    chart = buildChart(ChartKind::Quantiles, kixtest::loadUi({ QStringLiteral("samples.jsonl") }), options, &info);
    auto* four = dynamic_cast<DistributionChart*>(chart.get());
    QVERIFY(four);
    QCOMPARE(four->series().size(), 4);
    QVERIFY2(four->series()[0]->name().startsWith(QStringLiteral("huggingface · B200 · ")),
        qPrintable(four->series()[0]->name()));
}

KIX_TEST_MAIN(TestDistributionChart)
#include "tst_distributionchart.moc"
