// SPDX-License-Identifier: Apache-2.0
// Records of documents over several lines (model/read/documentframes.h): where they end, strings and escapes that
// look like structure, a broken document that does not take the rest with it; and such a file read whole, under
// .jsonl and under .json (what `jq . a.json b.json > all.json` writes).
#include "model/read/documentframes.h"
#include "model/read/documentparser.h"

#include "kix/config.h"

#include "tests/support/testmain.h"

#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using namespace kix;

namespace {
std::vector<std::size_t> ends(const std::string& text)
{
    std::vector<std::size_t> out;
    findRecordEnds(text.data(), text.data() + text.size(), out);
    return out;
}

// two distinct runs of the bundled seed, each indented over many lines by nlohmann's dump(2)
QByteArray twoIndentedRuns()
{
    QFile f(QStringLiteral(KIX_SOURCE_DIR "/resources/runs/group_norm-backward-huggingface-nvidia-b200.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    nlohmann::json doc = nlohmann::json::parse(f.readAll().toStdString());
    QByteArray out = QByteArray::fromStdString(doc.dump(2)) + '\n';
    doc["run"]["spec"]["sourceNative"]["externalId"] = "second";
    out += QByteArray::fromStdString(doc.dump(2)) + '\n';
    return out;
}
} // namespace

class TestDocumentFrames : public QObject
{
    Q_OBJECT
private slots:
    void recordsEndAtNewlinesOutsideValues();
    void structureInsideStringsIsText();
    void aBrokenDocumentEndsAtTheNextDocument();
    void jsonLinesAreNotSpanningLines();
    void oneDocumentWithTrailingTextIsNotDocuments();
    void indentedDocumentsLoadUnderEitherSuffix_data();
    void indentedDocumentsLoadUnderEitherSuffix();
};

void TestDocumentFrames::recordsEndAtNewlinesOutsideValues()
{
    const std::string text = "{\n  \"a\": [\n    1\n  ]\n}\n\n[\n 2\n]";
    // the newline after the first '}' (offset 22) and the blank line's (23); none inside the values
    QCOMPARE(ends(text), (std::vector<std::size_t> { 22, 23 }));
    QCOMPARE(text[21], '}');
    QVERIFY(firstDocumentSpansLines(text.data(), text.data() + text.size()));
}

void TestDocumentFrames::structureInsideStringsIsText()
{
    // braces, a quote escaped, a backslash escaped before a closing quote: all inside strings
    const std::string text = "{\n \"s\": \"}{\\\"]\",\n \"t\": \"a\\\\\"\n}\n{\"u\": 1}\n";
    const std::vector<std::size_t> found = ends(text);
    QCOMPARE(found.size(), std::size_t(2));
    QCOMPARE(text.substr(0, found[0]), std::string("{\n \"s\": \"}{\\\"]\",\n \"t\": \"a\\\\\"\n}"));
    QCOMPARE(nlohmann::json::parse(text.substr(0, found[0]))["s"], "}{\"]");
}

void TestDocumentFrames::aBrokenDocumentEndsAtTheNextDocument()
{
    // an unclosed string and an unclosed bracket: the record still ends before the next '{' at a line's start
    const std::string broken = "{\n  \"kind\": \"Run,\n  \"x\": [1, 2\n}\n";
    const std::string good = "{\n  \"ok\": true\n}\n";
    const std::vector<std::size_t> found = ends(broken + good);
    QCOMPARE(found.size(), std::size_t(2));
    QCOMPARE(found[0], broken.size() - 1);
    QCOMPARE(found[1], broken.size() + good.size() - 1);
}

void TestDocumentFrames::jsonLinesAreNotSpanningLines()
{
    const std::string lines = "{\"a\": \"{\"}\n{\"b\": [1]}\n";
    QVERIFY(!firstDocumentSpansLines(lines.data(), lines.data() + lines.size()));
    const std::string notJson = "name,value\n1,2\n";
    QVERIFY(!firstDocumentSpansLines(notJson.data(), notJson.data() + notJson.size()));
}

void TestDocumentFrames::oneDocumentWithTrailingTextIsNotDocuments()
{
    // refused as one broken document, as nlohmann refuses it, not read as documents
    const std::string trailing = "{\n  \"a\": 1\n}\n}\n";
    QVERIFY(!holdsDocumentsOverLines(trailing.data(), trailing.data() + trailing.size()));
    QVERIFY(parseBytes(QByteArray::fromStdString(trailing), QStringLiteral("one.json")).hasErrors());
    const std::string two = "{\n  \"a\": 1\n}\n\n{\n  \"b\": 2\n}\n";
    QVERIFY(holdsDocumentsOverLines(two.data(), two.data() + two.size()));
}

void TestDocumentFrames::indentedDocumentsLoadUnderEitherSuffix_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow(".jsonl") << QStringLiteral("all.jsonl");
    QTest::newRow(".json") << QStringLiteral("all.json");
}

void TestDocumentFrames::indentedDocumentsLoadUnderEitherSuffix()
{
    QFETCH(QString, name);
    const QByteArray bytes = twoIndentedRuns();
    QVERIFY(!bytes.isEmpty());
    const ParseResult result = parseBytes(bytes, name);
    QVERIFY2(
        !result.hasErrors(), qPrintable(result.diagnostics.isEmpty() ? QString() : result.diagnostics[0].toString()));
    QCOMPARE(result.runs.size(), 2);
    QCOMPARE(result.runs[1]->externalId, QStringLiteral("second"));
    QCOMPARE(result.runs[0]->pointer, QStringLiteral("/0"));
    // the second document's pointer is its first line
    const qsizetype second = bytes.indexOf("\n{") + 1;
    QCOMPARE(result.runs[1]->pointer, QStringLiteral("/%1").arg(bytes.left(second).count('\n')));
}

KIX_TEST_GUILESS_MAIN(TestDocumentFrames)
#include "tst_documentframes.moc"
