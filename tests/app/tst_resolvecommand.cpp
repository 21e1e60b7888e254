// SPDX-License-Identifier: Apache-2.0
// kix resolve in-process: on the bundled runs (resources/runs: GroupNorm on a B200, channels 32 to 2048) and the
// fixtures of tests/data/model/resolve; its three formats, the examples its --help prints, and the exit codes.
#include "app/commands/commandline.h"
#include "app/commands/commands.h"
#include "kix/config.h"

#include "tests/support/processes.h"
#include "tests/support/testmain.h"

#include <QRegularExpression>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix::cli;

namespace {

using Result = kixtest::CommandResult;

Result runResolve(const QStringList& args)
{
    QString out, err;
    QTextStream o(&out), e(&err);
    const int code = runCommand(QStringLiteral("resolve"), args, o, e);
    o.flush();
    e.flush();
    return { code, out, err };
}

QString bundledRuns()
{
    return QStringLiteral(KIX_SOURCE_DIR "/resources/runs");
}

QString sweep()
{
    return QStringLiteral(KIX_TEST_DATA_DIR "/model/resolve/groupnorm-sweep.csv");
}

} // namespace

class TestResolveCommand : public QObject
{
    Q_OBJECT

private slots:
    void exactNearAndNothing();
    void formats();
    void usageErrors();
    void helpExamplesWork();
};

void TestResolveCommand::exactNearAndNothing()
{
    Result r = runResolve({ QStringLiteral("group_norm"), bundledRuns(), QStringLiteral("--axis"),
        QStringLiteral("channels=2048"), QStringLiteral("--filter"), QStringLiteral("pass:forward") });
    QCOMPARE(r.code, int(ExitOk));
    QVERIFY2(r.out.contains(QLatin1String("answer: exact")), qPrintable(r.out));
    QVERIFY(r.out.contains(QLatin1String("liger")));
    QVERIFY(r.out.contains(QLatin1String("huggingface")));

    // between two measured values: 1024 and 2048, nothing exact
    r = runResolve({ QStringLiteral("group_norm"), sweep(), QStringLiteral("--axis"), QStringLiteral("channels=3000"),
        QStringLiteral("--gpu"), QStringLiteral("b200") });
    QCOMPARE(r.code, int(ExitOk));
    QVERIFY(r.out.contains(QLatin1String("none exact")));
    QVERIFY(r.out.contains(QStringLiteral("channels: 3000 → 4096")));
    QVERIFY(r.out.contains(QStringLiteral("channels: 3000 → 2048")));

    // an axis no case has: nothing, exit 1
    r = runResolve({ QStringLiteral("group_norm"), sweep(), QStringLiteral("--axis"), QStringLiteral("groups=32") });
    QCOMPARE(r.code, int(ExitFailure));
    QVERIFY(r.out.contains(QLatin1String("unknown axis: groups")));
    QVERIFY(r.err.contains(QLatin1String("nothing measured near the request")));

    // an operation nobody measured: exit 1, the nearest names
    r = runResolve({ QStringLiteral("groupnorm"), sweep() });
    QCOMPARE(r.code, int(ExitFailure));
    QVERIFY2(r.err.contains(QLatin1String("nearest names: group_norm")), qPrintable(r.err));

    // a missing input is refused, the rest still resolved: exit 1
    r = runResolve({ QStringLiteral("group_norm"), sweep(), QStringLiteral("/nonexistent/runs.json"),
        QStringLiteral("--axis"), QStringLiteral("channels=1024") });
    QCOMPARE(r.code, int(ExitFailure));
    QVERIFY(r.out.contains(QLatin1String("answer: exact")));
}

void TestResolveCommand::formats()
{
    const QStringList base { QStringLiteral("group_norm"), sweep(), QStringLiteral("--axis"),
        QStringLiteral("channels=3000"), QStringLiteral("--gpu"), QStringLiteral("H100") };
    Result r = runResolve(base + QStringList { QStringLiteral("--format"), QStringLiteral("json") });
    QCOMPARE(r.code, int(ExitOk));
    const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(j["exact"].get<bool>(), false);
    QCOMPARE(j["request"]["axes"]["channels"].get<std::string>(), std::string("3000"));
    QCOMPARE(j["request"]["gpu"].get<std::string>(), std::string("H100"));
    // the H100 measured 1024 only: a neighbour below, none above
    QCOMPARE(j["cases"].size(), std::size_t(1));
    QCOMPARE(j["cases"][0]["kind"].get<std::string>(), std::string("below"));
    QCOMPARE(j["cases"][0]["implementations"][0]["implementation"].get<std::string>(), std::string("liger"));

    r = runResolve(base + QStringList { QStringLiteral("--format"), QStringLiteral("csv") });
    QCOMPARE(r.code, int(ExitOk));
    const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 2);
    QVERIFY(lines[0].startsWith(QLatin1String("match,axis,ratio,workload")));
    QVERIFY(lines[1].startsWith(QLatin1String("below,channels,")));
    QVERIFY(lines[1].contains(QStringLiteral("channels: 3000 → 1024")));
}

void TestResolveCommand::usageErrors()
{
    Result r = runResolve({});
    QCOMPARE(r.code, int(ExitUsage));
    QVERIFY(r.err.contains(QLatin1String("no OPERATION given")));
    r = runResolve({ QStringLiteral("group_norm") });
    QCOMPARE(r.code, int(ExitUsage));
    QVERIFY(r.err.contains(QLatin1String("no PATH given")));
    r = runResolve({ QStringLiteral("group_norm"), sweep(), QStringLiteral("--axis"), QStringLiteral("channels") });
    QCOMPARE(r.code, int(ExitUsage));
    QVERIFY(r.err.contains(QLatin1String("is not AXIS=VALUE")));
    r = runResolve({ QStringLiteral("group_norm"), sweep(), QStringLiteral("--format"), QStringLiteral("xml") });
    QCOMPARE(r.code, int(ExitUsage));
}

// Every example of --help that reads the bundled runs runs and finds something.
void TestResolveCommand::helpExamplesWork()
{
    const Result help = runResolve({ QStringLiteral("--help") });
    QCOMPARE(help.code, int(ExitOk));
    int examples = 0;
    for (const QString& line : help.out.split(QLatin1Char('\n'))) {
        if (!line.trimmed().startsWith(QLatin1String("kix resolve "))
            || !line.contains(QLatin1String("resources/runs")))
            continue;
        QStringList args = line.trimmed().section(QStringLiteral("  "), 0, 0).split(QLatin1Char(' '));
        args = args.mid(2); // "kix resolve"
        for (QString& a : args)
            if (a == QLatin1String("resources/runs"))
                a = bundledRuns();
        const Result r = runResolve(args);
        QVERIFY2(r.code == ExitOk, qPrintable(line + QLatin1Char('\n') + r.err));
        ++examples;
    }
    QVERIFY(examples >= 3);
}

KIX_TEST_GUILESS_MAIN(TestResolveCommand)
#include "tst_resolvecommand.moc"
