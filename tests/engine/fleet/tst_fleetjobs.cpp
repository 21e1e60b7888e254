// SPDX-License-Identifier: Apache-2.0
// Job records and task states: the task's own verdict, else squeue, else sacct; a task the scheduler finished
// without a verdict was killed.
#include "engine/fleet/fleetjobs.h"
#include "engine/fleet/fleetplan.h"

#include "tests/support/testmain.h"

#include <QTemporaryDir>
#include <QTest>

using namespace kix::fleet;

class TestFleetJobs : public QObject
{
    Q_OBJECT
private slots:
    void init()
    {
        QVERIFY(m_home.isValid());
        qputenv("KIX_FLEET_HOME", m_home.path().toUtf8());
    }
    void cleanup() { qunsetenv("KIX_FLEET_HOME"); }

    void recordsRoundTrip()
    {
        QTemporaryDir results;
        JobRecord r { QStringLiteral("17"), results.path(), QStringLiteral("h100:1"), QStringLiteral("/p.json"),
            QStringLiteral("2026-11-30T12:00:00Z"), 6 };
        QString error;
        QVERIFY2(saveRecord(r, &error), qPrintable(error));
        JobRecord back;
        QVERIFY2(loadRecord(QStringLiteral("17"), QString(), back, &error), qPrintable(error)); // the user's list
        QCOMPARE(back.tasks, 6);
        QCOMPARE(back.target, QStringLiteral("h100:1"));
        QVERIFY(loadRecord(QStringLiteral("17"), results.path(), back, &error)); // beside the results
        QCOMPARE(back.resultsDir, results.path());
        QVERIFY(!loadRecord(QStringLiteral("18"), QString(), back, &error));
        QVERIFY2(error.contains("job 18: no record"), qPrintable(error));
        r.jobId = QStringLiteral("120");
        QVERIFY(saveRecord(r, &error));
        const QVector<JobRecord> known = knownJobs();
        QCOMPARE(known.size(), 2);
        QCOMPARE(known.first().jobId, QStringLiteral("120")); // newest first
    }

    void recordInUnwritableResultsFails()
    {
        QTemporaryDir dir;
        QFile file(dir.filePath("plain-file"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        JobRecord r { QStringLiteral("5"), dir.filePath("plain-file/results"), {}, {}, {}, 1 };
        QString error;
        QVERIFY(!saveRecord(r, &error));
        QVERIFY2(error.contains("cannot create"), qPrintable(error));
    }

    void statesCombine()
    {
        QTemporaryDir results;
        const JobRecord r { QStringLiteral("9"), results.path(), QStringLiteral("default"), {}, {}, 6 };
        QString error;
        TaskMarker done;
        done.done = true;
        done.runs = { QStringLiteral("a.json"), QStringLiteral("b.json") };
        QVERIFY(writeMarker(results.path(), "9", 0, done, &error));
        TaskMarker failed;
        failed.exitCode = 2;
        failed.message = QStringLiteral("kix bench ... exited with 2");
        QVERIFY(writeMarker(results.path(), "9", 1, failed, &error));
        QMap<int, SlurmTask> squeue;
        squeue[0] = { QStringLiteral("RUNNING"), QStringLiteral("None") }; // the verdict is newer than squeue
        squeue[2] = { QStringLiteral("PENDING"), QStringLiteral("Resources") };
        squeue[3] = { QStringLiteral("RUNNING"), QStringLiteral("None") };
        QMap<int, SlurmTask> sacct;
        sacct[3] = { QStringLiteral("PENDING"), QStringLiteral("0:0") }; // squeue wins over sacct
        sacct[4] = { QStringLiteral("COMPLETED"), QStringLiteral("0:0") }; // finished without a verdict: killed
        const JobStatus s = combineStatus(r, squeue, sacct);
        QCOMPARE(s.tasks.size(), 6);
        QCOMPARE(s.tasks[0].state, TaskState::Done);
        QCOMPARE(s.tasks[0].runs, 2);
        QCOMPARE(s.tasks[1].state, TaskState::Failed);
        QVERIFY(s.tasks[1].detail.startsWith("exit code 2: kix bench"));
        QCOMPARE(s.tasks[1].errLog, logsDir(results.path()) + "/9_1.err");
        QCOMPARE(s.tasks[2].state, TaskState::Pending);
        QCOMPARE(s.tasks[2].detail, QStringLiteral("PENDING (Resources)"));
        QCOMPARE(s.tasks[3].state, TaskState::Running);
        QCOMPARE(s.tasks[4].state, TaskState::Failed);
        QCOMPARE(s.tasks[5].state, TaskState::Unknown);
        QVERIFY(!s.finished());
        QCOMPARE(s.summary(), QStringLiteral("6 tasks: 1 done, 1 running, 1 pending, 2 failed, 1 unknown"));
    }

private:
    QTemporaryDir m_home;
};

KIX_TEST_GUILESS_MAIN(TestFleetJobs)
#include "tst_fleetjobs.moc"
