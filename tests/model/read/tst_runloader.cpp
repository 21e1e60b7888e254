// SPDX-License-Identifier: Apache-2.0
// Loading files and folders: good files beside bad ones, duplicates, cancel, and the QObject front.
#include "model/jobs/pools.h"
#include "model/read/runloader.h"

#include "kix/config.h"

#include "tests/support/testfiles.h"
#include "tests/support/testmain.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <atomic>
#include <cstdlib>
#include <thread>

using namespace kix;

class TestRunLoader : public QObject
{
    Q_OBJECT
private slots:
    void mixedFolderLoadsEveryGoodFile();
    void folderListIsSortedAsPaths_data();
    void folderListIsSortedAsPaths();
    void missingPathIsReported();
    void cancelledLoadReturnsNothing();
    void loaderFrontReportsProgressAndResult();
    void newLoadSupersedesTheOld();
    void bigJsonLinesBundleInParallelChunks();
    void bigFilesOnFewThreadsDoNotDeadlock();
};

void TestRunLoader::mixedFolderLoadsEveryGoodFile()
{
    const LoadResult r = loadPaths({ kixtest::modelDataPath(QStringLiteral("mixed")) });
    QCOMPARE(r.files, 5); // ignored.txt is not a run file
    QCOMPARE(r.runs.size(), 2); // a_good, sub/b_good; sub/c_dup is the same run as b_good
    QCOMPARE(r.duplicates, 1);
    QCOMPARE(r.refusedFiles, 2);
    QStringList errorFiles;
    bool duplicateReported = false;
    for (const Diagnostic& d : r.diagnostics) {
        if (d.isError())
            errorFiles.append(d.file.section(QLatin1Char('/'), -1));
        else if (d.message.contains(QStringLiteral("the same run as "))
            && d.message.contains(QStringLiteral("b_good.json")))
            duplicateReported = d.file.endsWith(QStringLiteral("c_dup.json"));
    }
    errorFiles.sort();
    QCOMPARE(errorFiles, (QStringList { QStringLiteral("bad_no_latency.json"), QStringLiteral("bad_truncated.json") }));
    QVERIFY(duplicateReported);
    QVERIFY(r.runs[0]->file.endsWith(QStringLiteral("a_good.json")));
    QCOMPARE(r.runs[0]->paramNumber(QStringLiteral("channels")), 32.0);
}

void TestRunLoader::folderListIsSortedAsPaths_data()
{
    QTest::addColumn<QStringList>("names");
    // names that sort before and after '/', a folder beside a file of the same stem, upper case, spaces
    const QStringList ascii { QStringLiteral("a.json"), QStringLiteral("a/x.json"), QStringLiteral("a-b/y.json"),
        QStringLiteral("a b.json"), QStringLiteral("A.json"), QStringLiteral("ab.json"), QStringLiteral("a/b/c.json"),
        QStringLiteral("a/b.json"), QStringLiteral("a/b-c.json"), QStringLiteral("a/b.c/d.yaml"),
        QStringLiteral("z.JSON"), QStringLiteral("a0/e.jsonl"), QStringLiteral("a!/f.csv") };
    QTest::newRow("ASCII") << ascii;
    // UTF-16 order (QString's) is not the order of the UTF-8 bytes: U+1F600 is before U+FF01 in one, after in
    // the other
    QTest::newRow("beyond ASCII") << ascii
            + QStringList { QStringLiteral("\U0001F600.json"), QStringLiteral("\uFF01.json"),
                  QStringLiteral("\u00FC/g.json"), QStringLiteral("u/\u00E9.json") };
}

void TestRunLoader::folderListIsSortedAsPaths()
{
    QFETCH(QStringList, names);
    QTemporaryDir dir;
    for (const QString& name : names) {
        const QString path = dir.filePath(name);
        QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
    }
    QFile ignored(dir.filePath(QStringLiteral("a/notes.txt")));
    QVERIFY(ignored.open(QIODevice::WriteOnly));
    QStringList expected;
    for (const QString& name : names)
        expected << dir.filePath(name);
    std::sort(expected.begin(), expected.end()); // what QString sorts
    QCOMPARE(expandPaths({ dir.path() }), expected);
}

void TestRunLoader::missingPathIsReported()
{
    const LoadResult r = loadPaths(
        { kixtest::modelDataPath(QStringLiteral("good/array.json")), QStringLiteral("/nonexistent/x.json") });
    QCOMPARE(r.runs.size(), 2);
    QCOMPARE(r.diagnostics.size(), 1);
    QCOMPARE(r.diagnostics.first().file, QStringLiteral("/nonexistent/x.json"));
    QVERIFY(r.diagnostics.first().message.contains(QStringLiteral("no such file")));
}

void TestRunLoader::cancelledLoadReturnsNothing()
{
    std::atomic<bool> cancel { true };
    const LoadResult r = loadPaths({ kixtest::modelDataPath(QStringLiteral("mixed")) }, &cancel);
    QVERIFY(r.cancelled);
    QVERIFY(r.runs.isEmpty());
}

void TestRunLoader::loaderFrontReportsProgressAndResult()
{
    RunLoader loader;
    QSignalSpy started(&loader, &RunLoader::started);
    QSignalSpy progress(&loader, &RunLoader::progress);
    QSignalSpy finished(&loader, &RunLoader::finished);
    const int job = loader.load(
        { kixtest::modelDataPath(QStringLiteral("mixed")), kixtest::modelDataPath(QStringLiteral("good")) });
    QCOMPARE(started.count(), 1);
    QVERIFY(loader.isRunning());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
    QVERIFY(!loader.isRunning());
    QCOMPARE(finished.first().at(0).toInt(), job);
    const auto result = finished.first().at(1).value<LoadResult>();
    QVERIFY(!result.cancelled);
    QCOMPARE(result.files, 9);
    QCOMPARE(result.runs.size(), 2 + 1 + 2 + 2 + 1);
    QVERIFY(progress.count() >= 1);
    QCOMPARE(progress.last().at(1).toInt(), 9); // the last progress report is the total
}

void TestRunLoader::newLoadSupersedesTheOld()
{
    RunLoader loader;
    QSignalSpy finished(&loader, &RunLoader::finished);
    const int first = loader.load({ kixtest::modelDataPath(QStringLiteral("mixed")) });
    const int second = loader.load({ kixtest::modelDataPath(QStringLiteral("good/array.json")) });
    QVERIFY(second != first);
    QTRY_VERIFY_WITH_TIMEOUT(!loader.isRunning(), 20000);
    QTest::qWait(50); // any stale result of the first job would arrive now
    // the first job ends as cancelled, the second with its runs; nothing else
    QCOMPARE(finished.count(), 2);
    QCOMPARE(finished.at(0).at(0).toInt(), first);
    QVERIFY(finished.at(0).at(1).value<LoadResult>().cancelled);
    QCOMPARE(finished.at(1).at(0).toInt(), second);
    QCOMPARE(finished.at(1).at(1).value<LoadResult>().runs.size(), 2);
}

// A bundle big enough to be mapped and cut into chunks parsed in parallel: every run in order, the bad line named.
void TestRunLoader::bigJsonLinesBundleInParallelChunks()
{
    QFile seedFile(QStringLiteral(KIX_SOURCE_DIR "/resources/runs/group_norm-backward-huggingface-nvidia-b200.json"));
    QVERIFY(seedFile.open(QIODevice::ReadOnly));
    QByteArray seed = seedFile.readAll().simplified(); // one line
    const QByteArray marker = "2026-02-28-00-23-31";
    QVERIFY(seed.contains(marker));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bundle.jsonl"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    const int lines = 12000; // ~22 MB: mapped (over 16 MiB) and cut into ~11 chunks
    const int badLine = 7777;
    for (int i = 0; i < lines; ++i) {
        if (i == badLine) {
            out.write("{\"run\": broken}\n");
            continue;
        }
        QByteArray doc = seed;
        doc.replace(marker, QByteArray(marker + '-' + QByteArray::number(i))); // a distinct externalId per line
        out.write(doc + '\n');
    }
    out.close();
    QVERIFY(out.size() > (16 << 20));

    const LoadResult r = loadPaths({ path });
    QCOMPARE(r.runs.size(), lines - 1);
    QCOMPARE(r.duplicates, 0);
    QCOMPARE(r.diagnostics.size(), 1);
    QCOMPARE(r.diagnostics.first().line, badLine + 1);
    QCOMPARE(r.diagnostics.first().pointer, QStringLiteral("/%1").arg(badLine));
    for (int i = 0; i < r.runs.size(); ++i) {
        const int line = i < badLine ? i : i + 1;
        QCOMPARE(r.runs[i]->pointer, QStringLiteral("/%1").arg(line));
        QVERIFY(r.runs[i]->externalId.endsWith(QStringLiteral("-%1").arg(line)));
    }
    QCOMPARE(r.runs.last()->median, 1315872.0);
}

// Two JSON Lines files big enough to be cut into chunks, loaded with two threads in each pool a load uses (a
// two-core machine): each file's task waits for its chunks, and they must still run. This hung before the chunks
// had a pool of their own. A hang cannot be recovered from, so the test stops the process rather than wait forever.
void TestRunLoader::bigFilesOnFewThreadsDoNotDeadlock()
{
    QFile seedFile(QStringLiteral(KIX_SOURCE_DIR "/resources/runs/group_norm-backward-huggingface-nvidia-b200.json"));
    QVERIFY(seedFile.open(QIODevice::ReadOnly));
    const QByteArray seed = seedFile.readAll().simplified();
    const QByteArray marker = "2026-02-28-00-23-31";
    QTemporaryDir dir;
    QStringList paths;
    const int lines = 2500; // ~4.5 MB each: more than one 2 MiB chunk, not mapped
    for (const char* name : { "a.jsonl", "b.jsonl" }) {
        QFile out(dir.filePath(QLatin1String(name)));
        QVERIFY(out.open(QIODevice::WriteOnly));
        for (int i = 0; i < lines; ++i) {
            QByteArray doc = seed;
            doc.replace(marker, QByteArray(marker + '-' + name + '-' + QByteArray::number(i)));
            out.write(doc + '\n');
        }
        QVERIFY(out.size() > (2 << 20) * 2);
        paths << out.fileName();
    }
    QThreadPool* const pools[] = { fileBatchPool(), parsePool() };
    const int threads[] = { pools[0]->maxThreadCount(), pools[1]->maxThreadCount() };
    for (QThreadPool* pool : pools)
        pool->setMaxThreadCount(2);
    std::atomic<int> loaded { -1 };
    std::thread([paths, &loaded] { loaded = int(loadPaths(paths).runs.size()); }).detach();
    const bool finished = QTest::qWaitFor([&] { return loaded.load() >= 0; }, 120000);
    if (!finished) {
        qCritical("loadPaths deadlocked with two big JSON Lines files on two threads");
        std::_Exit(1);
    }
    for (int i = 0; i < 2; ++i)
        pools[i]->setMaxThreadCount(threads[i]);
    QCOMPARE(loaded.load(), 2 * lines);
}

KIX_TEST_GUILESS_MAIN(TestRunLoader)
#include "tst_runloader.moc"
