// SPDX-License-Identifier: Apache-2.0
// Slurm's words: squeue/sacct output (canned, hand-written), states, sbatch's job id, and running the commands
// (fake ones in a temporary KIX_SLURM_BIN) with their failures reported.
#include "engine/fleet/fleetslurm.h"

#include "tests/support/testmain.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace kix::fleet;

namespace {

QString readText(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

void writeTool(const QString& dir, const QString& name, const QByteArray& body)
{
    QFile f(dir + '/' + name);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("#!/bin/sh\n" + body);
    f.close();
    f.setPermissions(f.permissions() | QFile::ExeOwner);
}

} // namespace

class TestFleetSlurm : public QObject
{
    Q_OBJECT
private slots:
    void cleanup() { qunsetenv("KIX_SLURM_BIN"); }

    void squeueOutput()
    {
        const auto tasks = parseArrayTasks(readText(QFINDTESTDATA("../data/engine/fleet/squeue-running.txt")), "5123");
        QCOMPARE(tasks.keys(), QList<int>({ 0, 1, 2, 3, 4, 5, 6, 7 }));
        QCOMPARE(tasks[0].state, QStringLiteral("COMPLETED"));
        QCOMPARE(tasks[2].extra, QStringLiteral("NonZeroExitCode"));
        QCOMPARE(tasks[4].state, QStringLiteral("PENDING")); // from the range [3-5,7%2]
        QCOMPARE(tasks[7].extra, QStringLiteral("JobArrayTaskLimit"));
        QCOMPARE(tasks[6].state, QStringLiteral("CANCELLED by 0"));
        QVERIFY(parseArrayTasks(readText(QFINDTESTDATA("../data/engine/fleet/squeue-running.txt")), "999").isEmpty());
    }

    void sacctOutput()
    {
        const auto tasks = parseArrayTasks(readText(QFINDTESTDATA("../data/engine/fleet/sacct-finished.txt")), "5123");
        QCOMPARE(tasks.size(), 8); // the .batch step is not a task
        QCOMPARE(tasks[2].extra, QStringLiteral("1:0"));
        QCOMPARE(stateFromSlurm(tasks[0].state), TaskState::Done);
        QCOMPARE(stateFromSlurm(tasks[2].state), TaskState::Failed);
        QCOMPARE(stateFromSlurm(tasks[3].state), TaskState::Failed); // TIMEOUT
        QCOMPARE(stateFromSlurm(tasks[4].state), TaskState::Failed); // OUT_OF_MEMORY
        QCOMPARE(stateFromSlurm(tasks[5].state), TaskState::Failed); // NODE_FAIL
        QCOMPARE(stateFromSlurm(tasks[6].state), TaskState::Cancelled); // "CANCELLED by 1000"
    }

    void states()
    {
        QCOMPARE(stateFromSlurm("PENDING"), TaskState::Pending);
        QCOMPARE(stateFromSlurm("CONFIGURING"), TaskState::Pending);
        QCOMPARE(stateFromSlurm("RUNNING"), TaskState::Running);
        QCOMPARE(stateFromSlurm("COMPLETING"), TaskState::Running);
        QCOMPARE(stateFromSlurm("completed"), TaskState::Done);
        QCOMPARE(stateFromSlurm("SOMETHING_NEW"), TaskState::Unknown);
        QVERIFY(isFinished(TaskState::Cancelled));
        QVERIFY(!isFinished(TaskState::Running));
        QCOMPARE(stateName(TaskState::Failed), QStringLiteral("failed"));
    }

    void sbatchJobId()
    {
        QCOMPARE(parseSbatchJobId("4242\n"), QStringLiteral("4242"));
        QCOMPARE(parseSbatchJobId("4243;cluster-a\n"), QStringLiteral("4243"));
        QCOMPARE(parseSbatchJobId("sbatch: warning: something\n77\n"), QStringLiteral("77"));
        QVERIFY(parseSbatchJobId("Submitted batch job\n").isEmpty());
    }

    void missingToolIsNamed()
    {
        QTemporaryDir dir;
        qputenv("KIX_SLURM_BIN", dir.path().toUtf8());
        const ToolResult r = runTool(QStringLiteral("sbatch"), {});
        QVERIFY(!r.ran);
        QVERIFY2(r.error.startsWith("sbatch: command not found") && r.error.contains(dir.path()), qPrintable(r.error));
    }

    void failingToolGivesMessageAndExitCode()
    {
        QTemporaryDir dir;
        writeTool(dir.path(), "sbatch", "echo 'sbatch: error: invalid partition specified: gpu' >&2\nexit 3\n");
        qputenv("KIX_SLURM_BIN", dir.path().toUtf8());
        const ToolResult r = runTool(QStringLiteral("sbatch"), { QStringLiteral("x.sh") });
        QVERIFY(r.ran);
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(r.error, QStringLiteral("sbatch: exit code 3: sbatch: error: invalid partition specified: gpu"));
    }

    void toolThatHangsTimesOut()
    {
        QTemporaryDir dir;
        writeTool(dir.path(), "squeue", "exec sleep 30\n");
        qputenv("KIX_SLURM_BIN", dir.path().toUtf8());
        const ToolResult r = runTool(QStringLiteral("squeue"), {}, 300);
        QVERIFY(!r.ran);
        QVERIFY2(r.error.contains("no answer within"), qPrintable(r.error));
    }

    void toolOutputIsKept()
    {
        QTemporaryDir dir;
        writeTool(dir.path(), "squeue", "echo \"$@\"\n");
        qputenv("KIX_SLURM_BIN", dir.path().toUtf8());
        const ToolResult r = runTool(QStringLiteral("squeue"), { QStringLiteral("-j"), QStringLiteral("7") });
        QVERIFY(r.ok());
        QCOMPARE(r.out, QStringLiteral("-j 7\n"));
    }
};

KIX_TEST_GUILESS_MAIN(TestFleetSlurm)
#include "tst_fleetslurm.moc"
