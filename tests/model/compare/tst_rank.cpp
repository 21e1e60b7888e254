// SPDX-License-Identifier: Apache-2.0
// Rank: cohorts, order, ratios, repeated observations, failed runs and the noise rules, on a catalog-shaped
// leaderboard built in memory (GPU MODE style: submissions scored by a geometric mean in seconds).
#include "model/compare/rank.h"
#include "model/compare/rankreport.h"
#include "tests/model/runfactory.h"

#include "tests/support/testmain.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix;

namespace {

// One leaderboard submission: an implementation (its digest) scored on one GPU.
std::shared_ptr<Run> submission(const QString& user, const QString& digest, const QString& gpu, double score,
    const QString& status = QStringLiteral("passed"))
{
    auto run = std::make_shared<Run>();
    run->kernel = QStringLiteral("nvfp4_group_gemm");
    run->provider = user;
    run->implementationDigest = QStringLiteral("sha256:") + digest.repeated(64 / digest.size() + 1).left(64);
    run->gpuProduct = gpu;
    run->gpuSlug = gpu.toLower().replace(QLatin1Char(' '), QLatin1Char('-'));
    run->workloadSlug = QStringLiteral("g8-m256-n4096-k7168-nvfp4");
    run->dtype = QStringLiteral("nvfp4");
    run->protocolFamily = QStringLiteral("gpumode_kernelbot");
    run->headlineStatistic = QStringLiteral("geomean");
    run->unit = QStringLiteral("s");
    run->status = status;
    run->median = status == QLatin1String("passed") ? score : std::numeric_limits<double>::quiet_NaN();
    run->externalId = QStringLiteral("submission/%1-%2-%3").arg(user, gpu.section(QLatin1Char(' '), -1)).arg(score);
    run->finalize();
    return run;
}

RunList leaderboard()
{
    const QString b200 = QStringLiteral("NVIDIA B200");
    const QString h100 = QStringLiteral("NVIDIA H100");
    return { submission(QStringLiteral("alice"), QStringLiteral("a1"), b200, 0.00120),
        submission(QStringLiteral("bob"), QStringLiteral("b2"), b200, 0.00100),
        submission(QStringLiteral("carol"), QStringLiteral("c3"), b200, 0.00150),
        // one implementation observed twice: summarised, ranked by its best
        submission(QStringLiteral("dave"), QStringLiteral("d4"), b200, 0.00130),
        submission(QStringLiteral("dave"), QStringLiteral("d4"), b200, 0.00110),
        submission(QStringLiteral("eve"), QStringLiteral("e5"), b200, 0, QStringLiteral("runtime_error")),
        // another GPU: its own cohort, where bob is not the best
        submission(QStringLiteral("alice"), QStringLiteral("a1"), h100, 0.00200),
        submission(QStringLiteral("bob"), QStringLiteral("b2"), h100, 0.00300) };
}

const RankCohort* cohortOn(const Ranking& r, const QString& gpu)
{
    for (const RankCohort& c : r.cohorts) {
        if (c.key.gpuName == gpu)
            return &c;
    }
    return nullptr;
}

QStringList names(const RankCohort& c)
{
    QStringList out;
    for (const RankEntry& e : c.entries)
        out << e.implementation;
    return out;
}

} // namespace

class TestRank : public QObject
{
    Q_OBJECT

private slots:
    void leaderboardOrderAndRatios()
    {
        const Ranking r = rankRuns(leaderboard());
        QCOMPARE(r.cohorts.size(), 2); // two GPUs: never one cohort
        const RankCohort* b200 = cohortOn(r, QStringLiteral("NVIDIA B200"));
        const RankCohort* h100 = cohortOn(r, QStringLiteral("NVIDIA H100"));
        QVERIFY(b200 && h100);
        QCOMPARE(names(*b200), QStringList({ "bob", "dave", "alice", "carol" }));
        QCOMPARE(names(*h100), QStringList({ "alice", "bob" }));
        const QVector<double> ratios { 1.0, 1.1, 1.2, 1.5 };
        for (int i = 0; i < ratios.size(); ++i) {
            QVERIFY2(qAbs(b200->entries[i].ratio - ratios[i]) < 1e-12, qPrintable(names(*b200)[i]));
            QCOMPARE(b200->entries[i].rank, i + 1);
        }
        QCOMPARE(h100->entries[1].ratio, 1.5);
        // dave's two observations: one entry, best 1.1 ms, median 1.2 ms, count 2
        const RankEntry& dave = b200->entries[1];
        QCOMPARE(dave.count, 2);
        QCOMPARE(dave.best, 0.00110);
        QVERIFY(qAbs(dave.median - 0.00120) < 1e-15);
        QCOMPARE(dave.runs.size(), 2);
        QCOMPARE(dave.bestRun->median, 0.00110);
        // the failed run: listed under its cohort, unranked, with its status
        QCOMPARE(b200->failed.size(), 1);
        QCOMPARE(b200->failed[0].implementation, QStringLiteral("eve"));
        QCOMPARE(b200->failed[0].reason, QStringLiteral("runtime_error"));
        QVERIFY(!names(*b200).contains(QStringLiteral("eve")));
        QCOMPARE(h100->failed.size(), 0);
        // scores record no noise: nothing is declared distinguishable
        QCOMPARE(b200->entries[0].distinguishable, Distinguishable::Best);
        for (int i = 1; i < b200->entries.size(); ++i) {
            QCOMPARE(b200->entries[i].distinguishable, Distinguishable::Unknown);
            QCOMPARE(b200->entries[i].evidence, QStringLiteral("no noise recorded"));
        }
        QCOMPARE(b200->key.metric, leaderboard().front()->metricName());
        QCOMPARE(b200->key.unit, QStringLiteral("s"));
        QCOMPARE(b200->key.statistic, QStringLiteral("geomean"));
        QCOMPARE(r.largestCohort(), int(b200 - r.cohorts.data()));
    }

    void cohortsNeverMix_data()
    {
        QTest::addColumn<QString>("field");
        QTest::newRow("protocol family") << "protocol";
        QTest::newRow("unit") << "unit";
        QTest::newRow("statistic") << "statistic";
        QTest::newRow("workload") << "workload";
        QTest::newRow("dtype") << "dtype";
        QTest::newRow("kernel") << "kernel";
        QTest::newRow("pass") << "pass";
    }
    void cohortsNeverMix()
    {
        QFETCH(QString, field);
        auto a = submission(QStringLiteral("alice"), QStringLiteral("a1"), QStringLiteral("NVIDIA B200"), 1.0);
        auto b = submission(QStringLiteral("bob"), QStringLiteral("b2"), QStringLiteral("NVIDIA B200"), 2.0);
        if (field == QLatin1String("protocol"))
            b->protocolFamily = QStringLiteral("sol_execbench");
        else if (field == QLatin1String("unit"))
            b->unit = QStringLiteral("ms");
        else if (field == QLatin1String("statistic"))
            b->headlineStatistic = QStringLiteral("mean");
        else if (field == QLatin1String("workload"))
            b->workloadSlug = QStringLiteral("g8-m128-n4096-k7168-nvfp4");
        else if (field == QLatin1String("dtype"))
            b->dtype = QStringLiteral("fp8");
        else if (field == QLatin1String("kernel"))
            b->kernel = QStringLiteral("nvfp4_gemv");
        else
            b->pass = QStringLiteral("backward");
        const Ranking r = rankRuns({ a, b });
        QCOMPARE(r.cohorts.size(), 2);
        QCOMPARE(r.cohorts[0].entries.size(), 1);
        QCOMPARE(r.cohorts[1].entries.size(), 1);
    }

    // Two evaluation-stack versions of one leaderboard: strict cohorts keep them apart; the family scope, asked for,
    // ranks them together and every entry names the parts of the strict key it differs in, digests and names.
    void strictKeySplitsAndWidenedScopeNamesDifferences()
    {
        auto versioned = [](const QString& user, const QString& digest, double score, const QString& version) {
            auto run = submission(user, digest, QStringLiteral("NVIDIA B200"), score);
            run->protocolDigest
                = QStringLiteral("sha256:") + QString(64, version == QLatin1String("v1.0") ? u'a' : u'b');
            run->workloadDigest = QStringLiteral("sha256:") + QString(64, u'c');
            run->environmentDigest = QStringLiteral("sha256:") + QString(64, u'd');
            RunLinks links;
            links.comparisonKey
                = QStringLiteral("sha256:") + QString(64, version == QLatin1String("v1.0") ? u'1' : u'2');
            links.protocolName = QStringLiteral("evaluation stack ") + version;
            links.workloadTitle = QStringLiteral("suite of 4 cases"); // a leaderboard's suite: no slug
            run->workloadSlug.clear();
            run->linked = RunLinks::share(links);
            return run;
        };
        const RunList runs { versioned(QStringLiteral("alice"), QStringLiteral("a1"), 1.0, QStringLiteral("v1.0")),
            versioned(QStringLiteral("bob"), QStringLiteral("b2"), 2.0, QStringLiteral("v1.1")),
            versioned(QStringLiteral("carol"), QStringLiteral("c3"), 3.0, QStringLiteral("v1.0")) };

        const Ranking strict = rankRuns(runs);
        QCOMPARE(strict.cohorts.size(), 2);
        for (const RankCohort& c : strict.cohorts) {
            QVERIFY(c.key.isStrict());
            for (const RankEntry& e : c.entries)
                QVERIFY(e.differences.isEmpty());
        }

        const Ranking wide = rankRuns(runs, 0.05, CohortScope::Family);
        QCOMPARE(wide.cohorts.size(), 1);
        const RankCohort& c = wide.cohorts.front();
        QVERIFY(!c.key.isStrict());
        QVERIFY(c.key.widened);
        QVERIFY(c.key.scopeText().contains(QLatin1String("widened by request")));
        QVERIFY2(c.key.describe().contains(QStringLiteral("nvfp4_group_gemm · suite of 4 cases")),
            qPrintable(c.key.describe()));
        QCOMPARE(c.entries.size(), 3);
        QVERIFY(c.entries[0].differences.isEmpty()); // alice, the best
        QVERIFY(c.entries[2].differences.isEmpty()); // carol: same key as the best
        QCOMPARE(c.entries[1].differences.size(), 1); // bob: another protocol version, nothing else
        QCOMPARE(c.entries[1].differences.front(),
            QStringLiteral("protocol bbbbbbbbbbbb… vs aaaaaaaaaaaa…: evaluation stack v1.1 vs evaluation stack v1.0"));
        QVERIFY(c.entries[1].implementation.endsWith(QStringLiteral(" (≠ protocol)")));
    }

    void kixEngineRanksBesideLiger()
    {
        auto liger = kixtest::makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA H100"), 2048, 1000);
        auto torch = kixtest::makeRun(QStringLiteral("torch"), QStringLiteral("NVIDIA H100"), 2048, 1500);
        auto kix = kixtest::makeRun(QStringLiteral("kix-fused"), QStringLiteral("NVIDIA H100"), 2048, 800);
        kix->protocolFamily = QStringLiteral("kix_engine");
        auto graph = kixtest::makeRun(QStringLiteral("kix-fused"), QStringLiteral("NVIDIA H100"), 2048, 700);
        graph->protocolFamily = QStringLiteral("kix_engine");
        graph->protocolNotes = QStringLiteral("Timed: the backward pass, replayed as one CUDA graph launch per "
                                              "repetition");
        const Ranking r = rankRuns({ liger, torch, kix, graph });
        QCOMPARE(r.cohorts.size(), 2); // the CUDA-graph run stays apart
        const int c = r.cohortOf(kix);
        QVERIFY(c >= 0);
        QCOMPARE(names(r.cohorts[c]), QStringList({ "kix-fused", "liger", "torch" }));
        QCOMPARE(r.cohorts[c].protocolFamilies(), QStringList({ "kix_engine", "liger_kernel_bench" }));
        QVERIFY(r.cohortOf(graph) != c);
        QVERIFY(!r.notes.isEmpty());
    }

    void noiseDecidesDistinguishable()
    {
        const QString gpu = QStringLiteral("NVIDIA H100");
        // p20-p80 bands: 1000±1% vs 1005±1% overlap; vs 1100±1% apart
        auto best = kixtest::makeRun(QStringLiteral("a"), gpu, 2048, 1000);
        auto close = kixtest::makeRun(QStringLiteral("b"), gpu, 2048, 1005);
        auto far = kixtest::makeRun(QStringLiteral("c"), gpu, 2048, 1100);
        auto bare = kixtest::makeRun(QStringLiteral("d"), gpu, 2048, 1200, -1); // no p20/p80
        Ranking r = rankRuns({ far, bare, close, best });
        QCOMPARE(r.cohorts.size(), 1);
        const QVector<RankEntry>& e = r.cohorts[0].entries;
        QCOMPARE(names(r.cohorts[0]), QStringList({ "a", "b", "c", "d" }));
        QCOMPARE(e[1].distinguishable, Distinguishable::No);
        QCOMPARE(e[1].evidence, QStringLiteral("p20–p80 bands overlap"));
        QCOMPARE(e[2].distinguishable, Distinguishable::Yes);
        QCOMPARE(e[2].evidence, QStringLiteral("p20–p80 bands apart"));
        QCOMPARE(e[3].distinguishable, Distinguishable::Unknown);
        QCOMPARE(e[3].evidence, QStringLiteral("no noise recorded"));

        // samples on both: Mann-Whitney, whatever p20/p80 say
        auto s1 = kixtest::makeRun(QStringLiteral("s1"), gpu, 4096, 100, -1);
        auto s2 = kixtest::makeRun(QStringLiteral("s2"), gpu, 4096, 101, -1);
        auto s3 = kixtest::makeRun(QStringLiteral("s3"), gpu, 4096, 110, -1);
        for (int i = 0; i < 20; ++i) {
            s1->samples.push_back(100 + (i % 5));
            s2->samples.push_back(100 + ((i + 2) % 5) + (i == 0 ? 1 : 0)); // nearly the same values
            s3->samples.push_back(110 + (i % 5)); // above every s1 sample
        }
        r = rankRuns({ s3, s2, s1 });
        const QVector<RankEntry>& m = r.cohorts[0].entries;
        QCOMPARE(names(r.cohorts[0]), QStringList({ "s1", "s2", "s3" }));
        QCOMPARE(m[1].distinguishable, Distinguishable::No);
        QVERIFY(m[1].pValue > 0.05);
        QCOMPARE(m[2].distinguishable, Distinguishable::Yes);
        QVERIFY(m[2].pValue < 1e-6);
        QVERIFY(m[2].evidence.startsWith(QStringLiteral("Mann–Whitney p = ")));

        // a standard deviation only: value ± std
        auto d1 = kixtest::makeRun(QStringLiteral("d1"), gpu, 8192, 100, -1);
        auto d2 = kixtest::makeRun(QStringLiteral("d2"), gpu, 8192, 103, -1);
        auto d3 = kixtest::makeRun(QStringLiteral("d3"), gpu, 8192, 110, -1);
        d1->statistics = { { QStringLiteral("latency"), QStringLiteral("std"), QStringLiteral("ns"), 2 } };
        d2->statistics = d1->statistics;
        d3->statistics = d1->statistics;
        r = rankRuns({ d1, d2, d3 });
        QCOMPARE(r.cohorts[0].entries[1].distinguishable, Distinguishable::No); // 3 < 2 + 2
        QCOMPARE(r.cohorts[0].entries[2].distinguishable, Distinguishable::Yes); // 10 > 2 + 2
        QCOMPARE(r.cohorts[0].entries[2].evidence, QStringLiteral("value ± std apart"));
    }

    void tiesShareARankAndNamesStayApart()
    {
        const QString gpu = QStringLiteral("NVIDIA B200");
        auto a = submission(QStringLiteral("team"), QStringLiteral("a1"), gpu, 0.002);
        auto b = submission(QStringLiteral("team"), QStringLiteral("b2"), gpu, 0.002); // another implementation
        auto c = submission(QStringLiteral("zed"), QStringLiteral("c3"), gpu, 0.003);
        const Ranking r = rankRuns({ a, b, c });
        const QVector<RankEntry>& e = r.cohorts[0].entries;
        QCOMPARE(e.size(), 3);
        QCOMPARE(e[0].rank, 1);
        QCOMPARE(e[1].rank, 1);
        QCOMPARE(e[2].rank, 2);
        QCOMPARE(e[1].distinguishable, Distinguishable::No);
        QVERIFY(e[0].implementation != e[1].implementation);
        QVERIFY(e[0].implementation.startsWith(QStringLiteral("team (")));
    }

    void failedStatuses()
    {
        const char* statuses[] = { "incorrect_shape", "incorrect_dtype", "incorrect_numerical", "compile_error",
            "runtime_error", "timeout", "resource_exceeded", "invalid_reference", "policy_violation",
            "suspected_reward_hack", "incomplete_evidence", "revoked", "failed" };
        for (const char* s : statuses) {
            Run run;
            run.status = QLatin1String(s);
            QVERIFY2(run.failed(), s);
        }
        Run passed;
        passed.status = QStringLiteral("passed");
        QVERIFY(!passed.failed());
        passed.status = QStringLiteral("valid"); // serving vocabulary: not a kernel failure
        QVERIFY(!passed.failed());
    }

    void reports()
    {
        const Ranking r = rankRuns(leaderboard());
        const nlohmann::json j = nlohmann::json::parse(rankingToJson(r).toStdString());
        QCOMPARE(int(j["cohorts"].size()), 2);
        const nlohmann::json* b200 = nullptr;
        for (const auto& c : j["cohorts"])
            if (c["key"]["gpu"] == "NVIDIA B200")
                b200 = &c;
        QVERIFY(b200);
        QCOMPARE(QString::fromStdString((*b200)["entries"][0]["implementation"]), QStringLiteral("bob"));
        QCOMPARE(double((*b200)["entries"][1]["ratio"]), 1.1);
        QCOMPARE(int((*b200)["entries"][1]["count"]), 2);
        QVERIFY((*b200)["entries"][1]["distinguishable"].is_null());
        QCOMPARE(QString::fromStdString((*b200)["failed"][0]["status"]), QStringLiteral("runtime_error"));
        const QString table = QString::fromUtf8(rankingToTable(r));
        QVERIFY(table.indexOf(QStringLiteral("bob")) < table.indexOf(QStringLiteral("carol")));
        QVERIFY(table.contains(QStringLiteral("failed, unranked: eve (runtime_error)")));
        QVERIFY(table.contains(QStringLiteral("1.10×")));
        const QStringList csv = QString::fromUtf8(rankingToCsv(r)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(csv.size(), 1 + 4 + 1 + 2); // header, four entries and a failed run on B200, two on H100
    }
};

KIX_TEST_GUILESS_MAIN(TestRank)
#include "tst_rank.moc"
