// SPDX-License-Identifier: Apache-2.0
// Sweep data: x parameter detection and choice, fixed parameters, series per (provider, GPU, pass), bands.
#include "model/chartdata/latencyruns.h"
#include "model/chartdata/quantiledata.h"
#include "model/chartdata/sweep.h"
#include "model/chartdata/timescale.h"
#include "model/runfields.h"
#include "model/workload.h"

#include "tests/model/runfactory.h"

#include "tests/support/testmain.h"

#include <QTest>

using namespace kix;
using kixtest::makeRun;

class TestSweep : public QObject
{
    Q_OBJECT
private slots:
    void timeScale_data();
    void timeScale();
    void fixtureSweep();
    void chooseX();
    void noVariation();
    void flagsReadAsThemselves();
    void duplicatesKeepNewest();
    void quantileBoxes();
    void quantileCaps();
    void latencySplit();
};

void TestSweep::timeScale_data()
{
    QTest::addColumn<std::vector<double>>("values");
    QTest::addColumn<QString>("unit");
    QTest::newRow("ns") << std::vector<double> { 10, 500, 900 } << QStringLiteral("ns");
    QTest::newRow("µs") << std::vector<double> { 800, 5e3, 9e5 } << QStringLiteral("µs");
    QTest::newRow("ms") << std::vector<double> { 2e6, 3e6, 10 } << QStringLiteral("ms");
    QTest::newRow("empty") << std::vector<double> {} << QStringLiteral("ns");
}

void TestSweep::timeScale()
{
    QFETCH(std::vector<double>, values);
    QFETCH(QString, unit);
    const TimeScale scale = chooseTimeScale(values);
    QCOMPARE(scale.unit, unit);
    QCOMPARE(scale.toNs(scale.fromNs(1234.0)), 1234.0);
    const TimeScale ms { QStringLiteral("ms"), 1e6 };
    QCOMPARE(ms.format(1315872), QStringLiteral("1.316 ms"));
}

void TestSweep::fixtureSweep()
{
    const RunList runs
        = kixtest::loadUiFixtures({ QStringLiteral("groupnorm-sweep.json"), QStringLiteral("liger-mini.csv") });
    const SweepData sweep = buildSweep(runs);
    QCOMPARE(sweep.xParam, QStringLiteral("channels"));
    QCOMPARE(sweep.candidates, QStringList { QStringLiteral("channels") });
    QVERIFY(sweep.splitBy.isEmpty());
    QCOMPARE(sweep.fixedDescription, QStringLiteral("batch=128, channels_per_group=4, hidden=512, dtype=fp32"));
    QCOMPARE(sweep.skippedNonLatency, 2);
    QVERIFY(sweep.logXPossible);
    QCOMPARE(sweep.scale.unit, QStringLiteral("µs"));
    QCOMPARE(sweep.series.size(), 4);
    for (const SweepSeries& s : sweep.series) {
        QCOMPARE(s.pass, QStringLiteral("backward"));
        QCOMPARE(s.points.size(), 7);
        QCOMPARE(s.points.front().x, 32.0);
        QCOMPARE(s.points.back().x, 2048.0);
        if (s.provider == QLatin1String("huggingface") && s.gpu == QLatin1String("NVIDIA B200")) {
            QCOMPARE(s.label, QStringLiteral("huggingface · B200"));
            for (const SweepPoint& p : s.points) {
                QCOMPARE(p.median, 20000 + 500 * p.x);
                QCOMPARE(p.p20, double(qRound(p.median * 0.99)));
                QCOMPARE(p.p80, double(qRound(p.median * 1.01)));
            }
        }
    }
}

void TestSweep::chooseX()
{
    RunList runs;
    for (double ch : { 32.0, 64.0, 128.0 }) {
        for (double batch : { 8.0, 16.0 }) {
            auto run = makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), ch, 1000 * ch + batch);
            run->workload[0] = { QStringLiteral("batch"), QString::number(batch), batch };
            runs.append(run);
        }
    }
    SweepData sweep = buildSweep(runs);
    QCOMPARE(sweep.candidates, (QStringList { QStringLiteral("channels"), QStringLiteral("batch") }));
    QCOMPARE(sweep.xParam, QStringLiteral("channels"));
    QCOMPARE(sweep.splitBy, QStringList { QStringLiteral("batch") });
    QCOMPARE(sweep.series.size(), 2); // one line per batch: never mixed
    QVERIFY(sweep.series[0].label.contains(QStringLiteral("batch=")));

    sweep = buildSweep(runs, QStringLiteral("batch"));
    QCOMPARE(sweep.xParam, QStringLiteral("batch"));
    QCOMPARE(sweep.series.size(), 3);
    QCOMPARE(sweep.series[0].points.size(), 2);
    sweep = buildSweep(runs, QStringLiteral("no-such-param"));
    QCOMPARE(sweep.xParam, QStringLiteral("channels"));
}

void TestSweep::noVariation()
{
    const RunList runs = { makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 64, 1000),
        makeRun(QStringLiteral("huggingface"), QStringLiteral("NVIDIA B200"), 64, 2000) };
    const SweepData sweep = buildSweep(runs);
    QVERIFY(sweep.xParam.isEmpty());
    QVERIFY(sweep.isEmpty());
    QVERIFY(sweep.notes.join(QLatin1Char(' ')).contains(QStringLiteral("no numeric workload parameter varies")));
}

void TestSweep::duplicatesKeepNewest()
{
    auto older = makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 64, 1000);
    older->observedAt = QDateTime(QDate(2025, 1, 1), QTime(0, 0), Qt::UTC);
    auto newer = makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 64, 900);
    newer->observedAt = QDateTime(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC);
    auto other = makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 128, 2000);
    const SweepData sweep = buildSweep({ newer, older, other });
    QCOMPARE(sweep.duplicates, 1);
    QCOMPARE(sweep.series.size(), 1);
    QCOMPARE(sweep.series[0].points.size(), 2);
    QCOMPARE(sweep.series[0].points[0].median, 900.0);
}

void TestSweep::quantileBoxes()
{
    const RunList runs
        = kixtest::loadUiFixtures({ QStringLiteral("groupnorm-sweep.json"), QStringLiteral("liger-mini.csv") });
    const QuantileData data = buildQuantileData(runs);
    QCOMPARE(data.boxes.size(), 28);
    QCOMPARE(data.skippedNonLatency, 2);
    QCOMPARE(data.groups.size(), 7);
    QCOMPARE(data.groups.front(), QStringLiteral("32"));
    QCOMPARE(data.groups.back(), QStringLiteral("2048"));
    QCOMPARE(data.groupTitle, QStringLiteral("channels"));
    QCOMPARE(data.series,
        (QStringList { QStringLiteral("huggingface · B200"), QStringLiteral("huggingface · H100 80GB HBM3"),
            QStringLiteral("liger · B200"), QStringLiteral("liger · H100 80GB HBM3") }));
    QCOMPARE(data.scale.unit, QStringLiteral("µs"));
    QVERIFY(data.title.contains(QStringLiteral("group_norm · backward")));
    for (const QuantileBox& box : data.boxes) {
        QCOMPARE(box.median, box.run->median);
        QCOMPARE(box.p20, box.run->p20);
        QCOMPARE(box.p80, box.run->p80);
        const bool b200 = box.run->gpuProduct == QLatin1String("NVIDIA B200");
        QCOMPARE(box.hasExtremes, b200); // only the B200 fixtures carry min and max
        if (b200) {
            QCOMPARE(box.min, double(qRound(box.median * 0.97)));
            QCOMPARE(box.max, double(qRound(box.median * 1.05)));
        } else {
            QCOMPARE(box.min, box.p20);
            QCOMPARE(box.max, box.p80);
        }
    }
}

void TestSweep::quantileCaps()
{
    RunList runs;
    for (int i = 0; i < 100; ++i)
        runs.append(makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 32 + i, 1000 + i));
    const QuantileData data = buildQuantileData(runs, 40, 16);
    QCOMPARE(data.groups.size(), 40);
    QCOMPARE(data.boxes.size(), 40);
    QCOMPARE(data.droppedRuns, 60);
    QVERIFY(data.notes.join(QLatin1Char(' ')).contains(QStringLiteral("narrow the filter")));
}

void TestSweep::latencySplit()
{
    // One split for the quantile and sweep data: failed, other metric, no median, latency (in input order).
    auto failed = makeRun(QStringLiteral("liger"), QStringLiteral("B200"), 64, 1000);
    failed->status = QStringLiteral("timeout");
    auto memory = makeRun(QStringLiteral("liger"), QStringLiteral("B200"), 64, 12);
    memory->metric = Run::Metric::Memory;
    auto noMedian = makeRun(QStringLiteral("liger"), QStringLiteral("B200"), 128, 0);
    noMedian->median = std::numeric_limits<double>::quiet_NaN();
    const RunPtr a = makeRun(QStringLiteral("liger"), QStringLiteral("B200"), 32, 1000);
    const RunPtr b = makeRun(QStringLiteral("huggingface"), QStringLiteral("B200"), 32, 2000);
    QVERIFY(failed->failed());
    const RunList runs { b, failed, memory, noMedian, a };
    const LatencyRuns split = splitLatencyRuns(runs);
    QCOMPARE(split.latency, (RunList { b, a }));
    QCOMPARE(split.failed, 1);
    QCOMPARE(split.otherMetric, 1);
    QCOMPARE(split.otherMetrics, QStringList { QStringLiteral("memory") });
    QCOMPARE(split.noMedian, 1);
    QCOMPARE(split.otherMetricNote(), QStringLiteral("1 memory run(s) not shown: the chart shows latency runs only"));
    QCOMPARE(split.failedNote(), QStringLiteral("1 failed run(s) not charted: a failed run has no time to show"));
    QVERIFY(splitLatencyRuns({ a }).failedNote().isEmpty());
    QVERIFY(splitLatencyRuns({ a }).otherMetricNote().isEmpty());

    // Both chart data builders count the same way and say it in the same words.
    const QuantileData quantiles = buildQuantileData(runs);
    QCOMPARE(quantiles.failedRuns, 1);
    QCOMPARE(quantiles.skippedNonLatency, 1);
    QCOMPARE(quantiles.boxes.size(), 2);
    QVERIFY(quantiles.notes.contains(split.otherMetricNote()));
    QVERIFY(quantiles.notes.contains(split.failedNote()));
    QVERIFY(quantiles.notes.contains(QStringLiteral("1 run(s) without a median not shown")));
    const SweepData sweep = buildSweep(runs);
    QCOMPARE(sweep.failedRuns, 1);
    QCOMPARE(sweep.skippedNonLatency, 1);
    QCOMPARE(sweep.droppedRuns, 1);
    QCOMPARE(sweep.notes.mid(0, 2), (QStringList { split.otherMetricNote(), split.failedNote() }));
}

// A bare word of a workload slug is a flag ("causal"; Liger's "sweep_dimT" from {"sweep_dim": "T"}): a label names it
// as it is, never "sweep_dimT=" with an empty value.
void TestSweep::flagsReadAsThemselves()
{
    kix::Run run;
    run.workloadSlug = QStringLiteral("E128-sweep_dimT-T8192");
    kix::parseWorkloadSlug(run.workloadSlug, run.workload, run.dtype);
    QCOMPARE(kix::paramsLabel(run, { QStringLiteral("E"), QStringLiteral("sweep_dimT"), QStringLiteral("T") }),
        QStringLiteral("E=128 sweep_dimT T=8192"));
    kix::ParamVariation variation;
    variation.fixed = { { QStringLiteral("causal"), QString() }, { QStringLiteral("H"), QStringLiteral("2048") } };
    QCOMPARE(variation.describeFixed(), QStringLiteral("causal, H=2048"));
}

KIX_TEST_GUILESS_MAIN(TestSweep)
#include "tst_sweep.moc"
