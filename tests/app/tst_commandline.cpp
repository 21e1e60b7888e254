// SPDX-License-Identifier: Apache-2.0
// The policy every headless command follows, checked for every entry of the registry: --help on stdout with exit
// 0, a usage error as one line and the usage on stderr with exit 2, a refused input named on stderr while the rest
// is still processed (exit 1), warnings alone exit 0.
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "tests/ui/uitestsupport.h"

#include "tests/support/processes.h"
#include "tests/support/testmain.h"

#include <QDir>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace kix;
using namespace kix::cli;

namespace {

using Result = kixtest::CommandResult;

Result runCommandLine(const QString& command, const QStringList& args)
{
    Result r;
    QTextStream o(&r.out), e(&r.err);
    r.code = runCommand(command, args, o, e);
    o.flush();
    e.flush();
    return r;
}

QString good()
{
    return kixtest::uiData(QStringLiteral("groupnorm-sweep.json"));
}

QString missing()
{
    return QStringLiteral("/nonexistent/kix-tests/missing.json");
}

QString modelData(const QString& name)
{
    return QStringLiteral(KIX_TEST_DATA_DIR "/model/") + name;
}

} // namespace

class TestCommandLine : public QObject
{
    Q_OBJECT
private slots:
    void registryListsEveryCommandOnce();
    void helpGoesToStdoutAndExitsZero();
    void usageErrorIsOneLineAndTheUsage();
    void unknownCommandIsAUsageError();
    void refusedInputIsNamedAndTheRestProcessed_data();
    void refusedInputIsNamedAndTheRestProcessed();
    void compareMissingAndGood();
    void listMissingAndGood();
    void warningsAloneExitZero();
    void formatIsCheckedForEveryCommandThatHasIt();
    void finishFollowsRefusals();
    void alphaIsCheckedForEveryCommandThatHasIt();

private:
    QTemporaryDir m_dir;
};

void TestCommandLine::registryListsEveryCommandOnce()
{
    QSet<QString> names;
    for (const Command& c : commands()) {
        QVERIFY2(!names.contains(QLatin1String(c.name)), c.name);
        names.insert(QLatin1String(c.name));
        QCOMPARE(findCommand(QLatin1String(c.name)), &c);
        QVERIFY(overviewUsage().contains(QLatin1String(c.name)));
        QVERIFY(overviewUsage().contains(QLatin1String(c.summary)));
    }
    for (const char* expected :
        { "validate", "list", "export", "import-liger", "summary", "compare", "diff", "chart", "bench" })
        QVERIFY2(names.contains(QLatin1String(expected)), expected);
    QVERIFY(!findCommand(QStringLiteral("frobnicate")));
}

void TestCommandLine::helpGoesToStdoutAndExitsZero()
{
    for (const Command& c : commands()) {
        for (const QString& flag : { QStringLiteral("--help"), QStringLiteral("-h") }) {
            const Result r = runCommandLine(QLatin1String(c.name), { flag });
            QVERIFY2(r.code == 0, c.name);
            QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
            QVERIFY2(r.out.startsWith(QStringLiteral("Usage: kix %1 [options]").arg(QLatin1String(c.name))),
                qPrintable(r.out));
            QVERIFY2(r.out.contains(QStringLiteral("--help")), qPrintable(r.out));
        }
    }
}

void TestCommandLine::usageErrorIsOneLineAndTheUsage()
{
    for (const Command& c : commands()) {
        const QString name = QLatin1String(c.name);
        const Result r = runCommandLine(name, { QStringLiteral("--no-such-option"), good() });
        QVERIFY2(r.code == 2, c.name);
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
        const QStringList lines = r.err.split(QLatin1Char('\n'));
        QVERIFY2(lines.size() > 3, qPrintable(r.err));
        QVERIFY2(lines[0].startsWith(QStringLiteral("kix %1: ").arg(name)), qPrintable(r.err));
        QVERIFY2(lines[0].contains(QStringLiteral("no-such-option")), qPrintable(r.err));
        QVERIFY(lines[1].isEmpty());
        QVERIFY2(lines[2].startsWith(QStringLiteral("Usage: kix %1").arg(name)), qPrintable(r.err));
    }
    // A missing PATH, a bad value: the same shape.
    for (const QString& name : { QStringLiteral("list"), QStringLiteral("compare"), QStringLiteral("validate") }) {
        const Result r = runCommandLine(name, {});
        QCOMPARE(r.code, 2);
        QVERIFY2(
            r.err.startsWith(QStringLiteral("kix %1: no PATH given\n\nUsage: kix %1").arg(name)), qPrintable(r.err));
    }
}

void TestCommandLine::unknownCommandIsAUsageError()
{
    const Result r = runCommandLine(QStringLiteral("frobnicate"), {});
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.startsWith(QStringLiteral("kix: unknown command \"frobnicate\"")));
    QVERIFY(r.err.contains(QStringLiteral("Commands:")));
}

void TestCommandLine::refusedInputIsNamedAndTheRestProcessed_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QString>("bad");
    QTest::addColumn<QString>("fromGood"); // on stdout (or in the written file) only when the good file was used
    const QString broken = kixtest::uiData(QStringLiteral("broken.json"));
    const QString slug = QStringLiteral("channels1024");
    const QString exported = m_dir.filePath(QStringLiteral("export.jsonl"));
    const QString chart = m_dir.filePath(QStringLiteral("chart.svg"));
    for (const QString& bad : { missing(), broken }) {
        const QString tag = bad == broken ? QStringLiteral(" invalid") : QStringLiteral(" missing");
        QTest::newRow(qPrintable(QStringLiteral("list") + tag)) << "list" << QStringList() << bad << slug;
        QTest::newRow(qPrintable(QStringLiteral("list csv") + tag))
            << "list" << QStringList { QStringLiteral("--format=csv") } << bad << slug;
        QTest::newRow(qPrintable(QStringLiteral("summary") + tag)) << "summary" << QStringList() << bad << slug;
        QTest::newRow(qPrintable(QStringLiteral("validate") + tag)) << "validate" << QStringList() << bad << QString();
        QTest::newRow(qPrintable(QStringLiteral("export") + tag))
            << "export" << QStringList { QStringLiteral("--out"), exported } << bad << QStringLiteral("wrote 28 runs");
        QTest::newRow(qPrintable(QStringLiteral("chart") + tag))
            << "chart" << QStringList { QStringLiteral("--kind=sweep"), QStringLiteral("--out"), chart } << bad
            << QStringLiteral("wrote ");
    }
}

void TestCommandLine::refusedInputIsNamedAndTheRestProcessed()
{
    QFETCH(QString, command);
    QFETCH(QStringList, extra);
    QFETCH(QString, bad);
    QFETCH(QString, fromGood);
    const Result r = runCommandLine(command, QStringList { bad, good() } + extra);
    QVERIFY2(r.code == 1, qPrintable(r.err));
    QVERIFY2(r.err.contains(bad + QStringLiteral(": error: ")) || r.out.contains(bad + QStringLiteral(": error: ")),
        qPrintable(r.err));
    QVERIFY2(r.out.contains(fromGood), qPrintable(r.out));
    // the same command on the good file alone succeeds
    const Result alone = runCommandLine(command, QStringList { good() } + extra);
    QVERIFY2(alone.code == 0, qPrintable(alone.err));
}

void TestCommandLine::compareMissingAndGood()
{
    const QStringList goodFiles
        = { kixtest::uiData(QStringLiteral("groupnorm-sweep.json")), kixtest::uiData(QStringLiteral("samples.jsonl")) };
    const Result alone = runCommandLine(QStringLiteral("compare"), goodFiles);
    QCOMPARE(alone.code, 0);
    const Result r = runCommandLine(QStringLiteral("compare"), QStringList { missing() } + goodFiles);
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(missing() + QStringLiteral(": error: ")), qPrintable(r.err));
    QVERIFY(r.out.contains(QStringLiteral("geomean speed-up")));
    QCOMPARE(r.out, alone.out); // every row of the good files, as without the missing one
}

void TestCommandLine::listMissingAndGood()
{
    const Result alone = runCommandLine(QStringLiteral("list"), { good() });
    QCOMPARE(alone.code, 0);
    const Result r = runCommandLine(QStringLiteral("list"), { missing(), good() });
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(missing() + QStringLiteral(": error: ")), qPrintable(r.err));
    QCOMPARE(r.out, alone.out);
    QVERIFY(r.out.count(QLatin1Char('\n')) > 2);
}

void TestCommandLine::warningsAloneExitZero()
{
    for (const QString& command : { QStringLiteral("list"), QStringLiteral("validate"), QStringLiteral("summary") }) {
        const Result r = runCommandLine(command, { modelData(QStringLiteral("warnings")) });
        QVERIFY2(r.code == 0, qPrintable(command + r.err));
        QVERIFY2(QString(r.err + r.out).contains(QStringLiteral(": warning: ")), qPrintable(r.err));
    }
}

void TestCommandLine::formatIsCheckedForEveryCommandThatHasIt()
{
    for (const Command& c : commands()) {
        const Result help = runCommandLine(QLatin1String(c.name), { QStringLiteral("--help") });
        if (!help.out.contains(QStringLiteral("--format")))
            continue;
        const Result r
            = runCommandLine(QLatin1String(c.name), { good(), QStringLiteral("--format"), QStringLiteral("xml") });
        QVERIFY2(r.code == 2, c.name);
        QVERIFY2(r.err.startsWith(QStringLiteral("kix %1: unknown --format \"xml\"").arg(QLatin1String(c.name))),
            qPrintable(r.err));
    }
}

void TestCommandLine::finishFollowsRefusals()
{
    QString outText, errText;
    QTextStream out(&outText), err(&errText);
    CommandLine cl(QStringLiteral("test"), QStringLiteral("A test."), out, err);
    cl.addPaths();
    QVERIFY(cl.parse({ good() }));
    QCOMPARE(cl.finish(), int(ExitOk));
    cl.report({ makeWarning(good(), {}, QStringLiteral("odd")) });
    QCOMPARE(cl.finish(), int(ExitOk));
    cl.report({ makeError(good(), {}, QStringLiteral("bad")) });
    QCOMPARE(cl.finish(), int(ExitFailure));
    QCOMPARE(cl.finish(ExitUsage), int(ExitUsage));
    err.flush();
    QVERIFY(errText.contains(good() + QStringLiteral(": error: ")));
}

void TestCommandLine::alphaIsCheckedForEveryCommandThatHasIt()
{
    int withAlpha = 0;
    for (const Command& c : commands()) {
        const Result help = runCommandLine(QLatin1String(c.name), { QStringLiteral("--help") });
        if (!help.out.contains(QStringLiteral("--alpha")))
            continue;
        ++withAlpha;
        for (const QString& bad : { QStringLiteral("1"), QStringLiteral("0"), QStringLiteral("x") }) {
            const Result r = runCommandLine(QLatin1String(c.name), { good(), QStringLiteral("--alpha"), bad });
            QVERIFY2(r.code == 2, qPrintable(c.name + bad));
            QVERIFY2(r.err.startsWith(
                         QStringLiteral("kix %1: --alpha must be a number between 0 and 1").arg(QLatin1String(c.name))),
                qPrintable(r.err));
        }
    }
    QVERIFY(withAlpha >= 2); // compare and rank

    QString outText, errText;
    QTextStream out(&outText), err(&errText);
    CommandLine cl(QStringLiteral("test"), QStringLiteral("A test."), out, err);
    cl.addAlpha();
    QVERIFY(cl.parse({ QStringLiteral("--alpha"), QStringLiteral("0.01") }));
    QCOMPARE(cl.alpha(), 0.01);
}

KIX_TEST_MAIN(TestCommandLine)
#include "tst_commandline.moc"
