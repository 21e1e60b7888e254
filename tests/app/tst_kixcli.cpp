// SPDX-License-Identifier: Apache-2.0
// kix validate, list, export, import-liger, --help/--version and the no-display summary, through the real binary.
#include "model/read/documentparser.h"

#include "kix/config.h"

#include "tests/support/processes.h"
#include "tests/support/testfiles.h"

#include "tests/support/testmain.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix;

namespace {

using Result = kixtest::CommandResult;

Result runKix(const QStringList& args, const QString& workingDir = {}, bool display = false)
{
    return kixtest::runProgram(QStringLiteral(KIX_BINARY), args, workingDir, display);
}

QString seed()
{
    return QStringLiteral(KIX_SOURCE_DIR "/resources/runs/group_norm-backward-huggingface-nvidia-b200.json");
}

const char* const kLigerCsv
    = "kernel_name,kernel_provider,kernel_operation_mode,metric_name,metric_unit,x_name,x_label,x_value,y_value_50,"
      "y_value_20,y_value_80,extra_benchmark_config_str,gpu_name,timestamp,liger_version\n"
      "group_norm,huggingface,backward,speed,ms,C,num_channels,2048,1.3158719539642334,1.3157440423965454,"
      "1.3177599906921387,\"{\"\"M\"\": 128, \"\"H\"\": 512, \"\"channels_per_group\"\": 4, \"\"dtype\"\": "
      "\"\"torch.float32\"\", \"\"eps\"\": 1e-06}\",NVIDIA B200,2026-02-28 00:23:31,0.7.0\n"
      "group_norm,liger,backward,memory,MB,C,num_channels,2048,2560.5625,2560.5625,2560.5625,\"{\"\"M\"\": 128, "
      "\"\"H\"\": 512, \"\"channels_per_group\"\": 4, \"\"dtype\"\": \"\"torch.float32\"\", \"\"eps\"\": 1e-06}\","
      "NVIDIA B200,2026-02-28 00:23:32,0.7.0\n";

} // namespace

class TestKixCli : public QObject
{
    Q_OBJECT
private slots:
    void helpAndVersion();
    void commandPolicy();
    void validateExitCodes_data();
    void validateExitCodes();
    void validatePrintsOneLinePerProblem();
    void listFormats();
    void exportWritesWhatWasLoaded();
    void exportUsageErrors();
    void importLiger();
    void noDisplayPrintsSummaryAndChart();
    void noDisplayWithoutPathsComparesBundledRuns();
    void bundledRunsValidate();
};

void TestKixCli::helpAndVersion()
{
    const Result version = runKix({ QStringLiteral("--version") });
    QCOMPARE(version.code, 0);
    QVERIFY(version.out.startsWith(QStringLiteral("kix " KIX_VERSION)));
    const Result help = runKix({ QStringLiteral("--help") });
    QCOMPARE(help.code, 0);
    for (const char* command : { "validate", "list", "export", "import-liger", "compare", "chart", "bench" })
        QVERIFY2(help.out.contains(QLatin1String(command)), command);
    QCOMPARE(runKix({ QStringLiteral("--frobnicate") }).code, 2);
    QCOMPARE(runKix({ QStringLiteral("list"), QStringLiteral("--help") }).code, 0);
    // `kix help COMMAND` is that command's help, not the overview.
    const Result helpList = runKix({ QStringLiteral("help"), QStringLiteral("list") });
    QCOMPARE(helpList.code, 0);
    QCOMPARE(helpList.out, runKix({ QStringLiteral("list"), QStringLiteral("--help") }).out);
    QVERIFY(helpList.out != help.out);
    // The runs compiled into kix (":/runs", what an installed kix falls back to) are a folder like any other.
    const Result bundled = runKix({ QStringLiteral("list"), QStringLiteral(":/runs") });
    QCOMPARE(bundled.code, 0);
    QVERIFY2(bundled.out.contains(QStringLiteral("group_norm")), qPrintable(bundled.out + bundled.err));
    QVERIFY(bundled.out.contains(QStringLiteral("liger")));
    QVERIFY(bundled.out.contains(QStringLiteral("huggingface")));
}

void TestKixCli::commandPolicy()
{
    // --help on stdout, exit 0, for every command
    for (const char* command :
        { "validate", "list", "export", "import-liger", "summary", "compare", "chart", "bench" }) {
        const Result help = runKix({ QLatin1String(command), QStringLiteral("--help") });
        QVERIFY2(help.code == 0, command);
        QVERIFY2(help.out.startsWith(QStringLiteral("Usage: kix ") + QLatin1String(command)), qPrintable(help.out));
        QVERIFY2(!help.err.contains(QStringLiteral("Usage")), qPrintable(help.err)); // Qt may warn there
    }
    // a usage error: one line, then the usage, on stderr; exit 2
    const Result usage = runKix({ QStringLiteral("compare"), QStringLiteral("--frobnicate"), seed() });
    QCOMPARE(usage.code, 2);
    QVERIFY(usage.out.isEmpty());
    QVERIFY2(usage.err.startsWith(QStringLiteral("kix compare: Unknown option 'frobnicate'.\n\nUsage: kix compare")),
        qPrintable(usage.err));
    // a missing input is named, the good file is still listed, exit 1
    const QString missing = QStringLiteral("/nonexistent/kix/missing.json");
    const Result list = runKix({ QStringLiteral("list"), missing, seed() });
    QCOMPARE(list.code, 1);
    QVERIFY(list.err.contains(missing + QStringLiteral(": error: ")));
    QVERIFY(list.out.contains(QStringLiteral("group_norm  backward  huggingface")));
    const Result compare
        = runKix({ QStringLiteral("compare"), missing, kixtest::modelDataPath(QStringLiteral("good")), seed() });
    QCOMPARE(compare.code, 1);
    QVERIFY(compare.err.contains(missing + QStringLiteral(": error: ")));
    QVERIFY2(compare.out.contains(QStringLiteral("baseline: huggingface")), qPrintable(compare.out + compare.err));
}

void TestKixCli::validateExitCodes_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::newRow("good") << QStringList { QStringLiteral("validate"), seed() } << 0;
    QTest::newRow("warnings only") << QStringList { QStringLiteral("validate"),
        kixtest::modelDataPath(QStringLiteral("warnings")) }
                                   << 0;
    QTest::newRow("refused") << QStringList { QStringLiteral("validate"),
        kixtest::modelDataPath(QStringLiteral("mixed")) }
                             << 1;
    QTest::newRow("no path") << QStringList { QStringLiteral("validate") } << 2;
    QTest::newRow("bad option") << QStringList { QStringLiteral("validate"), QStringLiteral("--nope"), seed() } << 2;
}

void TestKixCli::validateExitCodes()
{
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QCOMPARE(runKix(args).code, code);
}

void TestKixCli::validatePrintsOneLinePerProblem()
{
    const QString folder = kixtest::modelDataPath(QStringLiteral("mixed"));
    const Result r = runKix({ QStringLiteral("validate"), folder });
    QCOMPARE(r.code, 1);
    const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3); // two refused files and one duplicate
    QVERIFY(lines.contains(folder
        + QStringLiteral("/bad_no_latency.json: error: /run/spec/timing/latencyNs/median: "
                         "a latency cannot be negative (-1.31587e+06)")));
    bool syntax = false;
    for (const QString& line : lines)
        syntax = syntax || line.startsWith(folder + QStringLiteral("/bad_truncated.json: error: line "));
    QVERIFY(syntax);
}

void TestKixCli::listFormats()
{
    const Result csv = runKix({ QStringLiteral("list"), seed(), QStringLiteral("--format"), QStringLiteral("csv") });
    QCOMPARE(csv.code, 0);
    const QStringList lines = csv.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 2);
    QVERIFY(lines[0].startsWith(QStringLiteral("kernel,pass,provider,gpu,workload,")));
    QVERIFY(lines[1].startsWith(QStringLiteral("group_norm,backward,huggingface,NVIDIA B200,batch128-channels2048-")));
    QVERIFY(lines[1].contains(QStringLiteral(",1315872,1315744,1317760,passed,2026-02-28T00:23:31.000Z,")));

    const Result json
        = runKix({ QStringLiteral("list"), kixtest::modelDataPath(QStringLiteral("good")), QStringLiteral("--format"),
            QStringLiteral("json"), QStringLiteral("--filter"), QStringLiteral("channels1024") });
    QCOMPARE(json.code, 0);
    const auto rows = nlohmann::json::parse(json.out.toStdString());
    QCOMPARE(rows.size(), std::size_t(2));
    QCOMPARE(rows[0]["value"].get<double>(), 1315872.0);
    QCOMPARE(rows[0]["statistic"].get<std::string>(), std::string("median"));

    const Result table = runKix({ QStringLiteral("list"), seed() });
    QVERIFY(table.out.contains(QStringLiteral("huggingface")));
    QCOMPARE(runKix({ QStringLiteral("list"), seed(), QStringLiteral("--format"), QStringLiteral("xml") }).code, 2);
}

void TestKixCli::exportWritesWhatWasLoaded()
{
    QTemporaryDir dir;
    const QString target = dir.filePath(QStringLiteral("all.jsonl"));
    const Result r = runKix({ QStringLiteral("export"), seed(), kixtest::modelDataPath(QStringLiteral("good")),
        QStringLiteral("--out"), target });
    QCOMPARE(r.code, 0);
    const ParseResult back = parseFile(target);
    QVERIFY(back.diagnostics.isEmpty());
    QCOMPARE(back.runs.size(), 6); // the seed and good/bare_run.json are the same run: the first is kept
    // each document as loaded: the seed's own value
    QFile f(seed());
    QVERIFY(f.open(QIODevice::ReadOnly));
    const auto original = nlohmann::json::parse(f.readAll().toStdString());
    bool found = false;
    for (const RunPtr& run : back.runs)
        found = found || nlohmann::json::parse(run->raw) == original;
    QVERIFY(found);
}

void TestKixCli::exportUsageErrors()
{
    QCOMPARE(runKix({ QStringLiteral("export"), seed() }).code, 2);
    QCOMPARE(
        runKix({ QStringLiteral("export"), seed(), QStringLiteral("--out"), QStringLiteral("/tmp/x.txt") }).code, 2);
    const Result r = runKix(
        { QStringLiteral("export"), seed(), QStringLiteral("--out"), QStringLiteral("/nonexistent/dir/x.json") });
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.contains(QStringLiteral("/nonexistent/dir/x.json")));
}

void TestKixCli::importLiger()
{
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("all_benchmark_data.csv"));
    QFile f(csv);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(kLigerCsv);
    f.close();

    const QString bundle = dir.filePath(QStringLiteral("runs.jsonl"));
    QCOMPARE(runKix({ QStringLiteral("import-liger"), csv, QStringLiteral("--out"), bundle }).code, 0);
    const ParseResult fromBundle = parseFile(bundle);
    QCOMPARE(fromBundle.runs.size(), 2);
    QCOMPARE(fromBundle.runs[0]->externalId,
        QStringLiteral("group_norm/backward/huggingface/nvidia-b200/"
                       "batch128-channels2048-channels_per_group4-hidden512-fp32/2026-02-28-00-23-31"));
    QCOMPARE(fromBundle.runs[0]->median, 1315872.0);
    QVERIFY(!fromBundle.runs[1]->isLatency());
    QCOMPARE(fromBundle.runs[1]->median, 2560.5625);

    const QString folder = dir.filePath(QStringLiteral("runs"));
    QCOMPARE(runKix({ QStringLiteral("import-liger"), csv, QStringLiteral("--out"), folder }).code, 0);
    QCOMPARE(QDir(folder).entryList({ QStringLiteral("*.json") }, QDir::Files).size(), 2);
    const Result validate = runKix({ QStringLiteral("validate"), folder });
    QCOMPARE(validate.code, 0);
    QVERIFY(validate.out.isEmpty());

    QCOMPARE(runKix({ QStringLiteral("import-liger"), csv }).code, 2);
}

void TestKixCli::noDisplayPrintsSummaryAndChart()
{
    QTemporaryDir dir;
    const Result r = runKix({ seed() }, dir.path());
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains(QStringLiteral("kix: 1 runs from 1 files")));
    QVERIFY(r.out.contains(QStringLiteral("1 × group_norm backward on NVIDIA B200")));
    const QString chart = dir.filePath(QStringLiteral("kix-summary.png"));
    QVERIFY2(r.out.contains(chart), qPrintable(r.out));
    QFile png(chart);
    QVERIFY(png.open(QIODevice::ReadOnly));
    QVERIFY(png.read(8).startsWith("\x89PNG"));
}

// `kix` with no PATH and no display: the bundled runs (resources/runs: the seed and Liger's other GroupNorm speed
// rows on B200) are summarised with liger's verdicts against huggingface, and the chart written is the speed-up.
void TestKixCli::noDisplayWithoutPathsComparesBundledRuns()
{
    QTemporaryDir dir;
    const Result r = runKix({}, dir.path());
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains(QStringLiteral("kix: 42 runs from 2 files\n")), qPrintable(r.out));
    for (const char* pass : { "forward", "backward", "full" })
        QVERIFY2(r.out.contains(QStringLiteral("14 × group_norm %1 on NVIDIA B200").arg(QLatin1String(pass))), pass);
    QVERIFY(r.out.contains(QStringLiteral("Speed-up against huggingface")));
    for (const char* pass : { "forward", "backward", "full" }) {
        const QRegularExpression verdict(QStringLiteral("group_norm %1 on NVIDIA B200: liger [0-9]+\\.[0-9]{2}× "
                                                        "(faster|slower) than huggingface over 7 workloads \\(")
                                             .arg(QLatin1String(pass)));
        QVERIFY2(verdict.match(r.out).hasMatch(), qPrintable(r.out));
    }
    const QString chart = dir.filePath(QStringLiteral("kix-summary.png"));
    QVERIFY2(r.out.contains(QStringLiteral("The speed-up chart of these runs is in ") + chart), qPrintable(r.out));
    QFile png(chart);
    QVERIFY(png.open(QIODevice::ReadOnly));
    QVERIFY(png.read(8).startsWith("\x89PNG"));
    QVERIFY2(!r.err.contains(QStringLiteral("QStandardPaths")), qPrintable(r.err));
    QVERIFY2(!r.err.contains(QStringLiteral("warning"), Qt::CaseInsensitive), qPrintable(r.err));
}

// Every bundled run is a valid kernelindex document (schemas and digests), in the tree and compiled into kix.
void TestKixCli::bundledRunsValidate()
{
    const QString folder = QStringLiteral(KIX_SOURCE_DIR "/resources/runs");
    for (const QString& path : { folder, QStringLiteral(":/runs") }) {
        const Result r = runKix({ QStringLiteral("validate"), QStringLiteral("--strict"), path });
        QVERIFY2(r.code == 0, qPrintable(path + QLatin1Char('\n') + r.out + r.err));
    }
    // The compiled-in runs are the folder's: the same 42.
    for (const QString& path : { folder, QStringLiteral(":/runs") }) {
        const Result r = runKix({ QStringLiteral("summary"), path });
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith(QStringLiteral("kix: 42 runs from 2 files\n")), qPrintable(path + r.out));
    }
}

KIX_TEST_GUILESS_MAIN(TestKixCli)
#include "tst_kixcli.moc"
