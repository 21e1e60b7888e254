// SPDX-License-Identifier: Apache-2.0
// The one JSON path runs are read from: a document gives the identical run whether it arrives as a .json file, as
// an element of a JSON array or as a line of a .jsonl file; duplicate keys warn the same way on every path; the
// raw text is the document's own, equal as JSON to what was read; what simdjson accepts, nlohmann reads alike.
#include "model/read/documentparser.h"

#include "kix/config.h"

#include "tests/support/testfiles.h"
#include "tests/support/testmain.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix;

namespace {

// Hand-written: labels out of alphabetical order, a number label written "2.50", an object label, a duplicated
// metadata title, raw samples, a statistic beside the quantiles and an unknown member.
QByteArray documentText()
{
    QFile f(QStringLiteral(KIX_TEST_DATA_DIR "/model/paths/arrivals.json"));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

const char* const kOther = "{\"run\":{\"kind\":\"BenchmarkRun\",\"spec\":{\"timing\":{\"latencyNs\":{\"median\":10}},"
                           "\"sourceNative\":{\"externalId\":\"k/forward/p/gpu/w1/t\"}}}}";

QString number(double d)
{
    return QString::number(d, 'g', 17);
}

// Every field of a run but where it came from (file, pointer), as text.
QStringList fields(const Run& r)
{
    QStringList f { r.externalId, r.name, r.title, r.apiVersion, r.kernel, r.pass, r.provider, r.gpuSlug,
        r.workloadSlug, r.status, r.observedAt.toString(Qt::ISODateWithMs), r.source, r.gpuVendor, r.gpuProduct,
        r.gpuArchitecture, r.dtype, QString::number(int(r.metric)), r.unit, number(r.median), number(r.p20),
        number(r.p80), r.protocolDigest, r.workloadDigest, r.environmentDigest, r.implementationDigest,
        r.protocolFamily, r.protocolNotes, r.links().timer, QString::fromLatin1(r.identity.toHex()),
        QString::fromStdString(r.raw.str()) };
    for (const WorkloadParam& p : r.workload)
        f << QStringLiteral("workload %1=%2 (%3)").arg(p.key, p.value, number(p.number));
    for (const Measurement& m : r.statistics)
        f << QStringLiteral("statistic %1 %2 %3 %4").arg(m.metric, m.statistic, m.unit, number(m.value));
    for (const Measurement& m : r.measurements)
        f << QStringLiteral("measurement %1 %2 %3 %4").arg(m.metric, m.statistic, m.unit, number(m.value));
    for (const double s : r.samples)
        f << QStringLiteral("sample ") + number(s);
    for (const double s : r.cpuSamples)
        f << QStringLiteral("cpu sample ") + number(s);
    for (const KeyValue& kv : r.labels)
        f << QStringLiteral("label %1=%2").arg(kv.key, kv.value);
    for (const KeyValue& kv : r.software)
        f << QStringLiteral("software %1=%2").arg(kv.key, kv.value);
    return f;
}

// The text without whitespace outside strings (nlohmann would drop the duplicated key).
QByteArray compact(const QByteArray& text)
{
    QByteArray out;
    bool inString = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            out += c;
            if (c == '\\')
                out += text[++i];
            else if (c == '"')
                inString = false;
        } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
            out += c;
            inString = c == '"';
        }
    }
    return out;
}

} // namespace

class TestRunExtract : public QObject
{
    Q_OBJECT
private slots:
    void sameRunWhateverItArrivesIn();
    void arrayElementsKeepTheirOwnText();
    void foreignDocumentRefusedOnEveryPath();
    void inMemoryDocumentsReadAlike();
    void mutatedDocumentsAgreeWithNlohmann();
};

void TestRunExtract::sameRunWhateverItArrivesIn()
{
    const QByteArray pretty = documentText();
    QVERIFY(!pretty.isEmpty());
    const QByteArray asFile = pretty;
    const QByteArray asArray = "[\n  " + QByteArray(kOther) + ",\n" + pretty + "\n]\n";
    const QByteArray asLine = QByteArray(kOther) + "\r\n" + compact(pretty) + "\n";
    struct Arrival
    {
        QByteArray bytes;
        QString file;
        QString pointer;
    };
    // the same file name for all three, so that even the search text (which names the file) must agree
    const QList<Arrival> arrivals { { asFile, QStringLiteral("runs/doc.json"), QString() },
        { asArray, QStringLiteral("runs/doc.json"), QStringLiteral("/1") },
        { asLine, QStringLiteral("runs/doc.jsonl"), QStringLiteral("/1") } };
    QList<RunPtr> runs;
    for (const Arrival& a : arrivals) {
        const ParseResult r = parseBytes(a.bytes, a.file);
        QVERIFY2(!r.hasErrors(), qPrintable(kixtest::dumpDiagnostics(r.diagnostics)));
        QVERIFY(!r.runs.isEmpty());
        const RunPtr run = r.runs.last();
        QCOMPARE(run->pointer, a.pointer);
        // the duplicated title is reported on every path, at the document's own pointer, and so is the one note
        // that inline samples are kix 0.1.0's dialect
        QCOMPARE(r.diagnostics.size(), 2);
        QCOMPARE(r.diagnostics.first().pointer, a.pointer + QStringLiteral("/run/metadata/title"));
        QVERIFY(r.diagnostics.first().message.contains(QStringLiteral("duplicate key")));
        QCOMPARE(r.diagnostics.last().pointer, a.pointer + QStringLiteral("/run"));
        QVERIFY(
            r.diagnostics.last().message.contains(QStringLiteral("written by kix 0.1.0 (inline timing.samplesNs)")));
        QCOMPARE(run->dialect, Dialect::Kix010);
        runs << run;
    }
    const Run& first = *runs.first();
    // what the document says, read once and checked field by field
    QCOMPARE(first.title, QStringLiteral("RMSNorm · liger · forward")); // the last of the duplicated keys
    QCOMPARE(first.labels.size(), 3);
    QCOMPARE(first.labels[0].key, QStringLiteral("zeta")); // document order, not sorted
    QCOMPARE(first.labels[1].key, QStringLiteral("alpha"));
    QCOMPARE(first.labels[1].value, QStringLiteral("2.5"));
    QCOMPARE(first.labels[2].value, QStringLiteral("{\"k\":[1,2.0]}"));
    QCOMPARE(first.p20, 2030.0);
    QCOMPARE(first.samples.size(), size_t(3));
    QCOMPARE(first.observedAt, QDateTime(QDate(2026, 3, 1), QTime(10, 20, 30, 250), Qt::UTC));
    QCOMPARE(first.dtype, QStringLiteral("bf16"));
    QCOMPARE(first.software[1].value, QStringLiteral("3.2"));
    QVERIFY(first.searchText().contains("zeta=last"));
    // the raw text is the document's, compact, equal as JSON to what was read (unknown members included)
    QCOMPARE(QByteArray(first.raw.data(), qsizetype(first.raw.size())), compact(pretty));
    QVERIFY(nlohmann::json::parse(first.raw) == nlohmann::json::parse(pretty.toStdString()));
    const QStringList expected = fields(first);
    for (int i = 1; i < runs.size(); ++i) {
        const QStringList got = fields(*runs[i]);
        QCOMPARE(got.size(), expected.size());
        for (int k = 0; k < got.size(); ++k)
            QCOMPARE(got[k], expected[k]);
        QCOMPARE(runs[i]->searchText().replace("doc.jsonl", "doc.json"), first.searchText());
    }
}

void TestRunExtract::arrayElementsKeepTheirOwnText()
{
    const QByteArray text = "[ " + QByteArray(kOther)
        + " ,\n {\"run\": {\"kind\": \"BenchmarkRun\", \"spec\": {"
          "\"timing\": {\"latencyNs\": {\"median\": 7}}, \"note\": \"a, b ] { \\\" }\"}}} ]";
    const ParseResult r = parseBytes(text, QStringLiteral("two.json"));
    QVERIFY2(!r.hasErrors(), qPrintable(kixtest::dumpDiagnostics(r.diagnostics)));
    QCOMPARE(r.runs.size(), 2);
    QCOMPARE(r.runs[0]->raw.str(), std::string(kOther));
    QCOMPARE(r.runs[1]->raw.str(),
        std::string("{\"run\":{\"kind\":\"BenchmarkRun\",\"spec\":{\"timing\":{\"latencyNs\":{\"median\":7}},"
                    "\"note\":\"a, b ] { \\\" }\"}}}"));
    QCOMPARE(r.runs[1]->median, 7.0);
}

// The one place that refuses a JSON document that is not kernelindex answers the same on every path.
void TestRunExtract::foreignDocumentRefusedOnEveryPath()
{
    // not kernelindex, and not one of the other tools' formats either (those are imported, see tst_interop)
    const QByteArray foreign = "{\"context\": {\"host_name\": \"x\"}, \"results\": []}";
    struct Case
    {
        QByteArray bytes;
        QString file;
        QString pointer;
    };
    const QList<Case> cases { { foreign, QStringLiteral("gbench.json"), QString() },
        { QByteArray("[" + foreign + "]"), QStringLiteral("gbench.json"), QStringLiteral("/0") },
        { QByteArray(QByteArray(kOther) + "\n" + foreign + "\n"), QStringLiteral("gbench.jsonl"),
            QStringLiteral("/1") } };
    for (const auto& [bytes, file, pointer] : cases) {
        const ParseResult r = parseBytes(bytes, file);
        QCOMPARE(r.diagnostics.size(), 1);
        QVERIFY(r.diagnostics.first().isError());
        QCOMPARE(r.diagnostics.first().pointer, pointer + QStringLiteral("/kind"));
        QVERIFY2(r.diagnostics.first().message.contains(QStringLiteral("not a kernelindex document")),
            qPrintable(kixtest::dumpDiagnostics(r.diagnostics)));
    }
}

// A document built in memory (the engine's, a Liger row) is read through the same path as a file.
void TestRunExtract::inMemoryDocumentsReadAlike()
{
    const nlohmann::json document = nlohmann::json::parse(documentText().toStdString()); // the last title wins
    Diagnostics diagnostics;
    const RunPtr built = runFromDocument(document, QStringLiteral("runs/doc.json"), QString(), diagnostics);
    QVERIFY2(built, qPrintable(kixtest::dumpDiagnostics(diagnostics)));
    const ParseResult read = parseBytes(QByteArray::fromStdString(document.dump(2)), QStringLiteral("runs/doc.json"));
    QCOMPARE(read.runs.size(), 1);
    QCOMPARE(fields(*built), fields(*read.runs.first()));
    QVERIFY(nlohmann::json::parse(built->raw) == document);
}

// Whatever the reader accepts, nlohmann accepts too, and the raw text the run keeps is the same JSON value.
void TestRunExtract::mutatedDocumentsAgreeWithNlohmann()
{
    QFile f(QStringLiteral(KIX_SOURCE_DIR "/resources/runs/group_norm-backward-huggingface-nvidia-b200.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray seed = f.readAll();
    QRandomGenerator rng(1129);
    int accepted = 0;
    for (int i = 0; i < 3000; ++i) {
        QByteArray bytes = seed;
        bytes[rng.bounded(bytes.size())] = "{}[],:\"\\ 0-e.tu\xc3\x80"[rng.bounded(18)];
        const ParseResult r = parseBytes(bytes, QStringLiteral("m.json"));
        if (r.runs.isEmpty())
            continue;
        ++accepted;
        nlohmann::json strict;
        try {
            strict = nlohmann::json::parse(bytes.toStdString());
        } catch (const std::exception& e) {
            QFAIL(qPrintable(QStringLiteral("accepted by kix, refused by nlohmann: %1\n%2")
                                 .arg(QString::fromUtf8(e.what()), QString::fromUtf8(bytes))));
        }
        QVERIFY(nlohmann::json::parse(r.runs.first()->raw) == strict);
    }
    QVERIFY(accepted > 100); // the mutations leave many documents valid
}

KIX_TEST_GUILESS_MAIN(TestRunExtract)
#include "tst_runextract.moc"
