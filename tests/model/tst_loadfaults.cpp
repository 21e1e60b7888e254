// SPDX-License-Identifier: Apache-2.0
// The loader against a hostile file system: FIFOs, symlink loops, unreadable files, files that vanish or
// shrink while they are read, and a folder of 10,000 bad files around one good one. Each bad file is named
// in a diagnostic, every good file loads, and nothing hangs (each load runs under a watchdog).
#include "model/read/documentparser.h"
#include "model/read/runloader.h"

#include "app/processpolicy.h"

#include "kix/config.h"

#include "tests/support/testmain.h"

#include <QDir>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QtConcurrent>

#include <chrono>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace kix;

namespace {

QString seedPath()
{
    return QStringLiteral(KIX_SOURCE_DIR "/resources/runs/group_norm-backward-huggingface-nvidia-b200.json");
}

QByteArray seedText()
{
    QFile f(seedPath());
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// Loads under a watchdog: a load that has not returned after `seconds` fails the test (and `unblock` is called
// so that the stuck thread can finish: a FIFO gets a writer).
bool loadWithin(const QStringList& paths, LoadResult& result, int seconds = 60,
    const std::function<void()>& unblock = {}, const std::atomic<bool>* cancel = nullptr,
    const std::function<void(int, int)>& progress = {})
{
    // A plain thread and an atomic flag rather than std::async: ThreadSanitizer (the tsan preset) sees both.
    std::atomic<bool> done { false };
    std::thread loading([&] {
        result = loadPaths(paths, cancel, progress);
        done.store(true, std::memory_order_release);
    });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (!done.load(std::memory_order_acquire) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const bool inTime = done.load(std::memory_order_acquire);
    if (!inTime && unblock)
        unblock();
    loading.join();
    return inTime;
}

// file name -> the first error about it
QHash<QString, QString> errorsByFile(const LoadResult& r)
{
    QHash<QString, QString> errors;
    for (const Diagnostic& d : r.diagnostics) {
        if (d.isError() && !errors.contains(QFileInfo(d.file).fileName()))
            errors.insert(QFileInfo(d.file).fileName(), d.message);
    }
    return errors;
}

void openForWriting(const QString& fifo)
{
    const int fd = ::open(QFile::encodeName(fifo).constData(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0)
        ::close(fd);
}

} // namespace

class TestLoadFaults : public QObject
{
    Q_OBJECT
private slots:
    // Qt Test put its crash handler over the process policy's SIGBUS handler: on top again, as in kix
    void initTestCase() { kix::installMappedFaultHandler(); }
    void fifoIsNamedNotWaitedOn();
    void symlinkLoopIsNamed();
    void unreadableFileIsNamed();
    void filesVanishAndShrinkDuringTheLoad();
    void tenThousandBadFilesAndOneGood();
    void bigBundleShrinksWhileRead();
};

void TestLoadFaults::fifoIsNamedNotWaitedOn()
{
    QTemporaryDir dir;
    QVERIFY(writeFile(dir.filePath(QStringLiteral("good.json")), seedText()));
    const QString fifo = dir.filePath(QStringLiteral("pipe.json"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0644), 0);
    for (const QStringList& paths : { QStringList { dir.path() }, QStringList { fifo, dir.filePath("good.json") } }) {
        LoadResult r;
        QVERIFY2(loadWithin(paths, r, 60, [&] { openForWriting(fifo); }), "the load waited on a FIFO");
        QCOMPARE(r.runs.size(), 1);
        const QHash<QString, QString> errors = errorsByFile(r);
        QVERIFY2(errors.contains(QStringLiteral("pipe.json")), qPrintable(QStringList(errors.keys()).join(' ')));
        QVERIFY2(errors.value(QStringLiteral("pipe.json")).contains(QStringLiteral("not a regular file")),
            qPrintable(errors.value(QStringLiteral("pipe.json"))));
    }
}

void TestLoadFaults::symlinkLoopIsNamed()
{
    QTemporaryDir dir;
    QVERIFY(writeFile(dir.filePath(QStringLiteral("good.json")), seedText()));
    QVERIFY(QFile::link(dir.filePath(QStringLiteral("b.json")), dir.filePath(QStringLiteral("a.json"))));
    QVERIFY(QFile::link(dir.filePath(QStringLiteral("a.json")), dir.filePath(QStringLiteral("b.json"))));
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("sub")));
    QVERIFY(QFile::link(dir.path(), dir.filePath(QStringLiteral("sub/up")))); // a folder loop
    LoadResult r;
    QVERIFY2(loadWithin({ dir.path() }, r), "the load did not return");
    QCOMPARE(r.runs.size(), 1);
    const QHash<QString, QString> errors = errorsByFile(r);
    for (const QString& name : { QStringLiteral("a.json"), QStringLiteral("b.json") }) {
        QVERIFY2(errors.contains(name), qPrintable(name + QStringLiteral(" is not named")));
        QVERIFY2(errors.value(name).contains(QStringLiteral("symbolic links")), qPrintable(errors.value(name)));
    }
    // and by name
    QVERIFY(loadWithin({ dir.filePath(QStringLiteral("a.json")) }, r));
    QCOMPARE(r.runs.size(), 0);
    QCOMPARE(errorsByFile(r).size(), 1);
}

// Root reads any file, so as root the unreadable file is checked in a child process that gives up root first.
void TestLoadFaults::unreadableFileIsNamed()
{
    QTemporaryDir dir;
    QVERIFY(QFile::setPermissions(dir.path(),
        QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner | QFileDevice::ReadOther
            | QFileDevice::ExeOther | QFileDevice::ReadGroup | QFileDevice::ExeGroup));
    const QString good = dir.filePath(QStringLiteral("good.json"));
    const QString secret = dir.filePath(QStringLiteral("secret.json"));
    QVERIFY(writeFile(good, seedText()));
    QVERIFY(writeFile(secret, seedText()));
    QVERIFY(QFile::setPermissions(good, QFileDevice::ReadOwner | QFileDevice::ReadOther | QFileDevice::ReadGroup));
    QVERIFY(QFile::setPermissions(secret, QFileDevice::WriteOwner));
    if (::geteuid() != 0) {
        LoadResult r;
        QVERIFY(loadWithin({ dir.path() }, r));
        QCOMPARE(r.runs.size(), 1);
        QVERIFY2(errorsByFile(r).value(QStringLiteral("secret.json")).contains(QStringLiteral("Permission denied")),
            qPrintable(errorsByFile(r).value(QStringLiteral("secret.json"))));
        return;
    }
    // As root: a child process becomes "nobody" and loads the folder file by file (no thread pool after fork).
    int channel[2];
    QCOMPARE(::pipe(channel), 0);
    const pid_t child = ::fork();
    QVERIFY(child >= 0);
    if (child == 0) {
        ::close(channel[0]);
        if (::setgid(65534) != 0 || ::setuid(65534) != 0)
            ::_exit(3);
        QByteArray report;
        for (const QString& file : expandPaths({ dir.path() })) {
            const ParseResult p = parseFile(file);
            report += QFileInfo(file).fileName().toUtf8() + ' ' + QByteArray::number(p.runs.size()) + ' '
                + (p.diagnostics.isEmpty() ? QByteArray("-") : p.diagnostics.first().message.toUtf8()) + '\n';
        }
        const ssize_t written = ::write(channel[1], report.constData(), static_cast<size_t>(report.size()));
        ::_exit(written == report.size() ? 0 : 4);
    }
    ::close(channel[1]);
    QByteArray report;
    char buffer[4096];
    ssize_t n;
    while ((n = ::read(channel[0], buffer, sizeof buffer)) > 0)
        report.append(buffer, static_cast<int>(n));
    ::close(channel[0]);
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
        QSKIP("running as root and cannot become nobody (65534) to make a file unreadable");
    QVERIFY2(WIFEXITED(status) && WEXITSTATUS(status) == 0, report.constData());
    QVERIFY2(report.contains("good.json 1 -\n"), report.constData());
    QVERIFY2(report.contains("secret.json 0 cannot read: Permission denied"), report.constData());
}

// Every file not yet read when loading starts is deleted or cut short from the progress callback: each one
// either loads whole or is named; nothing crashes.
void TestLoadFaults::filesVanishAndShrinkDuringTheLoad()
{
    QTemporaryDir dir;
    const QByteArray seed = seedText();
    const QByteArray marker = "2026-02-28-00-23-31";
    QStringList files;
    for (int i = 0; i < 200; ++i) {
        QByteArray doc = seed;
        doc.replace(marker, QByteArray(marker + '-' + QByteArray::number(i)));
        files.append(dir.filePath(QStringLiteral("run%1.json").arg(i, 3, 10, QLatin1Char('0'))));
        QVERIFY(writeFile(files.last(), doc));
    }
    std::atomic<bool> mutated { false };
    auto progress = [&](int, int) {
        if (mutated.exchange(true))
            return;
        for (int i = 0; i < files.size(); ++i) {
            if (i % 2 == 0)
                QFile::remove(files[i]);
            else
                ::truncate(QFile::encodeName(files[i]).constData(), seed.size() / 3);
        }
    };
    LoadResult r;
    QVERIFY(loadWithin({ dir.path() }, r, 60, {}, nullptr, progress));
    QVERIFY(mutated);
    QCOMPARE(r.files, files.size());
    const QHash<QString, QString> errors = errorsByFile(r);
    QSet<QString> loaded;
    for (const RunPtr& run : r.runs)
        loaded.insert(QFileInfo(run->file).fileName());
    for (int i = 0; i < files.size(); ++i) {
        const QString name = QFileInfo(files[i]).fileName();
        QVERIFY2(loaded.contains(name) != errors.contains(name), qPrintable(name));
        if (errors.contains(name)) {
            const QString& e = errors.value(name);
            QVERIFY2(i % 2 == 0 ? e.contains(QStringLiteral("No such file")) : !e.isEmpty(), qPrintable(e));
        }
    }
    QVERIFY(!errors.isEmpty()); // at most the files already read before the first report escaped
}

void TestLoadFaults::tenThousandBadFilesAndOneGood()
{
    QTemporaryDir dir;
    constexpr int bad = 10000;
    for (int i = 0; i < bad; ++i) {
        const QString path = dir.filePath(QStringLiteral("bad%1.json").arg(i, 5, 10, QLatin1Char('0')));
        QVERIFY(writeFile(path, i % 3 == 0 ? QByteArray("{\"run\": ") : i % 3 == 1 ? QByteArray("[]") : QByteArray()));
    }
    QVERIFY(writeFile(dir.filePath(QStringLiteral("good.json")), seedText()));
    LoadResult r;
    QVERIFY(loadWithin({ dir.path() }, r, 300));
    QCOMPARE(r.files, bad + 1);
    QCOMPARE(r.runs.size(), 1);
    QCOMPARE(r.refusedFiles, bad);
    QCOMPARE(errorsByFile(r).size(), bad);
    QVERIFY(!errorsByFile(r).contains(QStringLiteral("good.json")));
}

// A JSON Lines bundle big enough to be read in parallel chunks (over 16 MiB) is cut to a tenth while it loads:
// the lines read whole load, a line cut short is named, and the process survives (a mapped file that shrinks
// raises SIGBUS on the pages past its new end).
void TestLoadFaults::bigBundleShrinksWhileRead()
{
    QByteArray line = seedText().simplified();
    const QByteArray marker = "2026-02-28-00-23-31";
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bundle.jsonl"));
    QByteArray bundle;
    for (int i = 0; bundle.size() <= (17 << 20); ++i) {
        QByteArray doc = line;
        doc.replace(marker, QByteArray(marker + '-' + QByteArray::number(i)));
        bundle += doc + '\n';
    }
    for (int delayMs : { 0, 2, 10, 40 }) {
        QVERIFY(writeFile(path, bundle));
        LoadResult r;
        std::thread loading([&] { r = loadPaths({ path }); });
        std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
        const int cut = ::truncate(QFile::encodeName(path).constData(), bundle.size() / 10);
        loading.join();
        QCOMPARE(cut, 0);
        QVERIFY(r.runs.size() > 0 || !r.diagnostics.isEmpty());
        for (const Diagnostic& d : r.diagnostics)
            QCOMPARE(d.file, path);
    }
}

KIX_TEST_GUILESS_MAIN(TestLoadFaults)
#include "tst_loadfaults.moc"
