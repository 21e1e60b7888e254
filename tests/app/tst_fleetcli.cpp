// SPDX-License-Identifier: Apache-2.0
// `kix fleet` without a cluster: fake sbatch/squeue/scancel in a temporary KIX_SLURM_BIN, and `kix fleet task`
// running real (tiny) CPU benchmarks into a results folder.
#include "app/commands/commands.h"
#include "app/commands/fleet.h"
#include "engine/fleet/fleetjobs.h"
#include "engine/fleet/fleetplan.h"
#include "model/read/runloader.h"

#include "tests/support/processes.h"

#include "tests/support/testmain.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix;
using namespace kix::cli;

namespace {

using Result = kixtest::CommandResult;

Result kixFleet(const QStringList& args)
{
    return kixtest::runInProcess([&](QTextStream& o, QTextStream& e) { return fleetCommand(args, o, e); });
}

const QStringList kSmall
    = { "--device", "cpu", "--shape", "2,64,32", "--channels-per-group", "4", "--warmup-ms", "1", "--rep-ms", "2" };

} // namespace

class TestFleetCli : public QObject
{
    Q_OBJECT
private slots:
    void init()
    {
        m_bin = std::make_unique<QTemporaryDir>();
        m_home = std::make_unique<QTemporaryDir>();
        m_results = std::make_unique<QTemporaryDir>();
        qputenv("KIX_SLURM_BIN", m_bin->path().toUtf8());
        qputenv("KIX_FLEET_HOME", m_home->path().toUtf8());
        qputenv("KIX_FLEET_CPU_BUFFER_MIB", "4");
        // The fake sbatch records its arguments and answers like `sbatch --parsable`.
        QVERIFY(kixtest::writeTool(
            m_bin->path(), "sbatch", "printf '%s\\n' \"$@\" > \"$(dirname \"$0\")/sbatch.args\"\necho 4242\n"));
    }
    void cleanup()
    {
        qunsetenv("KIX_SLURM_BIN");
        qunsetenv("KIX_FLEET_HOME");
    }

    void planPrintsTasks()
    {
        const Result r = kixFleet(QStringList { "plan", "--pass", "forward,backward", "--sweep", "channels=64,128",
            "--target", "h100:1", "--target", "h200:1" });
        QCOMPARE(r.code, int(FleetOk));
        QVERIFY2(r.out.contains("8 tasks in 2 array job(s)"), qPrintable(r.out));
        QVERIFY(r.out.contains("array job for target h200:1: 4 tasks"));
        // --write: plan files only, which `kix fleet task` runs under another scheduler.
        const Result w = kixFleet(
            QStringList { "plan", "--pass", "forward" } + kSmall + QStringList { "--write", m_results->path() });
        QCOMPARE(w.code, int(FleetOk));
        const QString plan = fleet::plansDir(QDir(m_results->path()).absolutePath()) + "/plan-0.json";
        QVERIFY2(w.out.contains(plan), qPrintable(w.out));
        QCOMPARE(kixFleet({ "task", "--plan", plan, "--index", "0", "--job", "k8s-run" }).code, 0);
        QCOMPARE(QDir(m_results->path()).entryList({ "*-k8s-run_0.json" }, QDir::Files).size(), 1);
    }

    void submitWritesPlanScriptAndRecord()
    {
        const Result r = kixFleet(QStringList { "submit" } + kSmall
            + QStringList { "--pass", "forward,backward", "--sweep", "channels=64,128", "--results", m_results->path(),
                "--time", "00:05:00", "--", "--qos=test" });
        QVERIFY2(r.code == FleetOk, qPrintable(r.err));
        QVERIFY2(r.out.contains("submitted job 4242: target default, 4 tasks"), qPrintable(r.out));
        QFile args(m_bin->filePath("sbatch.args"));
        QVERIFY(args.open(QIODevice::ReadOnly));
        const QStringList given = QString::fromUtf8(args.readAll()).split('\n', Qt::SkipEmptyParts);
        QVERIFY(given.contains("--array=0-3"));
        QVERIFY(given.contains("--time=00:05:00"));
        QVERIFY(given.contains("--qos=test"));
        QVERIFY(given.last().endsWith(".sh"));
        QVERIFY(QFileInfo(given.last()).isExecutable());
        const QString plan = given.last().chopped(3) + ".json";
        QFile planFile(plan);
        QVERIFY(planFile.open(QIODevice::ReadOnly));
        QCOMPARE(nlohmann::json::parse(planFile.readAll().toStdString())["tasks"].size(), size_t(4));
        fleet::JobRecord record;
        QString error;
        QVERIFY(fleet::loadRecord("4242", QString(), record, &error));
        QCOMPARE(record.tasks, 4);
        QCOMPARE(record.resultsDir, QDir(m_results->path()).absolutePath());
    }

    void refusedBeforeSubmitting_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("zero tasks") << QStringList { "--pass", "," } << "expands to no tasks";
        QTest::newRow("too many") << QStringList { "--sweep", "batch=1,2,...,40", "--max-tasks", "30" }
                                  << "limit of 30";
        QTest::newRow("bad pass") << QStringList { "--pass", "sideways" } << "unknown pass 'sideways'";
        QTest::newRow("stray argument") << QStringList { "oops" } << "unexpected argument 'oops'";
        QTest::newRow("no kix") << QStringList { "--kix", "/no/such/kix" } << "not an executable kix";
    }
    void refusedBeforeSubmitting()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Result r = kixFleet(QStringList { "submit", "--results", m_results->path() } + args);
        QCOMPARE(r.code, int(FleetUsage));
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(!QFile::exists(m_bin->filePath("sbatch.args"))); // sbatch never ran
    }

    void unwritableResultsFolderIsReportedAtSubmit()
    {
        QFile plain(m_results->filePath("a-file"));
        QVERIFY(plain.open(QIODevice::WriteOnly));
        plain.close();
        const Result r
            = kixFleet({ "submit", "--pass", "forward", "--results", m_results->filePath("a-file/results") });
        QCOMPARE(r.code, int(FleetUsage));
        QVERIFY2(r.err.contains("results folder") && r.err.contains("cannot be written"), qPrintable(r.err));
        QVERIFY(!QFile::exists(m_bin->filePath("sbatch.args")));
    }

    void sbatchMissingOrFailing()
    {
        QFile::remove(m_bin->filePath("sbatch"));
        Result r = kixFleet({ "submit", "--pass", "forward", "--results", m_results->path() });
        QCOMPARE(r.code, int(FleetUsage));
        QVERIFY2(r.err.contains("sbatch: command not found"), qPrintable(r.err));
        QVERIFY(kixtest::writeTool(m_bin->path(), "sbatch",
            "echo 'sbatch: error: Batch job submission failed: Invalid account or account/partition combination "
            "specified' >&2\nexit 1\n"));
        r = kixFleet({ "submit", "--pass", "forward", "--results", m_results->path(), "--account", "nobody" });
        QCOMPARE(r.code, int(FleetFailure));
        QVERIFY2(r.err.contains("sbatch: exit code 1: sbatch: error: Batch job submission failed: Invalid account"),
            qPrintable(r.err));
        QVERIFY(fleet::knownJobs().isEmpty());
    }

    void statusAndCancel()
    {
        QVERIFY(
            kixFleet({ "submit", "--pass", "forward,backward,full", "--results", m_results->path() }).code == FleetOk);
        QVERIFY(kixtest::writeTool(
            m_bin->path(), "squeue", "echo '4242_0|RUNNING|None'\necho '4242_[1-2]|PENDING|Priority'\n"));
        QVERIFY(
            kixtest::writeTool(m_bin->path(), "sacct", "echo 'Slurm accounting storage is disabled' >&2\nexit 1\n"));
        Result r = kixFleet({ "status", "4242" });
        QCOMPARE(r.code, int(FleetUnfinished));
        QVERIFY2(r.out.contains("3 tasks: 1 running, 2 pending"), qPrintable(r.out));
        QVERIFY(r.out.contains("4242_1") && r.out.contains("PENDING (Priority)"));

        QString error;
        for (int i = 0; i < 3; ++i) {
            fleet::TaskMarker m;
            m.done = i != 2;
            m.exitCode = i == 2 ? 1 : 0;
            m.message = QStringLiteral("boom");
            QVERIFY(fleet::writeMarker(QDir(m_results->path()).absolutePath(), "4242", i, m, &error));
        }
        r = kixFleet({ "status", "4242", "--wait", "--interval", "0.2", "--timeout", "20" });
        QCOMPARE(r.code, int(FleetFailure));
        QVERIFY2(r.out.contains("3 tasks: 2 done, 1 failed"), qPrintable(r.out));
        QVERIFY(r.out.contains("(stderr: " + QDir(m_results->path()).absolutePath() + "/.kix-fleet/logs/4242_2.err)"));

        QVERIFY(kixtest::writeTool(m_bin->path(), "scancel", "exit 0\n"));
        QCOMPARE(kixFleet({ "cancel", "4242" }).code, int(FleetOk));
        QVERIFY(kixtest::writeTool(m_bin->path(), "scancel",
            "echo 'scancel: error: Kill job error on job id 4242: Invalid job id' >&2\nexit 1\n"));
        r = kixFleet({ "cancel", "4242" });
        QCOMPARE(r.code, int(FleetFailure));
        QVERIFY2(r.err.contains("scancel: exit code 1: scancel: error: Kill job error"), qPrintable(r.err));
        QCOMPARE(kixFleet({ "cancel", "not-a-job" }).code, int(FleetUsage));
        QCOMPARE(kixFleet({ "status", "777" }).code, int(FleetUsage));
    }

    // What each array task runs: labelled run files moved in atomically; nothing when a cell fails.
    void taskMovesLabelledRuns()
    {
        QVERIFY(kixFleet(QStringList { "submit" } + kSmall
                    + QStringList { "--pass", "forward,backward", "--chunk", "2", "--results", m_results->path() })
                    .code
            == FleetOk);
        const QString plan = lastPlan();
        const Result r = kixFleet({ "task", "--plan", plan, "--index", "0", "--job", "4242" });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList files = QDir(m_results->path()).entryList({ "*.json" }, QDir::Files);
        QCOMPARE(files.size(), 2);
        QVERIFY(files.first().endsWith("-4242_0.json"));
        const LoadResult loaded = loadPaths({ m_results->path() });
        QCOMPARE(loaded.runs.size(), 2); // nothing from .kix-fleet (plans, state) is read as a run
        for (const RunPtr& run : loaded.runs) {
            QMap<QString, QString> labels;
            for (const auto& kv : run->labels)
                labels[kv.key] = kv.value;
            QCOMPARE(labels.value("fleet_job"), QStringLiteral("4242"));
            QCOMPARE(labels.value("fleet_task"), QStringLiteral("4242_0"));
            QCOMPARE(labels.value("fleet_target"), QStringLiteral("default"));
            QVERIFY(!labels.value("fleet_host").isEmpty());
        }
        QVERIFY(!QDir(fleet::stagingDir(m_results->path()) + "/4242_0").exists());
        const fleet::TaskMarker marker = fleet::readMarker(QDir(m_results->path()).absolutePath(), "4242", 0);
        QVERIFY(marker.present && marker.done);
        QCOMPARE(marker.runs.size(), 2);
    }

    void failedTaskLeavesNoRunFile()
    {
        // The second cell names an implementation the CPU does not have: the first cell's run must not land.
        QVERIFY(kixFleet(QStringList { "submit" } + kSmall
                    + QStringList { "--pass", "forward", "--impl", "kix-cpu,kix-nope", "--chunk", "2", "--results",
                        m_results->path() })
                    .code
            == FleetOk);
        const Result r = kixFleet({ "task", "--plan", lastPlan(), "--index", "0", "--job", "77" });
        QCOMPARE(r.code, 1);
        QVERIFY2(
            r.err.contains("kix fleet task 77_0: failed: kix bench") && r.err.contains("kix-nope"), qPrintable(r.err));
        QVERIFY(QDir(m_results->path()).entryList({ "*.json" }, QDir::Files).isEmpty());
        QVERIFY(loadPaths({ m_results->path() }).runs.isEmpty());
        const fleet::TaskMarker marker = fleet::readMarker(QDir(m_results->path()).absolutePath(), "77", 0);
        QVERIFY(marker.present && !marker.done);
        QCOMPARE(marker.exitCode, 2);
        QVERIFY(!QDir(fleet::stagingDir(m_results->path()) + "/77_0").exists());
    }

    void stagedFilesAreNeverLoaded()
    {
        const QString staged = fleet::stagingDir(m_results->path()) + "/5_0";
        QVERIFY(QDir().mkpath(staged));
        QFile::copy(QFINDTESTDATA("../data/model/good/bare_run.json"), staged + "/half.json");
        QVERIFY(QFile::exists(staged + "/half.json"));
        QVERIFY(loadPaths({ m_results->path() }).runs.isEmpty());
    }

    void badTaskArguments()
    {
        QCOMPARE(kixFleet({ "task", "--plan", "/no/plan.json", "--index", "0" }).code, 2);
        QCOMPARE(kixFleet({ "task", "--index", "x" }).code, int(FleetUsage));
        QCOMPARE(kixFleet({ "sideways" }).code, int(FleetUsage));
        QCOMPARE(kixFleet({ "submit", "--help" }).code, int(FleetOk));
    }

private:
    QString lastPlan() const
    {
        const QDir plans(fleet::plansDir(m_results->path()));
        const QStringList names = plans.entryList({ "*.json" }, QDir::Files, QDir::Name);
        return names.isEmpty() ? QString() : plans.filePath(names.last());
    }

    std::unique_ptr<QTemporaryDir> m_bin, m_home, m_results;
};

KIX_TEST_GUILESS_MAIN(TestFleetCli)
#include "tst_fleetcli.moc"
