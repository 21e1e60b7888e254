// SPDX-License-Identifier: Apache-2.0
// A file on disk that is one run's document keeps no copy of its text (model/run.h, RawSource::wholeDocument): the
// run reads the file back when its text is asked for and minifies it as the loader did. It reads back as the same
// bytes as the text parsed from memory (a BOM, CRLF line ends and indents dropped); exports of it are byte for byte
// those of the same runs kept in memory; a file changed or removed since it was loaded is refused, naming it, and an
// export then leaves the file it would have replaced as it was. The loader opens a folder's files relative to it
// (FolderHandle): every file of every folder loads, a bad one is named.
#include "model/rawtext.h"
#include "model/read/documentparser.h"
#include "model/read/runloader.h"
#include "model/write/runwriter.h"

#include "kix/config.h"

#include "tests/support/testfiles.h"
#include "tests/support/testmain.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <memory>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace kix;

namespace {

// The seed run with its externalId and median changed: distinct runs (their run digests differ).
nlohmann::json document(int i)
{
    QFile f(QStringLiteral(KIX_SOURCE_DIR "/resources/runs/group_norm-backward-huggingface-nvidia-b200.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    nlohmann::json d = nlohmann::json::parse(f.readAll().toStdString());
    d["run"]["spec"]["sourceNative"]["externalId"]
        = "group_norm/backward/liger/nvidia-b200/w/2026-03-01-" + std::to_string(i);
    d["run"]["spec"]["timing"]["latencyNs"]["median"] = 1316500 + i;
    return d;
}

QByteArray pretty(int i)
{
    return QByteArray::fromStdString(document(i).dump(2)) + '\n';
}

bool write(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

} // namespace

class TestWholeFileRaw : public QObject
{
    Q_OBJECT
private slots:
    void readsBackAsTheTextInMemory_data();
    void readsBackAsTheTextInMemory();
    void exportsAreThoseOfTheRunsInMemory();
    void changedFileIsRefusedAndTheTargetKept();
    void sameTimesOtherBytesAreRefused();
    void removedFileIsRefused();
    void textReadBackStays();
    void folderHandleOpensRelativeToTheFolder();
    void everyFileOfEveryFolderLoads();
};

void TestWholeFileRaw::readsBackAsTheTextInMemory_data()
{
    QTest::addColumn<QByteArray>("bytes");
    const QByteArray indented = pretty(1);
    QByteArray crlf = indented;
    crlf.replace("\n", "\r\n");
    QTest::newRow("indented") << indented;
    QTest::newRow("compact") << QByteArray::fromStdString(document(2).dump());
    QTest::newRow("BOM, CRLF, blank lines") << QByteArray("\xEF\xBB\xBF") + crlf + "\r\n\r\n";
}

void TestWholeFileRaw::readsBackAsTheTextInMemory()
{
    QFETCH(QByteArray, bytes);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("run.json"));
    QVERIFY(write(path, bytes));
    const ParseResult onDisk = parseFile(path);
    const ParseResult inMemory = parseBytes(bytes, path);
    QCOMPARE(onDisk.runs.size(), 1);
    QCOMPARE(inMemory.runs.size(), 1);
    const RawText& raw = onDisk.runs[0]->raw;
    QVERIFY(!raw.inMemory()); // no copy kept
    QVERIFY(raw.source() && raw.source()->wholeDocument);
    QVERIFY(inMemory.runs[0]->raw.inMemory());
    const std::string expected = inMemory.runs[0]->raw.str();
    QVERIFY(expected.find('\n') == std::string::npos && expected.front() == '{'); // compact
    QCOMPARE(raw.str(), expected);
    QVERIFY(raw.inMemory()); // read back once: kept
    QCOMPARE(raw.size(), expected.size());
    QCOMPARE(onDisk.runs[0]->identityHash(), inMemory.runs[0]->identityHash());
}

void TestWholeFileRaw::exportsAreThoseOfTheRunsInMemory()
{
    QTemporaryDir dir;
    RunList inMemory;
    for (int i = 0; i < 6; ++i) {
        const QString path
            = dir.filePath(QStringLiteral("%1/run-%2.json").arg(QLatin1String(i % 2 ? "odd" : "even")).arg(i));
        QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
        const QByteArray bytes = i == 3 ? QByteArray("\xEF\xBB\xBF") + pretty(i) : pretty(i);
        QVERIFY(write(path, bytes));
        inMemory += parseBytes(bytes, path).runs;
    }
    const LoadResult loaded = loadPaths({ dir.path() });
    QCOMPARE(loaded.runs.size(), 6);
    for (const RunPtr& run : loaded.runs)
        QVERIFY(!run->raw.inMemory());
    // the same order: sorted paths, even/ before odd/
    std::sort(inMemory.begin(), inMemory.end(), [](const RunPtr& a, const RunPtr& b) { return a->file < b->file; });
    for (ExportFormat format : { ExportFormat::JsonLines, ExportFormat::Json }) {
        const QString out = dir.filePath(QLatin1String(format == ExportFormat::Json ? "out.json" : "out.jsonl"));
        QString error;
        QVERIFY2(writeRuns(loaded.runs, out, format, &error), qPrintable(error));
        const QByteArray written = kixtest::readFile(out);
        QCOMPARE(written, serializeRuns(inMemory, format));
        QVERIFY(!written.contains("  ")); // minified, not the indented files
    }
}

void TestWholeFileRaw::changedFileIsRefusedAndTheTargetKept()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("run.json"));
    const QByteArray bytes = pretty(1);
    QVERIFY(write(path, bytes));
    const ParseResult r = parseFile(path);
    QCOMPARE(r.runs.size(), 1);
    // the same size, other bytes, at once (the file's times may not move within one tick of the clock: the hash of
    // its bytes tells it apart)
    QByteArray changed = bytes;
    changed.replace("1316501", "1316502");
    QCOMPARE(changed.size(), bytes.size());
    QVERIFY(changed != bytes);
    QVERIFY(write(path, changed));
    QString error;
    QVERIFY(!r.runs[0]->raw.load(&error));
    QVERIFY2(error.contains(path) && error.contains(QStringLiteral("changed since it was loaded")), qPrintable(error));
    QVERIFY(r.runs[0]->raw.view().empty());
    // an export refuses rather than write the other bytes, and the file it would replace stays as it was
    const QString out = dir.filePath(QStringLiteral("out.jsonl"));
    QVERIFY(write(out, "kept\n"));
    error.clear();
    QVERIFY(!writeRuns(r.runs, out, ExportFormat::JsonLines, &error));
    QVERIFY2(error.contains(path), qPrintable(error));
    QCOMPARE(kixtest::readFile(out), QByteArray("kept\n"));
}

void TestWholeFileRaw::sameTimesOtherBytesAreRefused()
{
    // what a rewrite within one tick of a coarse file system clock leaves: the file's identity and times as they
    // were recorded, other bytes of the same size
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("run.json"));
    const QByteArray bytes = pretty(1);
    QByteArray changed = bytes;
    changed.replace("1316501", "1316502");
    QVERIFY(write(path, changed));
    struct stat info
    {
    };
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &info), 0);
    auto describe = [&](const QByteArray& loaded) {
        auto source = std::make_shared<RawSource>(kix::rawtext::sourceOfFile(path, info));
        source->wholeDocument = true;
        source->contentHash = RawSource::hashOf(std::string_view(loaded.constData(), std::size_t(loaded.size())));
        return RawText(std::shared_ptr<const RawSource>(source), 0, std::size_t(info.st_size));
    };
    QString error;
    const RawText stale = describe(bytes);
    QVERIFY(!stale.load(&error));
    QVERIFY2(error.contains(QStringLiteral("changed since it was loaded")), qPrintable(error));
    const RawText current = describe(changed); // the same description with the bytes there now: read back
    QVERIFY(current.load(&error));
    QVERIFY(current.view().find("1316502") != std::string_view::npos);
}

void TestWholeFileRaw::removedFileIsRefused()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("run.json"));
    QVERIFY(write(path, pretty(1)));
    const ParseResult r = parseFile(path);
    QCOMPARE(r.runs.size(), 1);
    QVERIFY(QFile::remove(path));
    QString error;
    QVERIFY(!r.runs[0]->raw.load(&error));
    QVERIFY2(error.startsWith(path + QStringLiteral(": cannot read the run back")), qPrintable(error));
    QVERIFY(r.runs[0]->raw.view().empty()); // no stale text (empty() itself never reads back)
}

void TestWholeFileRaw::textReadBackStays()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("run.json"));
    QVERIFY(write(path, pretty(1)));
    const ParseResult r = parseFile(path);
    QCOMPARE(r.runs.size(), 1);
    const std::string first = r.runs[0]->raw.str();
    QVERIFY(!first.empty());
    QVERIFY(QFile::remove(path));
    QCOMPARE(r.runs[0]->raw.str(), first); // what was read back is the run's from then on
    QString error;
    QVERIFY(r.runs[0]->raw.load(&error));
}

void TestWholeFileRaw::folderHandleOpensRelativeToTheFolder()
{
    QTemporaryDir dir;
    QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("a"))));
    QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("b"))));
    QVERIFY(write(dir.filePath(QStringLiteral("a/x.json")), "ax"));
    QVERIFY(write(dir.filePath(QStringLiteral("b/x.json")), "bx"));
    FolderHandle folder;
    auto readVia = [&](const QString& path) -> QByteArray {
        const int fd = folder.open(QFile::encodeName(path), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return QByteArray("errno ") + QByteArray::number(errno);
        char buffer[16];
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        ::close(fd);
        return QByteArray(buffer, n > 0 ? qsizetype(n) : 0);
    };
    // the same name in two folders, and back: each file of its own folder
    QCOMPARE(readVia(dir.filePath(QStringLiteral("a/x.json"))), QByteArray("ax"));
    QCOMPARE(readVia(dir.filePath(QStringLiteral("b/x.json"))), QByteArray("bx"));
    QCOMPARE(readVia(dir.filePath(QStringLiteral("a/x.json"))), QByteArray("ax"));
    QCOMPARE(readVia(dir.filePath(QStringLiteral("a/none.json"))), QByteArray("errno ") + QByteArray::number(ENOENT));
    QCOMPARE(readVia(dir.filePath(QStringLiteral("c/x.json"))), QByteArray("errno ") + QByteArray::number(ENOENT));
    // a folder replaced while a handle is open is not its concern; a new handle sees the new one
    QVERIFY(QDir(dir.filePath(QStringLiteral("a"))).removeRecursively());
    QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("a"))));
    QVERIFY(write(dir.filePath(QStringLiteral("a/x.json")), "new"));
    FolderHandle fresh;
    const int fd = fresh.open(QFile::encodeName(dir.filePath(QStringLiteral("a/x.json"))), O_RDONLY | O_CLOEXEC);
    QVERIFY(fd >= 0);
    char buffer[8];
    QCOMPARE(::read(fd, buffer, sizeof buffer), ssize_t(3));
    ::close(fd);
    QCOMPARE(QByteArray(buffer, 3), QByteArray("new"));
}

void TestWholeFileRaw::everyFileOfEveryFolderLoads()
{
    QTemporaryDir dir;
    int written = 0;
    for (const char* folder : { "", "p", "p/q", "r" }) {
        for (int i = 0; i < 70; ++i) { // more than a loader's batch, so batches start inside a folder
            const QString name = QStringLiteral("run-%1.json").arg(i);
            const QString path = dir.filePath(*folder ? QLatin1String(folder) + QLatin1Char('/') + name : name);
            QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
            QVERIFY(write(path, pretty(written++)));
        }
    }
    QVERIFY(write(dir.filePath(QStringLiteral("p/q/broken.json")), "{\"run\": "));
    const LoadResult r = loadPaths({ dir.path() + QLatin1Char('/') });
    QCOMPARE(r.files, written + 1);
    QCOMPARE(r.runs.size(), written);
    QCOMPARE(r.refusedFiles, 1);
    int errors = 0;
    for (const Diagnostic& d : r.diagnostics) {
        if (d.isError()) {
            ++errors;
            QVERIFY2(d.file.endsWith(QStringLiteral("p/q/broken.json")), qPrintable(d.toString()));
        }
    }
    QCOMPARE(errors, 1);
    for (const RunPtr& run : r.runs)
        QVERIFY2(!run->raw.empty() && run->raw.view().back() == '}', qPrintable(run->file));
}

KIX_TEST_GUILESS_MAIN(TestWholeFileRaw)
#include "tst_wholefileraw.moc"
