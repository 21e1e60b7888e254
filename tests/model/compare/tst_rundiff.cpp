// SPDX-License-Identifier: Apache-2.0
// kix diff's model: runs compared field by field on hand-made fixtures (tests/data/model/diff: one seed-shaped run,
// a rerun with a longer warm-up, another value and title and a member kix does not know, and a plain rerun), and
// on runs built in memory for the strict comparison key.
#include "model/compare/rundiff.h"
#include "model/read/documentparser.h"

#include "tests/model/runfactory.h"

#include "tests/support/testmain.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix;

namespace {

RunPtr loadRun(const QString& name)
{
    const ParseResult result = parseFile(QStringLiteral(KIX_TEST_DATA_DIR "/model/diff/") + name);
    if (result.runs.size() != 1)
        return nullptr;
    return result.runs.front();
}

const DiffRow* findDiffRow(const RunDiff& diff, const QString& section, const QString& path)
{
    for (const DiffRow& row : diff.rows)
        if (row.section == section && row.path == path)
            return &row;
    return nullptr;
}

std::shared_ptr<Run> keyed(const QString& provider, double median, const QString& key, const QString& protocol)
{
    auto run = kixtest::makeRun(provider, QStringLiteral("NVIDIA B200"), 1024, median);
    RunLinks links;
    links.comparisonKey = key;
    run->linked = RunLinks::share(links);
    run->protocolDigest = protocol;
    run->environmentDigest = QStringLiteral("sha256:") + QString(64, QLatin1Char('e'));
    run->workloadDigest = QStringLiteral("sha256:") + QString(64, QLatin1Char('w'));
    return run;
}

} // namespace

class TestRunDiff : public QObject
{
    Q_OBJECT
private slots:
    void fixturesLoad();
    void equalRowsFolded();
    void protocolDifferenceIsMaterial();
    void valueDifferenceIsMeasurement();
    void titleDifferenceIsCosmetic();
    void unknownFieldInOneRun();
    void orderAndSummary();
    void verdict();
    void runCounts();
    void formats();
};

void TestRunDiff::fixturesLoad()
{
    for (const char* name : { "run-a.json", "run-b.json", "run-c.json" }) {
        const RunPtr run = loadRun(QLatin1String(name));
        QVERIFY2(run, name);
        QCOMPARE(run->protocolCheck, DigestCheck::Verified);
        QCOMPARE(run->environmentCheck, DigestCheck::Verified);
    }
}

void TestRunDiff::equalRowsFolded()
{
    const RunDiff diff = diffRuns({ loadRun(QStringLiteral("run-a.json")), loadRun(QStringLiteral("run-c.json")) });
    QVERIFY(diff.equal > 20);
    const DiffRow* gpu = findDiffRow(diff, QStringLiteral("environment"), QStringLiteral("gpuProduct"));
    QVERIFY(gpu);
    QVERIFY(gpu->equal);
    QCOMPARE(*gpu->values[0], QStringLiteral("NVIDIA B200"));
    const QString table = QString::fromUtf8(runDiffToTable(diff));
    QVERIFY(table.contains(QStringLiteral("%1 equal fields folded; --all shows them").arg(diff.equal)));
    QVERIFY(!table.contains(QStringLiteral("gpuProduct")));
    const QString all = QString::fromUtf8(runDiffToTable(diff, true));
    QVERIFY(all.contains(QStringLiteral("gpuProduct")));
    QVERIFY(!all.contains(QStringLiteral("equal fields folded")));
    // a and c differ only in the value, the id and the time: nothing material.
    QCOMPARE(diff.material, 0);
    QVERIFY(diff.measurement > 0);
}

void TestRunDiff::protocolDifferenceIsMaterial()
{
    const RunDiff diff = diffRuns({ loadRun(QStringLiteral("run-a.json")), loadRun(QStringLiteral("run-b.json")) });
    const DiffRow* digest = findDiffRow(diff, QStringLiteral("digests"), QStringLiteral("protocolDigest"));
    QVERIFY(digest);
    QVERIFY(!digest->equal);
    QCOMPARE(digest->kind, DiffKind::Material);
    const DiffRow* json = findDiffRow(diff, QStringLiteral("json"), QStringLiteral("/run/spec/protocolDigest"));
    QVERIFY(json);
    QCOMPARE(json->kind, DiffKind::Material);
    const DiffRow* warmup
        = findDiffRow(diff, QStringLiteral("json"), QStringLiteral("/protocol/spec/measurement/warmupIterations"));
    QVERIFY(warmup);
    QVERIFY(!warmup->equal);
    QCOMPARE(warmup->kind, DiffKind::Material);
    QVERIFY(!warmup->values[0].has_value());
    QCOMPARE(*warmup->values[1], QStringLiteral("25"));
    // The environment is the same in both.
    const DiffRow* env = findDiffRow(diff, QStringLiteral("digests"), QStringLiteral("environmentDigest"));
    QVERIFY(env);
    QVERIFY(env->equal);
}

void TestRunDiff::valueDifferenceIsMeasurement()
{
    const RunDiff diff = diffRuns({ loadRun(QStringLiteral("run-a.json")), loadRun(QStringLiteral("run-b.json")) });
    const DiffRow* value = findDiffRow(diff, QStringLiteral("headline"), QStringLiteral("value"));
    QVERIFY(value);
    QVERIFY(!value->equal);
    QCOMPARE(value->kind, DiffKind::Measurement);
    QCOMPARE(*value->values[0], QStringLiteral("225344"));
    QCOMPARE(*value->values[1], QStringLiteral("231000"));
    const DiffRow* json
        = findDiffRow(diff, QStringLiteral("json"), QStringLiteral("/run/spec/timing/latencyNs/median"));
    QVERIFY(json);
    QCOMPARE(json->kind, DiffKind::Measurement);
    // The unit is the same; a difference there would be material.
    const DiffRow* unit = findDiffRow(diff, QStringLiteral("json"), QStringLiteral("/run/spec/measurements/0/unit"));
    QVERIFY(unit);
    QVERIFY(unit->equal);
    QCOMPARE(unit->kind, DiffKind::Material);
}

void TestRunDiff::titleDifferenceIsCosmetic()
{
    const RunDiff diff = diffRuns({ loadRun(QStringLiteral("run-a.json")), loadRun(QStringLiteral("run-b.json")) });
    for (const auto& [section, path] : { std::pair { "run", "title" }, std::pair { "json", "/run/metadata/title" },
             std::pair { "run", "observedAt" }, std::pair { "run", "externalId" }, std::pair { "run", "file" } }) {
        const DiffRow* row = findDiffRow(diff, QLatin1String(section), QLatin1String(path));
        QVERIFY2(row, path);
        QVERIFY2(!row->equal, path);
        QCOMPARE(row->kind, DiffKind::Cosmetic);
    }
    const DiffRow* title = findDiffRow(diff, QStringLiteral("run"), QStringLiteral("title"));
    QCOMPARE(*title->values[1], QStringLiteral("GroupNorm · liger · backward (warm)"));
}

void TestRunDiff::unknownFieldInOneRun()
{
    const RunDiff diff = diffRuns({ loadRun(QStringLiteral("run-a.json")), loadRun(QStringLiteral("run-b.json")) });
    const DiffRow* note = findDiffRow(diff, QStringLiteral("json"), QStringLiteral("/x-reviewer/note"));
    QVERIFY(note);
    QVERIFY(!note->equal);
    QVERIFY(!note->values[0].has_value());
    QCOMPARE(*note->values[1], QStringLiteral("rerun with a longer warm-up"));
    // Shown, not folded.
    QVERIFY(QString::fromUtf8(runDiffToTable(diff)).contains(QStringLiteral("/x-reviewer/note")));
}

void TestRunDiff::orderAndSummary()
{
    const RunDiff diff = diffRuns({ loadRun(QStringLiteral("run-a.json")), loadRun(QStringLiteral("run-b.json")) });
    QVERIFY(diff.material > 0);
    QVERIFY(diff.measurement > 0);
    QVERIFY(diff.cosmetic > 0);
    QCOMPARE(diff.rows.size(), diff.material + diff.measurement + diff.cosmetic + diff.equal);
    // material, then measurement, then cosmetic, then the equal rows
    int last = -1;
    bool equalSeen = false;
    for (const DiffRow& row : diff.rows) {
        if (row.equal) {
            equalSeen = true;
            continue;
        }
        QVERIFY(!equalSeen);
        QVERIFY(int(row.kind) >= last);
        last = int(row.kind);
    }
    QVERIFY(equalSeen);
    QCOMPARE(diff.headers.size(), 2);
    QVERIFY(diff.headers[0] != diff.headers[1]);
    QVERIFY(diff.headers[1].contains(QStringLiteral("2026-03-01-10-00-00")));
    // the table marks material rows first
    const QStringList lines = QString::fromUtf8(runDiffToTable(diff)).split(QLatin1Char('\n'));
    qsizetype header = 0;
    while (header < lines.size() && !lines[header].startsWith(QStringLiteral("kind  ")))
        ++header;
    QVERIFY(header > 0 && header + 1 < lines.size());
    QVERIFY(lines[header + 1].startsWith(QStringLiteral("! material")));
}

void TestRunDiff::verdict()
{
    const QString key = QStringLiteral("sha256:") + QString(64, QLatin1Char('a'));
    const QString p1 = QStringLiteral("sha256:") + QString(64, QLatin1Char('1'));
    const QString p2 = QStringLiteral("sha256:") + QString(64, QLatin1Char('2'));
    RunDiff same
        = diffRuns({ keyed(QStringLiteral("liger"), 100, key, p1), keyed(QStringLiteral("torch"), 90, key, p1) });
    QVERIFY(same.comparable);
    QCOMPARE(same.verdict, QStringLiteral("comparable: same strict comparison key"));
    QVERIFY(QString::fromUtf8(runDiffToTable(same)).endsWith(same.verdict + QLatin1Char('\n')));

    const QString otherKey = QStringLiteral("sha256:") + QString(64, QLatin1Char('b'));
    RunDiff other
        = diffRuns({ keyed(QStringLiteral("liger"), 100, key, p1), keyed(QStringLiteral("torch"), 90, otherKey, p2) });
    QVERIFY(!other.comparable);
    QCOMPARE(other.verdict, QStringLiteral("not comparable: differs in protocol"));

    // the fixtures link no workload document: no strict key, and the protocol differs
    const RunDiff fixtures = diffRuns({ loadRun(QStringLiteral("run-a.json")), loadRun(QStringLiteral("run-b.json")) });
    QVERIFY(!fixtures.comparable);
    QVERIFY2(fixtures.verdict.startsWith(QStringLiteral("not comparable: differs in protocol; ")),
        qPrintable(fixtures.verdict));
    QCOMPARE(fixtures.verdict,
        QStringLiteral("not comparable: differs in protocol; no run has a strict comparison key (no workload document "
                       "(operation, correctness))"));
    const RunDiff oneKeyed
        = diffRuns({ keyed(QStringLiteral("liger"), 100, key, p1), loadRun(QStringLiteral("run-a.json")) });
    QVERIFY(!oneKeyed.comparable);
    QVERIFY2(oneKeyed.verdict.endsWith(QStringLiteral("no strict comparison key for run 2 (no workload document "
                                                      "(operation, correctness))")),
        qPrintable(oneKeyed.verdict));
}

void TestRunDiff::runCounts()
{
    QVERIFY(runDiffCountProblem(2).isEmpty());
    QVERIFY(runDiffCountProblem(8).isEmpty());
    QVERIFY(runDiffCountProblem(1).startsWith(QStringLiteral("1 run(s) selected: diff compares 2 to 8")));
    const QString nine = runDiffCountProblem(9);
    QVERIFY(nine.startsWith(QStringLiteral("9 runs selected: diff compares 2 to 8; narrow with --filter")));
}

void TestRunDiff::formats()
{
    const RunDiff diff = diffRuns({ loadRun(QStringLiteral("run-a.json")), loadRun(QStringLiteral("run-b.json")),
        loadRun(QStringLiteral("run-c.json")) });
    const QStringList csv = QString::fromUtf8(runDiffToCsv(diff)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(csv.first(), QStringLiteral("section,path,kind,equal,value1,value2,value3"));
    QCOMPARE(csv.size(), diff.rows.size() + 1);
    QVERIFY(csv.contains(QStringLiteral("headline,value,measurement,false,225344,231000,225400")));
    QVERIFY(csv.contains(QStringLiteral("json,/x-reviewer/note,cosmetic,false,,rerun with a longer warm-up,")));

    const nlohmann::json j = nlohmann::json::parse(runDiffToJson(diff).toStdString());
    QCOMPARE(j["runs"].size(), size_t(3));
    QCOMPARE(j["runs"][1]["label"].get<std::string>(), diff.headers[1].toStdString());
    QCOMPARE(j["rows"].size(), size_t(diff.rows.size()));
    QCOMPARE(j["summary"]["material"].get<int>(), diff.material);
    QCOMPARE(j["summary"]["equal"].get<int>(), diff.equal);
    QVERIFY(j["rows"][0]["values"][0].is_null() || j["rows"][0]["values"][0].is_string());

    const QString md = QString::fromUtf8(runDiffToMarkdown(diff));
    QVERIFY(md.contains(QStringLiteral("| kind | section | path |")));
    QVERIFY(md.contains(QStringLiteral("|---|---|---|---|---|---|")));
    QVERIFY(md.contains(QStringLiteral("| measurement | headline | `value` | 225344 | 231000 | 225400 |")));
}

KIX_TEST_GUILESS_MAIN(TestRunDiff)
#include "tst_rundiff.moc"
