// SPDX-License-Identifier: Apache-2.0
// The limits stated in the README, each at the limit and one past it: file size (1 GiB), a JSON Lines line or a
// single document (bounded by the file size), documents per file (5,000,000) and nesting (64 levels).
// Nesting and "one past 1 GiB" use the real defaults; the file-size and document-count boundaries are also checked
// exactly at small ParseLimits values, since a 1 GiB or a 5,000,000-document fixture is too big for a test.
#include "model/read/documentparser.h"

#include "kix/config.h"

#include "tests/support/testmain.h"

#include <QFile>

#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

using namespace kix;

namespace {

QByteArray seedLine()
{
    QFile f(QStringLiteral(KIX_SOURCE_DIR "/resources/runs/group_norm-backward-huggingface-nvidia-b200.json"));
    // one line of JSON Lines: the document without its line breaks
    return f.open(QIODevice::ReadOnly)
        ? QByteArray::fromStdString(nlohmann::json::parse(f.readAll().toStdString()).dump())
        : QByteArray();
}

// The seed with an extra member holding `arrays` nested arrays: the document nests 1 + arrays levels.
QByteArray nestedDocument(int arrays)
{
    QByteArray doc = seedLine();
    doc.chop(1); // the closing brace
    return doc + ",\"extra\":" + QByteArray(arrays, '[') + QByteArray(arrays, ']') + '}';
}

// The seed padded with trailing spaces to exactly `bytes`.
QByteArray padded(QByteArray doc, qint64 bytes)
{
    doc += QByteArray(int(bytes - doc.size()), ' ');
    return doc;
}

bool hasError(const ParseResult& r, const QString& words)
{
    for (const Diagnostic& d : r.diagnostics) {
        if (d.isError() && d.message.contains(words))
            return true;
    }
    return false;
}

} // namespace

class TestLimits : public QObject
{
    Q_OBJECT
private slots:
    void defaultsAreTheStatedOnes();
    void nestingAtAndPastTheLimit_data();
    void nestingAtAndPastTheLimit();
    void fileSizeAtAndPastTheLimit_data();
    void fileSizeAtAndPastTheLimit();
    void oneBytePastOneGiBIsRefusedUnread_data();
    void oneBytePastOneGiBIsRefusedUnread();
    void documentsAtAndPastTheLimit_data();
    void documentsAtAndPastTheLimit();
};

void TestLimits::defaultsAreTheStatedOnes()
{
    const ParseLimits limits;
    QCOMPARE(limits.maxFileBytes, qint64(1) << 30);
    QCOMPARE(limits.maxDepth, 64);
    QCOMPARE(limits.maxDocuments, qint64(5'000'000));
}

void TestLimits::nestingAtAndPastTheLimit_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("json") << QStringLiteral("deep.json");
    QTest::newRow("jsonl") << QStringLiteral("deep.jsonl");
}

void TestLimits::nestingAtAndPastTheLimit()
{
    QFETCH(QString, file);
    const int limit = ParseLimits().maxDepth;
    const ParseResult at = parseBytes(nestedDocument(limit - 1) + '\n', file);
    QVERIFY2(!at.hasErrors() && at.runs.size() == 1, qPrintable(at.diagnostics.value(0).toString()));
    const ParseResult past = parseBytes(nestedDocument(limit) + '\n', file);
    QCOMPARE(past.runs.size(), 0);
    QVERIFY2(hasError(past, QStringLiteral("nesting deeper than 64 levels")),
        qPrintable(past.diagnostics.value(0).toString()));
}

void TestLimits::fileSizeAtAndPastTheLimit_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("json") << QStringLiteral("one.json");
    QTest::newRow("jsonl line") << QStringLiteral("one.jsonl"); // one line as long as the file may be
}

void TestLimits::fileSizeAtAndPastTheLimit()
{
    QFETCH(QString, name);
    const QByteArray doc = seedLine();
    ParseLimits limits;
    limits.maxFileBytes = doc.size() + 100;
    QTemporaryDir dir;
    const QString path = dir.filePath(name);
    for (const qint64 size : { limits.maxFileBytes, limits.maxFileBytes + 1 }) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(padded(doc, size));
        f.close();
        const ParseResult fromFile = parseFile(path, limits);
        const ParseResult fromBytes = parseBytes(padded(doc, size), path, limits);
        for (const ParseResult* r : { &fromFile, &fromBytes }) {
            if (size == limits.maxFileBytes) {
                QVERIFY2(!r->hasErrors() && r->runs.size() == 1, qPrintable(r->diagnostics.value(0).toString()));
            } else {
                QCOMPARE(r->runs.size(), 0);
                QVERIFY2(hasError(*r, QStringLiteral("limit")), qPrintable(r->diagnostics.value(0).toString()));
                QCOMPARE(r->diagnostics.first().file, path);
            }
        }
    }
}

void TestLimits::oneBytePastOneGiBIsRefusedUnread_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("json") << QStringLiteral("huge.json");
    QTest::newRow("jsonl") << QStringLiteral("huge.jsonl");
}

// A sparse file one byte over 1 GiB is refused from its size, without reading (or mapping) a gigabyte.
void TestLimits::oneBytePastOneGiBIsRefusedUnread()
{
    QFETCH(QString, name);
    QTemporaryDir dir;
    const QString path = dir.filePath(name);
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QVERIFY(f.resize((qint64(1) << 30) + 1));
    f.close();
    const ParseResult r = parseFile(path);
    QCOMPARE(r.runs.size(), 0);
    QCOMPARE(r.diagnostics.size(), 1);
    QVERIFY2(r.diagnostics.first().message.contains(QStringLiteral("larger than the limit of 1073741824 bytes")),
        qPrintable(r.diagnostics.first().toString()));
}

void TestLimits::documentsAtAndPastTheLimit_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("array") << QStringLiteral("many.json");
    QTest::newRow("jsonl") << QStringLiteral("many.jsonl");
}

void TestLimits::documentsAtAndPastTheLimit()
{
    QFETCH(QString, name);
    const bool lines = name.endsWith(QLatin1String(".jsonl"));
    const QByteArray doc = seedLine();
    const QByteArray marker = "2026-02-28-00-23-31";
    ParseLimits limits;
    limits.maxDocuments = 5;
    for (const qint64 count : { limits.maxDocuments, limits.maxDocuments + 1 }) {
        QByteArray bytes = lines ? QByteArray() : QByteArray("[");
        for (int i = 0; i < count; ++i) {
            QByteArray one = doc;
            one.replace(marker, QByteArray(marker + '-' + QByteArray::number(i)));
            bytes += (lines || i == 0 ? QByteArray() : QByteArray(",")) + one + (lines ? "\n" : "");
        }
        if (!lines)
            bytes += ']';
        const ParseResult r = parseBytes(bytes, name, limits);
        if (count == limits.maxDocuments) {
            QVERIFY2(!r.hasErrors(), qPrintable(r.diagnostics.value(0).toString()));
            QCOMPARE(r.runs.size(), int(count));
        } else {
            QVERIFY2(hasError(r, QStringLiteral("5")), qPrintable(r.diagnostics.value(0).toString()));
            QVERIFY(r.runs.size() <= limits.maxDocuments);
        }
    }
}

KIX_TEST_GUILESS_MAIN(TestLimits)
#include "tst_limits.moc"
