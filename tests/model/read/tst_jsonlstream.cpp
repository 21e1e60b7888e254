// SPDX-License-Identifier: Apache-2.0
// A JSON Lines file on disk larger than one window is streamed (model/read/jsonlstream.h): read here in windows of
// a few hundred bytes to a few kilobytes, so that lines cross windows, windows hold many lines and a line is longer
// than a window. A streamed file reads as the same bytes read whole; it is not refused for its size; its runs keep no
// text and read it back, byte for byte; a file changed since it was loaded is refused on export.
#include "model/read/documentparser.h"
#include "model/write/runwriter.h"

#include "kix/config.h"

#include "tests/support/testmain.h"

#include <QFile>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix;

namespace {

// n compact lines, each a distinct run (the seed with its externalId and median changed).
QByteArray lines(int n)
{
    QFile f(QStringLiteral(KIX_SOURCE_DIR "/resources/runs/group_norm-backward-huggingface-nvidia-b200.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const nlohmann::json seed = nlohmann::json::parse(f.readAll().toStdString());
    QByteArray out;
    for (int i = 0; i < n; ++i) {
        nlohmann::json d = seed;
        d["run"]["spec"]["sourceNative"]["externalId"]
            = "group_norm/forward/liger/nvidia-b200/batch128-channels64-hidden512-fp32/2026-02-28-" + std::to_string(i);
        d["run"]["spec"]["timing"]["latencyNs"]["median"] = 1316500 + i;
        out += QByteArray::fromStdString(d.dump()) + '\n';
    }
    return out;
}

bool write(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

QStringList described(const Diagnostics& diagnostics)
{
    QStringList out;
    for (const Diagnostic& d : diagnostics)
        out << d.toString();
    return out;
}

} // namespace

class TestJsonlStream : public QObject
{
    Q_OBJECT
private slots:
    void streamedReadsAsReadWhole_data();
    void streamedReadsAsReadWhole();
    void notRefusedPastTheFileLimit();
    void aLinePastItsLimitIsNamedTheRestLoads_data();
    void aLinePastItsLimitIsNamedTheRestLoads();
    void exportIsByteIdenticalToTheLines();
    void documentsOverSeveralLinesReadAsLines_data();
    void documentsOverSeveralLinesReadAsLines();
    void changedFileIsRefusedOnExport();
};

// The file is mapped; where it cannot be (KIX_STREAM_READ set here), it is read a window at a time: both read the
// same.
void TestJsonlStream::streamedReadsAsReadWhole_data()
{
    QTest::addColumn<qint64>("window");
    QTest::addColumn<bool>("mapped");
    for (const bool mapped : { true, false }) {
        const char* how = mapped ? "mapped" : "read";
        QTest::addRow("%s, windows shorter than a line", how) << qint64(700) << mapped;
        QTest::addRow("%s, a few lines a window", how) << qint64(5000) << mapped;
        QTest::addRow("%s, many lines a window", how) << qint64(20000) << mapped;
    }
}

void TestJsonlStream::streamedReadsAsReadWhole()
{
    QFETCH(qint64, window);
    QFETCH(bool, mapped);
    if (mapped)
        qunsetenv("KIX_STREAM_READ");
    else
        qputenv("KIX_STREAM_READ", "1");
    const auto restore = qScopeGuard([] { qunsetenv("KIX_STREAM_READ"); });
    // compact lines, a blank line, a broken line, a line with spaces and a CRLF line: every path of the reader
    QByteArray bytes = lines(30);
    const QList<QByteArray> some = lines(3).split('\n');
    bytes += "\n   \n{\"run\": broken\n";
    bytes += QByteArray(some[1]).replace("\"kind\":", "\"kind\" :  ") + "\n";
    bytes += some[2] + "\r\n" + lines(5);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("runs.jsonl"));
    QVERIFY(write(path, bytes));
    ParseLimits limits;
    limits.streamWindowBytes = window;
    const ParseResult streamed = parseFile(path, limits);
    const ParseResult whole = parseBytes(bytes, path);
    QCOMPARE(described(streamed.diagnostics), described(whole.diagnostics));
    QVERIFY(streamed.hasErrors()); // the broken line
    QCOMPARE(streamed.runs.size(), 37);
    QCOMPARE(streamed.runs.size(), whole.runs.size());
    int notInMemory = 0;
    for (qsizetype i = 0; i < whole.runs.size(); ++i) {
        const Run& a = *streamed.runs[i];
        const Run& b = *whole.runs[i];
        QCOMPARE(a.pointer, b.pointer);
        QCOMPARE(a.externalId, b.externalId);
        QCOMPARE(a.median, b.median);
        QCOMPARE(a.searchText(), b.searchText());
        QCOMPARE(a.identityHash(), b.identityHash());
        notInMemory += a.raw.inMemory() ? 0 : 1;
        QCOMPARE(a.raw.str(), b.raw.str()); // the same compact text (read back from the file when not in memory)
        QVERIFY(a.raw.inMemory());
    }
    QCOMPARE(notInMemory, 37); // every line, the spaced and the CRLF one too: minified when read back
}

void TestJsonlStream::notRefusedPastTheFileLimit()
{
    const QByteArray bytes = lines(12);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.jsonl"));
    QVERIFY(write(path, bytes));
    ParseLimits limits;
    limits.maxFileBytes = bytes.size() / 4; // the old whole-file limit, far below the file
    limits.streamWindowBytes = 3000;
    const ParseResult r = parseFile(path, limits);
    QVERIFY2(!r.hasErrors(), qPrintable(described(r.diagnostics).join(QLatin1Char('\n'))));
    QCOMPARE(r.runs.size(), 12);
    // a file that is not streamed (a whole JSON document) is still refused past the limit
    const QString array = dir.filePath(QStringLiteral("big.json"));
    QVERIFY(write(array, '[' + QByteArray(bytes).replace('\n', ',').chopped(1) + ']'));
    const ParseResult refused = parseFile(array, limits);
    QCOMPARE(refused.runs.size(), 0);
    QVERIFY(refused.hasErrors());
    QVERIFY(refused.diagnostics.first().message.contains(QStringLiteral("limit")));
}

void TestJsonlStream::aLinePastItsLimitIsNamedTheRestLoads_data()
{
    QTest::addColumn<bool>("mapped");
    QTest::newRow("mapped") << true;
    QTest::newRow("read") << false;
}

void TestJsonlStream::aLinePastItsLimitIsNamedTheRestLoads()
{
    QFETCH(bool, mapped);
    if (mapped)
        qunsetenv("KIX_STREAM_READ");
    else
        qputenv("KIX_STREAM_READ", "1");
    const auto restore = qScopeGuard([] { qunsetenv("KIX_STREAM_READ"); });
    const QList<QByteArray> some = lines(6).split('\n');
    QByteArray bytes;
    for (int i = 0; i < 6; ++i)
        bytes += (i == 3 ? some[i] + QByteArray(4000, ' ') : some[i]) + '\n';
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("long.jsonl"));
    QVERIFY(write(path, bytes));
    ParseLimits limits;
    limits.streamWindowBytes = 1000;
    limits.maxLineBytes = some[0].size() + 1000;
    const ParseResult r = parseFile(path, limits);
    QCOMPARE(r.runs.size(), 5);
    QVERIFY2(r.diagnostics.size() == 1, qPrintable(described(r.diagnostics).join(QLatin1Char('\n'))));
    QCOMPARE(r.diagnostics.first().pointer, QStringLiteral("/3"));
    QVERIFY(r.diagnostics.first().message.contains(QStringLiteral("longer than the limit")));
    QCOMPARE(r.runs[3]->pointer, QStringLiteral("/4")); // the lines after it keep their numbers
}

void TestJsonlStream::exportIsByteIdenticalToTheLines()
{
    const QByteArray bytes = lines(25);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("in.jsonl"));
    QVERIFY(write(path, bytes));
    ParseLimits limits;
    limits.streamWindowBytes = 4096;
    const ParseResult r = parseFile(path, limits);
    QCOMPARE(r.runs.size(), 25);
    for (const RunPtr& run : r.runs)
        QVERIFY(!run->raw.inMemory());
    const QString out = dir.filePath(QStringLiteral("out.jsonl"));
    QString error;
    QVERIFY2(writeRuns(r.runs, out, ExportFormat::JsonLines, &error), qPrintable(error));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), bytes);
}

void TestJsonlStream::changedFileIsRefusedOnExport()
{
    const QByteArray bytes = lines(10);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("in.jsonl"));
    QVERIFY(write(path, bytes));
    ParseLimits limits;
    limits.streamWindowBytes = 4096;
    const ParseResult r = parseFile(path, limits);
    QCOMPARE(r.runs.size(), 10);
    QVERIFY(r.runs[0]->raw.load()); // read back once: kept
    // the same size, other bytes: every median changed (the first run was read back before)
    QByteArray changed = bytes;
    changed.replace("\"median\":13165", "\"median\":13166");
    QCOMPARE(changed.size(), bytes.size());
    QVERIFY(changed != bytes);
    QTest::qWait(20); // a modification time that differs even on a coarse clock
    QVERIFY(write(path, changed));
    QString error;
    QVERIFY(!r.runs[1]->raw.load(&error));
    QVERIFY2(error.contains(path) && error.contains(QStringLiteral("changed since it was loaded")), qPrintable(error));
    QVERIFY(r.runs[1]->raw.view().empty());
    const QString out = dir.filePath(QStringLiteral("out.jsonl"));
    error.clear();
    QVERIFY(!writeRuns(r.runs, out, ExportFormat::JsonLines, &error));
    QVERIFY2(error.contains(QStringLiteral("changed since it was loaded")), qPrintable(error));
    QVERIFY(!QFile::exists(out));
    QCOMPARE(r.runs[0]->raw.str(), bytes.left(bytes.indexOf('\n')).toStdString()); // what was read back stays
}

// What `jq .` writes: each document indented over many lines, one after another, here with a broken one among
// them. Streamed (mapped or read, windows shorter or longer than a document) or read whole, the runs are those of
// the same documents as JSON Lines, their text minified, each named by its first line; the broken one is named
// by its first line and the documents after it still load.
void TestJsonlStream::documentsOverSeveralLinesReadAsLines_data()
{
    QTest::addColumn<qint64>("window");
    QTest::addColumn<bool>("mapped");
    for (const bool mapped : { true, false }) {
        const char* how = mapped ? "mapped" : "read";
        QTest::addRow("%s, windows shorter than a document", how) << qint64(700) << mapped;
        QTest::addRow("%s, a few documents a window", how) << qint64(5000) << mapped;
        QTest::addRow("%s, many documents a window", how) << qint64(20000) << mapped;
    }
}

void TestJsonlStream::documentsOverSeveralLinesReadAsLines()
{
    QFETCH(qint64, window);
    QFETCH(bool, mapped);
    if (mapped)
        qunsetenv("KIX_STREAM_READ");
    else
        qputenv("KIX_STREAM_READ", "1");
    const auto restore = qScopeGuard([] { qunsetenv("KIX_STREAM_READ"); });
    const QByteArray compact = lines(20);
    QByteArray indented;
    QList<int> firstLines; // 0-based, of each good document
    int brokenLine = -1;
    int line = 0;
    for (const QByteArray& one : compact.split('\n')) {
        if (one.isEmpty())
            continue;
        if (firstLines.size() == 12) { // a broken document: an unclosed string and a bracket short
            brokenLine = line;
            indented += "{\n  \"kind\": \"RunReport,\n  \"run\": {\n    \"x\": [1, 2\n  }\n";
            line += 5;
        }
        firstLines << line;
        const QByteArray pretty = QByteArray::fromStdString(nlohmann::json::parse(one.toStdString()).dump(2)) + '\n';
        indented += pretty;
        line += int(pretty.count('\n'));
    }
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("runs.jsonl"));
    QVERIFY(write(path, indented));
    ParseLimits limits;
    limits.streamWindowBytes = window;
    const ParseResult streamed = parseFile(path, limits);
    const ParseResult whole = parseBytes(indented, path);
    const ParseResult asLines = parseBytes(compact, path);
    QCOMPARE(described(streamed.diagnostics), described(whole.diagnostics));
    QCOMPARE(streamed.diagnostics.size(), 1);
    // named at its unclosed string, the broken document's second line (1-based: its first line + 2)
    QCOMPARE(streamed.diagnostics.first().line, brokenLine + 2);
    QCOMPARE(streamed.diagnostics.first().pointer, QStringLiteral("/%1").arg(brokenLine));
    QCOMPARE(streamed.runs.size(), 20);
    QCOMPARE(whole.runs.size(), 20);
    for (qsizetype i = 0; i < 20; ++i) {
        const Run& a = *streamed.runs[i];
        QCOMPARE(a.pointer, QStringLiteral("/%1").arg(firstLines[i]));
        QCOMPARE(whole.runs[i]->pointer, a.pointer);
        QCOMPARE(a.externalId, asLines.runs[i]->externalId);
        QCOMPARE(a.median, asLines.runs[i]->median);
        QCOMPARE(a.identityHash(), asLines.runs[i]->identityHash());
        QVERIFY(!a.raw.inMemory()); // read back from the file
        QCOMPARE(a.raw.str(), asLines.runs[i]->raw.str()); // minified as the JSON Lines one is
    }
}

KIX_TEST_GUILESS_MAIN(TestJsonlStream)
#include "tst_jsonlstream.moc"
