// SPDX-License-Identifier: Apache-2.0
// No state that sticks silently (issue 20, point 3), on the real window at 1280×720 and 1600×1000: a baseline
// the filter hides falls back with a note and comes back; a baseline the filter still matches is never dropped;
// Esc and a visible button unpin the read-out; a chart driven by the selection says so and charts the filter
// again in one click; the counts follow runs the filter hides.
#include "model/filter/runtablemodel.h"
#include "ui/charts/speedupchart.h"
#include "ui/panels/loadstatus.h"
#include "ui/runtableview.h"

#include "tests/ui/windowtestsupport.h"

#include "tests/support/testmain.h"

#include <QAbstractBarSeries>
#include <QItemSelectionModel>
#include <QLabel>
#include <QStatusBar>
#include <QToolButton>

using namespace kix;
using namespace kixtest;

class TestStickyState : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(m_settings); }
    void sizes_data();
    void hiddenProviderBaselineFallsBack_data() { sizes_data(); }
    void hiddenProviderBaselineFallsBack();
    void typingKeepsABaselineTheFilterMatches();
    void escAndAButtonUnpin_data() { sizes_data(); }
    void escAndAButtonUnpin();
    void selectionDrivenChartSaysSo_data() { sizes_data(); }
    void selectionDrivenChartSaysSo();
    void countsFollowHiddenRuns();

private:
    QTemporaryDir m_settings;
};

void TestStickyState::sizes_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("1280x720") << QSize(1280, 720);
    QTest::newRow("1600x1000") << QSize(1600, 1000);
}

void TestStickyState::hiddenProviderBaselineFallsBack()
{
    QFETCH(QSize, size);
    std::unique_ptr<MainWindow> w(speedupWindow(size));
    QVERIFY(waitForCharts(*w));
    ChartPanel* charts = w->chartPanel();
    charts->setBaseline(Baseline::ofProvider(QStringLiteral("liger")));
    QCOMPARE(charts->options().baseline.providers, QStringList { QStringLiteral("liger") });
    QVERIFY(!charts->isBaselineFallback());
    // No liger run left: the default baseline draws, the banner says why, the choice is kept.
    w->searchBox()->setText(QStringLiteral("groupnorm backward gpu:b200 provider!=liger"));
    QVERIFY(waitForCharts(*w));
    QTRY_VERIFY(charts->isBaselineFallback());
    QVERIFY(charts->options().baseline.isEmpty());
    QVERIFY2(
        charts->bannerText().contains(QStringLiteral("No liger run is in scope")), qPrintable(charts->bannerText()));
    QCOMPARE(charts->chosenBaseline().providers, QStringList { QStringLiteral("liger") });
    // Back in scope: back in effect, the note gone.
    w->searchBox()->setText(QStringLiteral("groupnorm backward gpu:b200"));
    QVERIFY(waitForCharts(*w));
    QTRY_VERIFY(!charts->isBaselineFallback());
    QCOMPARE(charts->options().baseline.providers, QStringList { QStringLiteral("liger") });
    QVERIFY(!charts->bannerText().contains(QStringLiteral("in scope")));
}

void TestStickyState::typingKeepsABaselineTheFilterMatches()
{
    std::unique_ptr<MainWindow> w(speedupWindow({ 1280, 720 }));
    QVERIFY(waitForCharts(*w));
    ChartPanel* charts = w->chartPanel();
    RunPtr chosen;
    for (const RunPtr& run : charts->runs())
        if (run->provider == "liger" && run->paramNumber(QStringLiteral("channels")) == 32)
            chosen = run;
    QVERIFY(chosen);
    charts->setBaseline(Baseline::ofRun(chosen));
    // Typed key by key: after every key the filter still shows the run, so it stays the baseline in effect.
    QLineEdit* search = w->searchBox();
    search->setFocus();
    search->end(false);
    for (const QChar c : QStringLiteral(" channels<=64")) {
        QTest::keyClick(search, c.toLatin1());
        QVERIFY(waitForCharts(*w));
        if (charts->runs().contains(chosen)) {
            QCOMPARE(charts->options().baseline.run, chosen);
            QVERIFY(!charts->isBaselineFallback());
        }
    }
    QCOMPARE(search->text(), QStringLiteral("groupnorm backward gpu:b200 channels<=64"));
    QVERIFY(charts->runs().contains(chosen));
    QCOMPARE(charts->options().baseline.run, chosen);
}

void TestStickyState::escAndAButtonUnpin()
{
    QFETCH(QSize, size);
    std::unique_ptr<MainWindow> w(speedupWindow(size));
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QVERIFY(waitForCharts(*w));
    ChartPanel* charts = w->chartPanel();
    auto* chart = dynamic_cast<SpeedupChart*>(charts->chart());
    QVERIFY(chart);
    QChartView* view = charts->chartView();
    const QPointF end = chart->barEnd(0);
    const QPointF zero = chart->mapToPosition(QPointF(0, 0), chart->bars());
    const QPoint inside = viewPoint(view, chart, QPointF(zero.x() + (end.x() - zero.x()) * 0.75, end.y()));
    auto pin = [&] {
        moveMouse(view, QPoint(2, 2));
        moveMouse(view, inside);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, inside);
        return QTest::qWaitFor([&] { return charts->isReadoutPinned(); }, 2000);
    };
    QVERIFY(!charts->unpinButton()->isVisible());
    QVERIFY(pin());
    // The control is visible and whole inside the panel, beside the read-out.
    QToolButton* unpin = charts->unpinButton();
    QVERIFY(unpin->isVisible());
    const QRect r(unpin->mapTo(charts, QPoint()), unpin->size());
    QVERIFY2(charts->rect().contains(r),
        qPrintable(QStringLiteral("%1,%2 %3×%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height())));
    auto* readout = charts->findChild<QLabel*>(QStringLiteral("chartReadout"));
    QVERIFY(readout->text().startsWith(QStringLiteral("<b>Pinned:</b>")));
    // Its tooltip holds the whole read-out, one line a fact, as rich text so that Qt wraps what is too wide.
    QVERIFY(Qt::mightBeRichText(readout->toolTip()));
    QCOMPARE(readout->toolTip().count(QStringLiteral("<br>")), charts->readoutText().count(QLatin1Char('\n')));
    QVERIFY(charts->readoutText().contains(QLatin1Char('\n')));
    // Esc unpins (the window's shortcut, whatever has the focus).
    w->runTable()->setFocus();
    QTest::keyClick(w.get(), Qt::Key_Escape);
    QTRY_VERIFY(!charts->isReadoutPinned());
    QVERIFY(!unpin->isVisible());
    // So does the button.
    QVERIFY(pin());
    QTest::mouseClick(unpin, Qt::LeftButton);
    QVERIFY(!charts->isReadoutPinned());
    QVERIFY(!unpin->isVisible());
}

void TestStickyState::selectionDrivenChartSaysSo()
{
    QFETCH(QSize, size);
    std::unique_ptr<MainWindow> w(speedupWindow(size));
    QVERIFY(waitForCharts(*w));
    ChartPanel* charts = w->chartPanel();
    const int shown = w->session()->proxy()->rowCount();
    QVERIFY(shown > 2);
    QVERIFY(!charts->bannerText().contains(QStringLiteral("selected runs")));
    RunTableView* table = w->runTable();
    table->selectionModel()->select(QItemSelection(table->model()->index(0, 0), table->model()->index(1, 0)),
        QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QTRY_COMPARE(charts->runs().size(), 2);
    QTRY_VERIFY(!charts->isRebuildPending());
    const QString expected = QStringLiteral("Charting the 2 selected runs</b>, not the %1 the filter shows").arg(shown);
    QVERIFY2(charts->bannerText().contains(expected), qPrintable(charts->bannerText()));
    auto* banner = charts->findChild<QLabel*>(QStringLiteral("chartBanner"));
    QVERIFY(banner && banner->isVisible());
    QVERIFY(banner->text().contains(QStringLiteral("href=\"selection:dismiss\"")));
    // The link charts the filter again: the selection goes, every shown run is charted, the line goes.
    emit banner->linkActivated(QStringLiteral("selection:dismiss"));
    QCOMPARE(table->selectedCount(), 0);
    QVERIFY(waitForCharts(*w));
    QCOMPARE(int(charts->runs().size()), shown);
    QVERIFY(!charts->bannerText().contains(QStringLiteral("selected runs")));
}

void TestStickyState::countsFollowHiddenRuns()
{
    MainWindow w;
    w.show();
    w.addRuns(sweepRuns());
    w.searchBox()->setText(QStringLiteral("provider=nobody"));
    QVERIFY(waitForCharts(w));
    const int before = w.session()->model()->rowCount();
    QTRY_VERIFY(
        w.loadStatus()->countsText().startsWith(QStringLiteral("%1 runs · 0 shown").arg(QLocale().toString(before))));
    // Runs the filter hides (a benchmark's, say) still change the total at once.
    w.addRuns(loadUi({ QStringLiteral("cross-gpu.json") }));
    const int after = w.session()->model()->rowCount();
    QVERIFY(after > before);
    QTRY_VERIFY2(
        w.loadStatus()->countsText().startsWith(QStringLiteral("%1 runs · 0 shown").arg(QLocale().toString(after))),
        qPrintable(w.loadStatus()->countsText()));
}

KIX_TEST_MAIN(TestStickyState)
#include "tst_stickystate.moc"
