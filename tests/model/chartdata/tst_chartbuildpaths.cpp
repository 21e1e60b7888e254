// SPDX-License-Identifier: Apache-2.0
// The chart builders' fast paths pinned against their plain ones. Over a million runs the builders recognise
// runs that share interned strings by address (DistinctText, the series and cohort tables, the memos of the row
// before): the same runs with every string a copy of its own take the plain paths (text hashing, building every
// label), so each chart kind's data must be the same either way, on varied runs in two orders. The quantile
// series' names are also checked against the naming rule written out plainly. And a build given a superseded
// cancel token returns early, while the same build given the newest does not.
#include "model/chartdata/chartscope.h"
#include "model/chartdata/overviewdata.h"
#include "model/chartdata/quantiledata.h"
#include "model/chartdata/speedupdata.h"
#include "model/chartdata/sweep.h"
#include "model/compare/rank.h"
#include "model/history/history.h"
#include "model/jobs/jobtracker.h"
#include "model/workload.h"

#include "tests/support/testmain.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>

using namespace kix;

namespace {

const QDateTime epoch(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC);

// Varied runs: 2 kernels, 2 passes, 5 providers (one unnamed, told by its digest), 4 GPUs (one without a slug,
// one without a product), 3 widths, 2 dtypes, 3 protocol families; repeated observations of each series, a few
// at the same time; failed, memory and median-less runs; samples, labels, shared and differing digests; a step
// in some series and a spike in one.
RunList variedRuns(int count)
{
    const QStringList kernels = { QStringLiteral("group_norm"), QStringLiteral("rms_norm") };
    const QStringList passes = { QStringLiteral("forward"), QStringLiteral("backward") };
    const QStringList providers = { QStringLiteral("huggingface"), QStringLiteral("torch"), QStringLiteral("liger"),
        QStringLiteral("triton"), QString() };
    const QStringList products = { QStringLiteral("NVIDIA B200"), QStringLiteral("NVIDIA H100 80GB HBM3"), QString(),
        QStringLiteral("AMD Instinct MI300X") };
    const QStringList slugs = { QStringLiteral("nvidia-b200"), QStringLiteral("nvidia-h100-80gb-hbm3"),
        QStringLiteral("nvidia-a100"), QString() };
    const QStringList dtypes = { QStringLiteral("fp32"), QStringLiteral("bf16") };
    const QStringList families
        = { QStringLiteral("liger_kernel_bench"), QStringLiteral("kix_engine"), QStringLiteral("nvbench_cold") };
    const QString passed = QStringLiteral("passed");
    const QString timeout = QStringLiteral("timeout");
    const QString mb = QStringLiteral("MB");
    const QString digestA = QStringLiteral("sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    const QString digestB = QStringLiteral("sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
    const QString impl = QStringLiteral("sha256:cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc");
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> pick(0, 999);
    RunList runs;
    for (int i = 0; i < count; ++i) {
        const int series = pick(rng) % 48;
        auto run = std::make_shared<Run>();
        run->kernel = kernels[series % 2];
        run->pass = passes[(series / 2) % 2];
        const int v = series % 5;
        run->provider = providers[v];
        const int g = (series / 5) % 4;
        run->gpuProduct = products[g];
        run->gpuSlug = slugs[g];
        const int channels = 64 << (2 * ((series / 3) % 3));
        run->dtype = dtypes[(series / 7) % 2];
        run->workload = { { QStringLiteral("batch"), QStringLiteral("8"), 8 },
            { QStringLiteral("channels"), QString::number(channels), double(channels) } };
        run->workloadSlug = QStringLiteral("batch8-channels%1-%2").arg(channels).arg(run->dtype);
        run->protocolFamily = families[(series / 11) % 3];
        run->protocolNotes = series % 13 == 0 ? QStringLiteral("timed with a CUDA graph") : QString();
        run->status = pick(rng) % 40 == 0 ? timeout : passed;
        if (series % 17 == 3) {
            run->metric = Run::Metric::Memory;
            run->unit = mb;
        }
        run->observedAt = epoch.addSecs(qint64(pick(rng) % 90) * 3600 * 24 + (pick(rng) % 3) * 60);
        const bool later = run->observedAt > epoch.addDays(45);
        double median = 1000.0 + channels * (1 + v) + (pick(rng) % 21) * 0.5;
        if (later && series % 4 == 0)
            median *= 1.3; // a step
        if (i == 301)
            median *= 3; // a spike
        run->median = pick(rng) % 97 == 0 ? std::numeric_limits<double>::quiet_NaN() : median;
        if (series % 6 != 5) {
            run->p20 = median * 0.99;
            run->p80 = median * (series % 9 == 0 ? 1.4 : 1.01);
        }
        if (series % 10 == 1) {
            for (int s = 0; s < 8; ++s)
                run->samples.push_back(median * (1 + 0.001 * s));
        }
        if (series % 3 == 0)
            run->labels = { { QStringLiteral("liger_version"), QStringLiteral("0.%1").arg(i % 4) } };
        run->workloadDigest = series % 8 == 0 ? digestB : digestA;
        run->protocolDigest = digestA;
        run->environmentDigest = g == 0 ? digestA : digestB;
        run->implementationDigest = v == 4 || v == 3 ? impl : QString();
        run->externalId = QStringLiteral("%1/%2").arg(run->workloadSlug).arg(i % 250); // some ids repeat
        run->name = QStringLiteral("r%1").arg(i); // the runs' identity in the dumps below
        run->finalize();
        runs << run;
    }
    return runs;
}

QString own(const QString& s)
{
    return s.isNull() ? s : QString(s.constData(), s.size());
}

// The same runs, every string a copy of its own: no two runs share the address of a text.
RunList unshared(const RunList& runs)
{
    RunList out;
    for (const RunPtr& r : runs) {
        auto run = std::make_shared<Run>(*r);
        for (QString* s : { &run->kernel, &run->pass, &run->provider, &run->gpuSlug, &run->gpuProduct,
                 &run->workloadSlug, &run->dtype, &run->protocolFamily, &run->protocolNotes, &run->headlineMetric,
                 &run->headlineStatistic, &run->unit, &run->status, &run->externalId, &run->name,
                 &run->implementationDigest, &run->workloadDigest, &run->protocolDigest, &run->environmentDigest })
            *s = own(*s);
        for (WorkloadParam& p : run->workload) {
            p.key = own(p.key);
            p.value = own(p.value);
        }
        for (KeyValue& kv : run->labels) {
            kv.key = own(kv.key);
            kv.value = own(kv.value);
        }
        out << run;
    }
    return out;
}

QString num(double x)
{
    return QString::number(x, 'g', 17);
}

QString ids(const RunList& runs)
{
    QStringList out;
    for (const RunPtr& r : runs)
        out << r->name;
    return out.join(QLatin1Char(','));
}

QStringList dumpQuantiles(const RunList& runs, int maxSeries)
{
    const QuantileData d = buildQuantileData(runs, 40, maxSeries);
    QStringList out { d.title, d.groups.join(QLatin1Char('|')), d.groupTitle, d.series.join(QLatin1Char('|')),
        d.notes.join(QLatin1Char('|')), d.warnings.join(QLatin1Char('|')),
        QStringLiteral("%1 %2 %3").arg(d.skippedNonLatency).arg(d.failedRuns).arg(d.droppedRuns) };
    for (const QuantileBox& b : d.boxes)
        out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8")
                   .arg(b.group)
                   .arg(b.series)
                   .arg(b.run->name, num(b.min), num(b.p20), num(b.median), num(b.p80), num(b.max));
    return out;
}

QStringList dumpSweep(const RunList& runs, int maxSeries)
{
    const SweepData d = buildSweep(runs, {}, maxSeries);
    QStringList out { d.title, d.candidates.join(QLatin1Char('|')), d.xParam, d.splitBy.join(QLatin1Char('|')),
        d.fixedDescription, d.notes.join(QLatin1Char('|')),
        QStringLiteral("%1 %2 %3 %4").arg(d.skippedNonLatency).arg(d.failedRuns).arg(d.duplicates).arg(d.droppedRuns) };
    for (const SweepSeries& s : d.series) {
        out << s.label + QLatin1Char('/') + s.provider + QLatin1Char('/') + s.gpu + QLatin1Char('/') + s.pass;
        for (const SweepPoint& p : s.points)
            out << num(p.x) + QLatin1Char(' ') + p.run->name + QLatin1Char(' ') + num(p.p20);
    }
    return out;
}

QStringList dumpSpeedup(const RunList& runs, int maxSeries)
{
    const SpeedupData d = buildSpeedupData(runs, {}, 40, maxSeries);
    QStringList out { d.title, d.baseline.describe(), d.categories.join(QLatin1Char('|')),
        d.axisLabels.join(QLatin1Char('|')), d.categoryTitle, d.xTitle, d.chartTitle,
        d.subtitles.join(QLatin1Char('|')), d.pairWarnings.join(QLatin1Char('|')), d.notes.join(QLatin1Char('|')),
        d.warnings.join(QLatin1Char('|')), QStringLiteral("%1 %2 %3").arg(d.dropped).arg(d.shared).arg(num(d.top)),
        ids(d.comparison.unpaired), QString::number(d.comparison.baselineRuns) };
    for (const SpeedupSet& s : d.sets)
        out << QStringLiteral("set %1 %2 %3").arg(s.label, s.provider).arg(s.variant);
    for (const SpeedupBar& b : d.bars)
        out << QStringLiteral("bar %1 %2 %3 %4 %5")
                   .arg(b.set)
                   .arg(b.category)
                   .arg(b.pair)
                   .arg(num(b.ratio))
                   .arg(int(b.verdict));
    for (const ComparisonPair& p : d.comparison.pairs)
        out << QStringLiteral("pair %1 %2 %3 %4 %5 %6 [%7] [%8] %9")
                   .arg(p.baseline->name, p.run->name, num(p.ratio))
                   .arg(int(p.verdict))
                   .arg(int(p.method))
                   .arg(num(p.pValue), p.warnings.join(QLatin1Char('|')), p.notes.join(QLatin1Char('|')), p.reason);
    for (const ProviderSummary& s : d.comparison.providers)
        out << QStringLiteral("summary %1 %2 %3 %4")
                   .arg(s.provider)
                   .arg(s.pairs)
                   .arg(num(s.geomean))
                   .arg(s.gpus.join(QLatin1Char('|')));
    return out;
}

QStringList dumpHistory(const RunList& runs)
{
    const History h = buildHistory(runs);
    QStringList out { h.notes.join(QLatin1Char('|')), ids(h.unplaceable),
        QStringLiteral("%1 %2").arg(h.skippedRuns).arg(h.sameTimeRuns) };
    for (const HistorySeries& s : h.series) {
        QStringList points;
        for (const HistoryPoint& p : s.points)
            points << p.run->name + QLatin1Char(':') + p.label + (p.sameTime ? QStringLiteral("=") : QString());
        QStringList changes;
        for (int c : s.changes)
            changes << QString::number(c);
        out << s.key.id() + QLatin1Char(' ') + s.title + QLatin1Char(' ') + s.unit + QLatin1Char(' ')
                + points.join(QLatin1Char(',')) + QLatin1Char(' ') + changes.join(QLatin1Char(','));
    }
    for (const HistoryChange& c : h.changes)
        out << QStringLiteral("change %1 %2 %3 %4 %5 %6")
                   .arg(c.series)
                   .arg(int(c.kind))
                   .arg(c.change.index)
                   .arg(c.before->name, c.after->name, c.change.evidence);
    return out;
}

QStringList dumpRanking(const RunList& runs)
{
    const Ranking r = rankRuns(runs);
    QStringList out { r.notes.join(QLatin1Char('|')) };
    for (const RankCohort& c : r.cohorts) {
        out << QStringLiteral("cohort ") + c.key.id() + QLatin1Char(' ') + c.key.describe();
        for (const RankEntry& e : c.entries)
            out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9")
                       .arg(e.implementation, e.implementationKey)
                       .arg(e.rank)
                       .arg(ids(e.runs), num(e.best), num(e.median), num(e.ratio))
                       .arg(int(e.distinguishable))
                       .arg(e.evidence);
        for (const UnrankedRun& u : c.failed)
            out << QStringLiteral("failed ") + u.run->name + QLatin1Char(' ') + u.implementation + QLatin1Char(' ')
                    + u.reason;
        for (const UnrankedRun& u : c.unranked)
            out << QStringLiteral("unranked ") + u.run->name + QLatin1Char(' ') + u.implementation;
    }
    return out;
}

QStringList dumpOverview(const RunList& runs)
{
    const OverviewData o = buildOverview(runs);
    QStringList out { o.kernels.join(QLatin1Char('|')), o.gpus.join(QLatin1Char('|')),
        o.kernelClauses.join(QLatin1Char('|')), o.gpuClauses.join(QLatin1Char('|')) };
    auto cell = [](const OverviewCell& c) {
        return QStringLiteral("%1/%2/%3").arg(c.runs).arg(c.implementations).arg(c.failed);
    };
    for (const OverviewCell& c : o.cells)
        out << cell(c);
    for (const OverviewCell& c : o.kernelTotals + o.gpuTotals)
        out << cell(c);
    out << cell(o.total) << QString::number(overviewIsFirstView(runs, 1, 2));
    return out;
}

QStringList dumpScope(const RunList& runs)
{
    const ChartScope s = focusChartScope(runs, 1);
    return { ids(s.runs), s.kernel, s.kernels.join(QLatin1Char('|')), s.metric, s.unit,
        s.metrics.join(QLatin1Char('|')), QString::number(s.failedRuns), s.note, selectionTitle(runs),
        Baseline::defaultFor(runs).describe() };
}

// The quantile chart's series names as the rule says, plainly: per workload (in chart order), runs by provider
// and GPU; "provider · GPU", " (n)" for its n-th run in the workload; a name not yet a series becomes one while
// there is room, else its run is left out.
QStringList plainQuantileSeries(const RunList& runs, int maxSeries, QStringList* boxes)
{
    QVector<RunList> groups;
    QVector<WorkloadKey> keys;
    for (const RunPtr& run : runs) {
        if (run->failed() || !run->isLatency() || !std::isfinite(run->median))
            continue;
        const WorkloadKey key = WorkloadKey::of(*run);
        const auto at = std::find(keys.begin(), keys.end(), key);
        if (at == keys.end()) {
            keys << key;
            groups << RunList { run };
        } else {
            groups[int(at - keys.begin())] << run;
        }
    }
    std::stable_sort(groups.begin(), groups.end(), [](const RunList& x, const RunList& y) {
        const Run& a = *x.front();
        const Run& b = *y.front();
        if (a.kernel != b.kernel)
            return a.kernel < b.kernel;
        if (a.pass != b.pass)
            return a.pass < b.pass;
        return compareWorkloads(a, b) < 0;
    });
    QStringList series;
    for (int g = 0; g < groups.size() && g < 40; ++g) {
        RunList group = groups[g];
        std::stable_sort(group.begin(), group.end(), [](const RunPtr& a, const RunPtr& b) {
            if (a->provider != b->provider)
                return a->provider < b->provider;
            return a->gpuDisplayName() < b->gpuDisplayName();
        });
        QHash<QString, int> seen;
        for (const RunPtr& run : group) {
            QString name = run->provider + QStringLiteral(" · ") + shortGpuName(run->gpuDisplayName());
            const int n = ++seen[name];
            if (n > 1)
                name += QStringLiteral(" (%1)").arg(n);
            int index = int(series.indexOf(name));
            if (index < 0 && series.size() < maxSeries) {
                index = int(series.size());
                series << name;
            }
            if (index >= 0)
                *boxes << QStringLiteral("%1 %2 %3").arg(g).arg(index).arg(run->name);
        }
    }
    return series;
}

} // namespace

class TestChartBuildPaths : public QObject
{
    Q_OBJECT
private slots:
    void sharedAndUnsharedAgree_data();
    void sharedAndUnsharedAgree();
    void quantileSeriesFollowTheRule_data();
    void quantileSeriesFollowTheRule();
    void cancelledBuildsStop();
};

void TestChartBuildPaths::sharedAndUnsharedAgree_data()
{
    QTest::addColumn<bool>("sorted");
    QTest::addColumn<int>("maxSeries");
    QTest::newRow("input order") << false << 16;
    QTest::newRow("by series, few series") << true << 3;
}

void TestChartBuildPaths::sharedAndUnsharedAgree()
{
    QFETCH(bool, sorted);
    QFETCH(int, maxSeries);
    RunList runs = variedRuns(1500);
    if (sorted) // long stretches of runs that share their texts: the memos of the row before hit
        std::stable_sort(runs.begin(), runs.end(), [](const RunPtr& a, const RunPtr& b) {
            return std::tie(a->kernel, a->pass, a->provider, a->gpuSlug)
                < std::tie(b->kernel, b->pass, b->provider, b->gpuSlug);
        });
    const RunList copies = unshared(runs);
    const auto twin
        = std::find_if(runs.begin() + 1, runs.end(), [&](const RunPtr& r) { return r->kernel == runs[0]->kernel; });
    QVERIFY(twin != runs.end());
    const qsizetype j = twin - runs.begin();
    QVERIFY(runs[0]->kernel.constData() == runs[j]->kernel.constData()); // shared, as the loader's interned texts
    QVERIFY(copies[0]->kernel.constData() != copies[j]->kernel.constData()); // each its own
    QCOMPARE(copies[0]->kernel, runs[0]->kernel);

    const QStringList quantiles = dumpQuantiles(runs, maxSeries);
    QVERIFY(quantiles.size() > 7 + 3); // boxes were drawn
    QCOMPARE(dumpQuantiles(copies, maxSeries), quantiles);
    const QStringList sweep = dumpSweep(runs, maxSeries);
    QVERIFY(sweep.size() > 10);
    QCOMPARE(dumpSweep(copies, maxSeries), sweep);
    // The pairs' order, as the comparison says: kernel, pass, workload, provider, GPU, externalId.
    const Comparison comparison = compareRuns(runs, Baseline::defaultFor(runs));
    QVERIFY(comparison.pairs.size() > 100);
    QVERIFY(std::is_sorted(
        comparison.pairs.begin(), comparison.pairs.end(), [](const ComparisonPair& a, const ComparisonPair& b) {
            const Run& x = *a.run;
            const Run& y = *b.run;
            if (x.kernel != y.kernel)
                return x.kernel < y.kernel;
            if (x.pass != y.pass)
                return x.pass < y.pass;
            if (const int c = compareWorkloads(x, y); c != 0)
                return c < 0;
            if (x.provider != y.provider)
                return x.provider < y.provider;
            if (x.gpuDisplayName() != y.gpuDisplayName())
                return x.gpuDisplayName() < y.gpuDisplayName();
            return x.externalId < y.externalId;
        }));
    const QStringList speedup = dumpSpeedup(runs, maxSeries);
    QVERIFY(speedup.size() > 100); // pairs
    QCOMPARE(dumpSpeedup(copies, maxSeries), speedup);
    const QStringList history = dumpHistory(runs);
    QVERIFY(history.size() > 40);
    QVERIFY(history.filter(QStringLiteral("change ")).size() > 0); // the steps were found
    QCOMPARE(dumpHistory(copies), history);
    const QStringList ranking = dumpRanking(runs);
    QVERIFY(ranking.filter(QStringLiteral("failed ")).size() > 0);
    QCOMPARE(dumpRanking(copies), ranking);
    const QStringList overview = dumpOverview(runs);
    QCOMPARE(dumpOverview(copies), overview);
    const QStringList scope = dumpScope(runs);
    QCOMPARE(dumpScope(copies), scope);
}

void TestChartBuildPaths::quantileSeriesFollowTheRule_data()
{
    QTest::addColumn<int>("maxSeries");
    QTest::newRow("room for all") << 400;
    QTest::newRow("16") << 16;
    QTest::newRow("3") << 3;
    QTest::newRow("1") << 1;
}

void TestChartBuildPaths::quantileSeriesFollowTheRule()
{
    QFETCH(int, maxSeries);
    RunList runs = variedRuns(1200);
    // A provider named like a repeat of another series: its name must be found among the repeats.
    // A GPU named like the repeat of another series ("B200 (2)"): its run's series is that name.
    const auto model = std::find_if(runs.begin(), runs.end(), [](const RunPtr& r) {
        return !r->gpuProduct.isEmpty() && !r->failed() && r->isLatency() && std::isfinite(r->median);
    });
    QVERIFY(model != runs.end());
    auto odd = std::make_shared<Run>(**model);
    odd->gpuProduct += QStringLiteral(" (2)");
    odd->name = QStringLiteral("odd");
    runs.append(odd);
    QStringList expectedBoxes;
    const QStringList expected = plainQuantileSeries(runs, maxSeries, &expectedBoxes);
    const QuantileData data = buildQuantileData(runs, 40, maxSeries);
    QCOMPARE(data.series, expected);
    QStringList boxes;
    for (const QuantileBox& b : data.boxes)
        boxes << QStringLiteral("%1 %2 %3").arg(b.group).arg(b.series).arg(b.run->name);
    QCOMPARE(boxes, expectedBoxes);
}

void TestChartBuildPaths::cancelledBuildsStop()
{
    const RunList runs = variedRuns(20000);
    const Baseline huggingface = Baseline::ofProvider(QStringLiteral("huggingface"));
    QObject owner;
    JobTracker tracker(&owner);
    const CancelToken stale = tracker.start();
    tracker.cancel(); // superseded
    QVERIFY(stale.cancelled());
    QVERIFY(compareRuns(runs, huggingface, 0.05, stale).pairs.size() < 100);
    QVERIFY(buildHistory(runs, {}, stale).series.size() < 2);
    QVERIFY(rankRuns(runs, 0.05, CohortScope::Strict, stale).cohorts.size() < 2);
    QVERIFY(buildQuantileData(runs, 40, 16, stale).boxes.size() < 20);
    QVERIFY(buildOverview(runs, stale).total.runs < 100);
    {
        const CancelToken current = tracker.start(); // the newest: it runs to the end
        QVERIFY(!current.cancelled());
        QVERIFY(compareRuns(runs, huggingface, 0.05, current).pairs.size() > 1000);
        QVERIFY(buildHistory(runs, {}, current).series.size() > 10);
        QCOMPARE(buildOverview(runs, current).total.runs, 20000);
    }
    QVERIFY(stale.cancelled()); // a newer job never makes an older one current again
}

KIX_TEST_GUILESS_MAIN(TestChartBuildPaths)
#include "tst_chartbuildpaths.moc"
