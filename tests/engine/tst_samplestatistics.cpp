// The harness's statistics on synthetic timings: quantiles at q * (n - 1) with linear interpolation
// (numpy's default), min, max, mean, sample standard deviation, relative standard error.

#include "engine/samplestatistics.h"
#include "model/statistics.h"

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
void TestSampleStatistics::engineAndExplorerQuantilesAgree()
{
    std::vector<double> samples;
    quint32 state = 12345;
    for (int n = 1; n <= 40; ++n) {
        state = state * 1664525u + 1013904223u;
        samples.push_back(1000.0 + double(state % 100000) / 7.0);
        const SampleStatistics s = computeStatistics(samples);
        std::vector<double> sorted = samples;
        std::sort(sorted.begin(), sorted.end());
        QCOMPARE(s.median, sortedQuantile(sorted, 0.5));
        QCOMPARE(s.p20, sortedQuantile(sorted, 0.2));
        QCOMPARE(s.p80, sortedQuantile(sorted, 0.8));
        QVERIFY(s.p20 <= s.median && s.median <= s.p80);
        QCOMPARE(sortedQuantile(sorted, 0.0), s.min);
        QCOMPARE(sortedQuantile(sorted, 1.0), s.max);
    }
}

QTEST_GUILESS_MAIN(TestSampleStatistics)
#include "tst_samplestatistics.moc"
