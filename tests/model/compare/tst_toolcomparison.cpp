// SPDX-License-Identifier: Apache-2.0
// Two files of one tool compared in that tool's terms. The expected ratios, verdicts and p-values are worked out by
// hand from the fixtures in tests/data/interop/ (see the comments next to each number).
#include "model/compare/comparison.h"
#include "model/compare/toolcomparison.h"
#include "model/compare/toolcomparisonreport.h"
#include "model/read/runloader.h"
#include "model/statistics.h"

#include "tests/support/testfiles.h"
#include "tests/support/testmain.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>

#include <nlohmann/json.hpp>

using namespace kix;

namespace {

const FamilyPair* pairNamed(const ToolComparison& c, const QString& name)
{
    for (const FamilyPair& p : c.pairs) {
        if (p.name == name)
            return &p;
    }
    return nullptr;
}

} // namespace

class TestToolComparison : public QObject
{
    Q_OBJECT
private slots:
    void exactUTest_data();
    void exactUTest();
    void samePValueOnEveryPath();
    void nvbenchLikeNvbenchCompare();
    void gbenchLikeComparePy();
    void generalComparisonUsesNvbenchRule();
    void onlyTwoFilesOfOneFamily();
    void referenceIsFirstGivenOrNamed();
    void reports();
};

void TestToolComparison::exactUTest_data()
{
    QTest::addColumn<std::vector<double>>("a");
    QTest::addColumn<std::vector<double>>("b");
    QTest::addColumn<double>("p");
    // m = n = 3: the 20 arrangements give U = 0..9 with counts 1 1 2 3 3 3 3 2 1 1.
    // Separated samples: U = 9, P(U >= 9) = 1/20, two-sided 0.1.
    QTest::newRow("separated") << std::vector<double> { 1, 2, 3 } << std::vector<double> { 4, 5, 6 } << 0.1;
    QTest::newRow("separated, swapped") << std::vector<double> { 4, 5, 6 } << std::vector<double> { 1, 2, 3 } << 0.1;
    // 1 3 5 against 2 4 6: U1 = 3 (3>2, 5>2, 5>4), max(3, 6) = 6, P(U >= 6) = (3+2+1+1)/20, two-sided 0.7.
    QTest::newRow("interleaved") << std::vector<double> { 1, 3, 5 } << std::vector<double> { 2, 4, 6 } << 0.7;
    // m = 2, n = 2: six arrangements, U = 0..4 with counts 1 1 2 1 1; separated: 2 * 1/6.
    QTest::newRow("two by two") << std::vector<double> { 1, 2 } << std::vector<double> { 3, 4 } << 1.0 / 3;
}

void TestToolComparison::exactUTest()
{
    QFETCH(std::vector<double>, a);
    QFETCH(std::vector<double>, b);
    QFETCH(double, p);
    QCOMPARE(mannWhitneyU(a, b).p, p);
}

// One statistics home: the same repetitions give the same p-value on the kernelindex path (the general comparison's
// verdict) and on the Google Benchmark path (compare.py's U test), scipy's default method on both: 3 against 4 values
// without ties is exact, 2 / C(7, 3) = 0.05714285714285714 (the normal approximation would give 0.0765).
void TestToolComparison::samePValueOnEveryPath()
{
    auto makeRun = [](const QString& provider, std::vector<double> samples) {
        auto run = std::make_shared<Run>();
        run->kernel = QStringLiteral("parse");
        run->pass = QStringLiteral("real_time");
        run->provider = provider;
        run->gpuSlug = QStringLiteral("cpu-host");
        run->workloadSlug = QStringLiteral("arg0=64");
        run->externalId = QStringLiteral("parse/real_time/%1/cpu-host/arg0=64/2024-05-06-09-30-00").arg(provider);
        run->title = QStringLiteral("BM_parse/64");
        run->status = QStringLiteral("passed");
        run->protocolFamily = QStringLiteral("gbench");
        std::vector<double> sorted = samples;
        std::sort(sorted.begin(), sorted.end());
        run->median = sorted[sorted.size() / 2];
        run->samples = samples;
        run->cpuSamples = samples;
        run->finalize();
        return run;
    };
    const RunPtr reference = makeRun(QStringLiteral("old"), { 101.5, 99.0, 100.25 });
    const RunPtr candidate = makeRun(QStringLiteral("new"), { 95.25, 96.5, 94.0, 97.25 });
    const double expected = 0.05714285714285714;

    ComparisonPair pair;
    decideVerdict(*reference, *candidate, 0.05, pair);
    QCOMPARE(pair.method, VerdictMethod::MannWhitney);
    QVERIFY2(std::abs(pair.pValue - expected) < 1e-15, qPrintable(QString::number(pair.pValue, 'g', 17)));

    const ToolComparison c = compareGbench({ reference }, { candidate });
    QCOMPARE(c.pairs.size(), 1);
    QCOMPARE(c.pairs[0].timePValue, pair.pValue);
    QCOMPARE(c.pairs[0].cpuPValue, pair.pValue);
}

void TestToolComparison::nvbenchLikeNvbenchCompare()
{
    const LoadResult loaded = loadPaths({ kixtest::interopDataPath(QStringLiteral("nvbench_ref.json")),
        kixtest::interopDataPath(QStringLiteral("nvbench_cmp.json")) });
    const std::optional<ToolComparison> c = compareFamilyFiles(loaded.runs);
    QVERIFY(c);
    QCOMPARE(c->family, QStringLiteral("nvbench_cold"));
    QVERIFY(c->referenceFile.endsWith(QStringLiteral("nvbench_ref.json")));
    QCOMPARE(c->pairs.size(), 3); // the skipped F64 2^24 state is not compared
    QVERIFY(c->notes.join(QLatin1Char(' ')).contains(QStringLiteral("1 pair(s) not compared")));

    // 10.0 us -> 10.1 us: +100 ns, +1%; noises 2% and 3%, the smaller 2% >= 1%: same
    const FamilyPair* same = pairNamed(*c, QStringLiteral("copy · Device=0 T=I32 Elements{io}=2^20"));
    QVERIFY(same);
    QCOMPARE(same->referenceTime, 10000.0);
    QCOMPARE(same->candidateTime, 10100.0);
    QCOMPARE(same->diff, 100.0);
    QVERIFY(qFuzzyCompare(same->fracDiff, 0.01));
    QCOMPARE(same->referenceNoise, 0.02);
    QCOMPARE(same->candidateNoise, 0.03);
    QCOMPARE(same->status, QStringLiteral("same"));
    // 100 us -> 90 us: -10%, beyond the smaller noise 1%: faster
    const FamilyPair* faster = pairNamed(*c, QStringLiteral("copy · Device=0 T=I32 Elements{io}=2^24"));
    QVERIFY(faster);
    QCOMPARE(faster->diff, -10000.0);
    QVERIFY(qFuzzyCompare(faster->fracDiff, -0.1));
    QCOMPARE(faster->status, QStringLiteral("faster"));
    // 20 us -> 25 us: +25%, beyond the smaller noise 4%: slower
    const FamilyPair* slower = pairNamed(*c, QStringLiteral("copy · Device=0 T=F64 Elements{io}=2^20"));
    QVERIFY(slower);
    QCOMPARE(slower->diff, 5000.0);
    QCOMPARE(slower->fracDiff, 0.25);
    QCOMPARE(slower->status, QStringLiteral("slower"));
    QVERIFY(slower->warnings.isEmpty());
}

void TestToolComparison::gbenchLikeComparePy()
{
    const LoadResult loaded = loadPaths({ kixtest::interopDataPath(QStringLiteral("gbench_base.json")),
        kixtest::interopDataPath(QStringLiteral("gbench_new.json")) });
    const std::optional<ToolComparison> c = compareFamilyFiles(loaded.runs);
    QVERIFY(c);
    QCOMPARE(c->family, QStringLiteral("gbench"));
    QCOMPARE(c->pairs.size(), 3);
    // BM_fail exists only in the new file
    QVERIFY(c->notes.join(QLatin1Char(' ')).contains(QStringLiteral("1 run(s) of the candidate have no counterpart")));
    QVERIFY(c->notes.join(QLatin1Char(' ')).contains(QStringLiteral("fewer than 9 repetitions")));

    // three repetitions each: mean 110 -> 140 ns, (140 - 110) / 110 = 3/11; CPU 109 -> 139, 30/109.
    const FamilyPair* copy = pairNamed(*c, QStringLiteral("BM_copy/8/64"));
    QVERIFY(copy);
    QVERIFY(qFuzzyCompare(copy->timeChange, 3.0 / 11));
    QVERIFY(qFuzzyCompare(copy->cpuChange, 30.0 / 109));
    QCOMPARE(copy->referenceRepetitions, 3);
    QCOMPARE(copy->candidateRepetitions, 3);
    // every new repetition is slower than every old one, no ties, 3 vs 3: exact U test, 2 * 1/20
    QCOMPARE(copy->timePValue, 0.1);
    QCOMPARE(copy->cpuPValue, 0.1);

    // one repetition each: 2.0 us -> 1.5 us is -25%; CPU 1.9 -> 1.4 us is -0.5/1.9; no U test
    const FamilyPair* sort = pairNamed(*c, QStringLiteral("BM_sort/size:1024"));
    QVERIFY(sort);
    QCOMPARE(sort->timeChange, -0.25);
    QVERIFY(qFuzzyCompare(sort->cpuChange, -0.5 / 1.9));
    QVERIFY(std::isnan(sort->timePValue));

    // nine repetitions each (10..18 ns against 20..28 ns): means 14 -> 24, +10/14. Both samples have more than 8
    // values, so the normal approximation: U = 81, mean 40.5, variance 9*9*19/12 = 128.25, z = (81 - 40.5 - 0.5) /
    // sqrt(128.25) = 3.53209, p = erfc(z / sqrt 2) = 0.000412295. The CPU times are all 10 ns: all tied, p = 1.
    const FamilyPair* fill = pairNamed(*c, QStringLiteral("BM_fill/16"));
    QVERIFY(fill);
    QVERIFY(qFuzzyCompare(fill->timeChange, 10.0 / 14));
    QVERIFY(std::abs(fill->timePValue - 0.000412295) < 1e-9);
    QCOMPARE(fill->cpuPValue, 1.0);
}

void TestToolComparison::generalComparisonUsesNvbenchRule()
{
    // The window's speed-up (compareRuns) with the reference file's provider as the baseline: same pairs, same
    // verdicts, ratio = baseline / run.
    const LoadResult loaded = loadPaths({ kixtest::interopDataPath(QStringLiteral("nvbench_ref.json")),
        kixtest::interopDataPath(QStringLiteral("nvbench_cmp.json")) });
    const Comparison c = compareRuns(loaded.runs, Baseline::ofProvider(QStringLiteral("nvbench_ref")));
    // the skipped state (incomplete_evidence, a failure status) is evidence, not a time: never paired
    QCOMPARE(c.pairs.size(), 3);
    QHash<QString, ComparisonPair> byTitle;
    for (const ComparisonPair& p : c.pairs) {
        QVERIFY(!p.run->failed() && !p.baseline->failed());
        QCOMPARE(p.method, VerdictMethod::NvbenchNoise);
        byTitle.insert(p.run->title, p);
    }
    const ComparisonPair same = byTitle.value(QStringLiteral("copy · Device=0 T=I32 Elements{io}=2^20"));
    QCOMPARE(same.verdict, Verdict::Same);
    QVERIFY(qFuzzyCompare(same.ratio, 10000.0 / 10100));
    const ComparisonPair faster = byTitle.value(QStringLiteral("copy · Device=0 T=I32 Elements{io}=2^24"));
    QCOMPARE(faster.verdict, Verdict::Faster);
    // one file per build: the two files' runs are different implementations of the same workload
    QVERIFY(faster.run->implementationDigest != faster.baseline->implementationDigest);
    QCOMPARE(faster.run->workloadDigest, faster.baseline->workloadDigest);
    QVERIFY(qFuzzyCompare(faster.ratio, 100000.0 / 90000));
    QCOMPARE(byTitle.value(QStringLiteral("copy · Device=0 T=F64 Elements{io}=2^20")).verdict, Verdict::Slower);
}

void TestToolComparison::onlyTwoFilesOfOneFamily()
{
    // one file: nothing to pair file against file
    QVERIFY(!compareFamilyFiles(loadPaths({ kixtest::interopDataPath(QStringLiteral("nvbench_ref.json")) }).runs));
    // two families: the general comparison applies (with its warnings), not a tool's own
    QVERIFY(!compareFamilyFiles(loadPaths({ kixtest::interopDataPath(QStringLiteral("nvbench_ref.json")),
                                              kixtest::interopDataPath(QStringLiteral("gbench_new.json")) })
                                    .runs));
    // pytest-benchmark has no comparison of its own beyond the general one
    QVERIFY(!compareFamilyFiles(loadPaths({ kixtest::interopDataPath(QStringLiteral("pytest_benchmark.json")),
                                              kixtest::interopDataPath(QStringLiteral("bad/good_pytest.json")) })
                                    .runs));
}

void TestToolComparison::referenceIsFirstGivenOrNamed()
{
    // The file names say nothing: the first given is the reference, though it sorts last.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString first = dir.filePath(QStringLiteral("zz_first.json"));
    const QString second = dir.filePath(QStringLiteral("aa_second.json"));
    QVERIFY(QFile::copy(kixtest::interopDataPath(QStringLiteral("nvbench_ref.json")), first));
    QVERIFY(QFile::copy(kixtest::interopDataPath(QStringLiteral("nvbench_cmp.json")), second));
    const LoadResult loaded = loadPaths({ first, second });
    std::optional<ToolComparison> c = compareFamilyFiles(loaded.runs);
    QVERIFY(c);
    QCOMPARE(c->referenceFile, first);
    QCOMPARE(c->candidateFile, second);
    // 100 us in the first file, 90 us in the second: faster
    const FamilyPair* p = pairNamed(*c, QStringLiteral("copy · Device=0 T=I32 Elements{io}=2^24"));
    QVERIFY(p);
    QCOMPARE(p->status, QStringLiteral("faster"));
    QCOMPARE(toolReferenceProvider(loaded.runs), QStringLiteral("zz_first"));

    // The other order: the other reference, and the same pair is slower.
    const LoadResult swapped = loadPaths({ second, first });
    c = compareFamilyFiles(swapped.runs);
    QVERIFY(c);
    QCOMPARE(c->referenceFile, second);
    QCOMPARE(
        pairNamed(*c, QStringLiteral("copy · Device=0 T=I32 Elements{io}=2^24"))->status, QStringLiteral("slower"));
    QCOMPARE(toolReferenceProvider(swapped.runs), QStringLiteral("aa_second"));

    // A file named as the reference is the reference, whatever the order.
    const LoadResult named = loadPaths({ kixtest::interopDataPath(QStringLiteral("nvbench_cmp.json")),
        kixtest::interopDataPath(QStringLiteral("nvbench_ref.json")) });
    c = compareFamilyFiles(named.runs);
    QVERIFY(c);
    QVERIFY(c->referenceFile.endsWith(QStringLiteral("nvbench_ref.json")));
    QCOMPARE(toolReferenceProvider(named.runs), QStringLiteral("nvbench_ref"));

    // Words of the base name, not letters inside one.
    QCOMPARE(referenceFileIndex(QStringLiteral("new.json"), QStringLiteral("base.json")), 1);
    QCOMPARE(referenceFileIndex(QStringLiteral("x.json"), QStringLiteral("run-baseline.json")), 1);
    QCOMPARE(referenceFileIndex(QStringLiteral("x.json"), QStringLiteral("gbench_reference.json")), 1);
    QCOMPARE(referenceFileIndex(QStringLiteral("a_ref.json"), QStringLiteral("b_base.json")), 0); // both: the first
    QCOMPARE(referenceFileIndex(QStringLiteral("x.json"), QStringLiteral("database.json")), 0);
    QCOMPARE(referenceFileIndex(QStringLiteral("x.json"), QStringLiteral("refactor.json")), 0);
    // Not two files of one tool: no reference provider.
    QVERIFY(toolReferenceProvider(loadPaths({ kixtest::interopDataPath(QStringLiteral("nvbench_ref.json")) }).runs)
                .isEmpty());
}

void TestToolComparison::reports()
{
    const LoadResult loaded = loadPaths({ kixtest::interopDataPath(QStringLiteral("nvbench_ref.json")),
        kixtest::interopDataPath(QStringLiteral("nvbench_cmp.json")) });
    const ToolComparison c = *compareFamilyFiles(loaded.runs);
    const QString table = QString::fromUtf8(toolComparisonToTable(c));
    QVERIFY2(table.contains(QStringLiteral("-10.00%")), qPrintable(table));
    QVERIFY(table.contains(QStringLiteral("3 pairs: 1 faster, 1 slower, 1 same within the noise, 0 unknown")));
    const QByteArray csv = toolComparisonToCsv(c);
    QVERIFY(csv.startsWith("state,ref_time_ns,ref_noise,cmp_time_ns,cmp_noise,diff_ns,frac_diff,status\n"));
    QVERIFY(csv.contains(",slower\n"));
    const nlohmann::json j = nlohmann::json::parse(toolComparisonToJson(c).toStdString());
    QCOMPARE(j["pairs"].size(), std::size_t(3));
    QCOMPARE(QString::fromStdString(j["pairs"][2]["status"].get<std::string>()), QStringLiteral("slower"));
    QCOMPARE(j["pairs"][2]["fracDiff"].get<double>(), 0.25);
}

KIX_TEST_GUILESS_MAIN(TestToolComparison)
#include "tst_toolcomparison.moc"
