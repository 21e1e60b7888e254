// SPDX-License-Identifier: Apache-2.0
// Google Benchmark's other shapes, as its own compare tests (tools/gbench/Inputs) use them: complexity fits
// (the BigO and RMS aggregates), the old format whose repetitions are repeated entries of one name, aggregates
// without a name, entries without a time; and compare.py's U test on them. The fixtures in tests/data/interop/ are
// our own, written in those shapes. Expected p-values come from an independent implementation of
// scipy.stats.mannwhitneyu(x, y, alternative="two-sided") (its default method: exact by enumeration when a sample
// has at most 8 values and there are no ties, else the normal approximation with tie and continuity correction).
//
// KIX_GBENCH_INPUTS, when set, names a folder holding Google Benchmark's own tools/gbench/Inputs: the test then
// also loads those files and checks compare.py's own expected p-values (report.py's unit tests). Skipped when unset.
#include "model/compare/toolcomparison.h"
#include "model/read/documentparser.h"
#include "model/read/runloader.h"

#include "tests/support/testfiles.h"
#include "tests/support/testmain.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix;

namespace {

int errorCount(const Diagnostics& diagnostics)
{
    int n = 0;
    for (const Diagnostic& d : diagnostics)
        n += d.isError() ? 1 : 0;
    return n;
}

QString all(const Diagnostics& diagnostics)
{
    QStringList lines;
    for (const Diagnostic& d : diagnostics)
        lines << d.toString();
    return lines.join(QLatin1Char('\n'));
}

const FamilyPair* familyPair(const ToolComparison& c, const QString& name)
{
    for (const FamilyPair& p : c.pairs) {
        if (p.name == name)
            return &p;
    }
    return nullptr;
}

bool near(double actual, double expected)
{
    return std::abs(actual - expected) <= 1e-12 * std::max(1.0, std::abs(expected));
}

} // namespace

class TestGbenchShapes : public QObject
{
    Q_OBJECT
private slots:
    void complexityFitsAreMeasurementsOfTheFamily();
    void oldFormatRepetitionsFold();
    void compareGivesComparePyPValues_data();
    void compareGivesComparePyPValues();
    void oneRepetitionHasNoUTest();
    void thousandRepetitions();
    void upstreamInputs();
};

void TestGbenchShapes::complexityFitsAreMeasurementsOfTheFamily()
{
    const ParseResult parsed = parseFile(kixtest::interopDataPath(QStringLiteral("gbench_complexity.json")));
    QVERIFY2(errorCount(parsed.diagnostics) == 0, qPrintable(all(parsed.diagnostics)));
    QCOMPARE(parsed.runs.size(), 4); // BM_sort/8, /64, /512 and the aggregates-only BM_agg
    for (const char* title : { "BM_sort/8", "BM_sort/64", "BM_sort/512" }) {
        const RunPtr run = kixtest::runByTitle(parsed.runs, QLatin1String(title));
        QVERIFY2(run, title);
        // the fit's coefficients are in us in the file: 0.0026 us = 2.6 ns per N lg N
        QVERIFY(
            near(kixtest::measurementValue(*run, QStringLiteral("complexity_coefficient"), QStringLiteral("real_time")),
                2.6));
        QVERIFY(
            near(kixtest::measurementValue(*run, QStringLiteral("complexity_coefficient"), QStringLiteral("cpu_time")),
                2.5));
        QCOMPARE(kixtest::measurementValue(*run, QStringLiteral("complexity_rms"), QStringLiteral("cpu_time")), 0.031);
        bool labelled = false;
        for (const KeyValue& kv : run->labels)
            labelled = labelled || (kv.key == QLatin1String("complexity") && kv.value == QLatin1String("O(NlgN)"));
        QVERIFY(labelled);
    }
    QCOMPARE(kixtest::runByTitle(parsed.runs, QStringLiteral("BM_sort/512"))->median, 4610.0);

    const RunPtr agg = kixtest::runByTitle(parsed.runs, QStringLiteral("BM_agg"));
    QVERIFY(agg);
    QCOMPARE(agg->median, 12.0); // 12.25 ns written as the format's integer ns (timing.latencyNs)
    // a percentage aggregate: a fraction
    QCOMPARE(kixtest::measurementValue(*agg, QStringLiteral("latency_cv"), QStringLiteral("aggregate")), 0.04);
    QVERIFY(std::isnan(
        kixtest::measurementValue(*agg, QStringLiteral("complexity_coefficient"), QStringLiteral("real_time"))));

    // A fit of a family with no instance in the file is said, not refused.
    int warnings = 0;
    for (const Diagnostic& d : parsed.diagnostics) {
        if (d.message.contains(QStringLiteral("BM_lonely"))) {
            ++warnings;
            QVERIFY(!d.isError());
            QVERIFY2(d.message.contains(QStringLiteral("O(N)")), qPrintable(d.message));
            QVERIFY2(d.message.contains(QStringLiteral("12.5 %")), qPrintable(d.message));
            QCOMPARE(d.pointer, QStringLiteral("/benchmarks/9"));
        }
    }
    QCOMPARE(warnings, 1);
}

void TestGbenchShapes::oldFormatRepetitionsFold()
{
    const ParseResult parsed = parseFile(kixtest::interopDataPath(QStringLiteral("gbench_oldformat_ref.json")));
    QVERIFY2(errorCount(parsed.diagnostics) == 0, qPrintable(all(parsed.diagnostics)));
    QCOMPARE(parsed.runs.size(), 5); // BM_parse/64, BM_parse/512, BM_hash, BM_once, BM_mark
    const RunPtr parse = kixtest::runByTitle(parsed.runs, QStringLiteral("BM_parse/64"));
    QVERIFY(parse);
    QCOMPARE(parse->samples, (std::vector<double> { 101.5, 99.0, 100.25 }));
    QCOMPARE(parse->cpuSamples, (std::vector<double> { 100.75, 98.5, 99.75 }));
    QCOMPARE(parse->median, 100.0); // the median 100.25 ns as integer ns; the samples keep their fractions
    QCOMPARE(kixtest::runByTitle(parsed.runs, QStringLiteral("BM_hash"))->samples.size(), std::size_t(10));
    QVERIFY(kixtest::runByTitle(parsed.runs, QStringLiteral("BM_once"))->samples.empty());
    QCOMPARE(kixtest::runByTitle(parsed.runs, QStringLiteral("BM_once"))->median, 50.0);
    // BM_mark: one entry marked aggregate with no aggregate_name, one iteration: two repetitions, and a warning.
    QCOMPARE(kixtest::runByTitle(parsed.runs, QStringLiteral("BM_mark"))->samples, (std::vector<double> { 30, 28 }));
    const QString text = all(parsed.diagnostics);
    QVERIFY2(
        text.contains(QStringLiteral("/benchmarks/18: 1 entry marked \"run_type\": \"aggregate\"")), qPrintable(text));
    // BM_sorted_only carries no time: no run, one warning.
    QVERIFY2(text.contains(QStringLiteral("/benchmarks/20: 1 entry carries no time")), qPrintable(text));
}

void TestGbenchShapes::compareGivesComparePyPValues_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("timeP");
    QTest::addColumn<double>("cpuP");
    QTest::addColumn<int>("referenceRepetitions");
    QTest::addColumn<int>("candidateRepetitions");
    // 3 against 4, no ties: exact, 2 * 1/35
    QTest::newRow("exact") << "BM_parse/64" << 0.05714285714285714 << 0.05714285714285714 << 3 << 4;
    // real times tie (815 three times): normal approximation; CPU times do not: exact
    QTest::newRow("ties") << "BM_parse/512" << 0.19908985214820457 << 0.05714285714285714 << 4 << 3;
    // 10 against 10: normal approximation
    QTest::newRow("large") << "BM_hash" << 0.0017062493689196001 << 0.0017062493689196001 << 10 << 10;
    // an unnamed aggregate counted as a repetition, as compare.py does
    QTest::newRow("unnamed aggregate") << "BM_mark" << 0.6666666666666666 << 1.0 << 2 << 2;
}

void TestGbenchShapes::compareGivesComparePyPValues()
{
    QFETCH(QString, name);
    QFETCH(double, timeP);
    QFETCH(double, cpuP);
    QFETCH(int, referenceRepetitions);
    QFETCH(int, candidateRepetitions);
    const LoadResult loaded = loadPaths({ kixtest::interopDataPath(QStringLiteral("gbench_oldformat_ref.json")),
        kixtest::interopDataPath(QStringLiteral("gbench_oldformat_cmp.json")) });
    const std::optional<ToolComparison> c = compareFamilyFiles(loaded.runs);
    QVERIFY(c);
    QCOMPARE(c->family, QStringLiteral("gbench"));
    const FamilyPair* p = familyPair(*c, name);
    QVERIFY(p);
    QVERIFY2(near(p->timePValue, timeP), qPrintable(QString::number(p->timePValue, 'g', 17)));
    QVERIFY2(near(p->cpuPValue, cpuP), qPrintable(QString::number(p->cpuPValue, 'g', 17)));
    QCOMPARE(p->referenceRepetitions, referenceRepetitions);
    QCOMPARE(p->candidateRepetitions, candidateRepetitions);
}

void TestGbenchShapes::oneRepetitionHasNoUTest()
{
    const LoadResult loaded = loadPaths({ kixtest::interopDataPath(QStringLiteral("gbench_oldformat_ref.json")),
        kixtest::interopDataPath(QStringLiteral("gbench_oldformat_cmp.json")) });
    const std::optional<ToolComparison> c = compareFamilyFiles(loaded.runs);
    QVERIFY(c);
    const FamilyPair* once = familyPair(*c, QStringLiteral("BM_once"));
    QVERIFY(once);
    QVERIFY(std::isnan(once->timePValue));
    QVERIFY(std::isnan(once->cpuPValue));
    QCOMPARE(once->timeChange, -0.1); // (45 - 50) / 50
}

// report.py's TestReportDifferenceWithUTestWhileDisplayingAggregatesOnly2: 1000 repetitions of 1 s against
// 1000 of 1000 s (CPU the other way round) give p-values of 0.0 for both.
void TestGbenchShapes::thousandRepetitions()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    auto write = [&](const QString& name, double real, double cpu) {
        nlohmann::json doc
            = { { "context", { { "date", "2024-05-06T09:30:00Z" } } }, { "benchmarks", nlohmann::json::array() } };
        for (int i = 0; i < 1000; ++i)
            doc["benchmarks"].push_back({ { "name", "BM_ManyRepetitions" }, { "iterations", 1000 },
                { "real_time", real }, { "cpu_time", cpu }, { "time_unit", "s" } });
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(doc.dump()));
    };
    write(QStringLiteral("a.json"), 1, 1000);
    write(QStringLiteral("b.json"), 1000, 1);
    const LoadResult loaded
        = loadPaths({ dir.filePath(QStringLiteral("a.json")), dir.filePath(QStringLiteral("b.json")) });
    const std::optional<ToolComparison> c = compareFamilyFiles(loaded.runs);
    QVERIFY(c);
    QCOMPARE(c->pairs.size(), 1);
    QCOMPARE(c->pairs[0].referenceRepetitions, 1000);
    QCOMPARE(c->pairs[0].timePValue, 0.0);
    QCOMPARE(c->pairs[0].cpuPValue, 0.0);
    QVERIFY(!c->notes.join(QLatin1Char(' ')).contains(QStringLiteral("fewer than 9")));
}

void TestGbenchShapes::upstreamInputs()
{
    const QString inputs = qEnvironmentVariable("KIX_GBENCH_INPUTS");
    if (inputs.isEmpty())
        QSKIP("KIX_GBENCH_INPUTS is not set (a folder holding Google Benchmark's tools/gbench/Inputs)");
    const QDir dir(inputs);
    for (const char* name : { "test1_run1.json", "test1_run2.json", "test2_run.json", "test3_run0.json",
             "test3_run1.json", "test5_run0.json", "test5_run1.json" }) {
        const ParseResult parsed = parseFile(dir.filePath(QLatin1String(name)));
        QVERIFY2(errorCount(parsed.diagnostics) == 0, qPrintable(name + (QLatin1Char('\n') + all(parsed.diagnostics))));
        qInfo("%s: %d runs, %d warnings", name, int(parsed.runs.size()), int(parsed.diagnostics.size()));
    }
    // test4_run0/1 hold one percentage aggregate and nothing else, test4_run (a sorting test) entries with no time:
    // no run to make, each said in a warning, and the file as a whole has no benchmark results.
    for (const char* name : { "test4_run0.json", "test4_run1.json", "test4_run.json" }) {
        const ParseResult parsed = parseFile(dir.filePath(QLatin1String(name)));
        QVERIFY(parsed.runs.isEmpty());
        QCOMPARE(errorCount(parsed.diagnostics), 1);
        const QString text = all(parsed.diagnostics);
        QVERIFY2(text.contains(QStringLiteral("with no benchmark results")), qPrintable(text));
        QVERIFY2(
            text.contains(QStringLiteral("only zz (percentage)")) || text.contains(QStringLiteral("carry no time")),
            qPrintable(text));
    }
    // test1_run1: 14 timed entries, the complexity fit a note
    QCOMPARE(parseFile(dir.filePath(QStringLiteral("test1_run1.json"))).runs.size(), 14);
    // report.py's TestReportDifferenceWithUTest expectations on test3_run0 against test3_run1
    const LoadResult loaded = loadPaths(
        { dir.filePath(QStringLiteral("test3_run0.json")), dir.filePath(QStringLiteral("test3_run1.json")) });
    const std::optional<ToolComparison> c = compareFamilyFiles(loaded.runs);
    QVERIFY(c);
    const FamilyPair* two = familyPair(*c, QStringLiteral("BM_Two"));
    const FamilyPair* shortPair = familyPair(*c, QStringLiteral("short"));
    QVERIFY(two && shortPair);
    QVERIFY(near(two->timePValue, 1.0));
    QVERIFY(near(two->cpuPValue, 0.6666666666666666));
    QVERIFY2(std::abs(shortPair->timePValue - 0.7670968684102772) < 1e-15,
        qPrintable(QString::number(shortPair->timePValue, 'g', 17)));
    QVERIFY(near(shortPair->cpuPValue, 0.2));
    QVERIFY(std::isnan(familyPair(*c, QStringLiteral("BM_One"))->timePValue));
    QVERIFY(std::isnan(familyPair(*c, QStringLiteral("medium"))->timePValue));
}

KIX_TEST_GUILESS_MAIN(TestGbenchShapes)
#include "tst_gbenchshapes.moc"
