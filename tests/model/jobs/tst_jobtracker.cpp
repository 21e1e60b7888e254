// SPDX-License-Identifier: Apache-2.0
// The one way kix runs superseding background work: only the newest job's result is delivered, on the owner's
// thread; older ones see their token cancelled and their results go to the drop.
#include "model/jobs/jobtracker.h"

#include "tests/support/testmain.h"

#include <QSemaphore>
#include <QTest>
#include <QThreadPool>

using namespace kix;

class TestJobTracker : public QObject
{
    Q_OBJECT

private slots:
    void aDefaultTokenIsNeverCancelled()
    {
        const CancelToken token;
        QVERIFY(!token.cancelled());
        QVERIFY(!token.cancelledEvery(0));
    }

    void aNewStartCancelsTheTokensBefore()
    {
        QObject owner;
        JobTracker jobs(&owner);
        const CancelToken first = jobs.start();
        QVERIFY(!first.cancelled());
        QVERIFY(jobs.isCurrent(first));
        const CancelToken second = jobs.start();
        QVERIFY(first.cancelled());
        QVERIFY(!jobs.isCurrent(first));
        QVERIFY(!second.cancelled());
        QVERIFY(second.cancelledEvery(4096) == false);
        jobs.cancel();
        QVERIFY(second.cancelled());
        QVERIFY(second.cancelledEvery(0));
        QVERIFY(!second.cancelledEvery(1)); // polled every 4096 calls only
    }

    void aTokenOutlivesItsTracker()
    {
        CancelToken token;
        {
            QObject owner;
            JobTracker jobs(&owner);
            token = jobs.start();
        }
        QVERIFY(token.cancelled()); // the tracker cancels on destruction; the token still reads safely
    }

    void onlyTheNewestResultIsDelivered()
    {
        QObject owner;
        JobTracker jobs(&owner);
        QThreadPool pool;
        pool.setMaxThreadCount(3);
        QSemaphore release;
        QList<int> delivered, dropped;
        QList<bool> sawCancel;
        QMutex sawCancelMutex;
        for (int i = 0; i < 3; ++i) {
            jobs.run(
                &pool,
                [i, &release, &sawCancel, &sawCancelMutex](const CancelToken& cancel) {
                    if (i < 2) {
                        release.acquire(); // held until the third job has started
                        QMutexLocker lock(&sawCancelMutex);
                        sawCancel << cancel.cancelled();
                    }
                    return i;
                },
                [&delivered](int&& result) { delivered << result; }, [&dropped](int&& result) { dropped << result; });
        }
        QCOMPARE(jobs.running(), 3);
        release.release(2);
        QTRY_COMPARE(jobs.running(), 0);
        QCOMPARE(delivered, QList<int> { 2 });
        std::sort(dropped.begin(), dropped.end());
        QCOMPARE(dropped, (QList<int> { 0, 1 }));
        QCOMPARE(sawCancel, (QList<bool> { true, true }));
    }

    void cancelDropsTheRunningJob()
    {
        QObject owner;
        JobTracker jobs(&owner);
        QThreadPool pool;
        QSemaphore release;
        int delivered = 0, dropped = 0;
        jobs.run(
            &pool,
            [&release](const CancelToken&) {
                release.acquire();
                return QStringLiteral("stale");
            },
            [&delivered](QString&&) { ++delivered; }, [&dropped](QString&&) { ++dropped; });
        jobs.cancel();
        release.release();
        QTRY_COMPARE(jobs.running(), 0);
        QCOMPARE(delivered, 0);
        QCOMPARE(dropped, 1);
    }

    void resultsArriveOnTheOwnersThread()
    {
        QObject owner;
        JobTracker jobs(&owner);
        QThreadPool pool;
        QThread* workThread = nullptr;
        QThread* deliveredOn = nullptr;
        bool voidDelivered = false;
        jobs.run(
            &pool,
            [&workThread](const CancelToken&) {
                workThread = QThread::currentThread();
                return 1;
            },
            [&deliveredOn](int&&) { deliveredOn = QThread::currentThread(); });
        QTRY_VERIFY(deliveredOn != nullptr);
        QCOMPARE(deliveredOn, QThread::currentThread());
        QVERIFY(workThread != QThread::currentThread());
        jobs.run(
            &pool, [](const CancelToken&) {}, [&voidDelivered] { voidDelivered = true; });
        QTRY_VERIFY(voidDelivered);
    }

    void waitForDoneWaitsForEveryJob()
    {
        QObject owner;
        JobTracker jobs(&owner);
        QThreadPool pool;
        pool.setMaxThreadCount(2);
        std::atomic<int> ended { 0 };
        for (int i = 0; i < 4; ++i)
            jobs.run(
                &pool,
                [&ended](const CancelToken&) {
                    QThread::msleep(20);
                    return ++ended;
                },
                [](int&&) {});
        jobs.waitForDone();
        QCOMPARE(ended.load(), 4);
    }

    void waitForDoneSkipsDeliveredJobs()
    {
        QObject owner;
        JobTracker jobs(&owner);
        QThreadPool pool;
        int delivered = 0;
        jobs.run(
            &pool, [](const CancelToken&) { return QStringLiteral("taken"); },
            [&delivered](QString&&) { ++delivered; });
        QTRY_COMPARE(delivered, 1); // its result was taken out of its future
        QCOMPARE(jobs.running(), 0);
        std::atomic<int> ended { 0 };
        jobs.run(
            &pool,
            [&ended](const CancelToken&) {
                QThread::msleep(20);
                return ++ended;
            },
            [](int&&) {});
        jobs.waitForDone(); // returns: a future whose result was taken is not waited for
        QCOMPARE(ended.load(), 1);
        QCOMPARE(jobs.running(), 1); // until its watcher reports
        QTRY_COMPARE(jobs.running(), 0);
    }
};

KIX_TEST_GUILESS_MAIN(TestJobTracker)
#include "tst_jobtracker.moc"
