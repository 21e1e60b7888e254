// SPDX-License-Identifier: Apache-2.0
// The Regressions panel: its rows (largest first, then the unplaceable runs), the threshold, and in the window a
// click on a change that selects its series' runs and shows the History chart.
#include "model/filter/runtablemodel.h"
#include "ui/charts/historychart.h"
#include "ui/mainwindow.h"
#include "ui/models/historychangesmodel.h"
#include "ui/panelinstall.h"
#include "ui/panels/chartpanel.h"
#include "ui/panels/loadstatus.h"
#include "ui/panels/regressionspanel.h"
#include "ui/runsession.h"
#include "ui/runtableview.h"

#include "tests/model/runfactory.h"
#include "tests/ui/uitestsupport.h"

#include "tests/support/testmain.h"

#include <QChartView>
#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLineEdit>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTimeZone>

#include "model/read/runloader.h"

using namespace kix;

namespace {

QString historyDir()
{
    return QStringLiteral(KIX_TEST_DATA_DIR "/history");
}

// Five series of six daily runs that step from one level to another (ns) after the third: ratios 12, 2.5, 0.1, 3
// and 0.667, so that text order ("12.000×" before "2.500×") and number order differ.
RunList steppedRuns()
{
    struct Step
    {
        const char* provider;
        double before;
        double after;
    };
    const Step steps[]
        = { { "aa", 100, 1200 }, { "bb", 100, 250 }, { "cc", 1000, 100 }, { "dd", 100, 300 }, { "ee", 900, 600 } };
    RunList runs;
    const QDateTime start(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC);
    for (const Step& step : steps) {
        for (int day = 0; day < 6; ++day) {
            auto run = kixtest::makeRun(QLatin1String(step.provider), QStringLiteral("B200"), 1024,
                day < 3 ? step.before : step.after, 0.01, QStringLiteral("forward"));
            run->observedAt = start.addDays(day);
            run->finalize();
            runs << run;
        }
    }
    return runs;
}

QStringList columnTexts(QAbstractItemModel* model, int column)
{
    QStringList texts;
    for (int row = 0; row < model->rowCount(); ++row)
        texts << model->index(row, column).data().toString();
    return texts;
}

} // namespace

class TestRegressionsPanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void rowsRegressionsFirst();
    void clickShowsHistory();
    void sortsNumbersAsNumbers();
    void filtersByKindAndText();
    void oneBuildAtATimeLatestWins();
    void chartKeepsItsHeight();

private:
    QTemporaryDir m_settings;
};

void TestRegressionsPanel::initTestCase()
{
    kixtest::isolateSettings(m_settings);
}

void TestRegressionsPanel::rowsRegressionsFirst()
{
    RegressionsPanel panel;
    panel.setRuns(loadPaths({ historyDir() }).runs);
    QVERIFY(panel.isBuilding());
    QTRY_VERIFY(!panel.isBuilding());
    QAbstractItemModel* model = panel.view()->model();
    QCOMPARE(model->rowCount(), 5); // 4 changes and 1 unplaceable run
    // Regressions first (each kind largest first, by |log ratio|), so that improvements and outliers do not
    // crowd them out; the history lists them largest first of any kind (1.600×, 1.300×, 0.778×, 1.199×).
    QStringList kinds;
    QStringList ratios;
    for (int row = 0; row < 5; ++row) {
        kinds << model->index(row, 0).data().toString();
        ratios << model->index(row, 1).data().toString();
    }
    QCOMPARE(kinds,
        QStringList({ "regression (newest run)", "regression", "improvement (newest run)", "outlier", "unplaceable" }));
    QCOMPARE(ratios, QStringList({ "1.300×", "1.199×", "0.778×", "1.600×", "" }));
    QCOMPARE(panel.history().changes.front().change.ratio, 1.6); // the model keeps the history's own order
    QVERIFY(model->index(0, 2).data().toString().endsWith(QStringLiteral("memory")));
    QCOMPARE(model->index(0, 3).data().toString(), QStringLiteral("0.7.0 · 2025-10-20 14:15 · 100 MB"));
    QCOMPARE(model->index(0, 4).data().toString(), QStringLiteral("0.8.0 · 2026-01-12 08:45 · 130 MB"));
    QVERIFY(model->index(1, 5).data().toString().contains(QStringLiteral("standard errors")));
    QVERIFY(model->index(4, 5).data().toString().contains(QStringLiteral("unplaceable.json")));
    QVERIFY(
        panel.summary().startsWith(QStringLiteral("2 regression(s) · 1 improvement(s) · 1 outlier(s) in 5 series")));
    QVERIFY(panel.summary().contains(QStringLiteral("1 unplaceable run(s)")));
    QVERIFY(panel.summary().contains(QStringLiteral("2 run(s) at the same time")));

    panel.setThreshold(0.25);
    QTRY_VERIFY(!panel.isBuilding());
    QCOMPARE(model->rowCount(), 4); // the 1.199× regression is under 25 %
    QCOMPARE(model->index(0, 1).data().toString(), QStringLiteral("1.300×"));
    QVERIFY(panel.seriesRuns(3).isEmpty()); // the unplaceable row has no series
    QCOMPARE(panel.seriesRuns(2).size(), 4); // the outlier's series, by the row shown
}

void TestRegressionsPanel::clickShowsHistory()
{
    MainWindow w;
    installRegressionsPanel(w);
    w.show();
    auto* panel = w.findChild<RegressionsPanel*>();
    QVERIFY(panel);
    QVERIFY(w.findChild<QDockWidget*>(QStringLiteral("regressionsDock")));
    w.openPaths({ historyDir() });
    QTRY_COMPARE_WITH_TIMEOUT(w.session()->model()->rowCount(), 22, 10000);
    QTRY_VERIFY(!w.loadStatus()->isLoading());
    QTRY_COMPARE(panel->view()->model()->rowCount(), 5);

    // Click the liger backward regression (the second row: regressions first).
    QSignalSpy activated(panel, &RegressionsPanel::seriesActivated);
    QTableView* view = panel->view();
    QCOMPARE(view->model()->index(1, 0).data().toString(), QStringLiteral("regression"));
    view->scrollTo(view->model()->index(1, 2));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(view->model()->index(1, 2)).center());
    QCOMPARE(activated.size(), 1);
    QCOMPARE(w.chartPanel()->kind(), ChartKind::History);
    const RunList selected = w.runTable()->selectedRuns();
    QCOMPARE(selected.size(), 4);
    for (const RunPtr& run : selected)
        QVERIFY(run->provider == QLatin1String("liger") && run->pass == QLatin1String("backward"));
    QTRY_VERIFY(w.chartPanel()->runs().size() == 4 && !w.chartPanel()->isRebuildPending());
    auto* chart = dynamic_cast<HistoryChart*>(w.chartPanel()->chart());
    QVERIFY(chart);
    QCOMPARE(chart->lineCount(), 1);
    QCOMPARE(chart->marks(ChangeKind::Regression)->count(), 1);
}

void TestRegressionsPanel::sortsNumbersAsNumbers()
{
    RegressionsPanel panel;
    panel.setRuns(steppedRuns());
    QTRY_VERIFY(!panel.isBuilding());
    QTableView* view = panel.view();
    QAbstractItemModel* model = view->model();
    QCOMPARE(model->rowCount(), 5);
    // By default regressions first, each kind largest first: the 0.1× improvement is larger than the 3× and 2.5×
    // regressions, and still comes after them.
    QCOMPARE(columnTexts(model, HistoryChangesModel::Ratio),
        QStringList({ "12.000×", "3.000×", "2.500×", "0.100×", "0.667×" }));
    QCOMPARE(columnTexts(model, HistoryChangesModel::Kind),
        QStringList({ "regression", "regression", "regression", "improvement", "improvement" }));

    // A click on the Ratio header sorts by the number (as text "12.000×" would come before "2.500×").
    QTest::mouseClick(view->horizontalHeader()->viewport(), Qt::LeftButton, {},
        QPoint(view->horizontalHeader()->sectionViewportPosition(HistoryChangesModel::Ratio) + 10, 5));
    QCOMPARE(view->horizontalHeader()->sortIndicatorSection(), int(HistoryChangesModel::Ratio));
    view->sortByColumn(HistoryChangesModel::Ratio, Qt::AscendingOrder);
    QCOMPARE(columnTexts(model, HistoryChangesModel::Ratio),
        QStringList({ "0.100×", "0.667×", "2.500×", "3.000×", "12.000×" }));
    view->sortByColumn(HistoryChangesModel::Ratio, Qt::DescendingOrder);
    QCOMPARE(columnTexts(model, HistoryChangesModel::Ratio),
        QStringList({ "12.000×", "3.000×", "2.500×", "0.667×", "0.100×" }));

    // The After column sorts by the new level (100, 250, 300, 600, 1,200 ns), whatever unit its text shows.
    view->sortByColumn(HistoryChangesModel::After, Qt::AscendingOrder);
    QCOMPARE(columnTexts(model, HistoryChangesModel::Ratio),
        QStringList({ "0.100×", "2.500×", "3.000×", "0.667×", "12.000×" }));
    // Series by name.
    view->sortByColumn(HistoryChangesModel::Series, Qt::DescendingOrder);
    QVERIFY(model->index(0, HistoryChangesModel::Series).data().toString().contains(QStringLiteral(" · ee · ")));
    // The row shown, not the history's order, is what a click opens.
    QSignalSpy activated(&panel, &RegressionsPanel::seriesActivated);
    panel.activateRow(0);
    QCOMPARE(activated.size(), 1);
    QVERIFY(activated.front().at(1).toString().contains(QStringLiteral(" · ee · ")));
}

void TestRegressionsPanel::filtersByKindAndText()
{
    RegressionsPanel panel;
    panel.setRuns(steppedRuns());
    QTRY_VERIFY(!panel.isBuilding());
    QAbstractItemModel* model = panel.view()->model();
    QCOMPARE(panel.kindBox()->currentText(), QStringLiteral("All kinds"));
    panel.kindBox()->setCurrentIndex(panel.kindBox()->findText(QStringLiteral("Improvements")));
    QCOMPARE(columnTexts(model, HistoryChangesModel::Kind), QStringList({ "improvement", "improvement" }));
    QCOMPARE(columnTexts(model, HistoryChangesModel::Ratio), QStringList({ "0.100×", "0.667×" }));
    panel.kindBox()->setCurrentIndex(panel.kindBox()->findText(QStringLiteral("Regressions")));
    QCOMPARE(columnTexts(model, HistoryChangesModel::Ratio), QStringList({ "12.000×", "3.000×", "2.500×" }));
    QVERIFY2(panel.summary().endsWith(QStringLiteral(" · 3 of 5 rows shown")), qPrintable(panel.summary()));
    // Text narrows further; with another kind it can leave nothing.
    panel.filterEdit()->setText(QStringLiteral("· BB ·"));
    QCOMPARE(columnTexts(model, HistoryChangesModel::Ratio), QStringList({ "2.500×" }));
    panel.kindBox()->setCurrentIndex(panel.kindBox()->findText(QStringLiteral("Improvements")));
    QCOMPARE(model->rowCount(), 0);
    panel.kindBox()->setCurrentIndex(panel.kindBox()->findText(QStringLiteral("All kinds")));
    panel.filterEdit()->clear();
    QCOMPARE(model->rowCount(), 5);
    QVERIFY(!panel.summary().contains(QStringLiteral("shown")));
    // A rebuild (another threshold) keeps the kind: at 100 % the 0.667× improvement is no change any more.
    panel.kindBox()->setCurrentIndex(panel.kindBox()->findText(QStringLiteral("Improvements")));
    panel.setThreshold(1.0);
    QTRY_VERIFY(!panel.isBuilding());
    QCOMPARE(columnTexts(model, HistoryChangesModel::Ratio), QStringList({ "0.100×" }));
}

void TestRegressionsPanel::oneBuildAtATimeLatestWins()
{
    // Runs arriving in chunks (three asks before the first build ends): the first build runs, the others become
    // one build of the newest runs once it ends; the older result is never shown.
    const RunList all = loadPaths({ historyDir() }).runs;
    QVERIFY(all.size() > 4);
    RegressionsPanel panel;
    QTRY_VERIFY(!panel.isBuilding());
    const int before = panel.buildsStarted();
    QSignalSpy rebuilt(&panel, &RegressionsPanel::rebuilt);
    panel.setRuns(all.mid(0, 2));
    panel.setRuns(all.mid(0, 4));
    panel.setRuns(all);
    QTRY_VERIFY(!panel.isBuilding());
    QCOMPARE(panel.buildsStarted() - before, 2);
    QCOMPARE(rebuilt.count(), 1);
    HistoryOptions options;
    options.detection.threshold = panel.threshold();
    const History expected = buildHistory(all, options);
    QCOMPARE(panel.history().changes.size(), expected.changes.size());
    QCOMPARE(panel.history().series.size(), expected.series.size());
    QCOMPARE(panel.view()->model()->rowCount(), 5);
}

void TestRegressionsPanel::chartKeepsItsHeight()
{
    // Issues and Regressions both open at 1280x720: tabbed with each other, and the chart keeps 300 px or more.
    MainWindow w;
    installRegressionsPanel(w);
    w.resize(1280, 720);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openPaths({ historyDir() });
    QTRY_COMPARE_WITH_TIMEOUT(w.session()->model()->rowCount(), 22, 10000);
    QTRY_VERIFY(!w.loadStatus()->isLoading());
    auto* issues = w.findChild<QDockWidget*>(QStringLiteral("issuesDock"));
    auto* regressions = w.findChild<QDockWidget*>(QStringLiteral("regressionsDock"));
    QVERIFY(issues && regressions);
    issues->show();
    regressions->show();
    // Both tall, as a user might have left them: the window gives the chart its room back, on the quantile chart and
    // on the speed-up, whose pairs table below the chart gives room after the run table (down to its header and a
    // row, then folded: its splitter handle stays).
    for (const ChartKind kind : { ChartKind::Quantiles, ChartKind::Speedup }) {
        w.chartPanel()->setKind(kind);
        QTRY_VERIFY(!w.chartPanel()->isRebuildPending());
        w.resizeDocks({ issues, regressions }, { 330, 330 }, Qt::Vertical);
        // the user flips between the two tabs (each shows and hides a panel: the window looks at the chart again)
        issues->raise();
        regressions->raise();
        QVERIFY(w.tabifiedDockWidgets(issues).contains(regressions));
        QTRY_VERIFY2(w.chartPanel()->chartView()->height() >= MainWindow::kMinChartHeight,
            qPrintable(QStringLiteral("chart %1 px (kind %4), table %2 px, issues %3 px")
                           .arg(w.chartPanel()->chartView()->height())
                           .arg(w.runTable()->height())
                           .arg(issues->height())
                           .arg(chartKindName(w.chartPanel()->kind()))));
        QCOMPARE(w.chartPanel()->kind(), kind);
    }
    QVERIFY(regressions->isVisible());
    QVERIFY(regressions->height() >= regressions->minimumSizeHint().height());
    QVERIFY(w.runTable()->height() > 0);
}

KIX_TEST_MAIN(TestRegressionsPanel)
#include "tst_regressionspanel.moc"
