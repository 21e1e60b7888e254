// `kix bench`: usage errors (exit 2), device failures (exit 1), sweeps, and a tiny run that writes one
// document per (pass, shape, dtype, implementation).

#include "engine/benchcli.h"
#include "kix/config.h"
#include "model/documentparser.h"
#include "smallcpu.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace kix;
using namespace kix::test;

namespace {

struct Outcome
{
    int code = -1;
    QString out;
    QString err;
};

Outcome bench(const QStringList& args)
{
    auto registry = smallCpuRegistry();
    Outcome o;
    QTextStream out(&o.out);
    QTextStream err(&o.err);
    o.code = runBenchCommand(args, out, err, registry.get());
    out.flush();
    err.flush();
    return o;
}

QStringList jsonFiles(const QString& path)
{
    return QDir(path).entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name);
}

const QStringList kFast
    = { QStringLiteral("--warmup-ms"), QStringLiteral("0.1"), QStringLiteral("--rep-ms"), QStringLiteral("0.3") };

} // namespace

class TestBenchCli : public QObject
{
    Q_OBJECT

private slots:
    void usageErrors_data();
    void usageErrors();
    void missingDeviceIsAFailure();
    void help();
    void sweepValues_data();
    void sweepValues();
    void writesOneFilePerRun();
    void sweepsAShapeKey();
    void refusedSpecRunsNothing();
};

void TestBenchCli::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    const QString out = QStringLiteral("--out");
    const QString dir = QStringLiteral("/nonexistent/never-written");
    QTest::newRow("no --out") << QStringList {} << "--out DIR is required";
    QTest::newRow("unknown option") << QStringList { QStringLiteral("--frobnicate"), out, dir } << "frobnicate";
    QTest::newRow("positional") << QStringList { QStringLiteral("extra"), out, dir } << "unexpected argument";
    QTest::newRow("bad shape") << QStringList { QStringLiteral("--shape"), QStringLiteral("1,2"), out, dir } << "M,C,H";
    QTest::newRow("shape not numbers") << QStringList { QStringLiteral("--shape"), QStringLiteral("a,b,c"), out, dir }
                                       << "M,C,H";
    QTest::newRow("unknown pass") << QStringList { QStringLiteral("--pass"), QStringLiteral("sideways"), out, dir }
                                  << "unknown pass 'sideways'";
    QTest::newRow("unknown dtype") << QStringList { QStringLiteral("--dtype"), QStringLiteral("fp8"), out, dir }
                                   << "unknown dtype 'fp8'";
    QTest::newRow("bad sweep key") << QStringList { QStringLiteral("--sweep"), QStringLiteral("depth=1,2"), out, dir }
                                   << "unknown key 'depth'";
    QTest::newRow("bad sweep values") << QStringList { QStringLiteral("--sweep"), QStringLiteral("channels=32,x"), out,
        dir } << "not a positive integer";
    QTest::newRow("bad number") << QStringList { QStringLiteral("--rep-ms"), QStringLiteral("soon"), out, dir }
                                << "--rep-ms expects a number";
    QTest::newRow("indivisible channels") << QStringList { QStringLiteral("--shape"), QStringLiteral("2,10,4"),
        QStringLiteral("--channels-per-group"), QStringLiteral("4"), out, dir }
                                          << "channels (10) is not divisible by channels_per_group (4)";
    QTest::newRow("zero size") << QStringList { QStringLiteral("--shape"), QStringLiteral("0,8,4"), out, dir }
                               << "batch (M) must be positive";
    QTest::newRow("does not fit") << QStringList { QStringLiteral("--shape"), QStringLiteral("1000000,4096,4096"), out,
        dir } << "do not fit in the memory";
    QTest::newRow("unknown implementation")
        << QStringList { QStringLiteral("--impl"), QStringLiteral("liger"), out, dir } << "no implementation 'liger'";
    QTest::newRow("negative rep time") << QStringList { QStringLiteral("--rep-ms"), QStringLiteral("-5"),
        QStringLiteral("--shape"), QStringLiteral("2,8,4"), out, dir }
                                       << "repetition time";
}

void TestBenchCli::usageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Outcome o = bench(args);
    QCOMPARE(o.code, int(BenchUsage));
    QVERIFY2(o.err.contains(message), qPrintable(o.err));
    QVERIFY(o.err.startsWith(QStringLiteral("kix bench: ")));
    QVERIFY(!QFileInfo::exists(QStringLiteral("/nonexistent/never-written")));
}

void TestBenchCli::missingDeviceIsAFailure()
{
    QTemporaryDir dir;
    const Outcome o
        = bench({ QStringLiteral("--device"), QStringLiteral("cuda:5"), QStringLiteral("--out"), dir.path() });
    QCOMPARE(o.code, int(BenchFailure));
    QVERIFY2(o.err.contains(QStringLiteral("cuda")), qPrintable(o.err));
    QVERIFY(jsonFiles(dir.path()).isEmpty());
    const Outcome bad
        = bench({ QStringLiteral("--device"), QStringLiteral("tpu"), QStringLiteral("--out"), dir.path() });
    QCOMPARE(bad.code, int(BenchFailure));
    QVERIFY(bad.err.contains(QStringLiteral("unknown device 'tpu'")));
}

void TestBenchCli::help()
{
    const Outcome o = bench({ QStringLiteral("--help") });
    QCOMPARE(o.code, int(BenchOk));
    QVERIFY(o.out.contains(QStringLiteral("Usage: kix bench")));
}

void TestBenchCli::sweepValues_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<qint64>>("expected");
    QTest::newRow("list") << "4,8,12" << QList<qint64> { 4, 8, 12 };
    QTest::newRow("geometric") << "32,64,...,2048" << QList<qint64> { 32, 64, 128, 256, 512, 1024, 2048 };
    QTest::newRow("arithmetic") << "1,2,...,5" << QList<qint64> { 1, 2, 3, 4, 5 };
    QTest::newRow("arithmetic step") << "100,250,...,850" << QList<qint64> { 100, 250, 400, 550, 700, 850 };
    QTest::newRow("geometric wins a tie") << "100,300,...,900" << QList<qint64> { 100, 300, 900 };
    QTest::newRow("single") << "7" << QList<qint64> { 7 };
}

void TestBenchCli::sweepValues()
{
    QFETCH(QString, text);
    QFETCH(QList<qint64>, expected);
    QList<qint64> values;
    QString error;
    QVERIFY2(parseSweepValues(text, values, error), qPrintable(error));
    QCOMPARE(values, expected);
    for (const QString& bad : { QStringLiteral("32,...,64"), QStringLiteral("8,4,...,2"), QStringLiteral("3,5,...,10"),
             QStringLiteral(""), QStringLiteral("0,1") })
        QVERIFY2(!parseSweepValues(bad, values, error), qPrintable(bad));
}

void TestBenchCli::writesOneFilePerRun()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("runs")); // created on demand
    const Outcome o = bench(QStringList { QStringLiteral("--device"), QStringLiteral("cpu"), QStringLiteral("--shape"),
                                QStringLiteral("2,8,16"), QStringLiteral("--channels-per-group"), QStringLiteral("2"),
                                QStringLiteral("--pass"), QStringLiteral("forward,backward"), QStringLiteral("--dtype"),
                                QStringLiteral("fp32,bf16"), QStringLiteral("--out"), out }
        + kFast);
    QVERIFY2(o.code == BenchOk, qPrintable(o.err + o.out));
    QVERIFY(o.err.contains(QStringLiteral("[1/4] forward kix-cpu batch2-channels8-channels_per_group2-hidden16-fp32")));
    QVERIFY(o.err.contains(QStringLiteral("[4/4] backward")));
    QVERIFY(o.out.contains(QStringLiteral("median us")));
    QCOMPARE(o.out.count(QStringLiteral("passed")), 4);
    QVERIFY(o.out.contains(QStringLiteral("copy bandwidth of cpu")));
    QVERIFY(o.out.contains(QStringLiteral("4 run file(s) written")));
    const QStringList files = jsonFiles(out);
    QCOMPARE(files.size(), 4);
    for (const QString& file : files) {
        const ParseResult parsed = parseFile(QDir(out).filePath(file));
        QVERIFY2(!parsed.hasErrors(), qPrintable(file));
        QCOMPARE(parsed.runs.size(), 1);
        QCOMPARE(parsed.runs.front()->source, QStringLiteral("kix-engine"));
    }
}

void TestBenchCli::sweepsAShapeKey()
{
    QTemporaryDir dir;
    const Outcome o = bench(QStringList { QStringLiteral("--shape"), QStringLiteral("2,8,8"), QStringLiteral("--pass"),
                                QStringLiteral("full"), QStringLiteral("--sweep"),
                                QStringLiteral("channels=4,8,...,16"), QStringLiteral("--out"), dir.path() }
        + kFast);
    QVERIFY2(o.code == BenchOk, qPrintable(o.err));
    const QStringList files = jsonFiles(dir.path());
    QCOMPARE(files.size(), 3); // channels 4, 8, 16
    QVERIFY(files.filter(QStringLiteral("channels16-")).size() == 1);
    QVERIFY(files.filter(QStringLiteral("-full-")).size() == 3);
}

void TestBenchCli::refusedSpecRunsNothing()
{
    QTemporaryDir dir;
    // channels 6 of the sweep is not divisible by 4: nothing runs, not even channels 8.
    const Outcome o = bench(QStringList { QStringLiteral("--shape"), QStringLiteral("2,8,8"), QStringLiteral("--sweep"),
                                QStringLiteral("channels=8,6"), QStringLiteral("--out"), dir.path() }
        + kFast);
    QCOMPARE(o.code, int(BenchUsage));
    QVERIFY(o.err.contains(QStringLiteral("channels (6) is not divisible")));
    QVERIFY(jsonFiles(dir.path()).isEmpty());
}

QTEST_GUILESS_MAIN(TestBenchCli)
#include "tst_benchcli.moc"
