// SPDX-License-Identifier: Apache-2.0
// kix list, import and compare on nvbench, Google Benchmark and pytest-benchmark JSON, through the real binary.
#include "model/format/digest.h"
#include "model/format/documentbuilder.h"
#include "model/read/documentparser.h"
#include "model/read/runloader.h"
#include "tests/support/processes.h"
#include "tests/support/testfiles.h"

#include "tests/support/testmain.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include <nlohmann/json.hpp>

using namespace kix;

namespace {

using Result = kixtest::CommandResult;

Result runKixBinary(const QStringList& args)
{
    return kixtest::runProgram(QStringLiteral(KIX_BINARY), args);
}

QStringList fixtures()
{
    return { kixtest::interopDataPath(QStringLiteral("nvbench_ref.json")),
        kixtest::interopDataPath(QStringLiteral("gbench_new.json")),
        kixtest::interopDataPath(QStringLiteral("pytest_benchmark.json")) };
}

} // namespace

class TestKixInterop : public QObject
{
    Q_OBJECT
private slots:
    void listShowsEveryFormat();
    void importWritesKernelindexThatLoadsBack_data();
    void importWritesKernelindexThatLoadsBack();
    void importRefusesBadInputButWritesTheRest();
    void compareNvbenchFiles();
    void compareGbenchFiles();
    void compareAcrossFamiliesWarns();
};

void TestKixInterop::listShowsEveryFormat()
{
    const Result r = runKixBinary(
        QStringList { QStringLiteral("list"), QStringLiteral("--format"), QStringLiteral("json") } + fixtures());
    QCOMPARE(r.code, 0);
    const nlohmann::json rows = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(rows.size(), std::size_t(4 + 4 + 2)); // nvbench states, gbench instances, pytest benchmarks
    QStringList kernels;
    for (const auto& row : rows)
        kernels << QString::fromStdString(row["kernel"].get<std::string>());
    QVERIFY(kernels.contains(QStringLiteral("copy")));
    QVERIFY(kernels.contains(QStringLiteral("BM_copy")));
    QVERIFY(kernels.contains(QStringLiteral("test_softmax")));
    // nvbench's headline is a mean and is called so; Google Benchmark's (repetitions) a median
    for (const auto& row : rows) {
        if (row["kernel"] == "copy" && row["status"] == "passed")
            QCOMPARE(QString::fromStdString(row["statistic"].get<std::string>()), QStringLiteral("mean"));
        if (row["kernel"] == "BM_copy" && row["status"] == "passed")
            QCOMPARE(QString::fromStdString(row["statistic"].get<std::string>()), QStringLiteral("median"));
    }
    const Result table
        = runKixBinary({ QStringLiteral("list"), kixtest::interopDataPath(QStringLiteral("nvbench_ref.json")) });
    QCOMPARE(table.code, 0);
    QVERIFY2(table.out.section(QLatin1Char('\n'), 0, 0).contains(QStringLiteral("statistic")), qPrintable(table.out));
    QVERIFY2(!table.out.contains(QStringLiteral("median")), qPrintable(table.out));
}

void TestKixInterop::importWritesKernelindexThatLoadsBack_data()
{
    QTest::addColumn<QString>("target");
    QTest::newRow("folder") << QStringLiteral("runs");
    QTest::newRow("jsonl") << QStringLiteral("runs.jsonl");
}

void TestKixInterop::importWritesKernelindexThatLoadsBack()
{
    QFETCH(QString, target);
    QTemporaryDir dir;
    const QString out = dir.filePath(target);
    const Result r = runKixBinary(
        QStringList { QStringLiteral("import") } + fixtures() + QStringList { QStringLiteral("--out"), out });
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains(QStringLiteral("imported 10 runs from 3 files")));
    const Result validate = runKixBinary({ QStringLiteral("validate"), out });
    QCOMPARE(validate.code, 0);
    QVERIFY(validate.out.isEmpty());

    // the written documents load back as the same runs, and no longer need the importers
    const LoadResult original = loadPaths(fixtures());
    const LoadResult again = loadPaths({ out });
    QCOMPARE(again.runs.size(), original.runs.size());
    QHash<QString, RunPtr> byId;
    for (const RunPtr& run : again.runs)
        byId.insert(run->identityKey(), run);
    for (const RunPtr& run : original.runs) {
        const RunPtr back = byId.value(run->identityKey());
        QVERIFY2(back, qPrintable(run->externalId));
        QCOMPARE(back->raw, run->raw);
        QCOMPARE(back->headlineStatistic, run->headlineStatistic);
        // The raw samples are not inline (v1alpha1 has no timing.samplesNs): the document names them by
        // timing.rawSamples, and the evidence file beside it holds exactly the importer's samples. (Reading that file
        // back into Run::samples is the reader's part, not the writer's.)
        if (!run->samples.empty()) {
            const auto doc = nlohmann::json::parse(back->raw.str());
            const nlohmann::json& ref = doc.at("/run/spec/timing/rawSamples"_json_pointer);
            QFile evidence(QFileInfo(back->file).dir().filePath(QString::fromStdString(ref.at("uri"))));
            QVERIFY2(evidence.open(QIODevice::ReadOnly), qPrintable(evidence.fileName()));
            std::vector<double> samples;
            const std::string bytes = evidence.readAll().toStdString();
            QCOMPARE(kix::format::sha256Digest(bytes), ref.at("digest").get<std::string>());
            QVERIFY(kix::format::parseSamplesArtifact(bytes, samples));
            QCOMPARE(samples, run->samples);
        }
    }
    if (target == QLatin1String("runs")) // one file per run
        QCOMPARE(QDir(out).entryList({ QStringLiteral("*.json") }, QDir::Files).size(), 10);
}

void TestKixInterop::importRefusesBadInputButWritesTheRest()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("runs.jsonl"));
    const Result r = runKixBinary(
        { QStringLiteral("import"), kixtest::interopDataPath(QStringLiteral("bad")), QStringLiteral("--out"), out });
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(QStringLiteral("nvbench_bad_value.json: error: /benchmarks/0/states/1/summaries/1/data/0/"
                                           "value: expected a number")),
        qPrintable(r.err));
    QVERIFY(r.err.contains(QStringLiteral("unknown.json: error: /kind: not a kernelindex document")));
    QCOMPARE(parseFile(out).runs.size(), 4);
}

void TestKixInterop::compareNvbenchFiles()
{
    const Result r
        = runKixBinary({ QStringLiteral("compare"), kixtest::interopDataPath(QStringLiteral("nvbench_ref.json")),
            kixtest::interopDataPath(QStringLiteral("nvbench_cmp.json")), QStringLiteral("--format"),
            QStringLiteral("csv") });
    QVERIFY2(r.code == 0, qPrintable(r.err));
    // hand-computed: +1% within the smaller noise 2%; -10% beyond 1%; +25% beyond 4%
    QCOMPARE(r.out,
        QStringLiteral("state,ref_time_ns,ref_noise,cmp_time_ns,cmp_noise,diff_ns,frac_diff,status\n"
                       "copy · Device=0 T=I32 Elements{io}=2^20,10000,0.02,10100,0.03,100,0.01,same\n"
                       "copy · Device=0 T=I32 Elements{io}=2^24,100000,0.01,90000,0.015,-10000,-0.1,faster\n"
                       "copy · Device=0 T=F64 Elements{io}=2^20,20000,0.05,25000,0.04,5000,0.25,slower\n"));
    const Result table
        = runKixBinary({ QStringLiteral("compare"), kixtest::interopDataPath(QStringLiteral("nvbench_ref.json")),
            kixtest::interopDataPath(QStringLiteral("nvbench_cmp.json")) });
    QVERIFY(table.out.contains(QStringLiteral("3 pairs: 1 faster, 1 slower, 1 same within the noise, 0 unknown")));
}

void TestKixInterop::compareGbenchFiles()
{
    const Result r
        = runKixBinary({ QStringLiteral("compare"), kixtest::interopDataPath(QStringLiteral("gbench_base.json")),
            kixtest::interopDataPath(QStringLiteral("gbench_new.json")), QStringLiteral("--format"),
            QStringLiteral("json") });
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(QString::fromStdString(j["family"].get<std::string>()), QStringLiteral("gbench"));
    QCOMPARE(j["pairs"].size(), std::size_t(3));
    const auto& copy = j["pairs"][0];
    QCOMPARE(QString::fromStdString(copy["name"].get<std::string>()), QStringLiteral("BM_copy/8/64"));
    QVERIFY(qFuzzyCompare(copy["timeChange"].get<double>(), 3.0 / 11)); // 110 -> 140 ns
    QCOMPARE(copy["timePValue"].get<double>(), 0.1); // exact U test, 3 vs 3, no overlap

    // the old format (repetitions as repeated entries): scipy's p-values, as compare.py prints them (tst_gbenchshapes
    // has the figures' derivation)
    const Result old = runKixBinary(
        { QStringLiteral("compare"), kixtest::interopDataPath(QStringLiteral("gbench_oldformat_ref.json")),
            kixtest::interopDataPath(QStringLiteral("gbench_oldformat_cmp.json")), QStringLiteral("--format"),
            QStringLiteral("json") });
    QVERIFY2(old.code == 0, qPrintable(old.err));
    const nlohmann::json o = nlohmann::json::parse(old.out.toStdString());
    bool seen = false;
    for (const auto& pair : o["pairs"]) {
        if (pair["name"] == "BM_parse/512") {
            seen = true;
            QVERIFY(std::abs(pair["timePValue"].get<double>() - 0.19908985214820457) < 1e-12);
            QVERIFY(std::abs(pair["cpuPValue"].get<double>() - 0.05714285714285714) < 1e-12);
        }
    }
    QVERIFY(seen);
}

void TestKixInterop::compareAcrossFamiliesWarns()
{
    // an nvbench file and a pytest-benchmark file: the general comparison, with the family difference named
    const Result r
        = runKixBinary({ QStringLiteral("compare"), kixtest::interopDataPath(QStringLiteral("pytest_benchmark.json")),
            QStringLiteral("--format"), QStringLiteral("json") });
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(j["pairs"].size(), std::size_t(1)); // triton against the torch baseline
    // 125 us (triton) against 225 us (torch): every triton round is faster, 6 vs 6 samples
    QVERIFY(qFuzzyCompare(j["pairs"][0]["ratio"].get<double>(), 225.0 / 125));
    QCOMPARE(QString::fromStdString(j["pairs"][0]["verdict"].get<std::string>()), QStringLiteral("faster"));

    const RunPtr nv = parseFile(kixtest::interopDataPath(QStringLiteral("nvbench_ref.json"))).runs.first();
    const Result mixed
        = runKixBinary({ QStringLiteral("compare"), kixtest::interopDataPath(QStringLiteral("pytest_benchmark.json")),
            kixtest::interopDataPath(QStringLiteral("nvbench_ref.json")), QStringLiteral("--baseline"),
            QStringLiteral("run:") + nv->externalId, QStringLiteral("--format"), QStringLiteral("json") });
    QVERIFY2(
        mixed.out.contains(QStringLiteral("different protocol family: nvbench_cold (baseline) vs pytest_benchmark")),
        qPrintable(mixed.out + mixed.err));
}

KIX_TEST_GUILESS_MAIN(TestKixInterop)
#include "tst_kixinterop.moc"
