// SPDX-License-Identifier: Apache-2.0
// Pairing with a baseline, ratios, geometric means, verdicts (intervals and Mann-Whitney U) and comparability.
#include "model/chartdata/quantiledata.h"
#include "model/compare/comparison.h"
#include "model/compare/comparisonreport.h"
#include "model/compare/pairorder.h"
#include "model/workload.h"

#include "tests/model/runfactory.h"

#include "tests/support/testmain.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <random>

using namespace kix;
using kixtest::makeRun;

namespace {

const ComparisonPair* findPair(const Comparison& c, const QString& provider, const QString& gpuPart, double channels,
    const QString& pass = QStringLiteral("backward"))
{
    for (const ComparisonPair& p : c.pairs) {
        if (p.run->provider == provider && p.run->gpuDisplayName().contains(gpuPart)
            && p.run->paramNumber(QStringLiteral("channels")) == channels && p.run->pass == pass)
            return &p;
    }
    return nullptr;
}

bool anyContains(const QStringList& list, const QString& part)
{
    for (const QString& s : list) {
        if (s.contains(part))
            return true;
    }
    return false;
}

} // namespace

class TestComparison : public QObject
{
    Q_OBJECT
private slots:
    void mannWhitney_data();
    void mannWhitney();
    void verdicts_data();
    void verdicts();
    void fixturePairs();
    void runBaseline();
    void explicitProviderBaseline();
    void defaultBaseline();
    void comparabilityWarnings();
    void reports();
    void noiseAndBandwidth();
    void workloadKey();
    void pairsFollowTheChartGroups();
    void pairOrderIsThePlainSort();
};

void TestComparison::mannWhitney_data()
{
    QTest::addColumn<std::vector<double>>("a");
    QTest::addColumn<std::vector<double>>("b");
    QTest::addColumn<double>("u");
    QTest::addColumn<double>("p");
    QTest::addColumn<int>("method");
    QTest::addColumn<bool>("exact");
    const int asymptotic = int(MannWhitneyMethod::Asymptotic), automatic = int(MannWhitneyMethod::Auto);
    // scipy.stats.mannwhitneyu(males, females, method="asymptotic"): U = 17, p = 0.11134688653314041
    QTest::newRow("scipy docs") << std::vector<double> { 19, 22, 16, 29, 24 } << std::vector<double> { 20, 11, 17, 12 }
                                << 17.0 << 0.11134688653314041 << asymptotic << false;
    // the same with scipy's default method: 5 and 4 values, no ties: exact, p = 0.1111111111111111
    QTest::newRow("scipy docs, default") << std::vector<double> { 19, 22, 16, 29, 24 }
                                         << std::vector<double> { 20, 11, 17, 12 } << 17.0 << 0.1111111111111111
                                         << automatic << true;
    // ties: the default is the normal approximation
    QTest::newRow("ties") << std::vector<double> { 1, 2, 2, 3, 3, 3 } << std::vector<double> { 3, 4, 4, 5 } << 1.5
                          << 0.026826219079541535 << automatic << false;
    std::vector<double> low, high, interleaved;
    for (int i = 0; i < 20; ++i) {
        low.push_back(50000 + 10 * i);
        high.push_back(100000 + 10 * i);
        interleaved.push_back(100005 + 10 * i);
    }
    // 20 and 20 values: the default is the normal approximation
    QTest::newRow("separated") << low << high << 0.0 << 6.795615128173387e-08 << automatic << false;
    QTest::newRow("interleaved") << interleaved << high << 210.0 << 0.7971974192691748 << automatic << false;
    // 3 values against 20 without ties: exact, 2 * 1 / C(23, 3)
    QTest::newRow("small against large") << std::vector<double> { 1, 2, 3 } << high << 0.0 << 2.0 / 1771 << automatic
                                         << true;
    QTest::newRow("all tied") << std::vector<double> { 5, 5, 5 } << std::vector<double> { 5, 5 } << 3.0 << 1.0
                              << automatic << false;
}

void TestComparison::mannWhitney()
{
    QFETCH(std::vector<double>, a);
    QFETCH(std::vector<double>, b);
    QFETCH(double, u);
    QFETCH(double, p);
    QFETCH(int, method);
    QFETCH(bool, exact);
    const MannWhitneyResult r = mannWhitneyU(a, b, MannWhitneyMethod(method));
    QVERIFY(r.valid);
    QCOMPARE(r.exact, exact);
    QCOMPARE(r.u, u);
    QVERIFY2(std::abs(r.p - p) <= 1e-12 * std::max(1.0, p) + 1e-15, qPrintable(QString::number(r.p, 'g', 17)));
    QVERIFY(!mannWhitneyU({}, b).valid);
}

void TestComparison::verdicts_data()
{
    QTest::addColumn<double>("baseMedian");
    QTest::addColumn<double>("runMedian");
    QTest::addColumn<double>("spread");
    QTest::addColumn<int>("verdict");
    QTest::addColumn<int>("method");
    QTest::newRow("disjoint, faster") << 1000.0 << 500.0 << 0.01 << int(Verdict::Faster)
                                      << int(VerdictMethod::Intervals);
    QTest::newRow("disjoint, slower") << 1000.0 << 1500.0 << 0.01 << int(Verdict::Slower)
                                      << int(VerdictMethod::Intervals);
    QTest::newRow("overlap") << 1000.0 << 1010.0 << 0.02 << int(Verdict::Ambiguous) << int(VerdictMethod::Intervals);
    QTest::newRow("barely overlapping") << 1000.0 << 980.0 << 0.0102 << int(Verdict::Ambiguous)
                                        << int(VerdictMethod::Intervals);
    QTest::newRow("no spread") << 1000.0 << 500.0 << -1.0 << int(Verdict::Ambiguous) << int(VerdictMethod::NoSpread);
}

void TestComparison::verdicts()
{
    QFETCH(double, baseMedian);
    QFETCH(double, runMedian);
    QFETCH(double, spread);
    QFETCH(int, verdict);
    QFETCH(int, method);
    const auto base = makeRun(QStringLiteral("huggingface"), QStringLiteral("NVIDIA B200"), 64, baseMedian, spread);
    const auto run = makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 64, runMedian, spread);
    ComparisonPair pair;
    decideVerdict(*base, *run, 0.05, pair);
    QCOMPARE(int(pair.verdict), verdict);
    QCOMPARE(int(pair.method), method);
    QCOMPARE(pair.ratio, baseMedian / runMedian);
}

void TestComparison::fixturePairs()
{
    int errors = 0;
    const RunList runs
        = kixtest::loadUiFixtures({ QStringLiteral("groupnorm-sweep.json"), QStringLiteral("samples.jsonl"),
                                      QStringLiteral("cross-gpu.json"), QStringLiteral("liger-mini.csv") },
            &errors);
    QCOMPARE(errors, 0);
    QCOMPARE(runs.size(), 35);
    const Baseline baseline = Baseline::defaultFor(runs);
    QCOMPARE(baseline.providers, QStringList { QStringLiteral("huggingface") });
    const Comparison c = compareRuns(runs, baseline);
    QCOMPARE(c.skippedNonLatency, 2);
    QCOMPARE(c.pairs.size(), 7 * 2 + 1 + 2);
    QVERIFY(c.unpaired.isEmpty());

    // B200: liger takes half the time everywhere; p20-p80 disjoint.
    for (double ch : { 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 2048.0 }) {
        const ComparisonPair* p = findPair(c, QStringLiteral("liger"), QStringLiteral("B200"), ch);
        QVERIFY(p);
        QCOMPARE(p->ratio, 2.0);
        QCOMPARE(p->verdict, Verdict::Faster);
        QCOMPARE(p->method, VerdictMethod::Intervals);
        QVERIFY2(p->warnings.isEmpty(), qPrintable(p->warnings.join(QLatin1Char('\n'))));
        QVERIFY(anyContains(p->notes, QStringLiteral("same workload digest")));
        QVERIFY(anyContains(p->notes, QStringLiteral("same environment digest")));
        QCOMPARE(p->baseline->gpuProduct, QStringLiteral("NVIDIA B200"));
    }
    // H100: 1.25x, except channels 32 where liger is 1% slower with overlapping spreads.
    const ComparisonPair* h32 = findPair(c, QStringLiteral("liger"), QStringLiteral("H100"), 32);
    QVERIFY(h32);
    QCOMPARE(h32->ratio, 54000.0 / 54545.0);
    QCOMPARE(h32->verdict, Verdict::Ambiguous);
    const ComparisonPair* h64 = findPair(c, QStringLiteral("liger"), QStringLiteral("H100"), 64);
    QCOMPARE(h64->ratio, 1.25);
    QCOMPARE(h64->verdict, Verdict::Faster);

    // Raw samples: Mann-Whitney decides.
    const ComparisonPair* s256
        = findPair(c, QStringLiteral("liger"), QStringLiteral("B200"), 256, QStringLiteral("forward"));
    QVERIFY(s256);
    QCOMPARE(s256->method, VerdictMethod::MannWhitney);
    QCOMPARE(s256->verdict, Verdict::Faster);
    QVERIFY(std::abs(s256->pValue - 6.795615128173387e-08) < 1e-15);
    const ComparisonPair* s512
        = findPair(c, QStringLiteral("liger"), QStringLiteral("B200"), 512, QStringLiteral("forward"));
    QCOMPARE(s512->method, VerdictMethod::MannWhitney);
    QCOMPARE(s512->verdict, Verdict::Same);
    QVERIFY(std::abs(s512->pValue - 0.7971974192691748) < 1e-12);

    // No huggingface run on the A100: compared with one on another GPU, never silently.
    const ComparisonPair* a100 = findPair(c, QStringLiteral("liger"), QStringLiteral("A100"), 2048);
    QVERIFY(a100);
    QCOMPARE(a100->baseline->gpuProduct, QStringLiteral("NVIDIA B200"));
    QCOMPARE(a100->ratio, 1044000.0 / 900000.0);
    QVERIFY(anyContains(a100->warnings, QStringLiteral("different GPU: NVIDIA B200 (baseline) vs NVIDIA A100")));
    QVERIFY(anyContains(a100->notes, QStringLiteral("another GPU")));

    // Geometric mean over every liger pair, and the verdict counts.
    QCOMPARE(c.providers.size(), 1);
    const ProviderSummary& s = c.providers.front();
    QCOMPARE(s.provider, QStringLiteral("liger"));
    QCOMPARE(s.pairs, 17);
    double logSum = 7 * std::log(2.0) + 6 * std::log(1.25) + std::log(54000.0 / 54545.0)
        + std::log(1044000.0 / 900000.0) + std::log(s256->ratio) + std::log(s512->ratio);
    QVERIFY(std::abs(s.geomean - std::exp(logSum / 17)) < 1e-12);
    QCOMPARE(s.faster, 7 + 6 + 1 + 1);
    QCOMPARE(s.same, 1);
    QCOMPARE(s.ambiguous, 1);
    QCOMPARE(s.warned, 1);
    QCOMPARE(s.gpus.size(), 3);
    QCOMPARE(s.passes, (QStringList { QStringLiteral("backward"), QStringLiteral("forward") }));
    QVERIFY(anyContains(c.notes, QStringLiteral("2 non-latency")));
}

void TestComparison::runBaseline()
{
    const auto base = makeRun(QStringLiteral("huggingface"), QStringLiteral("NVIDIA B200"), 2048, 1000);
    const auto other = makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA H100"), 32, 250);
    const auto forward
        = makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 2048, 500, 0.01, QStringLiteral("forward"));
    const Comparison c = compareRuns({ base, other, forward }, Baseline::ofRun(base));
    QCOMPARE(c.pairs.size(), 2);
    QCOMPARE(c.baselineRuns, 1);
    const ComparisonPair& p = c.pairs[0].run == other ? c.pairs[0] : c.pairs[1];
    QCOMPARE(p.ratio, 4.0);
    QVERIFY(anyContains(p.warnings, QStringLiteral("different GPU: NVIDIA B200 (baseline) vs NVIDIA H100")));
    QVERIFY(anyContains(p.warnings, QStringLiteral("different workload: channels 2048 vs 32")));
    const ComparisonPair& f = c.pairs[0].run == forward ? c.pairs[0] : c.pairs[1];
    QVERIFY(anyContains(f.warnings, QStringLiteral("different pass: backward (baseline) vs forward")));
    QCOMPARE(f.warnings.size(), 1);
}

void TestComparison::explicitProviderBaseline()
{
    const RunList runs = kixtest::loadUiFixtures({ QStringLiteral("groupnorm-sweep.json") });
    const Comparison c = compareRuns(runs, Baseline::ofProvider(QStringLiteral("liger")));
    QCOMPARE(c.pairs.size(), 14);
    const ComparisonPair* p = findPair(c, QStringLiteral("huggingface"), QStringLiteral("B200"), 128);
    QVERIFY(p);
    QCOMPARE(p->ratio, 0.5);
    QCOMPARE(p->verdict, Verdict::Slower);
}

void TestComparison::defaultBaseline()
{
    const auto torch = makeRun(QStringLiteral("torch"), QStringLiteral("NVIDIA B200"), 64, 1000);
    const auto liger = makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 64, 500);
    const auto hf = makeRun(QStringLiteral("huggingface"), QStringLiteral("NVIDIA B200"), 128, 900);
    QCOMPARE(Baseline::defaultFor({ torch, liger }).providers, QStringList { QStringLiteral("torch") });
    QCOMPARE(Baseline::defaultFor({ torch, liger, hf }).providers,
        (QStringList { QStringLiteral("huggingface"), QStringLiteral("torch") }));
    const auto zeta = makeRun(QStringLiteral("zeta"), QStringLiteral("NVIDIA B200"), 64, 500);
    QCOMPARE(Baseline::defaultFor({ zeta, liger }).providers, QStringList { QStringLiteral("liger") });

    // huggingface where the workload has it, torch where it does not.
    const auto liger128 = makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 128, 450);
    const Comparison c = compareRuns({ torch, liger, hf, liger128 }, Baseline::defaultFor({ torch, liger, hf }));
    QCOMPARE(c.pairs.size(), 2);
    QCOMPARE(findPair(c, QStringLiteral("liger"), QStringLiteral("B200"), 64)->baseline, RunPtr(torch));
    QCOMPARE(findPair(c, QStringLiteral("liger"), QStringLiteral("B200"), 128)->baseline, RunPtr(hf));
}

void TestComparison::comparabilityWarnings()
{
    auto a = makeRun(QStringLiteral("huggingface"), QStringLiteral("NVIDIA B200"), 64, 1000);
    auto b = makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 64, 500);
    a->workloadDigest = b->workloadDigest = QStringLiteral("sha256:0123456789abcdef");
    a->protocolDigest = QStringLiteral("sha256:aaaa");
    b->protocolDigest = QStringLiteral("sha256:bbbb");
    Comparability same = assessComparability(*a, *b);
    QVERIFY(same.isClean());
    QVERIFY(same.notes.contains(QStringLiteral("same workload digest (0123456789ab…)")));
    QVERIFY(anyContains(same.notes, QStringLiteral("different protocol digests within the family")));

    b->dtype = QStringLiteral("bf16");
    b->protocolFamily = QStringLiteral("kix_engine");
    const Comparability c = assessComparability(*a, *b);
    QVERIFY(c.warnings.contains(QStringLiteral("different dtype: fp32 (baseline) vs bf16")));
    QVERIFY(
        c.warnings.contains(QStringLiteral("different protocol family: liger_kernel_bench (baseline) vs kix_engine")));

    // Same slug but different workload digests: something outside the name differs.
    auto d = makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 64, 500);
    d->workloadDigest = QStringLiteral("sha256:ffff");
    QVERIFY(anyContains(assessComparability(*a, *d).warnings, QStringLiteral("different workload digests")));
}

void TestComparison::reports()
{
    const RunList runs = kixtest::allUiFixtures();
    const Comparison c = compareRuns(runs, Baseline::defaultFor(runs));

    const nlohmann::json json = nlohmann::json::parse(comparisonToJson(c).toStdString());
    QCOMPARE(json["pairs"].size(), size_t(17));
    QCOMPARE(json["baseline"]["providers"][0].get<std::string>(), std::string("huggingface"));
    bool sawA100 = false;
    for (const auto& p : json["pairs"]) {
        QVERIFY(p["run"]["medianNs"].is_number());
        QVERIFY(p["baseline"]["medianNs"].is_number());
        QVERIFY(p["ratio"].is_number());
        QVERIFY(p["verdict"].is_string());
        QVERIFY(p["warnings"].is_array());
        if (p["run"]["gpu"] == "NVIDIA A100-SXM4-80GB") {
            sawA100 = true;
            QCOMPARE(p["warnings"].size(), size_t(1));
            QCOMPARE(p["ratio"].get<double>(), 1044000.0 / 900000.0);
        }
    }
    QVERIFY(sawA100);
    QCOMPARE(json["providers"][0]["provider"].get<std::string>(), std::string("liger"));
    QCOMPARE(json["skippedNonLatency"].get<int>(), 2);

    const QList<QByteArray> lines = comparisonToCsv(c).trimmed().split('\n');
    QCOMPARE(lines.size(), 18);
    QVERIFY(lines[0].startsWith("kernel,pass,workload,dtype,provider,gpu,baseline_provider"));

    const QString table = QString::fromUtf8(comparisonToTable(c));
    QVERIFY(table.contains(QStringLiteral("geomean speed-up")));
    QVERIFY(table.contains(QStringLiteral("2.000×")));
    QVERIFY(table.contains(QStringLiteral("different GPU")));
    QVERIFY(table.contains(QStringLiteral("mann-whitney")));
}

void TestComparison::noiseAndBandwidth()
{
    // liger 2x faster and clean, with kix-style bandwidth measurements; huggingface noisy (spread 40%).
    auto liger = kixtest::makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 2048, 100000, 0.01);
    liger->measurements = { { QStringLiteral("bandwidth"), QStringLiteral("median"), QStringLiteral("GB/s"), 6200 },
        { QStringLiteral("copy_bandwidth"), QStringLiteral("median"), QStringLiteral("GB/s"), 7000 } };
    liger->finalize();
    auto hf = kixtest::makeRun(QStringLiteral("huggingface"), QStringLiteral("NVIDIA B200"), 2048, 200000, 0.2);
    auto clean = kixtest::makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 1024, 90000, 0.01);
    auto cleanHf = kixtest::makeRun(QStringLiteral("huggingface"), QStringLiteral("NVIDIA B200"), 1024, 91000, 0.01);
    QVERIFY(hf->isNoisy());
    QVERIFY(!liger->isNoisy());
    QCOMPARE(liger->bandwidthFraction(), 6200.0 / 7000.0);

    const Comparison c
        = compareRuns({ liger, hf, clean, cleanHf }, Baseline::ofProvider(QStringLiteral("huggingface")));
    QCOMPARE(c.pairs.size(), 2);
    const ComparisonPair& noisy = c.pairs[1]; // channels 2048 after 1024
    QCOMPARE(noisy.run, RunPtr(liger));
    QVERIFY(noisy.noisy);
    QVERIFY2(
        noisy.reason.contains(QStringLiteral("the baseline huggingface is noisy (p20–p80 spread 40% of the median)")),
        qPrintable(noisy.reason));
    const ComparisonPair& overlap = c.pairs[0];
    QVERIFY(!overlap.noisy);
    QCOMPARE(overlap.verdict, Verdict::Ambiguous);
    QCOMPARE(overlap.reason, QStringLiteral("p20–p80 intervals overlap"));

    // kix compare: bandwidth columns appear because a run records them; the noisy verdict says so.
    const QString table = QString::fromUtf8(comparisonToTable(c));
    QVERIFY2(table.contains(QStringLiteral("GB/s")) && table.contains(QStringLiteral("of copy")), qPrintable(table));
    QVERIFY2(table.contains(QStringLiteral("6200.0")) && table.contains(QStringLiteral("89%")), qPrintable(table));
    QVERIFY(table.contains(QStringLiteral("faster (noisy)")));
    const nlohmann::json json = nlohmann::json::parse(comparisonToJson(c).toStdString());
    QCOMPARE(json["pairs"][1]["run"]["gbps"].get<double>(), 6200.0);
    QVERIFY(json["pairs"][1]["noisy"].get<bool>());
    const QList<QByteArray> csv = comparisonToCsv(c).trimmed().split('\n');
    QVERIFY(csv[0].endsWith("noisy,gbps,copy_bandwidth_fraction,baseline_gbps"));
    QVERIFY2(csv[2].contains(",true,6200,"), csv[2].constData());
    // Without bandwidth anywhere, the table keeps its old columns.
    const QString plain = QString::fromUtf8(comparisonToTable(compareRuns({ clean, cleanHf }, c.baseline)));
    QVERIFY(!plain.contains(QStringLiteral("GB/s")));
}

// One key says which runs measure the same thing; the comparison and the quantile chart both use it.
void TestComparison::workloadKey()
{
    const auto a = kixtest::makeRun(QStringLiteral("huggingface"), QStringLiteral("NVIDIA B200"), 1024, 1000);
    const auto b = kixtest::makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA A100"), 1024, 900);
    // equal text in separate strings (not interned) is the same key; provider and GPU are not part of it
    b->kernel = QString::fromUtf8(a->kernel.toUtf8());
    QCOMPARE(WorkloadKey::of(*a), WorkloadKey::of(*b));
    QCOMPARE(qHash(WorkloadKey::of(*a)), qHash(WorkloadKey::of(*b)));
    WorkloadKey other = WorkloadKey::of(*a);
    other.kernel = QStringLiteral("layer_norm");
    QVERIFY(other != WorkloadKey::of(*a));
    other = WorkloadKey::of(*a);
    other.pass = QStringLiteral("forward");
    QVERIFY(other != WorkloadKey::of(*a));
    other = WorkloadKey::of(*a);
    other.workload = QStringLiteral("batch128-channels1024-bf16");
    QVERIFY(other != WorkloadKey::of(*a));
}

void TestComparison::pairsFollowTheChartGroups()
{
    const QString hf = QStringLiteral("huggingface"), liger = QStringLiteral("liger");
    const QString gpu = QStringLiteral("NVIDIA B200");
    const RunList runs = { kixtest::makeRun(hf, gpu, 1024, 1000), kixtest::makeRun(liger, gpu, 1024, 500),
        kixtest::makeRun(hf, gpu, 2048, 2000), kixtest::makeRun(liger, gpu, 2048, 1000),
        kixtest::makeRun(hf, gpu, 1024, 800, 0.01, QStringLiteral("forward")),
        kixtest::makeRun(liger, gpu, 1024, 400, 0.01, QStringLiteral("forward")),
        kixtest::makeRun(liger, gpu, 4096, 3000) }; // no baseline for this workload
    const Comparison comparison = compareRuns(runs, Baseline::ofProvider(hf));
    QCOMPARE(comparison.pairs.size(), 3);
    QSet<WorkloadKey> paired;
    for (const ComparisonPair& p : comparison.pairs) {
        QCOMPARE(WorkloadKey::of(*p.run), WorkloadKey::of(*p.baseline));
        paired.insert(WorkloadKey::of(*p.run));
    }
    QCOMPARE(paired.size(), 3);

    const QuantileData chart = buildQuantileData(runs);
    QCOMPARE(chart.groups.size(), 4);
    QHash<int, WorkloadKey> keyOfGroup;
    QHash<int, QSet<QString>> providersOfGroup;
    for (const QuantileBox& box : chart.boxes) {
        const WorkloadKey key = WorkloadKey::of(*box.run);
        if (keyOfGroup.contains(box.group))
            QCOMPARE(keyOfGroup.value(box.group), key); // one key per group
        keyOfGroup.insert(box.group, key);
        providersOfGroup[box.group].insert(box.run->provider);
    }
    QSet<WorkloadKey> distinct;
    QSet<WorkloadKey> withBaseline;
    for (auto it = keyOfGroup.cbegin(); it != keyOfGroup.cend(); ++it) {
        distinct.insert(it.value());
        if (providersOfGroup.value(it.key()).contains(hf))
            withBaseline.insert(it.value());
    }
    QCOMPARE(distinct.size(), chart.groups.size()); // one group per key
    QCOMPARE(withBaseline, paired); // the comparison pairs exactly the chart's groups that hold a baseline
}

void TestComparison::pairOrderIsThePlainSort()
{
    // sortComparisonPairs ranks the fields instead of comparing them; its order is std::sort's with the plain
    // comparison of kernel, pass, workload (compareWorkloads), provider, GPU and externalId. Pairs whose fields
    // collide on purpose: equal workloads written differently ("1024" and "1024.0"), externalIds that share long
    // prefixes and differ past the first eight characters after them, GPUs known by slug only.
    std::mt19937 random(23);
    auto pick = [&random](const QStringList& from) { return from[int(random() % unsigned(from.size()))]; };
    const QStringList providers { QStringLiteral("liger"), QStringLiteral("huggingface"), QStringLiteral("apex") };
    const QStringList gpus { QStringLiteral("NVIDIA H200"), QStringLiteral("NVIDIA B200"), QString() };
    const QStringList passes { QStringLiteral("forward"), QStringLiteral("backward") };
    QVector<ComparisonPair> pairs;
    for (int i = 0; i < 600; ++i) {
        const double channels = double(256 << (random() % 4));
        auto run = kixtest::makeRun(pick(providers), pick(gpus), channels, 1000 + i, 0.01, pick(passes));
        if (random() % 3 == 0)
            run->workload[1].value += QStringLiteral(".0"); // the same number, another text
        if (run->gpuProduct.isEmpty())
            run->gpuSlug = QStringLiteral("gpu-%1").arg(random() % 3);
        run->kernel = random() % 5 == 0 ? QStringLiteral("layer_norm") : QStringLiteral("group_norm");
        run->externalId = QStringLiteral("group_norm/run/2026-01-01/%1/%2")
                              .arg(random() % 4 == 0 ? QStringLiteral("same-prefix-x") : QStringLiteral("y"))
                              .arg(random() % 40, 6, 10, QLatin1Char('0'));
        ComparisonPair pair;
        pair.run = run;
        pair.ratio = i; // which pair it was
        pairs << pair;
    }
    auto gpu = [](const Run& r) { return r.gpuProduct.isEmpty() ? r.gpuSlug : r.gpuProduct; };
    auto plainLess = [&gpu](const ComparisonPair& x, const ComparisonPair& y) {
        const Run& a = *x.run;
        const Run& b = *y.run;
        if (a.kernel != b.kernel)
            return a.kernel < b.kernel;
        if (a.pass != b.pass)
            return a.pass < b.pass;
        if (const int w = compareWorkloads(a, b))
            return w < 0;
        if (a.provider != b.provider)
            return a.provider < b.provider;
        if (gpu(a) != gpu(b))
            return gpu(a) < gpu(b);
        return a.externalId < b.externalId;
    };
    QVector<ComparisonPair> expected = pairs;
    std::sort(expected.begin(), expected.end(), plainLess);
    sortComparisonPairs(pairs);
    QCOMPARE(pairs.size(), expected.size());
    for (qsizetype i = 0; i < pairs.size(); ++i) {
        // Equal under the comparison means the same fields: compare the keys, not which of two equals came first.
        QVERIFY2(!plainLess(pairs[i], expected[i]) && !plainLess(expected[i], pairs[i]),
            qPrintable(QStringLiteral("at %1: %2 against %3")
                           .arg(i)
                           .arg(pairs[i].run->externalId, expected[i].run->externalId)));
    }
}

KIX_TEST_GUILESS_MAIN(TestComparison)
#include "tst_comparison.moc"
