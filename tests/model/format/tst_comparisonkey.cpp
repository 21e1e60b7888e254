// SPDX-License-Identifier: Apache-2.0
// The format's strict comparison key, its metric vocabulary and the names people know, pinned to values from
// outside kix: the key of hand-made documents as an independent implementation of the home's formula computes it
// (Python's hashlib over sorted-key JSON: tests/data/model/comparison/), and the comparisonKey, primaryMetric,
// primaryStatistic and primaryUnit the public catalog export stores on every run (when ../shared has it).
#include "model/compare/rank.h"
#include "model/compare/rankreport.h"
#include "model/filter/runfilter.h"
#include "model/read/documentparser.h"
#include "model/write/runwriter.h"
#include "tests/support/catalogexport.h"

#include "tests/support/testmain.h"

#include <QDir>
#include <QHash>
#include <QSet>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix;

namespace {

QString fixture(const char* name)
{
    return QStringLiteral(KIX_TEST_DATA_DIR "/model/comparison/") + QLatin1String(name);
}

RunPtr loadOne(const char* name)
{
    const ParseResult r = parseFile(fixture(name));
    return r.runs.size() == 1 ? r.runs.front() : RunPtr();
}

struct Stored
{
    QString comparisonKey;
    QString metric;
    QString statistic;
    QString unit;
};

// runDigest -> what the export stores on the run's row, read with nlohmann (not kix's reader).
QHash<QString, Stored> storedKeys(const QString& path)
{
    QHash<QString, Stored> out;
    kixtest::forEachCatalogRow(path, [&out](const std::string& table, const nlohmann::json& r) {
        if (table != "benchmark_runs")
            return;
        auto text_of = [&r](const char* key) {
            return r[key].is_string() ? QString::fromStdString(r[key].get<std::string>()) : QString();
        };
        out.insert(text_of("runDigest"),
            { text_of("comparisonKey"), text_of("primaryMetric"), text_of("primaryStatistic"),
                text_of("primaryUnit") });
    });
    return out;
}

} // namespace

class TestComparisonKey : public QObject
{
    Q_OBJECT
private slots:
    void keyOfHandMadeDocuments_data();
    void keyOfHandMadeDocuments();
    void noWorkloadDocumentFallsBackLabelled();
    void namesAreFieldsAndFound();
    void catalogKeysMetricsAndCohorts();
};

void TestComparisonKey::keyOfHandMadeDocuments_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("metric");
    QTest::newRow("latency median") << QStringLiteral("strict-with-correctness.json")
                                    << QStringLiteral(
                                           "sha256:024c3bf4adbd4f17f60ef044660291fecea449dce2fe446b7378f14545ea078d")
                                    << QStringLiteral("latency");
    QTest::newRow("another correctness spec")
        << QStringLiteral("strict-other-correctness.json")
        << QStringLiteral("sha256:df83fe533df6af0b938b420199c384666820c8cfe1ab13bfe1818c797450a6cd")
        << QStringLiteral("latency");
    QTest::newRow("no correctness spec")
        << QStringLiteral("strict-no-correctness.json")
        << QStringLiteral("sha256:5294317ffe53c5c69607ca7c9795cc73db108c600d79c5b9e9c72d823507307d")
        << QStringLiteral("latency");
    QTest::newRow("a leaderboard score")
        << QStringLiteral("strict-score.json")
        << QStringLiteral("sha256:94b41685d158c71967544907ca13b9269a9a0f5b0444da9985bb2946609f80ed")
        << QStringLiteral("score");
}

void TestComparisonKey::keyOfHandMadeDocuments()
{
    QFETCH(QString, file);
    QFETCH(QString, key);
    QFETCH(QString, metric);
    const ParseResult r = parseFile(fixture(file.toUtf8().constData()));
    QCOMPARE(r.runs.size(), 1);
    const Run& run = *r.runs.front();
    QCOMPARE(run.links().comparisonKey.toString(), key);
    QVERIFY(run.strictKeyMissing().isEmpty());
    QCOMPARE(run.metricName(), metric);
    const CohortKey cohort = CohortKey::of(run);
    QVERIFY(cohort.isStrict());
    QVERIFY(cohort.scopeText().startsWith(QStringLiteral("strict key ") + key.mid(7, 12)));
}

void TestComparisonKey::noWorkloadDocumentFallsBackLabelled()
{
    // The seed's shape: protocol and environment carried, the workload known only by digest.
    const ParseResult r = parseFile(QStringLiteral(KIX_TEST_DATA_DIR "/model/good/array.json"));
    QVERIFY(!r.runs.isEmpty());
    const Run& run = *r.runs.front();
    QVERIFY(run.links().comparisonKey.isEmpty());
    QVERIFY(run.strictKeyMissing().join(QLatin1Char(' ')).contains(QStringLiteral("workload document")));
    const CohortKey cohort = CohortKey::of(run);
    QVERIFY(!cohort.isStrict());
    QVERIFY(cohort.scopeText().startsWith(QStringLiteral("family-level key (no workload document")));

    // Two runs that differ only in protocol digest are two cohorts, and the assessment says why.
    const RunPtr a = loadOne("strict-with-correctness.json");
    const RunPtr b = loadOne("strict-other-correctness.json");
    QVERIFY(a && b);
    const Ranking ranking = rankRuns({ a, b });
    QCOMPARE(ranking.cohorts.size(), 2);
    QVERIFY(rankingToTable(ranking).contains("cohort: strict key"));
}

void TestComparisonKey::namesAreFieldsAndFound()
{
    const RunPtr run = loadOne("strict-score.json");
    QVERIFY(run);
    QCOMPARE(run->links().operationTitle, QStringLiteral("RMSNorm (fixture)"));
    QCOMPARE(run->links().implementationTitle, QStringLiteral("RMSNorm (fixture) · submission 7"));
    QCOMPARE(run->links().authors, QStringList { QStringLiteral("Ada Example") });
    QCOMPARE(run->links().project, QStringLiteral("Example Team"));
    QCOMPARE(run->links().workloadTitle, QStringLiteral("RMSNorm · hidden 4096, 128 tokens"));
    QCOMPARE(run->implementationLabel(), QStringLiteral("Ada Example · submission 7"));
    const QStringList row = listRow(*run);
    QCOMPARE(row[listColumns().indexOf(QStringLiteral("author"))], QStringLiteral("Ada Example"));
    QCOMPARE(row[listColumns().indexOf(QStringLiteral("metric"))], QStringLiteral("score"));
    for (const char* text :
        { "author:ada", "author=\"Ada Example\"", "operation:rmsnorm", "RMSNorm fixture", "Example Team", "ada" }) {
        RunFilter filter;
        filter.setText(QString::fromUtf8(text));
        QVERIFY2(filter.matches(*run), text);
    }
    for (const char* text : { "author:grace", "operation:softmax", "project:other" }) {
        RunFilter filter;
        filter.setText(QString::fromUtf8(text));
        QVERIFY2(!filter.matches(*run), text);
    }
    RunFilter metric;
    metric.setText(QStringLiteral("metric=score"));
    QVERIFY(metric.matches(*run));
}

void TestComparisonKey::catalogKeysMetricsAndCohorts()
{
    const QString path = kixtest::sharedCatalogPath();
    if (path.isEmpty())
        QSKIP("the format's catalog export is not available (set KIX_SHARED_DIR to the project's shared/ folder)");
    const QHash<QString, Stored> stored = storedKeys(path);
    QVERIFY(stored.size() > 1000);
    const ParseResult loaded = parseFile(path);
    QCOMPARE(loaded.runs.size(), stored.size());
    int keys = 0, metrics = 0, named = 0, labelled = 0;
    QStringList wrong;
    for (const RunPtr& run : loaded.runs) {
        const auto s = stored.constFind(run->runDigest.toString());
        QVERIFY(s != stored.constEnd());
        if (run->links().comparisonKey.toString() == s->comparisonKey)
            ++keys;
        else if (wrong.size() < 5)
            wrong << run->externalId + QStringLiteral(": key ") + run->links().comparisonKey.toString();
        const bool none = s->metric == QLatin1String("none");
        if (run->metricName() == s->metric
            && (none ? run->headlineStatistic.isEmpty() : run->headlineStatistic == s->statistic)
            && (none ? run->unit.isEmpty() : run->unit == s->unit))
            ++metrics;
        else if (wrong.size() < 5)
            wrong << run->externalId + QStringLiteral(": metric ") + run->metricName() + QLatin1Char(' ')
                    + run->headlineStatistic + QLatin1Char(' ') + run->unit + QStringLiteral(" vs ") + s->metric;
        named += run->links().authors.isEmpty() ? 0 : 1;
        labelled += run->implementationLabel() == QStringLiteral("brandonin · submission 555004") ? 1 : 0;
    }
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QLatin1Char('\n'))));
    QCOMPARE(keys, int(loaded.runs.size()));
    QCOMPARE(metrics, int(loaded.runs.size()));
    QVERIFY(named > loaded.runs.size() / 2);
    QVERIFY(labelled > 0); // the leaderboard user, then the submission: the operation's alias left out

    // No cohort of Rank holds runs of two keys.
    const Ranking ranking = rankRuns(loaded.runs);
    for (const RankCohort& c : ranking.cohorts) {
        QSet<QString> inCohort;
        for (const RankEntry& e : c.entries) {
            for (const RunPtr& r : e.runs)
                inCohort.insert(r->links().comparisonKey.toString());
        }
        QVERIFY2(inCohort.size() <= 1, qPrintable(c.key.describe()));
    }
    // An operation's display name and an author find their runs.
    for (const char* text : { "Causal depthwise conv1d", "author:brandonin", "operation:\"AMD FP8 blockwise GEMM\"" }) {
        RunFilter filter;
        filter.setText(QString::fromUtf8(text));
        int found = 0;
        for (const RunPtr& run : loaded.runs)
            found += filter.matches(*run) ? 1 : 0;
        QVERIFY2(found > 0, text);
    }
}

KIX_TEST_GUILESS_MAIN(TestComparisonKey)
#include "tst_comparisonkey.moc"
