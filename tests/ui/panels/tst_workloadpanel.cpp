// SPDX-License-Identifier: Apache-2.0
// WorkloadPanel ("My workload"): a request typed into its fields fills the table (exact rows ranked as their cohort,
// else the nearest cases with their mismatches), the operation field completes the runs' names, and a double-click
// in the window selects the case's runs in the run table.
#include "model/filter/runtablemodel.h"
#include "model/read/documentparser.h"
#include "ui/mainwindow.h"
#include "ui/models/resolvemodel.h"
#include "ui/panelinstall.h"
#include "ui/panels/workloadpanel.h"
#include "ui/runsession.h"
#include "ui/runtableview.h"

#include "tests/ui/uitestsupport.h"

#include "tests/support/testmain.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace kix;

namespace {

QString sweepPath()
{
    return QStringLiteral(KIX_TEST_DATA_DIR "/model/resolve/groupnorm-sweep.csv");
}

RunList sweep()
{
    return parseFile(sweepPath()).runs;
}

QStringList columnValues(const QAbstractItemModel* model, int c)
{
    QStringList out;
    for (int row = 0; row < model->rowCount(); ++row)
        out << model->index(row, c).data().toString();
    return out;
}

} // namespace

class TestWorkloadPanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void fillsTheTableFromARequest();
    void completesOperationNames();
    void badAxesAreSaid();
    void doubleClickSelectsRuns();

private:
    QTemporaryDir m_settings;
};

void TestWorkloadPanel::initTestCase()
{
    kixtest::isolateSettings(m_settings);
}

void TestWorkloadPanel::fillsTheTableFromARequest()
{
    const RunList runs = sweep();
    WorkloadPanel panel([&runs] { return runs; });
    QAbstractItemModelTester tester(
        const_cast<ResolveModel*>(panel.model()), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QAbstractItemModel* model = panel.view()->model();

    // typed as a user would: fields, then Enter
    QTest::keyClicks(panel.operationEdit(), QStringLiteral("group_norm"));
    QTest::keyClicks(panel.axesEdit(), QStringLiteral("channels=3000"));
    QTest::keyClicks(panel.gpuEdit(), QStringLiteral("B200"));
    QTest::keyClick(panel.gpuEdit(), Qt::Key_Return);
    QCOMPARE(model->rowCount(), 2);
    QCOMPARE(columnValues(model, ResolveModel::Match),
        (QStringList { QStringLiteral("above channels ×1.37"), QStringLiteral("below channels ×0.683") }));
    QCOMPARE(columnValues(model, ResolveModel::Mismatches),
        (QStringList { QStringLiteral("channels: 3000 → 4096"), QStringLiteral("channels: 3000 → 2048") }));
    QCOMPARE(columnValues(model, ResolveModel::Implementation),
        (QStringList { QStringLiteral("liger"), QStringLiteral("liger") }));
    QCOMPARE(model->index(0, ResolveModel::Implementations).data().toInt(), 2);
    QCOMPARE(model->index(1, ResolveModel::Best).data().toString(), QStringLiteral("180 µs"));
    QVERIFY(panel.summary().contains(QLatin1String("Not measured")));
    QVERIFY(panel.summary().contains(QLatin1String("kernel name")));

    // exact: every implementation of the case, ranked
    ResolveRequest r;
    r.operation = QStringLiteral("GROUP_NORM");
    r.axes = { { QStringLiteral("channels"), QStringLiteral("1024") } };
    r.gpu = QStringLiteral("h100");
    panel.setRequest(r);
    QCOMPARE(panel.axesEdit()->text(), QStringLiteral("channels=1024"));
    panel.resolve();
    QCOMPARE(model->rowCount(), 2);
    QCOMPARE(
        columnValues(model, ResolveModel::Match), (QStringList { QStringLiteral("exact"), QStringLiteral("exact") }));
    QCOMPARE(columnValues(model, ResolveModel::Rank), (QStringList { QStringLiteral("1"), QStringLiteral("2") }));
    QCOMPARE(columnValues(model, ResolveModel::Implementation),
        (QStringList { QStringLiteral("liger"), QStringLiteral("huggingface") }));
    QVERIFY(panel.summary().contains(QLatin1String("Exact")));
    QCOMPARE(panel.model()->runsOf(1).size(), 1); // the huggingface run
    QCOMPARE(panel.model()->runsOf(1).front()->provider, QStringLiteral("huggingface"));
}

void TestWorkloadPanel::completesOperationNames()
{
    const RunList runs
        = sweep() + parseFile(QStringLiteral(KIX_TEST_DATA_DIR "/model/resolve/conv1d-suites.jsonl")).runs;
    WorkloadPanel panel([&runs] { return runs; });
    panel.setOperationNames(runs);
    QCOMPARE(panel.completions(),
        (QStringList { QStringLiteral("Causal depthwise conv1d"), QStringLiteral("causal_conv1d"),
            QStringLiteral("conv1d_causal"), QStringLiteral("group_norm") }));
    // an unknown name: the nearest names
    panel.operationEdit()->setText(QStringLiteral("groupnorm"));
    panel.resolve();
    QCOMPARE(panel.view()->model()->rowCount(), 0);
    QVERIFY(panel.summary().contains(QLatin1String("Nearest names: group_norm")));
}

void TestWorkloadPanel::badAxesAreSaid()
{
    const RunList runs = sweep();
    WorkloadPanel panel([&runs] { return runs; });
    panel.operationEdit()->setText(QStringLiteral("group_norm"));
    panel.axesEdit()->setText(QStringLiteral("channels3000"));
    panel.resolve();
    QCOMPARE(panel.view()->model()->rowCount(), 0);
    const auto* label = panel.findChild<QLabel*>();
    QVERIFY(label);
    QVERIFY2(label->text().contains(QLatin1String("is not AXIS=VALUE")), qPrintable(label->text()));
    panel.operationEdit()->clear();
    panel.resolve();
    QVERIFY(label->text().contains(QLatin1String("no operation")));
}

void TestWorkloadPanel::doubleClickSelectsRuns()
{
    MainWindow w;
    WorkloadPanel* panel = installWorkloadPanel(w);
    w.show();
    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("workloadDock"));
    QVERIFY(dock);
    QVERIFY(!dock->isVisible()); // on request, View > My workload
    dock->toggleViewAction()->trigger();
    QTRY_VERIFY(panel->view()->isVisible());
    w.openPaths({ sweepPath() });
    QTRY_COMPARE_WITH_TIMEOUT(w.session()->model()->rowCount(), 8, 10000);
    QTRY_VERIFY(panel->completions().contains(QStringLiteral("group_norm")));
    panel->setRequest({ QStringLiteral("group_norm"), { { QStringLiteral("channels"), QStringLiteral("3000") } }, {},
        QStringLiteral("b200") });
    panel->resolve();
    QCOMPARE(panel->view()->model()->rowCount(), 2);

    QSignalSpy activated(panel, &WorkloadPanel::runsActivated);
    QTableView* view = panel->view();
    view->scrollTo(view->model()->index(1, ResolveModel::Workload));
    const QRect cell = view->visualRect(view->model()->index(1, ResolveModel::Workload));
    QVERIFY2(view->viewport()->rect().contains(cell.center()), "the row is on screen");
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center()); // a press, then the double-click
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(activated.size(), 1);
    // the 2048-channel case: liger and huggingface
    const RunList selected = w.runTable()->selectedRuns();
    QCOMPARE(selected.size(), 2);
    for (const RunPtr& run : selected)
        QCOMPARE(run->paramNumber(QStringLiteral("channels")), 2048.0);
}

KIX_TEST_MAIN(TestWorkloadPanel)
#include "tst_workloadpanel.moc"
