// SPDX-License-Identifier: Apache-2.0
// Record timelines: the rule on hand-made runs, and, over the format's catalog export (when ../shared has it), the
// export's own ledger (record_events) reproduced cohort by cohort: the same runs, in the same order, on the same
// dates.
#include "../runfactory.h"

#include "model/compare/records.h"
#include "tests/support/catalogexport.h"

#include "tests/support/testmain.h"

#include <QDir>
#include <QHash>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <map>

using namespace kix;

class TestRecords : public QObject
{
    Q_OBJECT
private slots:
    void strictlyBetterInObservedOrder();
    void exportLedgerCompared();
    void catalogLedgerReproduced();
    void catalogDisagreementReported();
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

namespace {

// One strict cohort (the same comparison key) of three runs: ann 1000 on day 1, bo 1200 on day 2, cy 800 on day 3.
RunList strictCohort()
{
    RunList runs;
    const char* authors[] = { "ann", "bo", "cy" };
    const double values[] = { 1000, 1200, 800 };
    for (int i = 0; i < 3; ++i) {
        auto run = kixtest::makeRun(QString::fromLatin1(authors[i]), QStringLiteral("NVIDIA B200"), 2048, values[i]);
        run->observedAt = QDateTime(QDate(2026, 5, i + 1), QTime(12, 0), Qt::UTC);
        run->runDigest = QStringLiteral("sha256:%1").arg(i + 1, 64, 10, QLatin1Char('0'));
        RunLinks links;
        links.authors = QStringList { QString::fromLatin1(authors[i]) };
        links.comparisonKey = QStringLiteral("sha256:%1").arg(QStringLiteral("ab").repeated(32));
        run->linked = RunLinks::share(links);
        run->finalize();
        runs << run;
    }
    return runs;
}

void credit(const RunPtr& run, const QString& at, const RunPtr& previous)
{
    auto list = std::make_shared<QVector<ExportedRecord>>();
    list->append({ run->links().comparisonKey.toString(), at, previous ? previous->runDigest.toString() : QString() });
    std::const_pointer_cast<Run>(run)->exportedRecords = list;
}

} // namespace

void TestRecords::exportLedgerCompared()
{
    // No ledger on the runs: nothing compared, nothing said.
    RunList runs = strictCohort();
    Records records = recordTimelines(runs);
    QCOMPARE(records.exportCompared, 0);
    QVERIFY(!records.timelines.front().exportCompared);
    QVERIFY(!recordsToTable(records).contains("record_events:"));

    // The export's ledger as kix makes it: ann, then cy over ann. Compared, agrees.
    credit(runs[0], QStringLiteral("2026-05-01T12:00:00.000Z"), nullptr);
    credit(runs[2], QStringLiteral("2026-05-03T12:00:00.000Z"), runs[0]);
    records = recordTimelines(runs);
    QCOMPARE(records.exportCompared, 1);
    QCOMPARE(records.exportDisagreeing, 0);
    QVERIFY(records.timelines.front().exportCompared);
    QVERIFY(records.timelines.front().exportDisagreements.isEmpty());
    QVERIFY(recordsToTable(records).contains("1 cohort ledger(s) compared, 0 disagree"));

    // An export that credits bo (slower than ann) instead of cy: reported, with who and when on both sides.
    runs = strictCohort();
    credit(runs[0], QStringLiteral("2026-05-01T12:00:00.000Z"), nullptr);
    credit(runs[1], QStringLiteral("2026-05-02T12:00:00.000Z"), runs[0]);
    records = recordTimelines(runs);
    QCOMPARE(records.exportCompared, 1);
    QCOMPARE(records.exportDisagreeing, 1);
    const QStringList& d = records.timelines.front().exportDisagreements;
    QCOMPARE(d.size(), 1);
    QVERIFY2(d.front().startsWith(QStringLiteral("record 2: the export credits bo (at 2026-05-02T12:00:00.000Z, over "
                                                 "ann); kix cy (at 2026-05-03T12:00:00.000Z, over ann)")),
        qPrintable(d.front()));
    QVERIFY(recordsToTable(records).contains("DISAGREES with the export's record_events: record 2"));
    const nlohmann::json j = nlohmann::json::parse(recordsToJson(records).toStdString());
    QCOMPARE(j["exportLedger"]["disagree"].get<int>(), 1);
    QCOMPARE(j["timelines"][0]["exportLedger"]["agrees"].get<bool>(), false);

    // A ledger that names a run not in scope (filtered out) is not compared: said so, not called a disagreement.
    runs = strictCohort();
    credit(runs[2], QStringLiteral("2026-05-03T12:00:00.000Z"), runs[0]);
    records = recordTimelines(RunList { runs[1], runs[2] });
    QCOMPARE(records.exportCompared, 0);
    QCOMPARE(records.exportDisagreeing, 0);
    QCOMPARE(records.exportNotes.size(), 1);
    QVERIFY(records.exportNotes.front().contains(QStringLiteral("names runs not in scope")));
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
    // kix keeps the export's ledger when it reads the export, and finds it the same as its own.
    QCOMPARE(records.exportCompared, cohorts);
    QCOMPARE(records.exportDisagreeing, 0);
    QVERIFY(records.exportNotes.isEmpty());
    qInfo("catalog ledger reproduced: %d cohorts, %d record events", cohorts, events);
}

void TestRecords::catalogDisagreementReported()
{
    const QString path = kixtest::sharedCatalogPath();
    if (path.isEmpty())
        QSKIP("the format's catalog export is not available (set KIX_SHARED_DIR to the project's shared/ folder)");
    // The export rewritten (uncompressed, in a temporary folder) without the last record event of the first cohort
    // that has two or more: its ledger now disagrees with the runs it ranks, and kix must say so for that cohort only.
    std::map<std::string, std::vector<std::pair<std::string, std::string>>> events; // key -> (at, id)
    kixtest::forEachCatalogRow(path, [&](const std::string& table, const nlohmann::json& r) {
        if (table == "record_events")
            events[r["comparisonKey"].get<std::string>()].emplace_back(
                r["at"].get<std::string>(), r["id"].get<std::string>());
    });
    std::string key, dropped;
    for (auto& [k, list] : events) {
        if (list.size() >= 2) {
            std::sort(list.begin(), list.end());
            key = k;
            dropped = list.back().second;
            break;
        }
    }
    QVERIFY(!dropped.empty());
    QTemporaryDir dir;
    QFile out(dir.filePath(QStringLiteral("catalog-disagreeing.jsonl")));
    QVERIFY(out.open(QIODevice::WriteOnly));
    kixtest::forEachCatalogRow(path, [&](const std::string& table, const nlohmann::json& r) {
        if (table == "record_events" && r["id"].get<std::string>() == dropped)
            return;
        // "table" first, as the export writes it (kix recognises a catalog by its first member)
        out.write(
            QByteArray::fromStdString("{\"table\":" + nlohmann::json(table).dump() + ",\"row\":" + r.dump() + "}\n"));
    });
    out.close();

    const Records records = recordTimelines(parseFile(out.fileName()).runs);
    QCOMPARE(records.exportDisagreeing, 1);
    QVERIFY(records.exportCompared > 1000);
    const RecordTimeline* wrong = nullptr;
    for (const RecordTimeline& t : records.timelines)
        if (!t.exportDisagreements.isEmpty())
            wrong = &t;
    QVERIFY(wrong);
    QCOMPARE(wrong->key.strict.toStdString(), key);
    const QString last = wrong->exportDisagreements.back();
    QVERIFY2(last
            == QStringLiteral("the export has %1 record(s) in this cohort, kix %2")
                   .arg(events[key].size() - 1)
                   .arg(events[key].size()),
        qPrintable(wrong->exportDisagreements.join(QLatin1Char('\n'))));
    QVERIFY(recordsToTable(records).contains("DISAGREES with the export's record_events"));
}

KIX_TEST_GUILESS_MAIN(TestRecords)
#include "tst_records.moc"
