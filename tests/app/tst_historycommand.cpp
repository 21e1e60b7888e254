// SPDX-License-Identifier: Apache-2.0
// kix history, in-process as main runs it: formats, --threshold, --since, --filter, --fail-on regression and its
// exit status, usage errors, and a refused file beside good ones.
#include "app/commands/commands.h"

#include "tests/support/processes.h"
#include "tests/support/testmain.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix;

namespace {

using Result = kixtest::CommandResult;

Result history(QStringList args, const QString& folder = QStringLiteral(KIX_TEST_DATA_DIR "/history"))
{
    args.prepend(folder);
    Result r;
    QTextStream out(&r.out);
    QTextStream err(&r.err);
    r.code = cli::historyCommand(args, out, err);
    out.flush();
    err.flush();
    return r;
}

} // namespace

class TestHistoryCommand : public QObject
{
    Q_OBJECT
private slots:
    void table();
    void failOnRegression();
    void sinceAndJson();
    void csv();
    void usageErrors();
    void refusedFile();
    void historyChart();
    void pytestBenchmarkStorage();
};

void TestHistoryCommand::table()
{
    const Result r = history({});
    QCOMPARE(r.code, 0);
    const QStringList lines = r.out.split(QLatin1Char('\n'));
    QVERIFY(lines[0].startsWith(QStringLiteral("kind")));
    QVERIFY(lines[1].startsWith(QStringLiteral("outlier")));
    QVERIFY(lines[2].startsWith(QStringLiteral("regression")));
    QVERIFY(r.out.contains(QStringLiteral("5 series, 2 regression(s), 1 improvement(s), 1 outlier(s)")));
    QVERIFY(r.out.contains(QStringLiteral("unplaceable: group_norm/backward/liger")));
    QVERIFY(r.err.contains(QStringLiteral("observedAt"))); // the loader's warning names the file and the field
}

void TestHistoryCommand::failOnRegression()
{
    Result r = history({ QStringLiteral("--fail-on"), QStringLiteral("regression") });
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.contains(QStringLiteral("kix history: 2 regression(s) above 5 %")));
    // huggingface alone is flat: the gate passes.
    r = history({ QStringLiteral("--fail-on"), QStringLiteral("regression"), QStringLiteral("--filter"),
        QStringLiteral("huggingface") });
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains(QStringLiteral("0 regression(s)")));
    // 35 %: the 20 % and 30 % regressions are under it.
    r = history({ QStringLiteral("--fail-on"), QStringLiteral("regression"), QStringLiteral("--threshold"),
        QStringLiteral("35") });
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains(QStringLiteral("1 outlier(s) at a 35 % threshold")));
    // 25 %: only memory's 30 % is over it.
    r = history({ QStringLiteral("--fail-on"), QStringLiteral("regression"), QStringLiteral("--threshold"),
        QStringLiteral("25%") });
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.contains(QStringLiteral("1 regression(s) above 25 %")));
}

void TestHistoryCommand::sinceAndJson()
{
    Result r = history(
        { QStringLiteral("--since"), QStringLiteral("0.8.0"), QStringLiteral("--format"), QStringLiteral("json") });
    QCOMPARE(r.code, 0);
    const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(j["changes"].size(), size_t(2));
    for (const auto& c : j["changes"]) {
        QCOMPARE(c["after"]["label"].get<std::string>(), std::string("0.8.0"));
        QVERIFY(c.contains("ratio") && c.contains("kind") && c["before"].contains("observedAt")
            && c["before"].contains("median"));
    }
    QCOMPARE(j["changes"][0]["kind"].get<std::string>(), std::string("regression"));
    QCOMPARE(j["changes"][0]["metric"].get<std::string>(), std::string("memory"));
    QCOMPARE(j["changes"][1]["kind"].get<std::string>(), std::string("improvement"));
    QVERIFY(r.err.contains(QStringLiteral("unplaceable: ")));
    // A date.
    r = history({ QStringLiteral("--since"), QStringLiteral("2025-09-01"), QStringLiteral("--format"),
        QStringLiteral("json") });
    QCOMPARE(nlohmann::json::parse(r.out.toStdString())["changes"].size(), size_t(3));
}

void TestHistoryCommand::csv()
{
    const Result r = history({ QStringLiteral("--format"), QStringLiteral("csv") });
    QCOMPARE(r.code, 0);
    const QStringList lines = r.out.trimmed().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 5);
    QVERIFY(lines[0].startsWith(QStringLiteral("kind,ratio,kernel,pass,provider,gpu,workload,metric")));
}

void TestHistoryCommand::usageErrors()
{
    QCOMPARE(history({ QStringLiteral("--format"), QStringLiteral("xml") }).code, 2);
    QCOMPARE(history({ QStringLiteral("--threshold"), QStringLiteral("abc") }).code, 2);
    QCOMPARE(history({ QStringLiteral("--threshold"), QStringLiteral("0") }).code, 2);
    QCOMPARE(history({ QStringLiteral("--fail-on"), QStringLiteral("improvement") }).code, 2);
    const Result since = history({ QStringLiteral("--since"), QStringLiteral("9.9.9") });
    QCOMPARE(since.code, 2);
    QVERIFY(since.err.contains(QStringLiteral("9.9.9")));
    QString out, err;
    QTextStream o(&out), e(&err);
    QCOMPARE(cli::historyCommand({}, o, e), 2);
    QCOMPARE(cli::historyCommand({ QStringLiteral("--help") }, o, e), 0);
    o.flush();
    QVERIFY(out.contains(QStringLiteral("--fail-on")));
}

void TestHistoryCommand::refusedFile()
{
    // A broken file beside the good ones: named on stderr, the history of the others still printed, exit 1.
    const Result r = history({ QStringLiteral(KIX_TEST_DATA_DIR "/model/malformed/truncated.json") });
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.contains(QStringLiteral("truncated.json")));
    QVERIFY(r.out.contains(QStringLiteral("2 regression(s)")));
}

void TestHistoryCommand::historyChart()
{
    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("history.svg"));
    QString out, err;
    QTextStream o(&out), e(&err);
    const int code = cli::chartCommand({ QStringLiteral(KIX_TEST_DATA_DIR "/history"), QStringLiteral("--kind"),
                                           QStringLiteral("history"), QStringLiteral("--out"), svg },
        o, e);
    o.flush();
    e.flush();
    QCOMPARE(code, 0);
    QVERIFY(out.contains(QStringLiteral("(history, 22 runs)")));
    QVERIFY(err.contains(QStringLiteral("warning: unplaceable (no usable observedAt)")));
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY(text.contains("History"));
    QVERIFY(text.contains("0.6.0+local")); // the label axis
    QCOMPARE(cli::chartCommand(
                 { QStringLiteral(KIX_TEST_DATA_DIR "/history"), QStringLiteral("--kind"), QStringLiteral("history"),
                     QStringLiteral("--threshold"), QStringLiteral("x"), QStringLiteral("--out"), svg },
                 o, e),
        2);
}

// `kix history DIR` on pytest-benchmark's own storage folder (our fixture: five saved runs of two tests) finds one
// series per test with the five saved runs, labelled by commit; not one series per file.
void TestHistoryCommand::pytestBenchmarkStorage()
{
    const QString folder = QStringLiteral(KIX_TEST_DATA_DIR "/interop/pytest_storage");
    const Result table = history({}, folder);
    QCOMPARE(table.code, 0);
    QVERIFY2(table.out.contains(QStringLiteral("2 series,")), qPrintable(table.out));
    QVERIFY2(!table.out.contains(QStringLiteral("single run")), qPrintable(table.out));

    const Result r = history({ QStringLiteral("--format"), QStringLiteral("json") }, folder);
    QCOMPARE(r.code, 0);
    const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(j["series"].get<int>(), 2);
    // --since takes a commit label of a loaded run
    const Result since = history({ QStringLiteral("--since"), QStringLiteral("a41be03") }, folder);
    QVERIFY2(since.code == 0, qPrintable(since.err));
}

KIX_TEST_MAIN(TestHistoryCommand)
#include "tst_historycommand.moc"
