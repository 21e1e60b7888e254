// BenchmarkRunner, the engine's QObject front: signals in order, results written, refusals before anything
// runs, and a cancel that leaves no file behind.

#include "engine/benchmarkrunner.h"
#include "smallcpu.h"

#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace kix;
using namespace kix::test;

namespace {

QStringList everyEntry(const QString& path)
{
    return QDir(path).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
}

} // namespace

class TestBenchmarkRunner : public QObject
{
    Q_OBJECT

private slots:
    void runsSpecsAndWritesFiles();
    void refusesABadSpecBeforeRunning();
    void cancelLeavesNoPartialFile();
    void oneJobAtATime();
    void listsDevices();
};

void TestBenchmarkRunner::runsSpecsAndWritesFiles()
{
    QTemporaryDir dir;
    BenchmarkRunner runner(smallCpuRegistry());
    QSignalSpy started(&runner, &BenchmarkRunner::started);
    QSignalSpy progress(&runner, &BenchmarkRunner::progress);
    QSignalSpy results(&runner, &BenchmarkRunner::resultReady);
    QSignalSpy failed(&runner, &BenchmarkRunner::failed);
    QSignalSpy finished(&runner, &BenchmarkRunner::finished);

    const int job = runner.start({ tinySpec(Pass::Forward), tinySpec(Pass::Backward) }, dir.path());
    QVERIFY(job > 0);
    QVERIFY(runner.isRunning());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    QVERIFY(!runner.isRunning());
    QCOMPARE(started.count(), 1);
    QCOMPARE(started.first().at(0).toInt(), job);
    QCOMPARE(started.first().at(1).toInt(), 2);
    QCOMPARE(results.count(), 2);
    QCOMPARE(failed.count(), 0);
    QVERIFY(progress.count() >= 2);
    QCOMPARE(finished.first().at(0).toInt(), job);
    QCOMPARE(finished.first().at(1).toBool(), false);
    const auto first = results.at(0).at(1).value<BenchmarkResult>();
    QCOMPARE(first.status, BenchmarkResult::Status::Passed);
    QCOMPARE(first.spec.pass, Pass::Forward);
    QVERIFY(QFileInfo::exists(first.filePath));
    QCOMPARE(everyEntry(dir.path()).size(), 2);
}

void TestBenchmarkRunner::refusesABadSpecBeforeRunning()
{
    QTemporaryDir dir;
    BenchmarkRunner runner(smallCpuRegistry());
    QSignalSpy results(&runner, &BenchmarkRunner::resultReady);
    QSignalSpy failed(&runner, &BenchmarkRunner::failed);
    QSignalSpy finished(&runner, &BenchmarkRunner::finished);
    BenchmarkSpec bad = tinySpec();
    bad.channelsPerGroup = 3; // 8 channels
    const int job = runner.start({ tinySpec(), bad }, dir.path());
    QVERIFY(job > 0);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    QCOMPARE(failed.count(), 1);
    QVERIFY2(failed.first().at(1).toString().contains(QStringLiteral("not divisible")),
        qPrintable(failed.first().at(1).toString()));
    QCOMPARE(results.count(), 0);
    QVERIFY(everyEntry(dir.path()).isEmpty());
}

void TestBenchmarkRunner::cancelLeavesNoPartialFile()
{
    QTemporaryDir dir;
    BenchmarkRunner runner(smallCpuRegistry());
    QSignalSpy progress(&runner, &BenchmarkRunner::progress);
    QSignalSpy results(&runner, &BenchmarkRunner::resultReady);
    QSignalSpy finished(&runner, &BenchmarkRunner::finished);
    BenchmarkSpec endless = tinySpec();
    endless.timing.warmupMs = 0;
    endless.timing.repMs = 1e9; // runs until cancelled, whatever the machine's speed
    endless.timing.maxSamples = 1 << 30;
    runner.start({ endless, tinySpec() }, dir.path());
    // Wait until the timing loop reports, then cancel in the middle of it.
    QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty() && progress.last().at(3).toDouble() > 0, 120000);
    runner.cancel();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    QCOMPARE(finished.first().at(1).toBool(), true);
    QCOMPARE(results.count(), 0); // neither the cancelled spec nor the one after it
    QVERIFY2(everyEntry(dir.path()).isEmpty(), qPrintable(everyEntry(dir.path()).join(QLatin1Char(' '))));
}

void TestBenchmarkRunner::oneJobAtATime()
{
    QTemporaryDir dir;
    BenchmarkRunner runner(smallCpuRegistry());
    BenchmarkSpec endless = tinySpec();
    endless.timing.repMs = 1e9;
    endless.timing.maxSamples = 1 << 30;
    QVERIFY(runner.start({ endless }, dir.path()) > 0);
    QCOMPARE(runner.start({ tinySpec() }, dir.path()), 0);
    runner.cancel();
    runner.waitForFinished();
    QVERIFY(!runner.isRunning());
    QVERIFY(runner.start({ tinySpec() }, QString()) > 0); // no directory: nothing written
    runner.waitForFinished();
    QVERIFY(everyEntry(dir.path()).isEmpty());
}

void TestBenchmarkRunner::listsDevices()
{
    BenchmarkRunner runner(smallCpuRegistry());
    const QVector<DeviceInfo> devices = runner.devices();
    QCOMPARE(devices.size(), 1);
    QCOMPARE(runner.implementations(QStringLiteral("cpu")), QStringList { QStringLiteral("kix-cpu") });
    QVERIFY(runner.implementations(QStringLiteral("cuda:3")).isEmpty());
}

QTEST_GUILESS_MAIN(TestBenchmarkRunner)
#include "tst_benchmarkrunner.moc"
