// SPDX-License-Identifier: Apache-2.0
// The Regressions panel: its rows (largest first, then the unplaceable runs), the threshold, and in the window a
// click on a change that selects its series' runs and shows the History chart.
#include "model/filter/runtablemodel.h"
#include "ui/charts/historychart.h"
#include "ui/mainwindow.h"
#include "ui/panelinstall.h"
#include "ui/panels/chartpanel.h"
#include "ui/panels/loadstatus.h"
#include "ui/panels/regressionspanel.h"
#include "ui/runsession.h"
#include "ui/runtableview.h"

#include "tests/ui/uitestsupport.h"

#include <QDockWidget>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include "model/read/runloader.h"

using namespace kix;

namespace {

QString historyDir()
{
    return QStringLiteral(KIX_TEST_DATA_DIR "/history");
}

} // namespace

class TestRegressionsPanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void rowsLargestFirst();
    void clickShowsHistory();

private:
    QTemporaryDir m_settings;
};

void TestRegressionsPanel::initTestCase()
{
    kixtest::isolateSettings(m_settings);
}

void TestRegressionsPanel::rowsLargestFirst()
{
    RegressionsPanel panel;
    panel.setRuns(loadPaths({ historyDir() }).runs);
    QVERIFY(panel.isBuilding());
    QTRY_VERIFY(!panel.isBuilding());
    QAbstractItemModel* model = panel.view()->model();
    QCOMPARE(model->rowCount(), 5); // 4 changes and 1 unplaceable run
    QCOMPARE(model->index(0, 0).data().toString(), QStringLiteral("outlier"));
    QCOMPARE(model->index(0, 1).data().toString(), QStringLiteral("1.600×"));
    QStringList ratios;
    for (int row = 0; row < 4; ++row)
        ratios << model->index(row, 1).data().toString();
    QCOMPARE(ratios, QStringList({ "1.600×", "1.300×", "0.778×", "1.199×" })); // by |log ratio|
    QCOMPARE(model->index(1, 0).data().toString(), QStringLiteral("regression (newest run)"));
    QVERIFY(model->index(1, 2).data().toString().endsWith(QStringLiteral("memory")));
    QCOMPARE(model->index(1, 3).data().toString(), QStringLiteral("0.7.0 · 2025-10-20 14:15 · 100 MB"));
    QCOMPARE(model->index(1, 4).data().toString(), QStringLiteral("0.8.0 · 2026-01-12 08:45 · 130 MB"));
    QCOMPARE(model->index(3, 0).data().toString(), QStringLiteral("regression"));
    QVERIFY(model->index(3, 5).data().toString().contains(QStringLiteral("standard errors")));
    QCOMPARE(model->index(4, 0).data().toString(), QStringLiteral("unplaceable"));
    QVERIFY(model->index(4, 5).data().toString().contains(QStringLiteral("unplaceable.json")));
    QVERIFY(
        panel.summary().startsWith(QStringLiteral("2 regression(s) · 1 improvement(s) · 1 outlier(s) in 5 series")));
    QVERIFY(panel.summary().contains(QStringLiteral("1 unplaceable run(s)")));
    QVERIFY(panel.summary().contains(QStringLiteral("2 run(s) at the same time")));

    panel.setThreshold(0.25);
    QTRY_VERIFY(!panel.isBuilding());
    QCOMPARE(model->rowCount(), 4); // the 1.199× regression is under 25 %
    QVERIFY(panel.seriesRuns(3).isEmpty()); // the unplaceable row has no series
    QCOMPARE(panel.seriesRuns(0).size(), 4);
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

    // Click the liger backward regression (the fourth row).
    QSignalSpy activated(panel, &RegressionsPanel::seriesActivated);
    QTableView* view = panel->view();
    view->scrollTo(view->model()->index(3, 2));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(view->model()->index(3, 2)).center());
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

QTEST_MAIN(TestRegressionsPanel)
#include "tst_regressionspanel.moc"
