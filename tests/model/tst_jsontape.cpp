// The loader's fast JSON reader: it must accept only what the strict reader accepts, read the same values, and
// give the same typed runs.
#include "model/documentparser.h"
#include "model/jsontape.h"

#include "kix/config.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix;

namespace {

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The tape's tree turned back into nlohmann's, to compare values.
nlohmann::json toJson(const JsonTape& tape, std::uint32_t i = 0)
{
    const JsonTape::Node& n = tape.nodes()[i];
    switch (n.type) {
    case JsonTape::Type::Null:
        return nullptr;
    case JsonTape::Type::Boolean:
        return n.boolean;
    case JsonTape::Type::Number:
        return n.number;
    case JsonTape::Type::String:
        return tape.utf8(n);
    case JsonTape::Type::Array: {
        nlohmann::json a = nlohmann::json::array();
        std::uint32_t c = i + 1;
        for (std::uint32_t e = 0; e < n.count; ++e, c = tape.nodes()[c].next)
            a.push_back(toJson(tape, c));
        return a;
    }
    case JsonTape::Type::Object: {
        nlohmann::json o = nlohmann::json::object();
        std::uint32_t c = i + 1;
        for (std::uint32_t m = 0; m < n.count; ++m, c = tape.nodes()[c + 1].next)
            o[tape.utf8(tape.nodes()[c])] = toJson(tape, c + 1);
        return o;
    }
    }
    return nullptr;
}

// nlohmann keeps integers as integers; compare numbers as doubles.
bool sameValue(const nlohmann::json& a, const nlohmann::json& b)
{
    if (a.is_number() && b.is_number())
        return a.get<double>() == b.get<double>();
    if (a.type() != b.type() || a.size() != b.size())
        return false;
    if (a.is_object()) {
        for (auto it = a.begin(); it != a.end(); ++it) {
            if (!b.contains(it.key()) || !sameValue(*it, b.at(it.key())))
                return false;
        }
        return true;
    }
    if (a.is_array()) {
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (!sameValue(a[i], b[i]))
                return false;
        }
        return true;
    }
    return a == b;
}

} // namespace

class TestJsonTape : public QObject
{
    Q_OBJECT
private slots:
    void acceptsAndReads_data();
    void acceptsAndReads();
    void refusesWhatTheStrictReaderRefuses_data();
    void refusesWhatTheStrictReaderRefuses();
    void sameRunAsTheStrictPath();
    void mutatedDocumentsAgree();
};

void TestJsonTape::acceptsAndReads_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("scalars") << QByteArray(R"([0, -1.5e3, 1E-2, true, false, null, "", "a"])");
    QTest::newRow("escapes") << QByteArray(R"({"k\"ey": "\\ \/ \b\f\n\r\t \u00e9 \ud83d\ude00", "x": {}})");
    QTest::newRow("utf8") << QByteArray("{\"gpu\": \"NVIDIA \xc2\xb5 \xe2\x80\x94 \xf0\x9f\x98\x80\"}");
    QTest::newRow("nested") << QByteArray(R"( {"a": [[], [{}], {"b": [1, 2, {"c": null}]}]} )");
}

void TestJsonTape::acceptsAndReads()
{
    QFETCH(QByteArray, text);
    JsonTape tape;
    QVERIFY(tape.parse(std::string_view(text.constData(), text.size()), 64));
    QVERIFY(sameValue(toJson(tape), nlohmann::json::parse(text.toStdString())));
}

void TestJsonTape::refusesWhatTheStrictReaderRefuses_data()
{
    QTest::addColumn<QByteArray>("text");
    for (const char* bad : { "", "{", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "-", "1e", "+1", "tru", "nul", "\"\\x\"",
             "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "\"a\nb\"", "{\"a\" 1}", "{1: 2}", "[1 2]", "1e999", "\"\xc3\"",
             "\"\xc0\xaf\"", "\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"", "[] []", "NaN" })
        QTest::newRow(bad) << QByteArray(bad);
    QTest::newRow("duplicate key") << QByteArray(R"({"a": 1, "a": 2})");
    QTest::newRow("too deep") << QByteArray(70, '[') + QByteArray(70, ']');
}

void TestJsonTape::refusesWhatTheStrictReaderRefuses()
{
    QFETCH(QByteArray, text);
    JsonTape tape;
    QVERIFY(!tape.parse(std::string_view(text.constData(), text.size()), 64));
}

void TestJsonTape::sameRunAsTheStrictPath()
{
    const QByteArray seed
        = readAll(QStringLiteral(KIX_SOURCE_DIR "/resources/runs/group_norm-backward-huggingface-nvidia-b200.json"));
    for (const QByteArray& text :
        { seed, readAll(QStringLiteral(KIX_TEST_DATA_DIR "/model/warnings/quantiles_out_of_order.json")),
            readAll(QStringLiteral(KIX_TEST_DATA_DIR "/model/malformed/median_negative.json")) }) {
        QVERIFY(!text.isEmpty());
        const std::string_view view(text.constData(), text.size());
        JsonTape tape;
        QVERIFY(tape.parse(view, 64));
        Diagnostics fastDiagnostics;
        Diagnostics strictDiagnostics;
        const RunPtr fast = runFromTape(tape, QStringLiteral("f.json"), {}, fastDiagnostics);
        const RunPtr strict = runFromDocument(
            nlohmann::json::parse(text.toStdString()), QStringLiteral("f.json"), {}, strictDiagnostics, view);
        QCOMPARE(fastDiagnostics.size(), strictDiagnostics.size());
        for (int i = 0; i < fastDiagnostics.size(); ++i)
            QCOMPARE(fastDiagnostics[i].toString(), strictDiagnostics[i].toString());
        QCOMPARE(bool(fast), bool(strict));
        if (!fast)
            continue;
        QCOMPARE(fast->identityKey(), strict->identityKey());
        QCOMPARE(fast->raw, strict->raw);
        QCOMPARE(fast->searchText, strict->searchText);
        QCOMPARE(fast->median, strict->median);
        QCOMPARE(fast->p20, strict->p20);
        QCOMPARE(fast->p80, strict->p80);
        QCOMPARE(fast->observedAt, strict->observedAt);
        QCOMPARE(fast->protocolNotes, strict->protocolNotes);
        QCOMPARE(fast->gpuArchitecture, strict->gpuArchitecture);
        QCOMPARE(fast->labels.size(), strict->labels.size());
    }
}

// Whatever the fast reader accepts, the strict one accepts too, with the same value.
void TestJsonTape::mutatedDocumentsAgree()
{
    const QByteArray seed
        = readAll(QStringLiteral(KIX_SOURCE_DIR "/resources/runs/group_norm-backward-huggingface-nvidia-b200.json"));
    QRandomGenerator rng(1129);
    int accepted = 0;
    for (int i = 0; i < 3000; ++i) {
        QByteArray bytes = seed;
        bytes[rng.bounded(bytes.size())] = "{}[],:\"\\ 0-e.tu\xc3\x80"[rng.bounded(18)];
        JsonTape tape;
        if (!tape.parse(std::string_view(bytes.constData(), bytes.size()), 64))
            continue;
        ++accepted;
        nlohmann::json strict;
        try {
            strict = nlohmann::json::parse(bytes.toStdString());
        } catch (const std::exception& e) {
            QFAIL(qPrintable(QStringLiteral("accepted by the tape, refused by nlohmann: %1\n%2")
                                 .arg(QString::fromUtf8(e.what()), QString::fromUtf8(bytes))));
        }
        QVERIFY(sameValue(toJson(tape), strict));
        // and the minified text the run keeps parses to the same value
        QVERIFY(
            sameValue(nlohmann::json::parse(minifyJson(std::string_view(bytes.constData(), bytes.size()))), strict));
    }
    QVERIFY(accepted > 100); // the mutations leave many documents valid
}

QTEST_GUILESS_MAIN(TestJsonTape)
#include "tst_jsontape.moc"
