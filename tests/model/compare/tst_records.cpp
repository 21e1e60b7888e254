// SPDX-License-Identifier: Apache-2.0
// Record timelines: the rule on hand-made runs, and, over the format's catalog export (when ../shared has it), the
// export's own ledger (record_events) reproduced cohort by cohort: the same runs, in the same order, on the same
// dates.
#include "../runfactory.h"

#include "model/compare/records.h"
#include "tests/support/catalogexport.h"

#include <QDir>
#include <QHash>
#include <QTest>

#include <nlohmann/json.hpp>

#include <map>

using namespace kix;

class TestRecords : public QObject
{
    Q_OBJECT
private slots:
    void strictlyBetterInObservedOrder();
    void catalogLedgerReproduced();
};

void TestRecords::strictlyBetterInObservedOrder()
{
    auto at = [](int day, std::shared_ptr<Run> run, const char* author) {
        run->observedAt = QDateTime(QDate(2026, 5, day), QTime(12, 0), Qt::UTC);
        RunLinks links;
        links.authors = QStringList { QString::fromLatin1(author) };
        run->linked = RunLinks::share(links);
        run->finalize();
        return RunPtr(run);
    };
    // observed out of input order: the ledger follows the dates, not the list
    const RunList runs { at(3, kixtest::makeRun(QStringLiteral("c"), QStringLiteral("NVIDIA B200"), 2048, 800), "cy"),
        at(1, kixtest::makeRun(QStringLiteral("a"), QStringLiteral("NVIDIA B200"), 2048, 1000), "ann"),
        at(2, kixtest::makeRun(QStringLiteral("b"), QStringLiteral("NVIDIA B200"), 2048, 1200), "bo"),
        at(4, kixtest::makeRun(QStringLiteral("d"), QStringLiteral("NVIDIA B200"), 2048, 800), "dee"),
        at(5, kixtest::makeRun(QStringLiteral("a"), QStringLiteral("NVIDIA B200"), 4096, 500), "ann") };
    const Records records = recordTimelines(runs);
    QCOMPARE(records.timelines.size(), 2); // two workloads: two cohorts
    const RecordTimeline& t = records.timelines.front();
    QCOMPARE(t.steps.size(), 2); // ann (1000), then cy (800); bo was slower, dee only equal
    QCOMPARE(t.steps[0].run->provider, QStringLiteral("a"));
    QVERIFY(!t.steps[0].previous);
    QCOMPARE(t.steps[1].run->provider, QStringLiteral("c"));
    QCOMPARE(t.steps[1].previous->provider, QStringLiteral("a"));
    QCOMPARE(t.steps[1].margin, 1.25);
    QCOMPARE(t.steps[1].at, QDateTime(QDate(2026, 5, 3), QTime(12, 0), Qt::UTC));
    // standings: ann holds the 4096 record and set two; cy holds one
    QCOMPARE(records.standings.front().holder, QStringLiteral("ann"));
    QCOMPARE(records.standings.front().now, 1);
    QCOMPARE(records.standings.front().ever, 2);
    QVERIFY(recordsToTable(records).contains("1.250× (20.0% better) over ann"));
    const nlohmann::json j = nlohmann::json::parse(recordsToJson(records).toStdString());
    QCOMPARE(j["timelines"].size(), std::size_t(2));
    QCOMPARE(j["timelines"][0]["steps"][1]["holder"].get<std::string>(), std::string("cy"));
}

void TestRecords::catalogLedgerReproduced()
{
    const QString path = kixtest::sharedCatalogPath();
    if (path.isEmpty())
        QSKIP("the format's catalog export is not available (set KIX_SHARED_DIR to the project's shared/ folder)");

    // The export's ledger, read with nlohmann: comparisonKey -> [(run digest, previous run digest, at)].
    QHash<std::string, std::string> digestOfId;
    struct Event
    {
        std::string run, previous, at, id;
    };
    std::map<std::string, std::vector<Event>> ledger;
    kixtest::forEachCatalogRow(path, [&](const std::string& table, const nlohmann::json& r) {
        if (table == "benchmark_runs")
            digestOfId.insert(r["id"].get<std::string>(), r["runDigest"].get<std::string>());
        else if (table == "record_events")
            ledger[r["comparisonKey"].get<std::string>()].push_back({ r["runId"].get<std::string>(),
                r["previousRunId"].is_string() ? r["previousRunId"].get<std::string>() : std::string(),
                r["at"].get<std::string>(), r["id"].get<std::string>() });
    });
    QVERIFY(!ledger.empty());

    const Records records = recordTimelines(parseFile(path).runs);
    QHash<std::string, const RecordTimeline*> mine;
    for (const RecordTimeline& t : records.timelines)
        mine.insert(t.key.strict.toStdString(), &t);
    int cohorts = 0, events = 0;
    QStringList wrong;
    for (auto& [key, list] : ledger) {
        std::sort(list.begin(), list.end(),
            [](const Event& a, const Event& b) { return a.at != b.at ? a.at < b.at : a.id < b.id; });
        const RecordTimeline* t = mine.value(key);
        bool same = t && t->steps.size() == qsizetype(list.size());
        for (std::size_t i = 0; same && i < list.size(); ++i) {
            const RecordStep& s = t->steps[qsizetype(i)];
            same = s.run->runDigest.toStdString() == digestOfId.value(list[i].run)
                && (s.previous ? s.previous->runDigest.toStdString() : std::string())
                    == (list[i].previous.empty() ? std::string() : digestOfId.value(list[i].previous))
                && s.at.toUTC().toString(Qt::ISODateWithMs).toStdString() == list[i].at;
        }
        if (same) {
            ++cohorts;
            events += int(list.size());
        } else if (wrong.size() < 5) {
            wrong << QString::fromStdString(key);
        }
    }
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QLatin1Char('\n'))));
    QCOMPARE(cohorts, int(ledger.size()));
    // and kix finds no ledger the export lacks: every timeline kix makes is one of the export's
    QCOMPARE(records.timelines.size(), qsizetype(ledger.size()));
    qInfo("catalog ledger reproduced: %d cohorts, %d record events", cohorts, events);
}

QTEST_GUILESS_MAIN(TestRecords)
#include "tst_records.moc"
