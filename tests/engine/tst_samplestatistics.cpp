// SPDX-License-Identifier: Apache-2.0
// The harness's statistics on synthetic timings: quantiles at q * (n - 1) with linear interpolation
// (numpy's default), min, max, mean, sample standard deviation, relative standard error.

#include "engine/samplestatistics.h"
#include "model/statistics.h"

#include "model/chartdata/quantiledata.h"
#include "model/run.h"

#include "tests/support/testmain.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace kix;

class TestSampleStatistics : public QObject
{
    Q_OBJECT

private slots:
    void quantiles_data();
    void quantiles();
    void summary();
    void singleSample();
    void empty();
    void unsortedInputIsSorted();
    void engineAndExplorerQuantilesAgree();
};

void TestSampleStatistics::quantiles_data()
{
    QTest::addColumn<QVector<double>>("sorted");
    QTest::addColumn<double>("q");
    QTest::addColumn<double>("expected");
    // numpy.quantile(values, q) with the default method="linear".
    const QVector<double> four { 1, 2, 3, 4 };
    QTest::newRow("median of four") << four << 0.5 << 2.5;
    QTest::newRow("p20 of four") << four << 0.2 << 1.6;
    QTest::newRow("p80 of four") << four << 0.8 << 3.4;
    QTest::newRow("q0 is min") << four << 0.0 << 1.0;
    QTest::newRow("q1 is max") << four << 1.0 << 4.0;
    const QVector<double> five { 10, 20, 30, 40, 100 };
    QTest::newRow("median of five") << five << 0.5 << 30.0;
    QTest::newRow("p80 of five") << five << 0.8 << 52.0; // position 3.2: 40 + 0.2 * 60
    QTest::newRow("p20 of five") << five << 0.2 << 18.0; // position 0.8
    QTest::newRow("one value") << QVector<double> { 7 } << 0.2 << 7.0;
    QTest::newRow("q above 1 is max") << four << 1.5 << 4.0; // read past the end before there was one quantile
    QTest::newRow("q below 0 is min") << four << -0.5 << 1.0;
    QTest::newRow("q 1 of one value") << QVector<double> { 7 } << 1.0 << 7.0;
}

void TestSampleStatistics::quantiles()
{
    QFETCH(QVector<double>, sorted);
    QFETCH(double, q);
    QFETCH(double, expected);
    const std::vector<double> values(sorted.begin(), sorted.end());
    QCOMPARE(sortedQuantile(values, q), expected);
}

void TestSampleStatistics::summary()
{
    const SampleStatistics s = computeStatistics({ 1000, 1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 1900 });
    QCOMPARE(s.count, 10);
    QCOMPARE(s.min, 1000.0);
    QCOMPARE(s.max, 1900.0);
    QCOMPARE(s.median, 1450.0);
    QCOMPARE(s.p20, 1180.0); // position 1.8
    QCOMPARE(s.p80, 1720.0); // position 7.2
    QCOMPARE(s.mean, 1450.0);
    // sample standard deviation of an arithmetic sequence with step 100: 100 * sqrt(n (n + 1) / 12)
    QVERIFY(std::abs(s.stddev - 100 * std::sqrt(10.0 * 11.0 / 12.0)) < 1e-9);
    QVERIFY(std::abs(s.relativeStandardError - s.stddev / std::sqrt(10.0) / 1450.0) < 1e-12);
}

void TestSampleStatistics::singleSample()
{
    const SampleStatistics s = computeStatistics({ 42 });
    QCOMPARE(s.count, 1);
    QCOMPARE(s.median, 42.0);
    QCOMPARE(s.p20, 42.0);
    QCOMPARE(s.stddev, 0.0);
    QVERIFY(std::isinf(s.relativeStandardError));
}

void TestSampleStatistics::empty()
{
    const SampleStatistics s = computeStatistics({});
    QCOMPARE(s.count, 0);
    QVERIFY(std::isnan(s.median));
    QVERIFY(std::isnan(s.mean));
    QVERIFY(std::isnan(sortedQuantile({}, 0.5)));
}

void TestSampleStatistics::unsortedInputIsSorted()
{
    const SampleStatistics s = computeStatistics({ 5, 1, 4, 2, 3 });
    QCOMPARE(s.median, 3.0);
    QCOMPARE(s.min, 1.0);
    QCOMPARE(s.max, 5.0);
    QCOMPARE(s.p20, 1.8);
}

// The engine writes p20/median/p80 into a run; the explorer recomputes quantiles from the run's samples. They must
// be the same numbers: one function (model/statistics.h) serves both.
// The engine's summary of a run's samples (what it writes as p20/median/p80) and the explorer's box for a run that
// carries only samples both equal an outside reference: Python's statistics.quantiles(samples, n=5,
// method="inclusive") and statistics.median, which are numpy.quantile's default "linear" method (the one
// triton.testing.do_bench reports). The expected values below were printed by Python 3.11 for these samples.
void TestSampleStatistics::engineAndExplorerQuantilesAgree()
{
    struct Expected
    {
        int n;
        double p20, median, p80;
    };
    const Expected expected[] = {
        { 2, 6369.685714285714, 8238.214285714286, 10106.742857142857 },
        { 3, 5552.914285714285, 6196.285714285715, 9289.971428571427 },
        { 5, 5981.828571428572, 7714.285714285715, 11915.0 },
        { 8, 5116.285714285715, 6480.5, 9897.171428571428 },
        { 13, 4328.571428571428, 6196.285714285715, 11397.257142857143 },
        { 40, 4435.314285714286, 7953.071428571429, 11627.314285714285 },
    };
    std::vector<double> samples;
    quint32 state = 12345;
    for (const Expected& e : expected) {
        while (int(samples.size()) < e.n) {
            state = state * 1664525u + 1013904223u;
            samples.push_back(1000.0 + double(state % 100000) / 7.0);
        }
        const SampleStatistics engine = computeStatistics(samples);
        QCOMPARE(engine.p20, e.p20);
        QCOMPARE(engine.median, e.median);
        QCOMPARE(engine.p80, e.p80);

        auto run = std::make_shared<Run>();
        run->median = e.median; // the headline is always there; the band comes from the samples
        run->samples = samples;
        run->finalize();
        const QuantileData explorer = buildQuantileData(RunList { run });
        QCOMPARE(explorer.boxes.size(), 1);
        QCOMPARE(explorer.boxes.first().p20, e.p20);
        QCOMPARE(explorer.boxes.first().p80, e.p80);
        QCOMPARE(explorer.boxes.first().min, *std::min_element(samples.begin(), samples.end()));
    }
}

KIX_TEST_GUILESS_MAIN(TestSampleStatistics)
#include "tst_samplestatistics.moc"
