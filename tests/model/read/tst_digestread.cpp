// SPDX-License-Identifier: Apache-2.0
// The digests the reader computes from simdjson's DOM (model/read/resourcecheck.cpp: the one canonical walk over the
// DOM's adapter, which sees keys in document order and duplicated, and its per-thread cache of checked resources)
// are those of the format's JCS over nlohmann/json (the same walk over a tree whose keys are unique and in byte
// order), on values where the fast paths and the general ones part: non-ASCII keys whose UTF-16 order is not their
// byte order, escapes, -0, 1e21, 2^53, fractions.
#include "model/format/digest.h"
#include "model/read/documentparser.h"

#include "kix/config.h"

#include "tests/support/testmain.h"

#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix;
using json = nlohmann::json;

namespace {

json seed()
{
    QFile f(QStringLiteral(KIX_SOURCE_DIR "/resources/runs/group_norm-backward-huggingface-nvidia-b200.json"));
    return f.open(QIODevice::ReadOnly) ? json::parse(f.readAll().toStdString()) : json();
}

// The seed with `extra` in its protocol's spec and in its run's spec, the protocol named by its format digest.
json withValues(const json& extra, int i)
{
    json d = seed();
    d["protocol"]["spec"]["extra"] = extra;
    d["run"]["spec"]["sourceNative"]["extra"] = extra;
    d["run"]["spec"]["sourceNative"]["externalId"]
        = "group_norm/forward/liger/nvidia-b200/batch1-fp32/t" + std::to_string(i);
    d["run"]["spec"]["protocolDigest"] = format::kernelindexDigest(d["protocol"]);
    return d;
}

} // namespace

class TestDigestRead : public QObject
{
    Q_OBJECT
private slots:
    void domDigestsAreTheFormats();
    void aChangedResourceIsNotTakenFromTheCache();
    void unsortedAndDuplicatedKeysInTheText();
};

void TestDigestRead::domDigestsAreTheFormats()
{
    const json values[] = {
        json::parse(R"({"\uE000": 1, "\uD83D\uDE00": 2, "a": 3, "Z": 4, "é": 5})"), // UTF-16 order: Z a é 😀
        json::parse(R"(["quote \" backslash \\ tab \t nl \n ctl \u0001 del \u007f", "ascii only"])"),
        json::parse(R"([0, -0.0, 1, -1, 9007199254740991, 9007199254740992, 1e21, 1e20, 0.1, 1.5e-7, 123456789.25])"),
        json::parse(R"({"b": {"y": [true, false, null], "x": "ü"}, "a": []})"),
    };
    QByteArray lines;
    int i = 0;
    std::vector<json> documents;
    for (const json& v : values) {
        documents.push_back(withValues(v, i++));
        lines += QByteArray::fromStdString(documents.back().dump()) + '\n';
    }
    const ParseResult r = parseBytes(lines, QStringLiteral("digests.jsonl"));
    QCOMPARE(r.runs.size(), qsizetype(documents.size()));
    for (std::size_t k = 0; k < documents.size(); ++k) {
        const Run& run = *r.runs[qsizetype(k)];
        QCOMPARE(run.protocolCheck, DigestCheck::Verified);
        QCOMPARE(run.runDigest.toStdString(), format::kernelindexDigest(documents[k]["run"]));
    }
}

void TestDigestRead::aChangedResourceIsNotTakenFromTheCache()
{
    // the same protocol twice (the second check comes from the cache), then one changed by a single value that
    // names the first one's digest, then one whose number only changes type (1 and 1.0 digest the same)
    const json first = withValues(json::parse(R"({"n": 1, "s": "x"})"), 0);
    const json again = withValues(json::parse(R"({"n": 1, "s": "x"})"), 1);
    json changed = withValues(json::parse(R"({"n": 2, "s": "x"})"), 2);
    changed["run"]["spec"]["protocolDigest"] = first["run"]["spec"]["protocolDigest"];
    std::string asDouble = withValues(json::parse(R"({"n": 1, "s": "x"})"), 3).dump();
    asDouble.replace(asDouble.find("\"n\":1"), 5, "\"n\":1.0");
    const QByteArray lines = QByteArray::fromStdString(
        first.dump() + '\n' + again.dump() + '\n' + changed.dump() + '\n' + asDouble + '\n');
    const ParseResult r = parseBytes(lines, QStringLiteral("cache.jsonl"));
    QCOMPARE(r.runs.size(), 4);
    QCOMPARE(r.runs[0]->protocolCheck, DigestCheck::Verified);
    QCOMPARE(r.runs[1]->protocolCheck, DigestCheck::Verified);
    QCOMPARE(r.runs[2]->protocolCheck, DigestCheck::Mismatch);
    QCOMPARE(r.runs[3]->protocolCheck, DigestCheck::Verified);
}

// Text that nlohmann would not write: keys out of order, a key given twice (the last value counts, as nlohmann
// reads it), an object of more members than the reader sorts without allocating (32), and one already in order.
void TestDigestRead::unsortedAndDuplicatedKeysInTheText()
{
    std::string many = "{";
    for (int k = 40; k > 0; --k)
        many += "\"k" + std::to_string(k) + "\":" + std::to_string(k) + (k > 1 ? "," : "");
    many += ",\"k7\":\"again\"}";
    const std::string extras[] = {
        R"({"z": 1, "b": {"y": 2, "x": 3}, "a": [{"q": 1, "p": 2}]})",
        R"({"dup": 1, "other": 2, "dup": 3})",
        many,
        R"({"a": 1, "b": 2, "c": {"d": 4.5, "e": "f"}})",
    };
    QByteArray lines;
    std::vector<json> documents;
    int i = 0;
    for (const std::string& extra : extras) {
        std::string line = withValues(json::object(), i++).dump();
        const std::string marker = "\"extra\":{}";
        const std::size_t at = line.rfind(marker); // the run's sourceNative (the protocol's comes first)
        QVERIFY(at != std::string::npos);
        line.replace(at, marker.size(), "\"extra\":" + extra);
        documents.push_back(json::parse(line)); // nlohmann: the last of a duplicated key
        lines += QByteArray::fromStdString(line) + '\n';
    }
    const ParseResult r = parseBytes(lines, QStringLiteral("keys.jsonl"));
    QCOMPARE(r.runs.size(), qsizetype(documents.size()));
    for (std::size_t k = 0; k < documents.size(); ++k)
        QCOMPARE(r.runs[qsizetype(k)]->runDigest.toStdString(), format::kernelindexDigest(documents[k]["run"]));
    // the two texts with a duplicated key say so
    int duplicates = 0;
    for (const Diagnostic& d : r.diagnostics)
        duplicates += d.message.contains(QStringLiteral("duplicate key")) ? 1 : 0;
    QCOMPARE(duplicates, 2);
}

KIX_TEST_GUILESS_MAIN(TestDigestRead)
#include "tst_digestread.moc"
