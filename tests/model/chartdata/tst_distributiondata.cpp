// SPDX-License-Identifier: Apache-2.0
// The Quantiles view's overlaid distributions: shared log-spaced bins, fractions that make runs of unequal sample
// counts comparable, ECDFs, and the Mann-Whitney verdict of each run against the first.
#include "model/chartdata/distributiondata.h"

#include "tests/model/runfactory.h"

#include "tests/support/testmain.h"

#include <QTest>

#include <cmath>
#include <numeric>
#include <random>

using namespace kix;
using namespace kixtest;

namespace {

// `n` samples (ns) from one log-normal distribution around `medianNs`; a fixed seed per call site.
std::vector<double> logNormalSamples(int n, double medianNs, unsigned seed)
{
    std::mt19937 random(seed);
    std::lognormal_distribution<double> dist(std::log(medianNs), 0.05);
    std::vector<double> out(static_cast<size_t>(n));
    for (double& v : out)
        v = dist(random);
    return out;
}

RunPtr sampled(const QString& provider, std::vector<double> samples)
{
    std::vector<double> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    auto run = makeRun(provider, QStringLiteral("NVIDIA B200"), 2048, sorted[sorted.size() / 2]);
    run->samples = std::move(samples);
    return run;
}

double sum(const std::vector<double>& v)
{
    return std::accumulate(v.begin(), v.end(), 0.0);
}

} // namespace

class TestDistributionData : public QObject
{
    Q_OBJECT
private slots:
    void unequalCountsAreNormalised();
    void binsAreLogSpacedOverThePooledRange();
    void shiftedSamplesGetADirection_data();
    void shiftedSamplesGetADirection();
    void identicalSamplesDoNotDiffer();
    void pValuePinnedOutsideTheCode_data();
    void pValuePinnedOutsideTheCode();
    void unavailableSaysWhy();
    void viewNames();
};

void TestDistributionData::unequalCountsAreNormalised()
{
    const RunList runs { sampled(QStringLiteral("huggingface"), logNormalSamples(10, 100'000, 1)),
        sampled(QStringLiteral("liger"), logNormalSamples(1000, 100'000, 2)) };
    const DistributionData data = buildDistributionData(runs);
    QVERIFY2(data.unavailable.isEmpty(), qPrintable(data.unavailable));
    QCOMPARE(data.runs.size(), 2);
    QCOMPARE(data.runs[0].samples, 10);
    QCOMPARE(data.runs[1].samples, 1000);
    for (const DistributionRun& r : data.runs) {
        QCOMPARE(r.fractions.size(), data.edges.size() - 1);
        QVERIFY(qFuzzyCompare(sum(r.fractions), 1.0));
        QCOMPARE(r.ecdfY.back(), 1.0);
        QVERIFY(std::is_sorted(r.ecdfX.begin(), r.ecdfX.end()));
        QVERIFY(std::is_sorted(r.ecdfY.begin(), r.ecdfY.end()));
    }
    // Counts would make the large run's bins 100 times taller; fractions put both on one scale.
    const double top0 = *std::max_element(data.runs[0].fractions.begin(), data.runs[0].fractions.end());
    const double top1 = *std::max_element(data.runs[1].fractions.begin(), data.runs[1].fractions.end());
    QVERIFY2(top0 < 1 && top1 < 1 && top0 / top1 < 10 && top1 / top0 < 10, qPrintable(QString::number(top0 / top1)));
    QCOMPARE(data.runs[0].name, QStringLiteral("huggingface · B200"));
    QCOMPARE(data.scale.unit, QStringLiteral("µs"));
    QCOMPARE(data.verdicts.size(), 1);
    QCOMPARE(data.verdicts[0].verdict, QStringLiteral("no significant difference"));
}

void TestDistributionData::binsAreLogSpacedOverThePooledRange()
{
    const RunList runs { sampled(QStringLiteral("a"), { 1000, 2000, 4000 }),
        sampled(QStringLiteral("b"), { 10'000, 100'000 }) };
    const DistributionData data = buildDistributionData(runs, 5);
    QCOMPARE(data.edges.size(), size_t(6));
    QCOMPARE(data.edges.front(), 1000.0);
    QCOMPARE(data.edges.back(), 100'000.0);
    for (size_t i = 1; i < data.edges.size(); ++i) // 10^(2/5) apart: equal widths on a log axis
        QVERIFY(qFuzzyCompare(data.edges[i] / data.edges[i - 1], std::pow(10.0, 0.4)));
    // 1000 and 2000 in the first bin (up to 2512), 4000 in the second, 100000 (the top edge) in the last.
    QCOMPARE(data.runs[0].fractions, (std::vector<double> { 2.0 / 3, 1.0 / 3, 0, 0, 0 }));
    QCOMPARE(data.runs[1].fractions, (std::vector<double> { 0, 0, 0.5, 0, 0.5 }));
    QCOMPARE(data.runs[0].ecdfX, (std::vector<double> { 1000, 2000, 4000 }));
    QCOMPARE(data.runs[0].ecdfY, (std::vector<double> { 1.0 / 3, 2.0 / 3, 1 }));
}

void TestDistributionData::shiftedSamplesGetADirection_data()
{
    QTest::addColumn<double>("factor");
    QTest::addColumn<QString>("verdict");
    QTest::newRow("20% slower") << 1.2 << QStringLiteral("slower");
    QTest::newRow("20% faster") << 0.8 << QStringLiteral("faster");
}

void TestDistributionData::shiftedSamplesGetADirection()
{
    QFETCH(double, factor);
    QFETCH(QString, verdict);
    std::vector<double> shifted = logNormalSamples(50, 100'000, 4);
    for (double& v : shifted)
        v *= factor;
    const RunList runs { sampled(QStringLiteral("huggingface"), logNormalSamples(40, 100'000, 3)),
        sampled(QStringLiteral("liger"), shifted) };
    const DistributionData data = buildDistributionData(runs);
    QCOMPARE(data.verdicts.size(), 1);
    const DistributionVerdict& v = data.verdicts[0];
    QCOMPARE(v.run, 1);
    QCOMPARE(v.verdict, verdict);
    QVERIFY(v.test.p < 1e-6);
    // P(a liger sample is faster than a huggingface one): near 1 when faster, near 0 when slower.
    QVERIFY2(factor < 1 ? v.effect > 0.9 : v.effect < 0.1, qPrintable(QString::number(v.effect)));
    QVERIFY2(v.line.startsWith(QStringLiteral("liger · B200 vs huggingface · B200: ") + verdict), qPrintable(v.line));
}

void TestDistributionData::identicalSamplesDoNotDiffer()
{
    const std::vector<double> samples = logNormalSamples(30, 5000, 5);
    const RunList runs { sampled(QStringLiteral("torch"), samples), sampled(QStringLiteral("triton"), samples),
        sampled(QStringLiteral("torch"), samples) };
    const DistributionData data = buildDistributionData(runs);
    QCOMPARE(data.verdicts.size(), 2);
    for (const DistributionVerdict& v : data.verdicts) {
        QCOMPARE(v.verdict, QStringLiteral("no significant difference"));
        QCOMPARE(v.test.p, 1.0);
        QCOMPARE(v.effect, 0.5);
    }
    QCOMPARE(data.runs[2].name, QStringLiteral("torch · B200 (2)")); // a repeat, as the quantile chart names it
    QCOMPARE(data.runs[0].fractions, data.runs[1].fractions);
}

void TestDistributionData::pValuePinnedOutsideTheCode_data()
{
    QTest::addColumn<std::vector<double>>("baseline");
    QTest::addColumn<std::vector<double>>("run");
    QTest::addColumn<double>("u");
    QTest::addColumn<double>("p");
    // scipy.stats.mannwhitneyu's documentation example, mannwhitneyu(males, females) with the default method (5 and 4
    // values without ties: exact): U = 17, p = 0.1111111111111111.
    QTest::newRow("scipy docs, exact") << std::vector<double> { 20, 11, 17, 12 }
                                       << std::vector<double> { 19, 22, 16, 29, 24 } << 17.0 << 0.1111111111111111;
    // Ties, so the normal approximation with tie and continuity correction, as scipy.stats.mannwhitneyu(run,
    // baseline, alternative='two-sided', method='asymptotic', use_continuity=True) computes it; worked by hand
    // (scipy not at hand): rank sum of run R = 130.5 (13..19 tied across the samples, average ranks), U = R -
    // 10*11/2 = 75.5, tie term sum(t^3 - t) = 7 * 6 = 42, var = 10*10/12 * (21 - 42/(20*19)) = 174.0789473684,
    // z = (|75.5 - 50| - 0.5) / sqrt(var) = 1.8948152994, p = erfc(z / sqrt 2) = 0.0581168755697.
    QTest::newRow("ties, asymptotic") << std::vector<double> { 10, 11, 12, 13, 14, 15, 16, 17, 18, 19 }
                                      << std::vector<double> { 13, 14, 15, 16, 17, 18, 19, 20, 21, 22 } << 75.5
                                      << 0.0581168755697;
}

void TestDistributionData::pValuePinnedOutsideTheCode()
{
    QFETCH(std::vector<double>, baseline);
    QFETCH(std::vector<double>, run);
    QFETCH(double, u);
    QFETCH(double, p);
    const DistributionData data
        = buildDistributionData({ sampled(QStringLiteral("base"), baseline), sampled(QStringLiteral("run"), run) });
    QCOMPARE(data.verdicts.size(), 1);
    const DistributionVerdict& v = data.verdicts[0];
    QCOMPARE(v.test.u, u);
    QVERIFY2(std::abs(v.test.p - p) < 1e-9, qPrintable(QString::number(v.test.p, 'g', 17)));
    QCOMPARE(v.effect, 1 - u / double(baseline.size() * run.size()));
    QCOMPARE(v.verdict, QStringLiteral("no significant difference")); // both above α = 0.05
}

void TestDistributionData::unavailableSaysWhy()
{
    const RunPtr bare = makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 2048, 1000);
    DistributionData data = buildDistributionData({ sampled(QStringLiteral("a"), { 1, 2, 3 }), bare });
    QVERIFY(data.isEmpty());
    QVERIFY2(data.unavailable.contains(QStringLiteral("1 of the 2 latency runs")), qPrintable(data.unavailable));

    RunList five;
    for (int i = 0; i < 5; ++i)
        five << sampled(QStringLiteral("p%1").arg(i), { 1.0 + i, 2.0 + i });
    data = buildDistributionData(five);
    QVERIFY(data.isEmpty());
    QVERIFY2(
        data.unavailable.contains(QStringLiteral("5 runs in scope carry raw samples")), qPrintable(data.unavailable));

    // Two runs with samples among others: those two are drawn, the others noted.
    data = buildDistributionData(five.mid(0, 2) + RunList { bare });
    QVERIFY(data.unavailable.isEmpty());
    QCOMPARE(data.runs.size(), 2);
    QVERIFY(data.notes.contains(QStringLiteral("1 latency run(s) without raw samples not drawn")));
}

void TestDistributionData::viewNames()
{
    for (QuantileView view : { QuantileView::Box, QuantileView::Histogram, QuantileView::Ecdf })
        QCOMPARE(quantileViewFromName(quantileViewName(view)), view);
    QCOMPARE(quantileViewFromName(QStringLiteral("ECDF")), QuantileView::Ecdf);
    QVERIFY(!quantileViewFromName(QStringLiteral("violin")));
}

KIX_TEST_GUILESS_MAIN(TestDistributionData)
#include "tst_distributiondata.moc"
