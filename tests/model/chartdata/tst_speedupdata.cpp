// SPDX-License-Identifier: Apache-2.0
// Speed-up chart data without widgets: categories top first, bar sets per provider (·GPU), ratios, the largest
// ratio, what the limits leave out, the title and subtitles, and the pair warnings and notes summarized.
#include "model/chartdata/notes.h"
#include "model/chartdata/speedupdata.h"

#include "tests/model/runfactory.h"

#include "tests/support/testmain.h"

#include <QTest>

using namespace kix;
using kixtest::makeRun;

namespace {

const QString b200 = QStringLiteral("NVIDIA B200");

// huggingface (the default baseline) at 1024 and 2048 channels; liger 2× and 1.25× faster; triton half as fast.
RunList threeProviders()
{
    return { makeRun(QStringLiteral("huggingface"), b200, 1024, 2000),
        makeRun(QStringLiteral("huggingface"), b200, 2048, 4000), makeRun(QStringLiteral("liger"), b200, 1024, 1000),
        makeRun(QStringLiteral("liger"), b200, 2048, 3200), makeRun(QStringLiteral("triton"), b200, 1024, 4000) };
}

const SpeedupBar* barOf(const SpeedupData& data, const QString& set, int category)
{
    for (const SpeedupBar& bar : data.bars) {
        if (data.sets[bar.set].label == set && bar.category == category)
            return &bar;
    }
    return nullptr;
}

} // namespace

class TestSpeedupData : public QObject
{
    Q_OBJECT
private slots:
    void barsAndRatios();
    void limits();
    void oneBarPerSetAndWorkload();
    void setsPerGpu();
    void nothingToCompare();
    void pairNotesCounted();
    void notesAggregated();
    void pairWarningsCounted();
    void texts();
};

void TestSpeedupData::barsAndRatios()
{
    const SpeedupData data = buildSpeedupData(threeProviders(), {});
    QCOMPARE(data.baseline.providers, QStringList { QStringLiteral("huggingface") });
    QCOMPARE(data.title, QStringLiteral("Speed-up vs huggingface"));
    QVERIFY(!data.isEmpty());
    QCOMPARE(data.comparison.pairs.size(), 3);
    QCOMPARE(data.categories, (QStringList { QStringLiteral("1024"), QStringLiteral("2048") }));
    QCOMPARE(data.axisLabels, (QStringList { QStringLiteral("2048"), QStringLiteral("1024") })); // bottom first
    QCOMPARE(data.categoryTitle, QStringLiteral("channels"));
    QCOMPARE(data.sets.size(), 2);
    QCOMPARE(data.sets[0].label, QStringLiteral("liger"));
    QCOMPARE(data.sets[1].label, QStringLiteral("triton"));
    QCOMPARE(data.sets[1].variant, 0);
    QCOMPARE(data.bars.size(), 3);
    QCOMPARE(barOf(data, QStringLiteral("liger"), 0)->ratio, 2.0);
    QCOMPARE(barOf(data, QStringLiteral("liger"), 1)->ratio, 1.25);
    QCOMPARE(barOf(data, QStringLiteral("triton"), 0)->ratio, 0.5);
    QVERIFY(!barOf(data, QStringLiteral("triton"), 1));
    for (const SpeedupBar& bar : data.bars) {
        QCOMPARE(bar.ratio, data.comparison.pairs[bar.pair].ratio);
        QCOMPARE(bar.verdict, data.comparison.pairs[bar.pair].verdict);
    }
    QCOMPARE(barOf(data, QStringLiteral("liger"), 0)->verdict, Verdict::Faster);
    QCOMPARE(barOf(data, QStringLiteral("triton"), 0)->verdict, Verdict::Slower);
    QCOMPARE(data.top, 2.0);
    QCOMPARE(data.dropped, 0);
    QCOMPARE(data.chartTitle, QStringLiteral("group_norm · backward · B200 — speed-up vs huggingface"));
    QCOMPARE(data.xTitle, QStringLiteral("speed-up (×) = huggingface median / run median; above 1× faster"));
    // geomean of liger: sqrt(2 × 1.25) = 1.58
    QVERIFY2(data.subtitles.front().startsWith(QStringLiteral("geomean liger 1.58× (2 pairs) · triton 0.50× (1 pair)")),
        qPrintable(data.subtitles.front()));
    QVERIFY(data.subtitles.front().contains(QStringLiteral(" — fixed: batch=128")));
    QVERIFY(data.pairWarnings.isEmpty());
    QVERIFY(data.warnings.isEmpty());
}

void TestSpeedupData::limits()
{
    // One workload: liger's 2048 pair is left out and said.
    SpeedupData data = buildSpeedupData(threeProviders(), {}, 1, 16);
    // Nothing varies among the pairs drawn: the label is the whole workload.
    QCOMPARE(data.categories, QStringList { QStringLiteral("batch128-channels1024-fp32") });
    QCOMPARE(data.bars.size(), 2);
    QCOMPARE(data.dropped, 1);
    QCOMPARE(data.subtitles.back(), QStringLiteral("1 pair(s) beyond 1 workloads / 16 sets not drawn"));
    // One set: triton's pair is left out; the largest ratio comes from what is drawn.
    data = buildSpeedupData(threeProviders(), {}, 40, 1);
    QCOMPARE(data.sets.size(), 1);
    QCOMPARE(data.bars.size(), 2);
    QCOMPARE(data.dropped, 1);
    // Everything slower than the baseline: the axis still reaches 1×.
    data = buildSpeedupData(threeProviders(), Baseline::ofProvider(QStringLiteral("liger")));
    QVERIFY(data.top >= 1.0);
    for (const SpeedupBar& bar : data.bars)
        QVERIFY(bar.ratio < 1.0);
    QCOMPARE(data.top, 1.0);
}

void TestSpeedupData::oneBarPerSetAndWorkload()
{
    // liger measured twice at 1024 channels (a series measured again): two pairs, one bar, the later pair's.
    RunList runs = threeProviders();
    auto again = makeRun(QStringLiteral("liger"), b200, 1024, 500);
    again->externalId += QStringLiteral("-again");
    again->observedAt = again->observedAt.addDays(1);
    again->finalize();
    runs << again;
    const SpeedupData data = buildSpeedupData(runs, {});
    QCOMPARE(data.comparison.pairs.size(), 4);
    QCOMPARE(data.bars.size(), 3); // liger 1024, liger 2048, triton 1024
    QCOMPARE(data.shared, 1);
    const SpeedupBar* bar = barOf(data, QStringLiteral("liger"), 0);
    QVERIFY(bar);
    int last = -1;
    for (int i = 0; i < data.comparison.pairs.size(); ++i) {
        const Run& run = *data.comparison.pairs[i].run;
        if (run.provider == QLatin1String("liger") && run.workloadSlug.contains(QLatin1String("channels1024-")))
            last = i;
    }
    QCOMPARE(bar->pair, last);
    QCOMPARE(bar->ratio, data.comparison.pairs[last].ratio);
    QVERIFY2(data.subtitles.join(QLatin1Char('\n'))
                 .contains(QStringLiteral("1 pair(s) share a bar with a later pair of the same workload and set")),
        qPrintable(data.subtitles.join(QLatin1Char('\n'))));
    QCOMPARE(buildSpeedupData(threeProviders(), {}).shared, 0);
}

void TestSpeedupData::setsPerGpu()
{
    RunList runs = threeProviders();
    runs << makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA A100-SXM4-80GB"), 1024, 1000);
    const SpeedupData data = buildSpeedupData(runs, {});
    QStringList labels;
    for (const SpeedupSet& s : data.sets)
        labels << s.label + QLatin1Char('/') + QString::number(s.variant);
    labels.sort();
    // GPUs vary: each set names its GPU; liger's second set (in pair order: by GPU) gets the second pattern.
    QCOMPARE(labels,
        (QStringList { QStringLiteral("liger · A100-SXM4-80GB/0"), QStringLiteral("liger · B200/1"),
            QStringLiteral("triton · B200/0") }));
    // The A100 run has no baseline on its GPU: paired across GPUs, with the warning counted.
    QCOMPARE(data.pairWarnings.size(), 1);
    QVERIFY(data.pairWarnings.front().startsWith(QStringLiteral("different GPU")));
    QCOMPARE(data.warnings, QStringList { data.pairWarnings.front() + QStringLiteral(" (1 pair)") });
    QVERIFY(data.chartTitle.startsWith(QStringLiteral("group_norm · backward · 2 GPUs — speed-up vs ")));
}

void TestSpeedupData::nothingToCompare()
{
    SpeedupData data = buildSpeedupData({}, {});
    QVERIFY(data.isEmpty());
    QCOMPARE(data.notes.front(),
        QStringLiteral("no latency runs to compare: select latency runs of two providers on one workload"));
    QVERIFY(data.categories.isEmpty());
    QVERIFY(data.categoryTitle.isEmpty());
    // Each empty speed-up says why and what to select (issue 31): a baseline that is not among the runs,
    data = buildSpeedupData(threeProviders(), Baseline::ofProvider(QStringLiteral("cudnn")));
    QVERIFY(data.isEmpty());
    QCOMPARE(data.notes.front(),
        QStringLiteral("no baseline provider (cudnn) among these runs (huggingface, liger, triton): choose one of them "
                       "as the baseline, or select runs of cudnn"));
    QVERIFY(data.bars.isEmpty());
    // runs of one provider,
    const RunList liger
        = { makeRun(QStringLiteral("liger"), b200, 1024, 1000), makeRun(QStringLiteral("liger"), b200, 2048, 3200) };
    data = buildSpeedupData(liger, {});
    QVERIFY(data.isEmpty());
    QCOMPARE(data.notes.front(),
        QStringLiteral("the 2 latency runs are of one provider (liger): select runs of two providers on one workload"));
    // two providers that share no workload.
    data = buildSpeedupData({ makeRun(QStringLiteral("huggingface"), b200, 1024, 2000), liger[1] }, {});
    QVERIFY(data.isEmpty());
    QCOMPARE(data.notes.front(),
        QStringLiteral("no workload has runs of both huggingface and another provider: select runs of two providers "
                       "on one workload (2 workloads in scope)"));
}

void TestSpeedupData::pairNotesCounted()
{
    Comparison c;
    c.pairs.resize(3);
    c.pairs[0].notes = { QStringLiteral("same workload digest (b199535cdbfa…)"), QStringLiteral("liger is noisy") };
    c.pairs[1].notes = { QStringLiteral("same workload digest (77aa00…)") };
    c.pairs[2].notes = { QStringLiteral("liger is noisy") };
    QCOMPARE(summarizePairNotes(c),
        (QStringList {
            QStringLiteral("same workload digest: 2 of 3 pairs"), QStringLiteral("liger is noisy: 2 of 3 pairs") }));

    // Notes that differ only in a number are one kind, with the number's range: 168 pairs of which 30 have a noisy
    // liger run and 12 a noisy baseline read in two lines, not 42.
    Comparison many;
    many.pairs.resize(168);
    for (int i = 0; i < 30; ++i)
        many.pairs[i].notes << QStringLiteral("liger is noisy (p20–p80 spread %1% of the median)").arg(11 + 4 * i);
    for (int i = 0; i < 12; ++i)
        many.pairs[100 + i].notes
            << QStringLiteral("the baseline torch is noisy (p20–p80 spread %1% of the median)").arg(20 + i);
    many.pairs[150].notes << QStringLiteral("3 torch runs for this workload: compared with the newest");
    QCOMPARE(summarizePairNotes(many),
        (QStringList { QStringLiteral("liger is noisy (p20–p80 spread 11–127% of the median): 30 of 168 pairs"),
            QStringLiteral("the baseline torch is noisy (p20–p80 spread 20–31% of the median): 12 of 168 pairs"),
            QStringLiteral("3 torch runs for this workload: compared with the newest: 1 of 168 pairs") }));
}

void TestSpeedupData::notesAggregated()
{
    // Singletons stay as they are; a kind seen n times is one line with its ranges and ×n.
    const QStringList notes { QStringLiteral("fixed: batch=128"), QStringLiteral("3 run(s) without a median not shown"),
        QStringLiteral("liger is noisy (spread 9.5%)"), QStringLiteral("liger is noisy (spread 40%)"),
        QStringLiteral("torch is noisy (spread 12%)"), QStringLiteral("liger is noisy (spread 12%)") };
    QCOMPARE(aggregateNotes(notes),
        (QStringList { QStringLiteral("fixed: batch=128"), QStringLiteral("3 run(s) without a median not shown"),
            QStringLiteral("liger is noisy (spread 9.5–40%) (×3)"), QStringLiteral("torch is noisy (spread 12%)") }));
    const QVector<NoteKind> kinds = noteKinds(notes);
    QCOMPARE(kinds.size(), 4);
    QCOMPARE(kinds[2].count, 3);
    // Numbers in the same place of several notes: each slot has its own range.
    QCOMPARE(aggregateNotes({ QStringLiteral("2 of 5 series"), QStringLiteral("4 of 9 series") }),
        QStringList { QStringLiteral("2–4 of 5–9 series (×2)") });
    QVERIFY(aggregateNotes({}).isEmpty());
}

void TestSpeedupData::pairWarningsCounted()
{
    Comparison c;
    c.pairs.resize(20);
    for (int i = 0; i < 20; ++i)
        c.pairs[i].warnings = { QStringLiteral("warning %1").arg(i), QStringLiteral("shared") };
    const QStringList out = summarizePairWarnings(c);
    QCOMPARE(out.size(), 13); // 12 distinct warnings, then a count of the rest
    QCOMPARE(out[0], QStringLiteral("warning 0 (1 pair)"));
    QCOMPARE(out[1], QStringLiteral("shared (20 pairs)"));
    QCOMPARE(out.back(), QStringLiteral("and 9 more distinct warnings: see the pairs"));
}

void TestSpeedupData::texts()
{
    QCOMPARE(ratioText(1.616), QStringLiteral("1.62×"));
    QCOMPARE(ratioText(std::numeric_limits<double>::quiet_NaN()), QStringLiteral("–"));
    QCOMPARE(verdictSymbol(Verdict::Faster), QStringLiteral("▲"));
    QCOMPARE(verdictSymbol(Verdict::Slower), QStringLiteral("◆"));
    QCOMPARE(verdictSymbol(Verdict::Same), QStringLiteral("●"));
    QCOMPARE(verdictSymbol(Verdict::Ambiguous), QStringLiteral("□"));
    ProviderSummary s;
    s.provider = QStringLiteral("liger");
    s.pairs = 17;
    s.geomean = 1.62;
    s.gpus = { QStringLiteral("B200"), QStringLiteral("H100"), QStringLiteral("A100") };
    QCOMPARE(providerSummaryLine(s), QStringLiteral("liger 1.62× (17 pairs; 3 GPUs)"));
    s.pairs = 1;
    s.gpus = { QStringLiteral("B200") };
    s.passes = { QStringLiteral("forward"), QStringLiteral("backward") };
    QCOMPARE(providerSummaryLine(s), QStringLiteral("liger 1.62× (1 pair; 2 passes)"));

    const SpeedupData data = buildSpeedupData(threeProviders(), {});
    const SpeedupBar* liger = barOf(data, QStringLiteral("liger"), 0);
    const QString tip = speedupTooltip(data.comparison.pairs[liger->pair]);
    QVERIFY2(tip.startsWith(QStringLiteral("2.00× ▲ — faster than huggingface\nliger · B200 · group_norm backward")),
        qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("median 1 µs vs huggingface 2 µs")), qPrintable(tip));
}

KIX_TEST_GUILESS_MAIN(TestSpeedupData)
#include "tst_speedupdata.moc"
