// SPDX-License-Identifier: Apache-2.0
// The Fleet panel: its job model under QAbstractItemModelTester, refusals before anything is submitted, and the
// Benchmark panel's request submitted (to a fake sbatch) as one array job per target, listed after a refresh,
// with the window following the results folder.
#include "ui/models/fleetjobmodel.h"
#include "ui/panels/fleetpanel.h"

#include "engine/benchmarkrunner.h"
#include "engine/fleet/fleetplan.h"
#include "tests/ui/uitestsupport.h"
#include "ui/folderfollower.h"
#include "ui/mainwindow.h"
#include "ui/panelinstall.h"
#include "ui/panels/benchmarkpanel.h"

#include "tests/support/processes.h"

#include "tests/support/testmain.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace kix;

namespace {

} // namespace

class TestFleetPanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        kixtest::isolateSettings(m_settings);
        qputenv("KIX_SLURM_BIN", m_bin.path().toUtf8());
        qputenv("KIX_FLEET_HOME", m_home.path().toUtf8());
        // sbatch answers 100, 101, ...; squeue says every task is pending.
        QVERIFY(kixtest::writeTool(m_bin.path(), "sbatch",
            "n=$(cat \"$(dirname \"$0\")/n\" 2>/dev/null || echo 100)\necho $((n + 1)) > \"$(dirname \"$0\")/n\"\n"
            "echo $n\n"));
        QVERIFY(kixtest::writeTool(m_bin.path(), "squeue", "for a in \"$@\"; do j=$a; done\nexit 0\n"));
    }

    void modelRows()
    {
        FleetJobModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        fleet::JobStatus job;
        job.record = { QStringLiteral("7"), QStringLiteral("/r"), QStringLiteral("h100:1"), {}, {}, 2 };
        job.tasks = { { 0, fleet::TaskState::Done, {}, {}, 1 }, { 1, fleet::TaskState::Running, {}, {}, 0 } };
        model.setJobs({ job, job });
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.data(model.index(0, FleetJobModel::State)).toString(), QStringLiteral("1 done, 1 running"));
        QCOMPARE(model.data(model.index(0, FleetJobModel::Target)).toString(), QStringLiteral("h100:1"));
        QVERIFY(model.data(model.index(0, FleetJobModel::Job), Qt::ToolTipRole).toString().contains("7_1  running"));
        QVERIFY(model.anyUnfinished());
        model.setJobs({});
        QCOMPARE(model.rowCount(), 0);
    }

    void refusesBeforeSubmitting()
    {
        MainWindow window;
        BenchmarkRunner runner;
        BenchmarkPanel benchmark(&runner);
        FleetPanel panel(&benchmark, nullptr, {}, &window);
        QSignalSpy submitted(&panel, &FleetPanel::submitted);
        panel.resultsEdit()->clear();
        panel.submit();
        QCOMPARE(submitted.count(), 1);
        QVERIFY2(
            panel.statusLabel()->text().contains("choose a results folder"), qPrintable(panel.statusLabel()->text()));
        panel.resultsEdit()->setText(m_results.path());
        panel.targetsEdit()->setText(QStringLiteral("gpu:h100:1"));
        panel.submit();
        QVERIFY2(panel.statusLabel()->text().startsWith("Not submitted: target 'gpu:h100:1'"),
            qPrintable(panel.statusLabel()->text()));
        QVERIFY(!QFile::exists(m_bin.filePath("n"))); // sbatch never ran
    }

    void submitsTheBenchmarkRequest()
    {
        MainWindow window;
        BenchmarkRunner runner;
        auto* benchmark = new BenchmarkPanel(&runner, &window);
        FolderFollower* follower = installFolderFollower(window);
        FleetPanel* panel = installFleetPanel(window, benchmark, follower);
        panel->resultsEdit()->setText(m_results.path());
        panel->targetsEdit()->setText(QStringLiteral("h100:1, partition=debug"));
        QSignalSpy submitted(panel, &FleetPanel::submitted);
        QSignalSpy refreshed(panel, &FleetPanel::refreshed);
        panel->submitButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(submitted.count(), 1, 30000);
        QCOMPARE(submitted.first().at(0).toStringList(), QStringList({ "100", "101" }));
        QVERIFY2(submitted.first().at(1).toString().isEmpty(), qPrintable(submitted.first().at(1).toString()));
        QVERIFY(panel->statusLabel()->text().startsWith("Submitted job 100, 101."));
        QTRY_VERIFY_WITH_TIMEOUT(!refreshed.isEmpty(), 30000);
        QCOMPARE(panel->model()->rowCount(), 2);
        QCOMPARE(panel->model()->jobs().first().record.jobId, QStringLiteral("101")); // newest first
        QCOMPARE(panel->model()->jobs().first().record.target, QStringLiteral("partition=debug"));
        QCOMPARE(panel->model()->jobs().first().record.tasks, 3); // forward, backward, full of the seed shape
        QCOMPARE(follower->folder(), QDir(m_results.path()).absolutePath());
    }

    // The window as `kix` builds it: Fleet is a tab beside Details and Benchmark, and Details is the one in front.
    void detailsStaysInFront()
    {
        MainWindow window;
        window.resize(1280, 720);
        BenchmarkPanel* benchmark = installBenchmarkPanel(window);
        FolderFollower* follower = installFolderFollower(window);
        FleetPanel* panel = installFleetPanel(window, benchmark, follower);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.tabifiedDockWidgets(window.detailsDock()).contains(panel));
        QTRY_VERIFY(!window.detailsDock()->visibleRegion().isEmpty());
        QVERIFY(panel->visibleRegion().isEmpty());
    }

private:
    QTemporaryDir m_settings;
    QTemporaryDir m_bin;
    QTemporaryDir m_home;
    QTemporaryDir m_results;
};

KIX_TEST_MAIN(TestFleetPanel)
#include "tst_fleetpanel.moc"
