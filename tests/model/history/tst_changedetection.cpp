// SPDX-License-Identifier: Apache-2.0
// Change detection on synthetic series: steps up and down, a lone outlier, pure noise (many seeds) that must yield no
// change, series of 2 and of 200 points, raw samples, the threshold, and the run-to-run noise guard.
#include "model/history/changedetection.h"

#include "tests/support/testmain.h"

#include <QTest>

#include <cmath>
#include <random>

using namespace kix;

namespace {

// A series of runs: each run's median is its level times run-to-run noise (sd `between`); its p20-p80 is the
// median's own spread (sd `within`, p20/p80 = -/+0.8416 sd). Points own nothing, so `samples` stay null.
struct Series
{
    std::vector<LevelPoint> points;

    void add(double level, double noise, double within)
    {
        LevelPoint p;
        p.median = level * (1 + noise);
        p.p20 = p.median * (1 - 0.8416 * within);
        p.p80 = p.median * (1 + 0.8416 * within);
        points.push_back(p);
    }
};

// `levels[i]` for point i; run-to-run noise sd `between`, reported spread sd `within`.
Series makeSeries(const std::vector<double>& levels, double between, double within, unsigned seed)
{
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0.0, between);
    Series s;
    for (double level : levels)
        s.add(level, noise(rng), within);
    return s;
}

std::vector<double> steps(std::initializer_list<std::pair<int, double>> parts)
{
    std::vector<double> levels;
    for (const auto& [count, level] : parts)
        levels.insert(levels.end(), size_t(count), level);
    return levels;
}

QString describeChanges(const QVector<LevelChange>& changes)
{
    QStringList parts;
    for (const LevelChange& c : changes)
        parts << QStringLiteral("%1@%2 ×%3 (%4)")
                     .arg(c.kind == LevelChange::Kind::Step ? QStringLiteral("step") : QStringLiteral("outlier"))
                     .arg(c.index)
                     .arg(c.ratio, 0, 'f', 3)
                     .arg(c.evidence);
    return parts.join(QStringLiteral("; "));
}

} // namespace

class TestChangeDetection : public QObject
{
    Q_OBJECT
private slots:
    void stepUpAndDown_data();
    void stepUpAndDown();
    void loneOutlier();
    void outlierThenStep();
    void pureNoiseHonestSpread_data();
    void pureNoiseHonestSpread();
    void pureNoiseTightSpreadLongSeries();
    void twoPoints();
    void threshold();
    void rawSamples();
    void noSpread();
    void longSeriesTwoSteps();
    void newestRunUnconfirmed();
    void runToRunNoiseEstimate();
};

void TestChangeDetection::stepUpAndDown_data()
{
    QTest::addColumn<double>("after");
    QTest::newRow("up 10 %") << 1100.0;
    QTest::newRow("down 12 %") << 880.0;
    QTest::newRow("up 40 %") << 1400.0;
}

void TestChangeDetection::stepUpAndDown()
{
    QFETCH(double, after);
    for (unsigned seed = 0; seed < 100; ++seed) {
        const Series s = makeSeries(steps({ { 10, 1000.0 }, { 10, after } }), 0.01, 0.01, seed);
        const QVector<LevelChange> changes = detectChanges(s.points);
        QVERIFY2(
            changes.size() == 1, qPrintable(QStringLiteral("seed %1: %2").arg(seed).arg(describeChanges(changes))));
        const LevelChange& c = changes.front();
        QCOMPARE(c.kind, LevelChange::Kind::Step);
        QCOMPARE(c.index, 10);
        QCOMPARE(c.beforeIndex, 9);
        QVERIFY2(std::abs(c.ratio / (after / 1000.0) - 1) < 0.035,
            qPrintable(QStringLiteral("seed %1: %2").arg(seed).arg(describeChanges(changes))));
        QCOMPARE(c.runsBefore, 5);
        QCOMPARE(c.runsAfter, 5);
        QVERIFY(c.confirmed);
        QVERIFY(c.evidence.contains(QStringLiteral("standard errors by the runs' p20–p80")));
        QVERIFY(c.evidence.contains(QStringLiteral("run-to-run noise"))); // 20 points: the noise guard is on
    }
}

void TestChangeDetection::loneOutlier()
{
    for (unsigned seed = 0; seed < 100; ++seed) {
        std::vector<double> levels = steps({ { 15, 1000.0 } });
        levels[7] = 1300;
        const Series s = makeSeries(levels, 0.01, 0.01, seed);
        const QVector<LevelChange> changes = detectChanges(s.points);
        QVERIFY2(
            changes.size() == 1, qPrintable(QStringLiteral("seed %1: %2").arg(seed).arg(describeChanges(changes))));
        QCOMPARE(changes.front().kind, LevelChange::Kind::Outlier);
        QCOMPARE(changes.front().index, 7);
        QCOMPARE(changes.front().beforeIndex, 6);
        QVERIFY(changes.front().ratio > 1.25 && changes.front().ratio < 1.35);
    }
    // The smallest case: three runs, the middle one away and back.
    Series s;
    s.add(1000, 0, 0.01);
    s.add(700, 0, 0.01);
    s.add(1000, 0, 0.01);
    const QVector<LevelChange> changes = detectChanges(s.points);
    QCOMPARE(changes.size(), 1);
    QCOMPARE(changes.front().kind, LevelChange::Kind::Outlier);
    QCOMPARE(changes.front().index, 1);
    QVERIFY(std::abs(changes.front().ratio - 0.7) < 1e-9);
}

void TestChangeDetection::outlierThenStep()
{
    std::vector<double> levels = steps({ { 12, 1000.0 }, { 12, 1200.0 } });
    levels[4] = 1500; // a spike, then a real step at 12
    const Series s = makeSeries(levels, 0.005, 0.01, 7);
    const QVector<LevelChange> changes = detectChanges(s.points);
    QCOMPARE(changes.size(), 2);
    QCOMPARE(changes[0].kind, LevelChange::Kind::Outlier);
    QCOMPARE(changes[0].index, 4);
    QCOMPARE(changes[1].kind, LevelChange::Kind::Step);
    QCOMPARE(changes[1].index, 12);
}

void TestChangeDetection::pureNoiseHonestSpread_data()
{
    QTest::addColumn<int>("length");
    QTest::addColumn<double>("sigma");
    for (int n : { 2, 3, 5, 12, 50, 200 }) {
        for (double sigma : { 0.01, 0.03, 0.06 })
            QTest::addRow("%d points, sd %g", n, sigma) << n << sigma;
    }
}

// Runs whose reported p20-p80 shows their real noise: over 300 seeds per case, not one false change or outlier.
void TestChangeDetection::pureNoiseHonestSpread()
{
    QFETCH(int, length);
    QFETCH(double, sigma);
    const unsigned seeds = length >= 200 ? 100 : 300;
    for (unsigned seed = 0; seed < seeds; ++seed) {
        const Series s = makeSeries(std::vector<double>(size_t(length), 1000.0), sigma, sigma, seed * 7919 + 1);
        const QVector<LevelChange> changes = detectChanges(s.points);
        QVERIFY2(changes.isEmpty(), qPrintable(QStringLiteral("seed %1: %2").arg(seed).arg(describeChanges(changes))));
    }
}

// The hard case: each run's own spread is tight (0.3 %) but runs scatter 2 % from one another. On long series the
// run-to-run noise guard keeps pure noise quiet.
void TestChangeDetection::pureNoiseTightSpreadLongSeries()
{
    int falseAlarms = 0;
    for (int n : { 20, 60, 200 }) {
        for (unsigned seed = 0; seed < 100; ++seed) {
            const Series s = makeSeries(std::vector<double>(size_t(n), 1000.0), 0.02, 0.003, seed + 1000);
            falseAlarms += int(detectChanges(s.points).size());
        }
    }
    QCOMPARE(falseAlarms, 0);
    // ... while a 12 % step in the same noise is still found.
    int found = 0;
    for (unsigned seed = 0; seed < 50; ++seed) {
        const Series s = makeSeries(steps({ { 30, 1000.0 }, { 30, 1120.0 } }), 0.02, 0.003, seed);
        const QVector<LevelChange> changes = detectChanges(s.points);
        found += changes.size() == 1 && std::abs(changes.front().index - 30) <= 1 ? 1 : 0;
    }
    QVERIFY2(found >= 45, qPrintable(QString::number(found)));
}

void TestChangeDetection::twoPoints()
{
    Series apart;
    apart.add(1000, 0, 0.01);
    apart.add(1100, 0, 0.01);
    QVector<LevelChange> changes = detectChanges(apart.points);
    QCOMPARE(changes.size(), 1);
    QCOMPARE(changes.front().kind, LevelChange::Kind::Step);
    QCOMPARE(changes.front().index, 1);
    QVERIFY(std::abs(changes.front().ratio - 1.1) < 1e-9);
    QVERIFY(!changes.front().confirmed); // only the newest run shows it
    QVERIFY(changes.front().evidence.contains(QStringLiteral("newest")));

    Series overlapping; // +10 % but each run spreads ±8 %: the bands overlap, nothing is claimed
    overlapping.add(1000, 0, 0.1);
    overlapping.add(1100, 0, 0.1);
    QVERIFY(detectChanges(overlapping.points).isEmpty());

    Series small; // tight, but under the 5 % threshold
    small.add(1000, 0, 0.001);
    small.add(1030, 0, 0.001);
    QVERIFY(detectChanges(small.points).isEmpty());

    Series one;
    one.add(1000, 0, 0.01);
    QVERIFY(detectChanges(one.points).isEmpty());
    QVERIFY(detectChanges({}).isEmpty());
}

void TestChangeDetection::threshold()
{
    Series s;
    for (int i = 0; i < 4; ++i)
        s.add(1000, 0, 0.005);
    for (int i = 0; i < 4; ++i)
        s.add(1080, 0, 0.005);
    QCOMPARE(detectChanges(s.points).size(), 1); // 8 % > 5 %
    DetectionOptions strict;
    strict.threshold = 0.10;
    QVERIFY(detectChanges(s.points, strict).isEmpty()); // 8 % < 10 %
    DetectionOptions loose;
    loose.threshold = 0.02;
    QCOMPARE(detectChanges(s.points, loose).size(), 1);
    // An improvement of the same size counts at the same threshold: 1 / 1.08.
    Series down;
    down.add(1080, 0, 0.005);
    down.add(1000, 0, 0.005);
    const QVector<LevelChange> changes = detectChanges(down.points);
    QCOMPARE(changes.size(), 1);
    QVERIFY(changes.front().ratio < 1);
}

void TestChangeDetection::rawSamples()
{
    std::mt19937 rng(42);
    std::normal_distribution<double> a(1000, 60), b(1070, 60), c(1002, 60);
    std::vector<double> sa(300), sb(300), sc(300);
    for (size_t i = 0; i < sa.size(); ++i) {
        sa[i] = a(rng);
        sb[i] = b(rng);
        sc[i] = c(rng);
    }
    auto point = [](const std::vector<double>& samples) {
        std::vector<double> sorted = samples;
        std::sort(sorted.begin(), sorted.end());
        LevelPoint p;
        p.median = sorted[sorted.size() / 2];
        p.samples = &samples; // no p20/p80: the samples are all there is
        return p;
    };
    // +7 %: the p20-p80 of these samples overlap (±5 %), but Mann-Whitney on 300 + 300 samples is sure.
    QVector<LevelChange> changes = detectChanges({ point(sa), point(sb) });
    QCOMPARE(changes.size(), 1);
    QVERIFY(changes.front().pValue < 1e-6);
    QVERIFY(changes.front().evidence.contains(QStringLiteral("Mann-Whitney")));
    // The same distribution twice: no change, whatever the threshold.
    DetectionOptions zero;
    zero.threshold = 0;
    changes = detectChanges({ point(sa), point(sc) }, zero);
    QVERIFY2(changes.isEmpty(), qPrintable(describeChanges(changes)));
}

void TestChangeDetection::noSpread()
{
    // Without p20/p80 or samples, a short series has nothing that says a step is real.
    std::vector<LevelPoint> points(2);
    points[0].median = 1000;
    points[1].median = 1500;
    QVERIFY(detectChanges(points).isEmpty());
    // A long one does: its own run-to-run noise.
    std::vector<LevelPoint> longer;
    std::mt19937 rng(3);
    std::normal_distribution<double> noise(0, 0.01);
    for (int i = 0; i < 30; ++i) {
        LevelPoint p;
        p.median = (i < 15 ? 1000 : 1200) * (1 + noise(rng));
        longer.push_back(p);
    }
    const QVector<LevelChange> changes = detectChanges(longer);
    QCOMPARE(changes.size(), 1);
    QCOMPARE(changes.front().index, 15);
}

void TestChangeDetection::longSeriesTwoSteps()
{
    for (unsigned seed = 0; seed < 30; ++seed) {
        const Series s = makeSeries(steps({ { 60, 1000.0 }, { 80, 1100.0 }, { 60, 935.0 } }), 0.015, 0.015, seed);
        QCOMPARE(s.points.size(), size_t(200));
        const QVector<LevelChange> changes = detectChanges(s.points);
        QVERIFY2(
            changes.size() == 2, qPrintable(QStringLiteral("seed %1: %2").arg(seed).arg(describeChanges(changes))));
        QVERIFY(std::abs(changes[0].index - 60) <= 1);
        QVERIFY(changes[0].ratio > 1.07);
        QVERIFY(std::abs(changes[1].index - 140) <= 1);
        QVERIFY(changes[1].ratio < 0.9);
    }
}

void TestChangeDetection::newestRunUnconfirmed()
{
    const Series s = makeSeries(steps({ { 30, 1000.0 }, { 1, 1200.0 } }), 0.01, 0.01, 11);
    const QVector<LevelChange> changes = detectChanges(s.points);
    QCOMPARE(changes.size(), 1);
    QCOMPARE(changes.front().kind, LevelChange::Kind::Step); // the newest run cannot be an outlier yet
    QCOMPARE(changes.front().index, 30);
    QVERIFY(!changes.front().confirmed);
}

void TestChangeDetection::runToRunNoiseEstimate()
{
    std::mt19937 rng(5);
    std::normal_distribution<double> noise(0, 0.02);
    std::vector<double> logs;
    for (int i = 0; i < 4000; ++i)
        logs.push_back(noise(rng));
    QVERIFY(std::abs(runToRunNoise(logs) - 0.02) < 0.002);
    QVERIFY(std::isnan(runToRunNoise({ 0.0, 0.1 })));
}

KIX_TEST_APPLESS_MAIN(TestChangeDetection)
#include "tst_changedetection.moc"
