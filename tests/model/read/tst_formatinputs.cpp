// SPDX-License-Identifier: Apache-2.0
// The format's catalog export as an input: plain and Zstandard (streamed), in any order, with progress and cancel,
// hostile compressed data made here, and every row's problems named (tst_manifestinputs: YAML and bundles).
#include "model/read/documentparser.h"
#include "model/read/runloader.h"

#include "tests/model/read/formatinputs.h"
#include "tests/support/testfiles.h"
#include "tests/support/testmain.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>
#include <zstd.h>

#include <algorithm>

using namespace kix;
using json = nlohmann::json;
using namespace kixtest::formatinputs;

namespace {

QString fixturePath()
{
    return QStringLiteral(KIX_TEST_DATA_DIR "/model/catalog/catalog-fixture.jsonl");
}

void writeAll(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes), bytes.size());
}

QByteArray compress(const QByteArray& bytes, int level = 3)
{
    QByteArray out(qsizetype(ZSTD_compressBound(std::size_t(bytes.size()))), Qt::Uninitialized);
    const std::size_t n
        = ZSTD_compress(out.data(), std::size_t(out.size()), bytes.constData(), std::size_t(bytes.size()), level);
    if (ZSTD_isError(n))
        return {};
    out.resize(qsizetype(n));
    return out;
}

const RunPtr* runAt(const RunList& runs, const QString& pointer)
{
    for (const RunPtr& run : runs) {
        if (run->pointer == pointer)
            return &run;
    }
    return nullptr;
}

QStringList sortedDocuments(const RunList& runs)
{
    QStringList texts;
    for (const RunPtr& run : runs)
        texts << QString::fromStdString(documentOf(run).dump());
    texts.sort();
    return texts;
}

} // namespace

class TestFormatInputs : public QObject
{
    Q_OBJECT
private slots:
    void catalogNamesResolve();
    void catalogOrderDoesNotMatter();
    void catalogZstdStreamed();
    void catalogZstdRefusals();
    void catalogProgressAndCancel();
    void catalogRowErrorsNamed();
};

void TestFormatInputs::catalogNamesResolve()
{
    const ParseResult result = parseFile(fixturePath());
    // lines 11..14 are the four benchmark_runs rows: each loads or is refused by the run extractor (its headline),
    // never by the catalog reader
    QVERIFY2(result.runs.size() >= 2, qPrintable(QString::number(result.runs.size())));
    for (const Diagnostic& d : result.diagnostics) {
        if (d.isError())
            QVERIFY2(QRegularExpression(QStringLiteral("^/1[1-4]/run")).match(d.pointer).hasMatch(),
                qPrintable(d.toString()));
    }
    QVERIFY(hasMessage(
        result.diagnostics, QStringLiteral("2 serving runs not shown: kix reads kernel benchmark runs"), false));
    QVERIFY(hasMessage(result.diagnostics, QStringLiteral("2 measurements"), false));

    const RunPtr* latency = runAt(result.runs, QStringLiteral("/11"));
    QVERIFY(latency);
    const json doc = documentOf(*latency);
    QCOMPARE(text(doc["run"]["metadata"]["name"]), QStringLiteral("aurora-layernorm-2048"));
    QCOMPARE(text(doc["workload"]["metadata"]["name"]), QStringLiteral("layer-norm-tokens-2048"));
    QCOMPARE(text(doc["workload"]["spec"]["axes"]["tokens"]), QStringLiteral("2048"));
    QCOMPARE(text(doc["workload"]["spec"]["axes"]["hidden"]), QStringLiteral("4096"));
    QCOMPARE(text(doc["operation"]["spec"]["family"]), QStringLiteral("layer-norm"));
    QCOMPARE(text(doc["operation"]["metadata"]["name"]), QStringLiteral("layer-norm-h4096"));
    QCOMPARE(text(doc["implementation"]["metadata"]["name"]), QStringLiteral("aurora-layernorm"));
    QCOMPARE(text(doc["project"]["metadata"]["name"]), QStringLiteral("aurora-kernels"));
    QCOMPARE(text(doc["protocol"]["kind"]), QStringLiteral("BenchmarkProtocol"));
    QCOMPARE(text(doc["environment"]["spec"]["hardware"]["product"]), QStringLiteral("NVIDIA H100"));
    // the links are the format's: the workload's digest is the run's, the operation the workload's
    QVERIFY(doc["workload"]["spec"]["operationSpecDigest"] == doc["implementation"]["spec"]["operation"]["specDigest"]);
    // ... and the typed view reads the names from them: kernel from the operation, provider from the implementation,
    // the workload's axes, every carried resource verified against the digest its run names
    const Run& run = **latency;
    QCOMPARE(run.kernel, QStringLiteral("layer-norm-h4096"));
    QCOMPARE(run.provider, QStringLiteral("aurora-layernorm"));
    QCOMPARE(run.param(QStringLiteral("tokens")), QStringLiteral("2048"));
    QCOMPARE(run.param(QStringLiteral("hidden")), QStringLiteral("4096"));
    QCOMPARE(run.gpuProduct, QStringLiteral("NVIDIA H100"));
    for (DigestCheck check :
        { run.protocolCheck, run.environmentCheck, run.workloadCheck, run.implementationCheck, run.operationCheck })
        QCOMPARE(check, DigestCheck::Verified);

    const RunPtr* failed = runAt(result.runs, QStringLiteral("/13"));
    QVERIFY(failed);
    const json other = documentOf(*failed);
    QCOMPARE(text(other["run"]["spec"]["status"]), QStringLiteral("runtime_error"));
    QCOMPARE(text(other["operation"]["spec"]["family"]), QStringLiteral("softmax"));
    QCOMPARE(text(other["workload"]["spec"]["axes"]["vocab"]), QStringLiteral("32000"));
    QCOMPARE(text(other["implementation"]["metadata"]["name"]), QStringLiteral("basalt-softmax"));
    QCOMPARE(text(other["project"]["metadata"]["name"]), QStringLiteral("basalt-lib"));
    QVERIFY((*failed)->failed());
    QCOMPARE((*failed)->kernel, text(other["operation"]["metadata"]["name"]));
    QVERIFY(!(*failed)->kernel.isEmpty());
    QCOMPARE((*failed)->provider, QStringLiteral("basalt-softmax"));
}

void TestFormatInputs::catalogOrderDoesNotMatter()
{
    QList<QByteArray> lines = kixtest::readFile(fixturePath()).split('\n');
    std::reverse(lines.begin(), lines.end()); // children before their parents
    QTemporaryDir dir;
    const QString reversed = dir.filePath(QStringLiteral("reversed.jsonl"));
    writeAll(reversed, lines.join('\n'));
    const ParseResult a = parseFile(fixturePath());
    const ParseResult b = parseFile(reversed);
    QCOMPARE(b.runs.size(), a.runs.size());
    QCOMPARE(sortedDocuments(b.runs), sortedDocuments(a.runs));
    // a row whose workload is not in the export still loads, named
    QByteArray text = kixtest::readFile(fixturePath());
    text.replace("\"id\":\"01a00000-0000-7000-8000-000000000030\"", "\"id\":\"01a00000-0000-7000-8000-000000009998\"");
    text.replace("\"workloadId\":\"01a00000-0000-7000-8000-000000000030\"",
        "\"workloadId\":\"01a00000-0000-7000-8000-000000009999\"");
    const QString orphan = dir.filePath(QStringLiteral("orphan.jsonl"));
    writeAll(orphan, text);
    const ParseResult c = parseFile(orphan);
    QCOMPARE(c.runs.size(), a.runs.size());
    QVERIFY(hasMessage(
        c.diagnostics, QStringLiteral("workload 01a00000-0000-7000-8000-000000009999 is not in the export"), false));
    const RunPtr* run = runAt(c.runs, QStringLiteral("/11"));
    QVERIFY(run && !documentOf(*run).contains("workload") && !documentOf(*run).contains("operation"));
}

void TestFormatInputs::catalogZstdStreamed()
{
    // The fixture with a benchmark row padded past the decoder's output block (a line cut across pieces), in two
    // frames cut mid-line: the same documents as the plain text.
    QByteArray text = kixtest::readFile(fixturePath());
    const QByteArray marker = "{\"table\":\"benchmark_runs\",\"row\":{";
    const qsizetype at = text.indexOf(marker);
    QVERIFY(at > 0);
    text.insert(at + marker.size(), "\"padding\":\"" + QByteArray(int(ZSTD_DStreamOutSize()) * 2, 'p') + "\",");
    const qsizetype cut = text.indexOf(marker) + 100;
    const QByteArray twoFrames = compress(text.left(cut)) + compress(text.mid(cut), 19);
    QTemporaryDir dir;
    const QString plain = dir.filePath(QStringLiteral("catalog-plain.jsonl"));
    const QString packed = dir.filePath(QStringLiteral("catalog-2026-01-01-fixture.jsonl.zst"));
    writeAll(plain, text);
    writeAll(packed, twoFrames);
    const ParseResult a = parseFile(plain);
    const ParseResult b = parseFile(packed);
    QVERIFY(!a.runs.isEmpty());
    QCOMPARE(sortedDocuments(b.runs), sortedDocuments(a.runs));
    for (const RunPtr& run : b.runs)
        QCOMPARE(run->file, packed);
    // the same bytes in memory (the fuzz target's way in), whatever the name
    const ParseResult c = parseBytes(twoFrames, QStringLiteral("memory.bin"));
    QCOMPARE(sortedDocuments(c.runs), sortedDocuments(a.runs));
    // and through the loader, as the window and every command read it: the folder search finds .zst files
    const LoadResult loaded = loadPaths({ dir.path() });
    QCOMPARE(loaded.files, 2);
}

void TestFormatInputs::catalogZstdRefusals()
{
    QTemporaryDir dir;
    // a bomb: 24 MiB of blank lines compress to a few kB, more than 1000 times smaller
    const QByteArray bomb = compress(QByteArray(24 << 20, '\n'), 19);
    QVERIFY(bomb.size() < (24 << 20) / 1000);
    const QString bombPath = dir.filePath(QStringLiteral("bomb.jsonl.zst"));
    writeAll(bombPath, bomb);
    ParseResult r = parseFile(bombPath);
    QVERIFY(r.runs.isEmpty());
    QVERIFY2(hasMessage(r.diagnostics, QStringLiteral("decompression bomb"), true),
        qPrintable(r.diagnostics.value(0).toString()));
    QCOMPARE(r.diagnostics.first().file, bombPath);
    // the cap on decompressed bytes, whatever the ratio
    ParseLimits small;
    small.maxDecompressedBytes = 4096;
    r = parseFile(bombPath, small);
    QVERIFY(hasMessage(r.diagnostics, QStringLiteral("more than the limit of 4096 bytes"), true));
    // a cut file: what was read before the cut still loads, the cut is named
    const QByteArray whole = compress(kixtest::readFile(fixturePath()));
    const QString cutPath = dir.filePath(QStringLiteral("cut.jsonl.zst"));
    writeAll(cutPath, whole.left(whole.size() - 8));
    r = parseFile(cutPath);
    QVERIFY(hasMessage(r.diagnostics, QStringLiteral("the file is cut"), true));
    // not Zstandard at all
    const QString junk = dir.filePath(QStringLiteral("junk.zst"));
    writeAll(junk, QByteArray("definitely not zstd"));
    r = parseFile(junk);
    QVERIFY(hasMessage(r.diagnostics, QStringLiteral("not valid Zstandard data"), true));
    // compressed JSON Lines that are not a catalog: read as kernelindex documents, line numbers kept
    const QByteArray lines = "\n"
        + kixtest::readFile(QStringLiteral(KIX_TEST_DATA_DIR "/model/good/bare_run.json")).simplified()
        + "\n{not json}\n";
    const QString jsonl = dir.filePath(QStringLiteral("runs.jsonl.zst"));
    writeAll(jsonl, compress(lines));
    r = parseFile(jsonl);
    QCOMPARE(r.runs.size(), 1);
    QCOMPARE(r.runs.first()->pointer, QStringLiteral("/1"));
    QVERIFY(std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
        [](const Diagnostic& d) { return d.isError() && d.pointer == QLatin1String("/2") && d.line == 3; }));
    // Zstandard holding binary data: one error that names Zstandard, not one per "line" of it
    QByteArray binary(64 << 10, '\0');
    for (int i = 0; i < binary.size(); ++i)
        binary[i] = char((i * 7919) % 251 + ((i % 97) == 0 ? 10 : 0));
    binary[0] = 'x'; // a first line with a NUL in it, as a tar archive's
    binary[1] = '\0';
    const QString packedBinary = dir.filePath(QStringLiteral("archive.tar.zst"));
    writeAll(packedBinary, compress(binary));
    r = parseFile(packedBinary);
    QCOMPARE(r.diagnostics.size(), 1);
    QVERIFY2(r.diagnostics.first().message.contains(QStringLiteral("Zstandard-compressed file that holds binary data")),
        qPrintable(r.diagnostics.first().toString()));
    // decompressed text that is not JSON Lines says it came out of Zstandard
    writeAll(jsonl, compress("kernel,median\ngroup_norm,12\n"));
    r = parseFile(jsonl);
    QVERIFY(hasMessage(r.diagnostics, QStringLiteral("decompressed from Zstandard"), true));
    // a gzip file named .zst gets the gzip hint, not "not valid Zstandard data"
    const QString gz = dir.filePath(QStringLiteral("named-wrong.jsonl.zst"));
    writeAll(gz, QByteArray("\x1F\x8B\x08\x00\x00\x00\x00\x00\x00\x03", 10));
    r = parseFile(gz);
    QCOMPARE(r.diagnostics.size(), 1);
    QVERIFY2(r.diagnostics.first().message.startsWith(QStringLiteral("a gzip-compressed file")),
        qPrintable(r.diagnostics.first().toString()));
}

void TestFormatInputs::catalogProgressAndCancel()
{
    QTemporaryDir dir;
    QByteArray text = kixtest::readFile(fixturePath());
    const QByteArray body = text;
    while (text.size() < (3 << 20)) // several compressed blocks
        text += body;
    const QString path = dir.filePath(QStringLiteral("big.jsonl.zst"));
    writeAll(path, compress(text, 1));
    std::atomic<bool> cancel { false };
    qint64 lastDone = -1;
    qint64 lastTotal = -1;
    int reports = 0;
    const LoadResult done = loadPaths({ path }, &cancel, {}, [&](const QString& file, qint64 d, qint64 t) {
        QCOMPARE(file, path);
        QVERIFY(d >= lastDone);
        lastDone = d;
        lastTotal = t;
        ++reports;
    });
    QVERIFY(!done.cancelled);
    QVERIFY(reports >= 1);
    QCOMPARE(lastDone, QFileInfo(path).size());
    QCOMPARE(lastTotal, lastDone);
    QVERIFY(!done.runs.isEmpty());
    // cancelled from the first progress report on: the read stops and the result says so
    const LoadResult stopped
        = loadPaths({ path }, &cancel, {}, [&](const QString&, qint64, qint64) { cancel.store(true); });
    QVERIFY(stopped.cancelled);
    QVERIFY(stopped.runs.isEmpty());
}

void TestFormatInputs::catalogRowErrorsNamed()
{
    QByteArray text = kixtest::readFile(fixturePath());
    text += "{\"table\":\"benchmark_runs\"}\n{broken\n{\"table\":\"workloads\",\"row\":{\"id\":\"x\"}}\n"
            "{\"table\":\"benchmark_runs\",\"row\":{\"id\":\"r\",\"manifest\":{\"run\":{\"kind\":\"BenchmarkRun\","
            "\"spec\":{\"status\":42}}}}}\n";
    const ParseResult r = parseBytes(text, QStringLiteral("rows.jsonl"));
    QVERIFY(!r.runs.isEmpty()); // the good rows beside the bad ones
    auto errorAt = [&](const QString& pointer) {
        return std::any_of(r.diagnostics.begin(), r.diagnostics.end(), [&](const Diagnostic& d) {
            return d.isError() && d.pointer.startsWith(pointer) && d.file == QLatin1String("rows.jsonl");
        });
    };
    QVERIFY(errorAt(QStringLiteral("/27"))); // no row
    QVERIFY(errorAt(QStringLiteral("/28"))); // not JSON
    QVERIFY(errorAt(QStringLiteral("/29/row/manifest"))); // no manifest
    QVERIFY(errorAt(QStringLiteral("/30/run"))); // a run the extractor refuses
    // Every problem of a row names the row's line, 1-based: the pointer's first token + 1 ("rows.jsonl:31").
    int lined = 0;
    for (const Diagnostic& d : r.diagnostics) {
        bool number = false;
        const int index = d.pointer.section(QLatin1Char('/'), 1, 1).toInt(&number);
        if (!number)
            continue;
        QCOMPARE(d.line, index + 1);
        ++lined;
    }
    QVERIFY(lined >= 4);
}

KIX_TEST_GUILESS_MAIN(TestFormatInputs)
#include "tst_formatinputs.moc"
