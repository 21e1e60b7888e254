// SPDX-License-Identifier: Apache-2.0
// Series over time from hand-made Liger-Kernel CSVs of four releaseHistory (tests/data/history): grouping, order,
// labels, the changes found in each series and their kind, same-time runs, unplaceable runs, --since and the three
// reports.
#include "model/history/history.h"
#include "model/history/historyreport.h"
#include "model/read/runloader.h"

#include "tests/model/runfactory.h"

#include "tests/support/testmain.h"

#include <QFileInfo>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace kix;

namespace {

QString historyData(const QString& name)
{
    return QStringLiteral(KIX_TEST_DATA_DIR "/history/") + name;
}

RunList releaseHistory(bool withUnplaceable = false)
{
    QStringList paths;
    for (const char* v : { "0.5.0", "0.6.0", "0.7.0", "0.8.0" })
        paths << historyData(QStringLiteral("liger-%1.csv").arg(QLatin1String(v)));
    if (withUnplaceable)
        paths << historyData(QStringLiteral("unplaceable.json"));
    const LoadResult result = loadPaths(paths);
    for (const Diagnostic& d : result.diagnostics) {
        if (d.isError())
            qWarning() << d.toString();
    }
    return result.runs;
}

const HistorySeries* findSeries(const History& h, const QString& provider, const QString& pass, const QString& channels,
    const QString& metric = QStringLiteral("latency"))
{
    for (const HistorySeries& s : h.series) {
        if (s.key.provider == provider && s.key.pass == pass && s.key.metric == metric
            && s.key.workload.contains(QStringLiteral("channels") + channels + QLatin1Char('-')))
            return &s;
    }
    return nullptr;
}

QVector<const HistoryChange*> changesOf(const History& h, const HistorySeries* s)
{
    QVector<const HistoryChange*> out;
    for (int i : s->changes)
        out << &h.changes[i];
    return out;
}

} // namespace

class TestHistory : public QObject
{
    Q_OBJECT
private slots:
    void seriesFromReleases();
    void changesFound();
    void rankedLargestFirst();
    void unplaceableAndSameTime();
    void since();
    void reports();
    void seriesKeySeparatesWhatIsNotComparable();
    void strictKeySplitsSeries();
    void realLigerCsvTwoReleases();
    void pytestBenchmarkStorageIsOneHistory();
};

void TestHistory::seriesFromReleases()
{
    const RunList runs = releaseHistory();
    QCOMPARE(runs.size(), 21); // 5 rows in each of 4 releases, and a same-time rerun in 0.6.0
    const History h = buildHistory(runs);
    QCOMPARE(h.series.size(), 5);
    const HistorySeries* s = findSeries(h, QStringLiteral("liger"), QStringLiteral("backward"), QStringLiteral("1024"));
    QVERIFY(s);
    QCOMPARE(s->points.size(), 4);
    QCOMPARE(s->unit, QStringLiteral("ns"));
    QStringList labels;
    for (int i = 0; i < s->points.size(); ++i) {
        labels << s->points[i].label;
        if (i > 0)
            QVERIFY(s->points[i - 1].run->observedAt < s->points[i].run->observedAt);
    }
    QCOMPARE(labels, QStringList({ "0.5.0", "0.6.0", "0.7.0", "0.8.0" }));
    QVERIFY(s->title.contains(QStringLiteral("H100 80GB HBM3")));
    QVERIFY(!s->title.contains(QStringLiteral("NVIDIA")));
    const HistorySeries* memory = findSeries(
        h, QStringLiteral("liger"), QStringLiteral("full"), QStringLiteral("1024"), QStringLiteral("memory"));
    QVERIFY(memory);
    QCOMPARE(memory->unit, QStringLiteral("MB"));
    QVERIFY(memory->title.endsWith(QStringLiteral("memory")));
}

void TestHistory::changesFound()
{
    const History h = buildHistory(releaseHistory());
    QCOMPARE(h.changes.size(), 4);
    QCOMPARE(h.count(ChangeKind::Regression), 2);
    QCOMPARE(h.count(ChangeKind::Improvement), 1);
    QCOMPARE(h.count(ChangeKind::Outlier), 1);

    // liger backward: 1.00, 1.01 ms, then 1.20, 1.21 from 0.7.0 on.
    auto c = changesOf(h, findSeries(h, QStringLiteral("liger"), QStringLiteral("backward"), QStringLiteral("1024")));
    QCOMPARE(c.size(), 1);
    QCOMPARE(c[0]->kind, ChangeKind::Regression);
    QCOMPARE(historyLabel(*c[0]->before), QStringLiteral("0.6.0"));
    QCOMPARE(historyLabel(*c[0]->after), QStringLiteral("0.7.0"));
    QVERIFY(std::abs(c[0]->change.ratio - 1.205 / 1.005) < 1e-6);
    QVERIFY(c[0]->change.confirmed);

    // huggingface backward: flat, with a same-time rerun: nothing.
    QVERIFY(
        changesOf(h, findSeries(h, QStringLiteral("huggingface"), QStringLiteral("backward"), QStringLiteral("1024")))
            .isEmpty());

    // liger forward 1024: 0.80 in 0.6.0 only, back to 0.51 in 0.7.0: an outlier, not two changes.
    c = changesOf(h, findSeries(h, QStringLiteral("liger"), QStringLiteral("forward"), QStringLiteral("1024")));
    QCOMPARE(c.size(), 1);
    QCOMPARE(c[0]->kind, ChangeKind::Outlier);
    QCOMPARE(historyLabel(*c[0]->after), QStringLiteral("0.6.0"));
    QVERIFY(std::abs(c[0]->change.ratio - 1.6) < 1e-6);

    // liger forward 2048: 0.70 in 0.8.0, the newest release: an improvement not yet confirmed.
    c = changesOf(h, findSeries(h, QStringLiteral("liger"), QStringLiteral("forward"), QStringLiteral("2048")));
    QCOMPARE(c.size(), 1);
    QCOMPARE(c[0]->kind, ChangeKind::Improvement);
    QVERIFY(!c[0]->change.confirmed);
    QVERIFY(std::abs(c[0]->change.ratio - 0.70 / 0.90) < 1e-6);

    // Memory: lower is better too, 100 -> 130 MB is a regression.
    c = changesOf(h,
        findSeries(
            h, QStringLiteral("liger"), QStringLiteral("full"), QStringLiteral("1024"), QStringLiteral("memory")));
    QCOMPARE(c.size(), 1);
    QCOMPARE(c[0]->kind, ChangeKind::Regression);
    QVERIFY(std::abs(c[0]->change.ratio - 1.3) < 1e-9);
}

void TestHistory::rankedLargestFirst()
{
    const History h = buildHistory(releaseHistory());
    for (int i = 1; i < h.changes.size(); ++i)
        QVERIFY(h.changes[i - 1].magnitude() >= h.changes[i].magnitude());
    QCOMPARE(h.changes.front().kind, ChangeKind::Outlier); // 1.6× is the largest
    // A higher threshold keeps only the larger changes.
    HistoryOptions options;
    options.detection.threshold = 0.25;
    const History strict = buildHistory(releaseHistory(), options);
    QCOMPARE(strict.changes.size(), 3); // 1.6× outlier, 1.3× memory, 0.78× improvement (1 / 0.78 = 1.29)
    QCOMPARE(strict.count(ChangeKind::Regression), 1);
}

void TestHistory::unplaceableAndSameTime()
{
    const History h = buildHistory(releaseHistory(true));
    QCOMPARE(h.unplaceable.size(), 1);
    QVERIFY(h.unplaceable.front()->file.endsWith(QStringLiteral("unplaceable.json")));
    QVERIFY(h.notes.join(QLatin1Char(' ')).contains(QStringLiteral("unplaceable")));
    QCOMPARE(h.sameTimeRuns, 2);
    const HistorySeries* hf
        = findSeries(h, QStringLiteral("huggingface"), QStringLiteral("backward"), QStringLiteral("1024"));
    QCOMPARE(hf->points.size(), 5); // both runs of 0.6.0 kept
    QVERIFY(hf->points[1].sameTime && hf->points[2].sameTime);
    QVERIFY(!hf->points[0].sameTime && !hf->points[3].sameTime);
    QCOMPARE(hf->points[1].label, QStringLiteral("0.6.0"));
    QCOMPARE(hf->points[2].label, QStringLiteral("0.6.0+local"));
    // The unplaceable run changes nothing in its series.
    QCOMPARE(
        findSeries(h, QStringLiteral("liger"), QStringLiteral("backward"), QStringLiteral("1024"))->points.size(), 4);
}

void TestHistory::since()
{
    const RunList runs = releaseHistory();
    QDateTime at;
    QString error;
    QVERIFY(resolveSince(QStringLiteral("0.8.0"), runs, &at, &error));
    QCOMPARE(at, QDateTime(QDate(2026, 1, 12), QTime(8, 45), Qt::UTC));
    QVERIFY(resolveSince(QStringLiteral("2025-09-01"), runs, &at, &error));
    QCOMPARE(at, QDateTime(QDate(2025, 9, 1), QTime(0, 0), Qt::UTC));
    QVERIFY(!resolveSince(QStringLiteral("9.9.9"), runs, &at, &error));
    QVERIFY(error.contains(QStringLiteral("9.9.9")));

    HistoryOptions options;
    QVERIFY(resolveSince(QStringLiteral("0.8.0"), runs, &options.since, &error));
    const History h = buildHistory(runs, options);
    QCOMPARE(h.changes.size(), 2); // the 0.8.0 improvement and memory regression; 0.6.0 and 0.7.0 are older
    for (const HistoryChange& c : h.changes)
        QCOMPARE(historyLabel(*c.after), QStringLiteral("0.8.0"));
}

void TestHistory::reports()
{
    const History h = buildHistory(releaseHistory(true));
    const nlohmann::json j = nlohmann::json::parse(historyToJson(h, 0.05).toStdString());
    QCOMPARE(j["threshold"].get<double>(), 0.05);
    QCOMPARE(j["changes"].size(), size_t(4));
    const nlohmann::json& first = j["changes"][0];
    QCOMPARE(first["kind"].get<std::string>(), std::string("outlier"));
    QCOMPARE(first["kernel"].get<std::string>(), std::string("group_norm"));
    QCOMPARE(first["pass"].get<std::string>(), std::string("forward"));
    QCOMPARE(first["provider"].get<std::string>(), std::string("liger"));
    QCOMPARE(first["gpu"].get<std::string>(), std::string("nvidia-h100-80gb-hbm3"));
    QCOMPARE(first["metric"].get<std::string>(), std::string("latency"));
    QCOMPARE(first["before"]["label"].get<std::string>(), std::string("0.5.0"));
    QCOMPARE(first["after"]["label"].get<std::string>(), std::string("0.6.0"));
    QCOMPARE(first["after"]["observedAt"].get<std::string>(), std::string("2025-08-11T09:30:00.000Z"));
    QCOMPARE(first["after"]["median"].get<double>(), 800000.0);
    QVERIFY(std::abs(first["ratio"].get<double>() - 1.6) < 1e-9);
    QCOMPARE(j["unplaceable"].size(), size_t(1));
    QCOMPARE(j["sameTime"].size(), size_t(2));

    const QList<QByteArray> csv = historyToCsv(h).trimmed().split('\n');
    QCOMPARE(csv.size(), 5);
    QVERIFY(csv[0].startsWith("kind,ratio,kernel,pass,provider,gpu,workload"));
    QVERIFY(csv[1].startsWith("outlier,1.6,group_norm,forward,liger"));

    const QString table = QString::fromUtf8(historyToTable(h, 0.05));
    QVERIFY(table.contains(QStringLiteral("regression")));
    QVERIFY(table.contains(QStringLiteral("0.6.0 (2025-08-11 09:30)")));
    QVERIFY(table.contains(QStringLiteral("1.005 ms")));
    QVERIFY(
        table.contains(QStringLiteral("5 series, 2 regression(s), 1 improvement(s), 1 outlier(s) at a 5 % threshold")));
    QVERIFY(table.contains(QStringLiteral("unplaceable: group_norm/backward/liger/nvidia-h100-80gb-hbm3")));
}

void TestHistory::seriesKeySeparatesWhatIsNotComparable()
{
    // Same provider and workload on two GPUs, two passes, and a dtype: five series, never mixed.
    RunList runs;
    int day = 1;
    for (const QString& gpu : { QStringLiteral("NVIDIA B200"), QStringLiteral("NVIDIA H100") }) {
        for (const QString& pass : { QStringLiteral("forward"), QStringLiteral("backward") }) {
            auto run = kixtest::makeRun(QStringLiteral("liger"), gpu, 1024, 1000, 0.01, pass);
            run->observedAt = QDateTime(QDate(2026, 1, day++), QTime(0, 0), Qt::UTC);
            runs << run;
        }
    }
    auto bf16 = kixtest::makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 1024, 2000);
    bf16->workloadSlug.replace(QStringLiteral("fp32"), QStringLiteral("bf16"));
    bf16->observedAt = QDateTime(QDate(2026, 2, 1), QTime(0, 0), Qt::UTC);
    runs << bf16;
    const History h = buildHistory(runs);
    QCOMPARE(h.series.size(), 5);
    QVERIFY(h.changes.isEmpty()); // a 2× "step" across dtypes is never compared
    QVERIFY(h.notes.join(QLatin1Char(' ')).contains(QStringLiteral("5 of 5 series have a single run")));
}

// Two evaluation-stack versions of one leaderboard (same provider, kernel, GPU, workload, protocol family): the
// format's strict comparison keys differ, so two series; a run without a key stays in a family-level series.
void TestHistory::strictKeySplitsSeries()
{
    RunList runs;
    for (int i = 0; i < 4; ++i) {
        auto run = kixtest::makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 1024, 1000 + 500 * i);
        run->observedAt = QDateTime(QDate(2026, 1, 1 + i), QTime(0, 0), Qt::UTC);
        if (i < 3) {
            RunLinks links;
            links.comparisonKey = QStringLiteral("sha256:") + QString(64, i < 2 ? u'1' : u'2');
            run->linked = RunLinks::share(links);
        }
        runs << run;
    }
    const History h = buildHistory(runs);
    QCOMPARE(h.series.size(), 3);
    QSet<QString> keys;
    for (const HistorySeries& s : h.series) {
        keys.insert(s.key.strict);
        for (const HistoryPoint& p : s.points)
            QCOMPARE(p.run->links().comparisonKey.toString(), s.key.strict);
    }
    QCOMPARE(keys.size(), 3);
    QVERIFY(keys.contains(QString()));
    for (const HistoryChange& c : h.changes) // only the two runs of one key can make a change
        QCOMPARE(h.series[c.series].points.size(), 2);
}

// The real Liger CSV (one release per row) as release A, and a made-up release B a year later: every value 1 % higher
// (under the threshold) and liger's group_norm latencies 25 % higher. Only those may be reported.
void TestHistory::realLigerCsvTwoReleases()
{
    const QString shared = qEnvironmentVariable("KIX_SHARED_DIR");
    const QString csv = shared + QStringLiteral("/data/liger/all_benchmark_data.csv");
    if (shared.isEmpty() || !QFileInfo::exists(csv))
        QSKIP("the shared Liger CSV is not available (set KIX_SHARED_DIR to the project's shared/ folder)");
    const LoadResult a = loadPaths({ csv });
    QVERIFY(a.runs.size() > 2000);
    RunList runs = a.runs;
    int slowed = 0;
    for (const RunPtr& run : a.runs) {
        auto b = std::make_shared<Run>(*run);
        b->observedAt = QDateTime(QDate(2027, 1, 1), QTime(0, 0), Qt::UTC);
        const bool slower
            = run->kernel == QLatin1String("group_norm") && run->provider == QLatin1String("liger") && run->isLatency();
        const double f = slower ? 1.25 : 1.01;
        slowed += slower ? 1 : 0;
        b->median *= f;
        b->p20 *= f;
        b->p80 *= f;
        b->externalId += QStringLiteral("-b");
        b->finalize();
        runs << b;
    }
    QVERIFY(slowed > 0);
    const History h = buildHistory(runs);
    QCOMPARE(h.series.size(), a.runs.size()); // each row of the CSV is its own series: nothing merged
    QVERIFY(h.unplaceable.isEmpty());
    int found = 0;
    for (const HistoryChange& c : h.changes) {
        QCOMPARE(c.kind, ChangeKind::Regression);
        QCOMPARE(c.after->kernel, QStringLiteral("group_norm"));
        QCOMPARE(c.after->provider, QStringLiteral("liger"));
        QVERIFY(std::abs(c.change.ratio - 1.25) < 1e-6);
        QVERIFY(!c.change.confirmed);
        ++found;
    }
    qInfo("%d of %d slowed group_norm series reported", found, slowed);
    QVERIFY2(found * 2 >= slowed, qPrintable(QStringLiteral("%1 of %2").arg(found).arg(slowed))); // most are clear
}

// pytest-benchmark's storage folder (.benchmarks/<machine>/NNNN_<commit>_<date>.json, our own fixture of five saved
// runs of two tests): one series per test across the saved runs, each run labelled by its commit, as
// `pytest-benchmark compare` reads them; not one provider (and series) per file.
void TestHistory::pytestBenchmarkStorageIsOneHistory()
{
    const LoadResult loaded = loadPaths({ QStringLiteral(KIX_TEST_DATA_DIR "/interop/pytest_storage") });
    QCOMPARE(loaded.runs.size(), 10);
    const History h = buildHistory(loaded.runs);
    QCOMPARE(h.series.size(), 2);
    QStringList kernels;
    for (const HistorySeries& s : h.series) {
        kernels << s.key.kernel;
        QCOMPARE(s.key.provider, QStringLiteral("pytest"));
        QCOMPARE(s.points.size(), 5);
        QStringList labels;
        for (const HistoryPoint& p : s.points)
            labels << p.label;
        QCOMPARE(labels, QStringList({ "3f9c2a1-dirty", "3f9c2a1", "a41be03", "7d0e5b2", "7d0e5b2-dirty" }));
    }
    kernels.sort();
    QCOMPARE(kernels, QStringList({ "test_encode", "test_parse" }));
}

KIX_TEST_GUILESS_MAIN(TestHistory)
#include "tst_history.moc"
