// SPDX-License-Identifier: Apache-2.0
// The headless commands in-process, through the registry as main calls them: the policy every command follows
// (--help, usage errors, refused inputs), and compare, chart, list and the others' output, files and exit codes.
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "tests/ui/uitestsupport.h"

#include "tests/support/processes.h"

#include "tests/support/testmain.h"

#include <QFile>
#include <QImageReader>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix;
using namespace kix::cli;

namespace {

using Result = kixtest::CommandResult;

Result run(const char* command, const QStringList& args)
{
    return kixtest::runInProcess(
        [&](QTextStream& o, QTextStream& e) { return runCommand(QLatin1String(command), args, o, e); });
}

QStringList goodFiles()
{
    return { kixtest::uiData(QStringLiteral("groupnorm-sweep.json")), kixtest::uiData(QStringLiteral("samples.jsonl")),
        kixtest::uiData(QStringLiteral("cross-gpu.json")), kixtest::uiData(QStringLiteral("liger-mini.csv")) };
}

} // namespace

class TestCommands : public QObject
{
    Q_OBJECT
private slots:
    void compareJson();
    void compareTableAndCsv();
    void compareFilterAndBaseline();
    void compareFailures_data();
    void compareFailures();
    void chartFiles_data();
    void chartFiles();
    void chartFailures_data();
    void chartFailures();
    void chartDistribution();

private:
    QTemporaryDir m_dir;
};

void TestCommands::compareJson()
{
    const Result r = run("compare", goodFiles() + QStringList { QStringLiteral("--format"), QStringLiteral("json") });
    QCOMPARE(r.code, 0);
    const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(j["pairs"].size(), size_t(17));
    for (const auto& p : j["pairs"]) {
        QVERIFY(p["run"]["medianNs"].is_number());
        QVERIFY(p["baseline"]["medianNs"].is_number());
        QCOMPARE(
            p["ratio"].get<double>(), p["baseline"]["medianNs"].get<double>() / p["run"]["medianNs"].get<double>());
        QVERIFY(p["verdict"].is_string());
        QVERIFY(p["warnings"].is_array());
    }
    QCOMPARE(j["providers"][0]["faster"].get<int>(), 15);
    QCOMPARE(j["skippedNonLatency"].get<int>(), 2);
}

void TestCommands::compareTableAndCsv()
{
    Result r = run("compare", goodFiles());
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains(QStringLiteral("baseline: huggingface")));
    QVERIFY(r.out.contains(QStringLiteral("geomean speed-up")));
    QVERIFY(r.out.contains(QStringLiteral("different GPU: NVIDIA B200 (baseline) vs NVIDIA A100-SXM4-80GB")));
    r = run("compare", goodFiles() + QStringList { QStringLiteral("--format=csv") });
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out.count(QLatin1Char('\n')), 18);
}

void TestCommands::compareFilterAndBaseline()
{
    const Result r = run("compare",
        goodFiles()
            + QStringList { QStringLiteral("--filter"), QStringLiteral("backward b200"), QStringLiteral("--baseline"),
                QStringLiteral("liger"), QStringLiteral("--format"), QStringLiteral("json") });
    QCOMPARE(r.code, 0);
    const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(j["pairs"].size(), size_t(7));
    for (const auto& p : j["pairs"]) {
        QCOMPARE(p["ratio"].get<double>(), 0.5);
        QCOMPARE(p["verdict"].get<std::string>(), std::string("slower"));
    }
}

void TestCommands::compareFailures_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    QTest::newRow("no path") << QStringList() << 2 << QStringLiteral("no PATH");
    QTest::newRow("bad format") << (goodFiles() << QStringLiteral("--format") << QStringLiteral("xml")) << 2
                                << QStringLiteral("--format");
    QTest::newRow("unknown option") << (goodFiles() << QStringLiteral("--frobnicate")) << 2
                                    << QStringLiteral("frobnicate");
    QTest::newRow("unknown baseline") << (goodFiles() << QStringLiteral("--baseline") << QStringLiteral("triton")) << 1
                                      << QStringLiteral("no runs of that provider");
    QTest::newRow("refused file") << QStringList { kixtest::uiData() } << 1 << QStringLiteral("broken.json");
    QTest::newRow("nothing to compare") << QStringList { kixtest::uiData(QStringLiteral("cross-gpu.json")) } << 1
                                        << QStringLiteral("nothing to compare");
}

void TestCommands::compareFailures()
{
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, message);
    const Result r = run("compare", args);
    QCOMPARE(r.code, code);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
}

void TestCommands::chartFiles_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("extra");
    QTest::newRow("quantiles png") << QStringLiteral("quantiles") << QStringLiteral("q.png")
                                   << QStringList { QStringLiteral("--size"), QStringLiteral("800x500") };
    QTest::newRow("sweep svg") << QStringLiteral("sweep") << QStringLiteral("s.svg")
                               << QStringList { QStringLiteral("--log") };
    QTest::newRow("speedup pdf") << QStringLiteral("speedup") << QStringLiteral("u.pdf")
                                 << QStringList { QStringLiteral("--baseline"), QStringLiteral("huggingface") };
    QTest::newRow("speedup png 300dpi") << QStringLiteral("speedup") << QStringLiteral("u.png")
                                        << QStringList { QStringLiteral("--dpi"), QStringLiteral("300"),
                                               QStringLiteral("--size"), QStringLiteral("1500x1000") };
}

void TestCommands::chartFiles()
{
    QFETCH(QString, kind);
    QFETCH(QString, file);
    QFETCH(QStringList, extra);
    const QString path = m_dir.filePath(file);
    const Result r = run(
        "chart", goodFiles() + QStringList { QStringLiteral("--kind"), kind, QStringLiteral("--out"), path } + extra);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains(QStringLiteral("wrote ")));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    if (file.endsWith(QLatin1String(".png"))) {
        const QImage image = QImage::fromData(bytes, "PNG");
        const int at = int(extra.indexOf(QStringLiteral("--size")));
        const QStringList wh = extra.value(at + 1).split(QLatin1Char('x'));
        QCOMPARE(image.size(), QSize(wh[0].toInt(), wh[1].toInt()));
    } else if (file.endsWith(QLatin1String(".svg"))) {
        QVERIFY(bytes.contains("Latency sweep"));
    } else {
        QVERIFY(bytes.startsWith("%PDF"));
    }
    if (kind == QLatin1String("speedup"))
        QVERIFY(r.err.contains(QStringLiteral("warning: different GPU")));
    else
        QVERIFY(r.err.contains(QStringLiteral("memory run(s) not shown")));
}

void TestCommands::chartFailures_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QStringList base = goodFiles();
    const QString out = QStringLiteral("/tmp/kix-cli-never-written.png");
    QTest::newRow("no kind") << (base << QStringLiteral("--out") << out) << 2;
    base = goodFiles();
    QTest::newRow("bad kind") << (base << QStringLiteral("--kind=pie") << QStringLiteral("--out") << out) << 2;
    base = goodFiles();
    QTest::newRow("no out") << (base << QStringLiteral("--kind=sweep")) << 2;
    base = goodFiles();
    QTest::newRow("bad size") << (base << QStringLiteral("--kind=sweep") << QStringLiteral("--size=big")
                                       << QStringLiteral("--out") << out)
                              << 2;
    QTest::newRow("nothing to draw") << QStringList { kixtest::uiData(QStringLiteral("liger-mini.csv")),
        QStringLiteral("--kind=sweep"), QStringLiteral("--out"), out }
                                     << 1;
    QTest::newRow("refused file") << QStringList { kixtest::uiData(QStringLiteral("broken.json")),
        QStringLiteral("--kind=sweep"), QStringLiteral("--out"), out }
                                  << 1;
}

void TestCommands::chartFailures()
{
    QFETCH(QStringList, args);
    QFETCH(int, code);
    const Result r = run("chart", args);
    QCOMPARE(r.code, code);
    QVERIFY(!r.err.isEmpty());
    QVERIFY(!QFile::exists(QStringLiteral("/tmp/kix-cli-never-written.png")));
}

void TestCommands::chartDistribution()
{
    // Two runs with raw samples: `--view ecdf` draws their ECDFs with the Mann–Whitney verdict, as the window does.
    const QString samples = kixtest::uiData(QStringLiteral("samples.jsonl"));
    const QString path = m_dir.filePath(QStringLiteral("ecdf.svg"));
    Result r = run("chart",
        { samples, QStringLiteral("--filter"), QStringLiteral("channels=256"), QStringLiteral("--kind=quantiles"),
            QStringLiteral("--view=ecdf"), QStringLiteral("--out"), path });
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString svg = QString::fromUtf8(f.readAll());
    QVERIFY(svg.contains(QStringLiteral("Latency distribution")));
    QVERIFY(svg.contains(QStringLiteral("liger · B200 vs huggingface · B200: ")));
    // Runs without samples: the boxes, and a note that says why.
    r = run("chart",
        { kixtest::uiData(QStringLiteral("groupnorm-sweep.json")), QStringLiteral("--kind=quantiles"),
            QStringLiteral("--view=histogram"), QStringLiteral("--out"), m_dir.filePath(QStringLiteral("boxes.svg")) });
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("note: Histogram not drawn, boxes instead: ")), qPrintable(r.err));
    r = run("chart",
        { samples, QStringLiteral("--kind=quantiles"), QStringLiteral("--view=violin"), QStringLiteral("--out"),
            path });
    QCOMPARE(r.code, 2);
}

KIX_TEST_MAIN(TestCommands)
#include "tst_commands.moc"
