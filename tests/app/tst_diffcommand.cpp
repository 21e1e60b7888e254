// SPDX-License-Identifier: Apache-2.0
// kix diff in-process: two hand-made runs (tests/data/model/diff) in every format, the ways to select runs (files,
// FILE#POINTER, FILE/POINTER, a digest prefix, --run, --filter) and the counts it refuses.
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "tests/support/processes.h"

#include "tests/support/testmain.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix;
using namespace kix::cli;

namespace {

using Result = kixtest::CommandResult;

Result diff(const QStringList& args)
{
    return kixtest::runInProcess(
        [&](QTextStream& o, QTextStream& e) { return runCommand(QStringLiteral("diff"), args, o, e); });
}

QString testDataPath(const QString& name)
{
    return QStringLiteral(KIX_TEST_DATA_DIR "/") + name;
}

QStringList twoRuns()
{
    return { testDataPath(QStringLiteral("model/diff/run-a.json")),
        testDataPath(QStringLiteral("model/diff/run-b.json")) };
}

QStringList withFormat(QStringList args, const QString& format)
{
    return args << QStringLiteral("--format") << format;
}

} // namespace

class TestDiffCommand : public QObject
{
    Q_OBJECT
private slots:
    void table();
    void markdown();
    void csv();
    void json();
    void selectors();
    void counts_data();
    void counts();
};

void TestDiffCommand::table()
{
    const Result r = diff(twoRuns());
    QCOMPARE(r.code, 0);
    const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY(lines.size() > 6);
    QVERIFY(lines[0].startsWith(QStringLiteral("run 1  liger 2026-02-28-00-23-31  ")));
    QVERIFY(lines[2].startsWith(QStringLiteral("kind ")));
    QVERIFY2(lines[3].startsWith(QStringLiteral("! material   digests")), qPrintable(lines[3]));
    QVERIFY(r.out.contains(QRegularExpression(QStringLiteral("\\n\\d+ equal fields folded; --all shows them\\n"))));
    QCOMPARE(lines.last(),
        QStringLiteral("not comparable: differs in protocol; no run has a strict comparison key (no workload document "
                       "(operation, correctness))"));
    QVERIFY(!r.out.contains(QStringLiteral("gpuProduct")));
    const Result all = diff(twoRuns() << QStringLiteral("--all"));
    QCOMPARE(all.code, 0);
    QVERIFY(all.out.contains(QStringLiteral("gpuProduct")));
    QVERIFY(!all.out.contains(QStringLiteral("equal fields folded")));
}

void TestDiffCommand::markdown()
{
    const Result r = diff(withFormat(twoRuns(), QStringLiteral("markdown")));
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains(QStringLiteral("\n| kind | section | path | liger 2026-02-28-00-23-31 | liger "
                                           "2026-03-01-10-00-00 |\n|---|---|---|---|---|\n")),
        qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral("| measurement | headline | `value` | 225344 | 231000 |\n")));
    QVERIFY(
        r.out.contains(QStringLiteral("| cosmetic | json | `/x-reviewer/note` | — | rerun with a longer warm-up |")));
    QVERIFY(r.out.contains(QStringLiteral("**not comparable: differs in protocol;")));
}

void TestDiffCommand::csv()
{
    const Result r = diff(withFormat(twoRuns(), QStringLiteral("csv")));
    QCOMPARE(r.code, 0);
    const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.first(), QStringLiteral("section,path,kind,equal,value1,value2"));
    QVERIFY(lines.contains(QStringLiteral("headline,value,measurement,false,225344,231000")));
    QVERIFY(lines.contains(QStringLiteral("json,/protocol/spec/measurement/warmupIterations,material,false,,25")));
    QVERIFY(lines.contains(QStringLiteral("environment,gpuProduct,material,true,NVIDIA B200,NVIDIA B200")));
    // Every field is a row, equal ones included: the differences come first.
    bool equalSeen = false;
    for (const QString& line : lines.mid(1)) {
        const bool equal = line.contains(QStringLiteral(",true,"));
        QVERIFY2(!equalSeen || equal, qPrintable(line));
        equalSeen = equalSeen || equal;
    }
    QVERIFY(equalSeen);
}

void TestDiffCommand::json()
{
    const Result r = diff(withFormat(twoRuns(), QStringLiteral("json")));
    QCOMPARE(r.code, 0);
    const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(j["runs"].size(), size_t(2));
    for (const auto& run : j["runs"])
        for (const char* key : { "file", "pointer", "externalId", "label" })
            QVERIFY2(run.contains(key) && run[key].is_string(), key);
    QVERIFY(j["runs"][1]["file"].get<std::string>().find("run-b.json") != std::string::npos);
    QVERIFY(j["rows"].size() > 20);
    for (const auto& row : j["rows"]) {
        for (const char* key : { "section", "path", "kind", "equal", "values" })
            QVERIFY2(row.contains(key), key);
        QCOMPARE(row["values"].size(), size_t(2));
    }
    for (const char* key : { "material", "measurement", "cosmetic", "equal" })
        QVERIFY2(j["summary"][key].is_number_integer(), key);
    QCOMPARE(j["summary"]["material"].get<int>(), 3);
    QCOMPARE(j["rows"][0]["kind"].get<std::string>(), std::string("material"));
    QCOMPARE(j["comparable"].get<bool>(), false);
}

void TestDiffCommand::selectors()
{
    const QString a = testDataPath(QStringLiteral("model/diff/run-a.json"));
    const QString b = testDataPath(QStringLiteral("model/diff/run-b.json"));
    const QString c = testDataPath(QStringLiteral("model/diff/run-c.json"));
    auto externalIds = [](const Result& r) {
        QStringList ids;
        const nlohmann::json parsed = nlohmann::json::parse(r.out.toStdString());
        for (const auto& run : parsed["runs"])
            ids << QString::fromStdString(run["externalId"].get<std::string>());
        return ids;
    };
    const QString idA = QStringLiteral("group_norm/backward/liger/nvidia-b200/"
                                       "batch128-channels1024-channels_per_group4-hidden512-fp32/2026-02-28-00-23-31");
    const QString idC = QStringLiteral("group_norm/backward/liger/nvidia-b200/"
                                       "batch128-channels1024-channels_per_group4-hidden512-fp32/2026-03-02-08-00-00");

    // --run among three files
    Result r = diff(withFormat({ a, b, c, QStringLiteral("--run"), idC, QStringLiteral("--run"), idA }, "json"));
    QCOMPARE(r.code, 0);
    QCOMPARE(externalIds(r), (QStringList { idC, idA }));

    // a digest prefix: run c's runDigest, read from a first diff
    r = diff(withFormat({ a, c }, QStringLiteral("json")));
    QString digestC;
    const nlohmann::json first = nlohmann::json::parse(r.out.toStdString());
    for (const auto& row : first["rows"])
        if (row["path"] == "runDigest")
            digestC = QString::fromStdString(row["values"][1].get<std::string>());
    QVERIFY(digestC.startsWith(QStringLiteral("sha256:")));
    r = diff(withFormat({ a, b, c, digestC.left(20), QStringLiteral("--run"), idA }, QStringLiteral("json")));
    QCOMPARE(r.code, 0);
    QCOMPARE(externalIds(r), (QStringList { idC, idA }));

    // FILE#POINTER and FILE/POINTER in a bundle of two runs
    const QString bundle = testDataPath(QStringLiteral("model/good/bundle.jsonl"));
    r = diff(withFormat({ bundle + QStringLiteral("#/1"), bundle + QStringLiteral("/0") }, QStringLiteral("json")));
    QCOMPARE(r.code, 0);
    const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(j["runs"][0]["pointer"].get<std::string>(), std::string("/1"));
    QCOMPARE(j["runs"][1]["pointer"].get<std::string>(), std::string("/0"));

    // 8 runs are compared
    r = diff(withFormat({ testDataPath(QStringLiteral("ui/groupnorm-sweep.json")), QStringLiteral("--filter"),
                            QStringLiteral("channels>=1024") },
        QStringLiteral("csv")));
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.startsWith(QStringLiteral("section,path,kind,equal,value1,value2,value3,value4,value5,value6,value7,"
                                            "value8\n")));

    // --filter picks among the files
    r = diff(withFormat({ a, b, c, QStringLiteral("--filter"), QStringLiteral("2026-03") }, QStringLiteral("json")));
    QCOMPARE(r.code, 0);
    QCOMPARE(externalIds(r).size(), 2);
    QVERIFY(!externalIds(r).contains(idA));
}

void TestDiffCommand::counts_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("one run") << QStringList { testDataPath(QStringLiteral("model/diff/run-a.json")) }
                             << QStringLiteral("kix diff: 1 run(s) selected: diff compares 2 to 8; name more runs");
    QTest::newRow("28 runs") << QStringList { testDataPath(QStringLiteral("ui/groupnorm-sweep.json")) }
                             << QStringLiteral(
                                    "kix diff: 28 runs selected: diff compares 2 to 8; narrow with --filter");
    // the sweep's 8 runs of 1024 and 2048 channels, and run a (1024 channels)
    QTest::newRow("9 runs") << QStringList { testDataPath(QStringLiteral("ui/groupnorm-sweep.json")),
        testDataPath(QStringLiteral("model/diff/run-a.json")), QStringLiteral("--filter"),
        QStringLiteral("channels>=1024") }
                            << QStringLiteral("kix diff: 9 runs selected: diff compares 2 to 8");
    QTest::newRow("no such run") << (twoRuns() << QStringLiteral("--run") << QStringLiteral("nope"))
                                 << QStringLiteral("kix diff: --run nope names no run among the 2 loaded");
    QTest::newRow("no path") << QStringList { QStringLiteral("--run"), QStringLiteral("x") }
                             << QStringLiteral("kix diff: no PATH given");
}

void TestDiffCommand::counts()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Result r = diff(args);
    QCOMPARE(r.code, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.startsWith(message), qPrintable(r.err));
    QVERIFY(r.err.contains(QStringLiteral("Usage: kix diff")));
}

KIX_TEST_GUILESS_MAIN(TestDiffCommand)
#include "tst_diffcommand.moc"
