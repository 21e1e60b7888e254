// SPDX-License-Identifier: Apache-2.0
// The kernels' thread pool: every index exactly once, any pool size, any grain.

#include "kernels/threadpool.h"

#include "tests/support/testmain.h"

#include <QTest>

#include <atomic>
#include <vector>

using kix::ThreadPool;

class TestThreadPool : public QObject
{
    Q_OBJECT

private slots:
    void coversEveryIndexOnce_data();
    void coversEveryIndexOnce();
    void emptyRangeCallsNothing();
};

void TestThreadPool::coversEveryIndexOnce_data()
{
    QTest::addColumn<int>("threads");
    QTest::addColumn<qint64>("count");
    QTest::addColumn<qint64>("grain");
    QTest::newRow("one thread") << 1 << qint64(1000) << qint64(0);
    QTest::newRow("two threads") << 2 << qint64(1000) << qint64(0);
    QTest::newRow("more threads than work") << 6 << qint64(3) << qint64(1);
    QTest::newRow("grain larger than count") << 3 << qint64(10) << qint64(64);
    QTest::newRow("odd grain") << 4 << qint64(1001) << qint64(7);
}

void TestThreadPool::coversEveryIndexOnce()
{
    QFETCH(int, threads);
    QFETCH(qint64, count);
    QFETCH(qint64, grain);
    ThreadPool pool(threads);
    QCOMPARE(pool.size(), threads);
    for (int round = 0; round < 20; ++round) {
        std::vector<std::atomic<int>> hits(static_cast<std::size_t>(count));
        pool.parallelFor(
            count,
            [&](std::int64_t begin, std::int64_t end) {
                for (std::int64_t i = begin; i < end; ++i)
                    hits[static_cast<std::size_t>(i)].fetch_add(1);
            },
            grain);
        for (const auto& h : hits)
            QCOMPARE(h.load(), 1);
    }
}

void TestThreadPool::emptyRangeCallsNothing()
{
    ThreadPool pool(2);
    bool called = false;
    pool.parallelFor(0, [&](std::int64_t, std::int64_t) { called = true; });
    QVERIFY(!called);
}

KIX_TEST_GUILESS_MAIN(TestThreadPool)
#include "tst_threadpool.moc"
