// SPDX-License-Identifier: Apache-2.0
// kix report in-process: the exit codes of the common policy, a directory refused, a report written atomically (a
// failed write leaves the existing report whole), --filter named in the report, two reports that differ only in
// their generation line.
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "kix/config.h"
#include "tests/fulldisk.h"
#include "tests/support/processes.h"

#include "tests/support/testmain.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace kix::cli;

namespace {

kixtest::CommandResult report(const QStringList& args)
{
    return kixtest::runInProcess(
        [&args](QTextStream& out, QTextStream& err) { return runCommand(QStringLiteral("report"), args, out, err); });
}

QString bundled()
{
    return QStringLiteral(KIX_SOURCE_DIR "/resources/runs");
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestReportCommand : public QObject
{
    Q_OBJECT
private slots:
    void usageErrors_data();
    void usageErrors();
    void writesTheReport();
    void refusedInputStillReports();
    void refusesADirectory();
    void failedWriteKeepsTheOldReport();
    void twoReportsDifferInOneLine();
};

void TestReportCommand::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::newRow("no --out") << QStringList { bundled() };
    QTest::newRow("not html") << QStringList { bundled(), QStringLiteral("--out"), QStringLiteral("r.pdf") };
    QTest::newRow("no path") << QStringList { QStringLiteral("--out"), QStringLiteral("r.html") };
    QTest::newRow("unknown option") << QStringList { bundled(), QStringLiteral("--out"), QStringLiteral("r.html"),
        QStringLiteral("--bogus") };
}

void TestReportCommand::usageErrors()
{
    QFETCH(QStringList, args);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QDir::setCurrent(dir.path());
    const kixtest::CommandResult r = report(args);
    QCOMPARE(r.code, int(ExitUsage));
    QVERIFY(r.err.contains(QLatin1String("Usage:")));
    QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
}

void TestReportCommand::writesTheReport()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("liger.html"));
    const kixtest::CommandResult r
        = report({ bundled(), QStringLiteral("--filter"), QStringLiteral("backward"), QStringLiteral("--out"), path });
    QCOMPARE(r.code, int(ExitOk));
    QVERIFY2(r.out.contains(QLatin1String("wrote ") + path), qPrintable(r.out));
    QVERIFY2(r.out.contains(QLatin1String("14 runs")), qPrintable(r.out)); // 7 workloads x 2 providers, backward
    const QString html = QString::fromUtf8(readAll(path));
    QVERIFY(html.contains(QLatin1String("<code>kix report ") + bundled() + QLatin1String(" --filter backward --out ")));
    QVERIFY(html.contains(QLatin1String("<dt>Filter</dt><dd><code>backward</code></dd>")));
    QVERIFY(html.contains(QLatin1String("<svg ")));
    QVERIFY(!html.contains(QStringLiteral("forward ·")));
    QVERIFY(QDir(dir.path()).entryList(QDir::Files) == QStringList { QStringLiteral("liger.html") }); // no temp file
}

void TestReportCommand::refusedInputStillReports()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("r.html"));
    const QString missing = dir.filePath(QStringLiteral("missing.json"));
    const kixtest::CommandResult r = report({ missing, bundled(), QStringLiteral("--out"), path });
    QCOMPARE(r.code, int(ExitFailure));
    QVERIFY2(r.err.contains(missing), qPrintable(r.err));
    const QString html = QString::fromUtf8(readAll(path));
    QVERIFY(html.contains(QLatin1String("42 from 2 files")));
    QVERIFY(html.contains(missing.toHtmlEscaped())); // among the load errors
}

void TestReportCommand::refusesADirectory()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("out.html"));
    QVERIFY(QDir().mkdir(path));
    const kixtest::CommandResult r = report({ bundled(), QStringLiteral("--out"), path });
    QCOMPARE(r.code, int(ExitFailure));
    QVERIFY2(r.err.contains(QLatin1String("is a directory")), qPrintable(r.err));
    QVERIFY(QFileInfo(path).isDir());
}

void TestReportCommand::failedWriteKeepsTheOldReport()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("r.html"));
    QVERIFY(report({ bundled(), QStringLiteral("--out"), path }).code == ExitOk);
    const QByteArray before = readAll(path);
    QVERIFY(before.size() > 20000);
    kixtest::CommandResult r;
    {
        kix::test::FullDisk full(4096); // the new report cannot be written past 4 KiB
        QVERIFY(full.ok());
        r = report({ bundled(), QStringLiteral("--title"), QStringLiteral("new"), QStringLiteral("--out"), path });
    }
    QCOMPARE(r.code, int(ExitFailure));
    QVERIFY2(r.err.contains(path), qPrintable(r.err));
    QCOMPARE(readAll(path), before);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList { QStringLiteral("r.html") });
}

void TestReportCommand::twoReportsDifferInOneLine()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("r.html"));
    QCOMPARE(report({ bundled(), QStringLiteral("--out"), path }).code, int(ExitOk));
    const QStringList a = QString::fromUtf8(readAll(path)).split(QLatin1Char('\n'));
    QTest::qWait(1100); // another second in the generation line
    QCOMPARE(report({ bundled(), QStringLiteral("--out"), path }).code, int(ExitOk));
    const QStringList b = QString::fromUtf8(readAll(path)).split(QLatin1Char('\n'));
    QCOMPARE(a.size(), b.size());
    int differing = 0;
    for (int i = 0; i < a.size(); ++i)
        if (a[i] != b[i]) {
            ++differing;
            QVERIFY2(a[i].contains(QLatin1String("id=\"generated\"")), qPrintable(a[i]));
        }
    QCOMPARE(differing, 1);
}

KIX_TEST_MAIN(TestReportCommand)
#include "tst_reportcommand.moc"
