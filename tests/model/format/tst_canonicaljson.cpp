// RFC 8785 canonical JSON and the kernelindex digest, pinned to the RFC's own vectors (Appendix B numbers, the
// §3.2.2 example, the §3.2.3 sort example) and to the digests the seed names for its protocol and environment.
#include "model/format/canonicaljson.h"
#include "model/format/digest.h"

#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cstring>
#include <stdexcept>

using namespace kix;
using json = nlohmann::json;

namespace {

double fromBits(quint64 bits)
{
    double d = 0;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}

std::string number(double d)
{
    std::string out;
    appendCanonicalNumber(out, d);
    return out;
}

} // namespace

class TestCanonicalJson : public QObject
{
    Q_OBJECT
private slots:
    void rfc8785Numbers_data();
    void rfc8785Numbers();
    void notFiniteIsRefused();
    void rfc8785Example();
    void keysSortByUtf16CodeUnits();
    void digestLeavesMetadataOut();
    void seedDigestsRecompute();
};

void TestCanonicalJson::rfc8785Numbers_data()
{
    QTest::addColumn<quint64>("bits");
    QTest::addColumn<QString>("text");
    // RFC 8785 Appendix B: IEEE 754 bit patterns and their canonical text
    const struct
    {
        quint64 bits;
        const char* text;
    } rows[] = {
        { 0x0000000000000000ULL, "0" },
        { 0x8000000000000000ULL, "0" },
        { 0x0000000000000001ULL, "5e-324" },
        { 0x8000000000000001ULL, "-5e-324" },
        { 0x7fefffffffffffffULL, "1.7976931348623157e+308" },
        { 0xffefffffffffffffULL, "-1.7976931348623157e+308" },
        { 0x4340000000000000ULL, "9007199254740992" },
        { 0xc340000000000000ULL, "-9007199254740992" },
        { 0x4430000000000000ULL, "295147905179352830000" },
        { 0x44b52d02c7e14af5ULL, "9.999999999999997e+22" },
        { 0x44b52d02c7e14af6ULL, "1e+23" },
        { 0x44b52d02c7e14af7ULL, "1.0000000000000001e+23" },
        { 0x444b1ae4d6e2ef4eULL, "999999999999999700000" },
        { 0x444b1ae4d6e2ef4fULL, "999999999999999900000" },
        { 0x444b1ae4d6e2ef50ULL, "1e+21" },
        { 0x3eb0c6f7a0b5ed8cULL, "9.999999999999997e-7" },
        { 0x3eb0c6f7a0b5ed8dULL, "0.000001" },
        { 0x41b3de4355555553ULL, "333333333.3333332" },
        { 0x41b3de4355555554ULL, "333333333.33333325" },
        { 0x41b3de4355555555ULL, "333333333.3333333" },
        { 0x41b3de4355555556ULL, "333333333.3333334" },
        { 0x41b3de4355555557ULL, "333333333.33333343" },
        { 0xbecbf647612f3696ULL, "-0.0000033333333333333333" },
        { 0x43143ff3c1cb0959ULL, "1424953923781206.2" },
    };
    for (const auto& row : rows)
        QTest::newRow(row.text) << row.bits << QString::fromLatin1(row.text);
}

void TestCanonicalJson::rfc8785Numbers()
{
    QFETCH(quint64, bits);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(number(fromBits(bits))), text);
}

void TestCanonicalJson::notFiniteIsRefused()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, number(fromBits(0x7ff0000000000000ULL))); // +Infinity
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, number(fromBits(0x7ff8000000000000ULL))); // NaN
    // integers never get ".0", whether nlohmann read them as integers or as doubles
    QCOMPARE(canonicalJson(json::parse("[1.0, 0.0, -0.0, 100, 1e2, 2.5e-7, 0.0000025]")),
        std::string("[1,0,0,100,100,2.5e-7,0.0000025]"));
}

void TestCanonicalJson::rfc8785Example()
{
    // RFC 8785 §3.2.2: the input and its canonical form
    const json input = json::parse(R"({
        "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
        "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
        "literals": [null, true, false]
    })");
    QCOMPARE(canonicalJson(input),
        std::string(R"({"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],)"
                    "\"string\":\"\xE2\x82\xAC$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}"));
}

void TestCanonicalJson::keysSortByUtf16CodeUnits()
{
    // RFC 8785 §3.2.3: the emoji (a surrogate pair, 0xD83D...) sorts before U+FB33, unlike in code point order
    const json input
        = json::parse(R"({"\u20ac": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew Letter Dalet With Dagesh",
        "1": "One", "\ud83d\ude00": "Emoji: Grinning Face", "\u0080": "Control", "\u00f6": "Latin Small Letter O With Diaeresis"})");
    const std::string text = canonicalJson(input);
    std::size_t at = 0;
    for (const char* value : { "Carriage Return", "One", "Control", "Latin Small Letter O With Diaeresis", "Euro Sign",
             "Emoji: Grinning Face", "Hebrew Letter Dalet With Dagesh" }) {
        const std::size_t found = text.find(value, at);
        QVERIFY2(found != std::string::npos, value);
        at = found;
    }
    QVERIFY(utf16Less("\xF0\x9F\x98\x80", "\xEF\xAC\xB3")); // U+1F600 before U+FB33
    QVERIFY(!utf16Less("\xEF\xAC\xB3", "\xF0\x9F\x98\x80"));
    QVERIFY(utf16Less("a", "b") && !utf16Less("b", "a") && !utf16Less("a", "a"));
}

void TestCanonicalJson::digestLeavesMetadataOut()
{
    json resource = { { "apiVersion", "kernelindex.dev/v1alpha1" }, { "kind", "BenchmarkProtocol" },
        { "metadata", { { "name", "a" } } }, { "spec", { { "measurement", { { "timer", "cuda_events" } } } } } };
    const QString digest = kernelindexDigest(resource);
    // sha256 of the exact canonical text, computed independently of kernelindexDigest's member selection
    QCOMPARE(digest,
        sha256Digest(R"({"apiVersion":"kernelindex.dev/v1alpha1","kind":"BenchmarkProtocol",)"
                     R"("spec":{"measurement":{"timer":"cuda_events"}}})"));
    resource["metadata"]["title"] = "renamed";
    QCOMPARE(kernelindexDigest(resource), digest);
    resource["spec"]["measurement"]["timer"] = "wall_clock";
    QVERIFY(kernelindexDigest(resource) != digest);
    // FIPS 180-2's "abc" vector, so that sha256Digest itself is pinned
    QCOMPARE(
        sha256Digest("abc"), QStringLiteral("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
}

void TestCanonicalJson::seedDigestsRecompute()
{
    const QString shared = qEnvironmentVariable("KIX_SHARED_DIR");
    QFile f(shared + QStringLiteral("/data/seed/group_norm-backward-huggingface-nvidia-b200.json"));
    if (shared.isEmpty() || !f.open(QIODevice::ReadOnly))
        QSKIP("the seed is not available (set KIX_SHARED_DIR to the project's shared/ folder)");
    const json seed = json::parse(f.readAll().toStdString());
    const json& spec = seed.at("run").at("spec");
    QCOMPARE(kernelindexDigest(seed.at("protocol")), QString::fromStdString(spec.at("protocolDigest")));
    QCOMPARE(kernelindexDigest(seed.at("environment")), QString::fromStdString(spec.at("environmentDigest")));
}

QTEST_APPLESS_MAIN(TestCanonicalJson)
#include "tst_canonicaljson.moc"
