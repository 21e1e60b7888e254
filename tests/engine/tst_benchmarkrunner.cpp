// SPDX-License-Identifier: Apache-2.0
// BenchmarkRunner, the engine's QObject front: signals in order, results written, refusals before anything
// runs, and a cancel that leaves no file behind.

#include "engine/benchmarkrunner.h"
#include "model/read/documentparser.h"
#include "smallcpu.h"

#include "tests/fulldisk.h"

#include "tests/support/testmain.h"

#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix;
using namespace kix::test;

namespace {

QStringList everyEntry(const QString& path)
{
    return QDir(path).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
}

// The entries of a results folder that are not the raw-samples evidence file of a run document in it (each document
// names its file in run.spec.timing.rawSamples.uri): the documents themselves, and anything stray or partial,
// including an evidence file that no document names.
QStringList documentsIn(const QString& path)
{
    QStringList entries = everyEntry(path);
    QStringList named;
    for (const QString& e : entries) {
        QFile f(QDir(path).filePath(e));
        if (!e.endsWith(QLatin1String(".json")) || !f.open(QIODevice::ReadOnly))
            continue;
        const nlohmann::json doc = nlohmann::json::parse(f.readAll().toStdString(), nullptr, false);
        const nlohmann::json* uri = nullptr;
        if (doc.is_object() && doc.contains("run"))
            uri = &doc["run"]["spec"]["timing"]["rawSamples"]["uri"];
        if (uri && uri->is_string() && QFileInfo::exists(QDir(path).filePath(QString::fromStdString(*uri))))
            named << QString::fromStdString(*uri);
    }
    entries.removeIf([&](const QString& e) { return named.contains(e); });
    return entries;
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
    void cancelAtEveryStage_data();
    void cancelAtEveryStage();
    void fullResultsFolder();
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
    QCOMPARE(documentsIn(dir.path()).size(), 2);
    QCOMPARE(everyEntry(dir.path()).size(), 4); // each document with its raw samples beside it
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

void TestBenchmarkRunner::cancelAtEveryStage_data()
{
    QTest::addColumn<QString>("stage");
    QTest::addColumn<bool>("measured"); // the cancelled spec had finished measuring: its whole file is kept
    QTest::newRow("correctness") << QStringLiteral("correctness") << false;
    QTest::newRow("warm-up") << QStringLiteral("warm-up") << false;
    QTest::newRow("timing") << QStringLiteral("timing") << false;
    QTest::newRow("writing") << QStringLiteral("writing") << true;
}

// Cancel arrives at each stage of the first of two specs: the job ends cancelled, the second spec never runs,
// no partial or temporary file is left, and the runner takes the next job.
void TestBenchmarkRunner::cancelAtEveryStage()
{
    QFETCH(QString, stage);
    QFETCH(bool, measured);
    QTemporaryDir dir;
    BenchmarkRunner* target = nullptr;
    auto backend = std::make_unique<StagedCpuBackend>(stage, [&target] { target->cancel(); });
    StagedCpuBackend* staged = backend.get();
    BenchmarkRunner runner(smallCpuRegistry(std::move(backend)));
    target = &runner;
    QSignalSpy results(&runner, &BenchmarkRunner::resultReady);
    QSignalSpy finished(&runner, &BenchmarkRunner::finished);
    runner.start({ tinySpec(Pass::Forward), tinySpec(Pass::Backward) }, dir.path());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    QVERIFY(staged->fired());
    QCOMPARE(finished.first().at(1).toBool(), true);
    QCOMPARE(results.count(), measured ? 1 : 0);
    const QStringList entries = documentsIn(dir.path());
    QCOMPARE(entries.size(), measured ? 1 : 0);
    QCOMPARE(everyEntry(dir.path()).size(), measured ? 2 : 0);
    if (measured) { // whole: it loads
        const ParseResult parsed = parseFile(QDir(dir.path()).filePath(entries.first()));
        QVERIFY(!parsed.hasErrors());
        QCOMPARE(parsed.runs.size(), 1);
    }
    // usable: the next job runs to the end
    QSignalSpy again(&runner, &BenchmarkRunner::finished);
    QVERIFY(runner.start({ tinySpec(Pass::Backward) }, dir.path()) > 0);
    QTRY_COMPARE_WITH_TIMEOUT(again.count(), 1, 120000);
    QCOMPARE(again.first().at(1).toBool(), false);
    QCOMPARE(documentsIn(dir.path()).size(), measured ? 2 : 1);
}

// The results folder fills up: the run is still reported, the failure names the file and the cause, the files
// already there are untouched and no partial file is left.
void TestBenchmarkRunner::fullResultsFolder()
{
    QTemporaryDir dir;
    const QString earlier = QDir(dir.path()).filePath(QStringLiteral("earlier.json"));
    {
        QFile f(earlier);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"an earlier result\": true}\n");
    }
    BenchmarkRunner runner(smallCpuRegistry());
    QSignalSpy results(&runner, &BenchmarkRunner::resultReady);
    QSignalSpy failed(&runner, &BenchmarkRunner::failed);
    QSignalSpy finished(&runner, &BenchmarkRunner::finished);
    {
        test::FullDisk full(512); // a run document is several KB
        QVERIFY(full.ok());
        runner.start({ tinySpec() }, dir.path());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    }
    QCOMPARE(results.count(), 1);
    QCOMPARE(failed.count(), 1);
    const QString message = failed.first().at(1).toString();
    QVERIFY2(message.contains(dir.path()) && message.contains(QStringLiteral("File too large")), qPrintable(message));
    QVERIFY(results.first().at(1).value<BenchmarkResult>().filePath.isEmpty());
    QCOMPARE(everyEntry(dir.path()), QStringList { QStringLiteral("earlier.json") });
    QFile f(earlier);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("{\"an earlier result\": true}\n"));
}

KIX_TEST_GUILESS_MAIN(TestBenchmarkRunner)
#include "tst_benchmarkrunner.moc"
