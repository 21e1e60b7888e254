// SPDX-License-Identifier: Apache-2.0
// kix fleet on a real (one-node) Slurm: scripts/slurm-local.sh brings it up when it is not up already; a 4-task CPU
// matrix is submitted with `kix fleet submit`, waited for with `kix fleet status --wait`, and the results folder must
// hold 4 valid runs with distinct task labels, which a FolderFollower following the folder also sees. A task that
// fails keeps its stderr and leaves no run file. Skipped (with the reason) only where Slurm cannot be installed.
#include "model/read/runloader.h"
#include "ui/folderfollower.h"

#include "kix/config.h"

#include "tests/support/processes.h"
#include "tests/support/testmain.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace kix;

namespace {

using Result = kixtest::CommandResult;

QString slurmDir()
{
    return qEnvironmentVariable("KIX_SLURM_DIR", QStringLiteral("/tmp/kix-slurm"));
}

// Runs a program to the end while the event loop keeps running (the follower works meanwhile).
Result runWithEnv(const QString& program, const QStringList& args, const QProcessEnvironment& env, int timeoutMs)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    QElapsedTimer clock;
    clock.start();
    while (p.state() != QProcess::NotRunning && clock.elapsed() < timeoutMs)
        QTest::qWait(100);
    if (p.state() != QProcess::NotRunning) {
        p.kill();
        p.waitForFinished();
        return { -1, QString::fromUtf8(p.readAllStandardOutput()), QStringLiteral("timed out") };
    }
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
        QString::fromUtf8(p.readAllStandardError()) };
}

QString jobIdIn(const QString& out)
{
    const auto m = QRegularExpression(QStringLiteral("submitted job (\\d+)")).match(out);
    return m.hasMatch() ? m.captured(1) : QString();
}

} // namespace

class TestFleetSlurm : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        const Result start = runWithEnv(QStringLiteral(KIX_SOURCE_DIR "/scripts/slurm-local.sh"),
            { QStringLiteral("start") }, QProcessEnvironment::systemEnvironment(), 300000);
        if (start.code == 77)
            QSKIP(qPrintable(QStringLiteral("Slurm cannot be installed here: ") + start.err.trimmed()));
        QVERIFY2(start.code == 0,
            qPrintable(QStringLiteral("scripts/slurm-local.sh start failed (%1): %2").arg(start.code).arg(start.err)));
        m_startedHere = !start.err.contains(QLatin1String("already running"));
        m_env = QProcessEnvironment::systemEnvironment();
        m_env.insert(QStringLiteral("SLURM_CONF"), slurmDir() + QStringLiteral("/slurm.conf"));
        m_env.insert(QStringLiteral("KIX_FLEET_HOME"), m_home.path());
        m_env.remove(QStringLiteral("KIX_SLURM_BIN"));
        m_env.insert(
            QStringLiteral("KIX_FLEET_CPU_BUFFER_MIB"), QStringLiteral("4")); // reaches the tasks (--export=ALL)
        qputenv("SLURM_CONF", m_env.value(QStringLiteral("SLURM_CONF")).toUtf8());
    }

    void cleanupTestCase()
    {
        if (m_startedHere) // a cluster .ci/runWithEnv (or the user) started stays up
            runWithEnv(
                QStringLiteral(KIX_SOURCE_DIR "/scripts/slurm-local.sh"), { QStringLiteral("stop") }, m_env, 60000);
    }

    void fourTasksLandInAFollowedFolder()
    {
        QTemporaryDir results;
        FolderFollower follower;
        follower.setRescanInterval(500);
        QString error;
        QVERIFY(follower.follow(results.path(), &error));

        const Result submit = runWithEnv(QStringLiteral(KIX_BINARY),
            { "fleet", "submit", "--device", "cpu", "--pass", "forward,backward", "--shape", "2,64,32", "--sweep",
                "channels=64,128", "--warmup-ms", "1", "--rep-ms", "3", "--time", "00:05:00", "--results",
                results.path() },
            m_env, 120000);
        QVERIFY2(submit.code == 0, qPrintable(submit.out + submit.err));
        const QString job = jobIdIn(submit.out);
        QVERIFY2(!job.isEmpty(), qPrintable(submit.out));
        QVERIFY2(submit.out.contains("4 tasks"), qPrintable(submit.out));

        const Result status = runWithEnv(QStringLiteral(KIX_BINARY),
            { "fleet", "status", job, "--wait", "--interval", "1", "--timeout", "300" }, m_env, 330000);
        QVERIFY2(status.code == 0, qPrintable(status.out + status.err + logs(results.path())));
        QVERIFY2(status.out.contains("4 tasks: 4 done"), qPrintable(status.out));

        const LoadResult loaded = loadPaths({ results.path() });
        QVERIFY(loaded.diagnostics.isEmpty());
        QCOMPARE(loaded.runs.size(), 4);
        QSet<QString> tasks;
        for (const RunPtr& r : loaded.runs) {
            QCOMPARE(r->status, QStringLiteral("passed"));
            for (const auto& kv : r->labels) {
                if (kv.key == QLatin1String("fleet_task"))
                    tasks.insert(kv.value);
                if (kv.key == QLatin1String("fleet_job"))
                    QCOMPARE(kv.value, job);
            }
        }
        QCOMPARE(tasks, QSet<QString>({ job + "_0", job + "_1", job + "_2", job + "_3" }));
        QTRY_COMPARE_WITH_TIMEOUT(follower.newRuns(), 4, 20000);
    }

    void failedTaskKeepsItsStderr()
    {
        QTemporaryDir results;
        const Result submit = runWithEnv(QStringLiteral(KIX_BINARY),
            { "fleet", "submit", "--device", "cpu", "--pass", "forward", "--shape", "2,64,32", "--impl", "kix-nope",
                "--results", results.path() },
            m_env, 120000);
        QVERIFY2(submit.code == 0, qPrintable(submit.out + submit.err));
        const QString job = jobIdIn(submit.out);
        const Result status = runWithEnv(QStringLiteral(KIX_BINARY),
            { "fleet", "status", job, "--wait", "--interval", "1", "--timeout", "300" }, m_env, 330000);
        QCOMPARE(status.code, 1);
        QVERIFY2(status.out.contains("1 tasks: 1 failed"), qPrintable(status.out));
        QFile err(results.path() + "/.kix-fleet/logs/" + job + "_0.err");
        QVERIFY2(err.open(QIODevice::ReadOnly), qPrintable(err.fileName()));
        const QString text = QString::fromUtf8(err.readAll());
        QVERIFY2(text.contains("kix-nope"), qPrintable(text));
        QVERIFY(QDir(results.path()).entryList({ "*.json" }, QDir::Files).isEmpty());
    }

private:
    static QString logs(const QString& results)
    {
        QString text;
        const QDir dir(results + "/.kix-fleet/logs");
        for (const QString& name : dir.entryList(QDir::Files)) {
            QFile f(dir.filePath(name));
            if (f.open(QIODevice::ReadOnly))
                text += "\n--- " + name + "\n" + QString::fromUtf8(f.readAll().right(2000));
        }
        return text;
    }

    QTemporaryDir m_home;
    QProcessEnvironment m_env;
    bool m_startedHere = false;
};

KIX_TEST_MAIN(TestFleetSlurm)
#include "tst_fleetslurm.moc"
