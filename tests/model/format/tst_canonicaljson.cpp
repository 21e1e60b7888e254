// SPDX-License-Identifier: Apache-2.0
// RFC 8785 (JSON Canonicalization Scheme), pinned to the RFC's own test vectors: the number table of Appendix B
// (IEEE-754 bit patterns and the text ECMAScript prints for them), the sorting example of §3.2.3 and the
// serialisation example of §3.2.2 (a public standard's values, written out here).
#include "model/format/canonicaljson.h"

#include "tests/support/testmain.h"

#include <QtTest>

#include <cstdint>
#include <cstring>
#include <stdexcept>

using kix::format::canonicalJson;
using kix::format::ecmaScriptNumber;
using nlohmann::json;

namespace {

double fromBits(std::uint64_t bits)
{
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}

} // namespace

class TestCanonicalJson : public QObject
{
    Q_OBJECT
private slots:
    void rfc8785Numbers_data();
    void rfc8785Numbers();
    void nonFiniteNumbersAreRefused_data();
    void nonFiniteNumbersAreRefused();
    void integersAreDoubles_data();
    void integersAreDoubles();
    void rfc8785Sorting();
    void rfc8785Serialisation();
    void strings_data();
    void strings();
    void nestingIsBounded();
    void stringPiecesMatchTheTree();
};

void TestCanonicalJson::rfc8785Numbers_data()
{
    QTest::addColumn<quint64>("bits");
    QTest::addColumn<QString>("expected");
    // RFC 8785 Appendix B, "Number Serialization Samples".
    const std::pair<quint64, const char*> vectors[] = {
        { 0x0000000000000000ULL, "0" }, { 0x8000000000000000ULL, "0" }, // minus zero
        { 0x0000000000000001ULL, "5e-324" }, // min pos number
        { 0x8000000000000001ULL, "-5e-324" }, // min neg number
        { 0x7fefffffffffffffULL, "1.7976931348623157e+308" }, // max pos number
        { 0xffefffffffffffffULL, "-1.7976931348623157e+308" }, // max neg number
        { 0x4340000000000000ULL, "9007199254740992" }, // max pos int
        { 0xc340000000000000ULL, "-9007199254740992" }, // max neg int
        { 0x4430000000000000ULL, "295147905179352830000" }, // ~2**68
        { 0x44b52d02c7e14af5ULL, "9.999999999999997e+22" }, { 0x44b52d02c7e14af6ULL, "1e+23" },
        { 0x44b52d02c7e14af7ULL, "1.0000000000000001e+23" }, { 0x444b1ae4d6e2ef4eULL, "999999999999999700000" },
        { 0x444b1ae4d6e2ef4fULL, "999999999999999900000" }, { 0x444b1ae4d6e2ef50ULL, "1e+21" },
        { 0x3eb0c6f7a0b5ed8cULL, "9.999999999999997e-7" }, { 0x3eb0c6f7a0b5ed8dULL, "0.000001" },
        { 0x41b3de4355555553ULL, "333333333.3333332" }, { 0x41b3de4355555554ULL, "333333333.33333325" },
        { 0x41b3de4355555555ULL, "333333333.3333333" }, { 0x41b3de4355555556ULL, "333333333.3333334" },
        { 0x41b3de4355555557ULL, "333333333.33333343" }, { 0xbecbf647612f3696ULL, "-0.0000033333333333333333" },
        { 0x43143ff3c1cb0959ULL, "1424953923781206.2" }, // round to even
    };
    for (const auto& [bits, expected] : vectors)
        QTest::newRow(QByteArray::number(bits, 16).rightJustified(16, '0').constData())
            << bits << QString::fromLatin1(expected);
    // The notes' own examples (kernelindex-format.md) and the boundaries of ECMAScript's fixed notation.
    const std::pair<double, const char*> more[] = { { 1e-7, "1e-7" }, { 1e21, "1e+21" },
        { 1e20, "100000000000000000000" }, { 4.5, "4.5" }, { 2048.0, "2048" }, { 0.1, "0.1" }, { 1.5e-5, "0.000015" },
        { 1.0048658277929109e-05, "0.000010048658277929109" }, { 123456789012345680000.0, "123456789012345680000" } };
    for (const auto& [value, expected] : more) {
        std::uint64_t bits;
        std::memcpy(&bits, &value, sizeof bits);
        QTest::newRow(expected) << quint64(bits) << QString::fromLatin1(expected);
    }
}

void TestCanonicalJson::rfc8785Numbers()
{
    QFETCH(quint64, bits);
    QFETCH(QString, expected);
    const double value = fromBits(bits);
    QCOMPARE(QString::fromStdString(ecmaScriptNumber(value)), expected);
    QCOMPARE(QString::fromStdString(canonicalJson(json(value))), expected);
    QCOMPARE(QString::fromStdString(canonicalJson(json::array({ value }))), QLatin1Char('[') + expected + ']');
    // the piece the reader's DOM digest uses writes the same text (after what the buffer already holds)
    std::string piece = "x";
    kix::format::appendCanonicalNumber(piece, value);
    QCOMPARE(QString::fromStdString(piece), QLatin1Char('x') + expected);
}

void TestCanonicalJson::nonFiniteNumbersAreRefused_data()
{
    QTest::addColumn<quint64>("bits");
    QTest::newRow("NaN (RFC 8785 Appendix B)") << quint64(0x7fffffffffffffffULL);
    QTest::newRow("Infinity (RFC 8785 Appendix B)") << quint64(0x7ff0000000000000ULL);
    QTest::newRow("-Infinity") << quint64(0xfff0000000000000ULL);
}

void TestCanonicalJson::nonFiniteNumbersAreRefused()
{
    QFETCH(quint64, bits);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ecmaScriptNumber(fromBits(bits)));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, canonicalJson(json { { "a", fromBits(bits) } }));
}

void TestCanonicalJson::integersAreDoubles_data()
{
    QTest::addColumn<qint64>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("zero") << qint64(0) << QStringLiteral("0");
    QTest::newRow("latency") << qint64(1315872) << QStringLiteral("1315872");
    QTest::newRow("negative") << qint64(-42) << QStringLiteral("-42");
    QTest::newRow("2^53") << qint64(9007199254740992LL) << QStringLiteral("9007199254740992");
    // Past 2^53 an integer is the nearest double, as ECMAScript reads it.
    QTest::newRow("2^53+1") << qint64(9007199254740993LL) << QStringLiteral("9007199254740992");
    QTest::newRow("int64 max") << qint64(9223372036854775807LL) << QStringLiteral("9223372036854776000");
}

void TestCanonicalJson::integersAreDoubles()
{
    QFETCH(qint64, value);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(canonicalJson(json(static_cast<std::int64_t>(value)))), expected);
    if (value >= 0)
        QCOMPARE(QString::fromStdString(canonicalJson(json(static_cast<std::uint64_t>(value)))), expected);
}

void TestCanonicalJson::rfc8785Sorting()
{
    // RFC 8785 §3.2.3: members sorted by the UTF-16 code units of their names.
    const json input = json::parse(R"({
        "\u20ac": "Euro Sign",
        "\r": "Carriage Return",
        "\ufb33": "Hebrew Letter Dalet With Dagesh",
        "1": "One",
        "\ud83d\ude00": "Emoji: Grinning Face",
        "\u0080": "Control",
        "\u00f6": "Latin Small Letter O With Diaeresis"
    })");
    const std::string expected
        = "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\","
          "\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\","
          "\"\U0001F600\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}";
    QCOMPARE(QString::fromStdString(canonicalJson(input)), QString::fromStdString(expected));
    // UTF-8 byte order (nlohmann's own) would put U+FB33 before the emoji: the two orders differ here.
    QVERIFY(input.dump() != expected);
}

void TestCanonicalJson::rfc8785Serialisation()
{
    // RFC 8785 §3.2.2, the example of its "Sample" input and output.
    const json input = json::parse(R"({
        "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
        "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
        "literals": [null, true, false]
    })");
    const std::string expected
        = "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
          "\"string\":\"\u20ac$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}";
    QCOMPARE(QString::fromStdString(canonicalJson(input)), QString::fromStdString(expected));
}

void TestCanonicalJson::strings_data()
{
    QTest::addColumn<QByteArray>("utf8");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("plain") << QByteArray("GroupNorm") << QByteArray("\"GroupNorm\"");
    QTest::newRow("short escapes") << QByteArray("\b\t\n\f\r") << QByteArray("\"\\b\\t\\n\\f\\r\"");
    QTest::newRow("other controls lower-case hex") << QByteArray("\x01\x1f", 2) << QByteArray("\"\\u0001\\u001f\"");
    QTest::newRow("NUL") << QByteArray("a\0b", 3) << QByteArray("\"a\\u0000b\"");
    QTest::newRow("DEL and solidus as they are") << QByteArray("\x7f/") << QByteArray("\"\x7f/\"");
    QTest::newRow("U+2028 as it is") << QByteArray("\xe2\x80\xa8") << QByteArray("\"\xe2\x80\xa8\"");
    QTest::newRow("middle dot") << QByteArray("GroupNorm \xc2\xb7 backward")
                                << QByteArray("\"GroupNorm \xc2\xb7 backward\"");
    QTest::newRow("invalid UTF-8 as U+FFFD") << QByteArray("a\xff") << QByteArray("\"a\xef\xbf\xbd\"");
    QTest::newRow("truncated sequence") << QByteArray("\xe2\x82") << QByteArray("\"\xef\xbf\xbd\xef\xbf\xbd\"");
}

void TestCanonicalJson::strings()
{
    QFETCH(QByteArray, utf8);
    QFETCH(QByteArray, expected);
    QCOMPARE(QByteArray::fromStdString(canonicalJson(json(utf8.toStdString()))), expected);
}

void TestCanonicalJson::nestingIsBounded()
{
    json deep = json::array();
    for (int i = 0; i < 600; ++i)
        deep = json::array({ deep });
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, canonicalJson(deep));
    json fine = json::array();
    for (int i = 0; i < 100; ++i)
        fine = json::array({ fine });
    QCOMPARE(canonicalJson(fine).size(), std::size_t(202));
}

// One byte of an otherwise plain string as JCS writes it, written out here byte by byte: the reference the string
// writer's fast paths are held to (a lone byte at or above 0x80 is invalid UTF-8: U+FFFD).
static std::string referenceEscape(unsigned char b)
{
    switch (b) {
    case '"':
        return "\\\"";
    case '\\':
        return "\\\\";
    case '\b':
        return "\\b";
    case '\t':
        return "\\t";
    case '\n':
        return "\\n";
    case '\f':
        return "\\f";
    case '\r':
        return "\\r";
    default:
        break;
    }
    if (b < 0x20) {
        static const char hex[] = "0123456789abcdef";
        return std::string("\\u00") + hex[b >> 4] + hex[b & 0xF];
    }
    return b < 0x80 ? std::string(1, char(b)) : std::string("\xEF\xBF\xBD");
}

// appendCanonicalString checks sixteen and eight bytes at a time: every byte value, at every place of a string
// longer than two such blocks, is written as the reference above writes it, and as the tree walk writes it.
void TestCanonicalJson::stringPiecesMatchTheTree()
{
    int checked = 0;
    for (int b = 0; b < 256; ++b) {
        for (std::size_t at = 0; at < 43; ++at) {
            std::string s(43, 'a'); // two blocks of sixteen, one of eight, three bytes
            s[at] = static_cast<char>(b);
            std::string piece;
            kix::format::appendCanonicalString(piece, s);
            const std::string expected = '"' + std::string(at, 'a') + referenceEscape(static_cast<unsigned char>(b))
                + std::string(42 - at, 'a') + '"';
            if (piece != expected || piece != canonicalJson(json(s)))
                QFAIL(qPrintable(QStringLiteral("byte 0x%1 at %2").arg(b, 2, 16, QLatin1Char('0')).arg(at)));
            ++checked;
        }
    }
    QCOMPARE(checked, 256 * 43);
    std::string piece;
    kix::format::appendCanonicalString(piece, "Timed: \"median\"\\p20");
    QCOMPARE(QByteArray::fromStdString(piece), QByteArray("\"Timed: \\\"median\\\"\\\\p20\""));
}

KIX_TEST_GUILESS_MAIN(TestCanonicalJson)
#include "tst_canonicaljson.moc"
