// SPDX-License-Identifier: Apache-2.0
// kix overview in-process on a Liger-shaped CSV written here: three kernels on three GPUs, one implementation on two
// GPUs; its three formats, --filter, each cell's clause (fed back as --filter, it selects the cell's runs) and the
// exit codes.
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "tests/support/processes.h"
#include "tests/support/testmain.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace kix::cli;

namespace {

using Result = kixtest::CommandResult;

Result runOverview(const QStringList& args)
{
    QString out, err;
    QTextStream o(&out), e(&err);
    const int code = runCommand(QStringLiteral("overview"), args, o, e);
    o.flush();
    e.flush();
    return { code, out, err };
}

QString row(const QString& kernel, const QString& provider, const QString& gpu, int channels)
{
    return QStringLiteral("%1,%2,full,speed,ms,C,num_channels,%4,1.5,1.4,1.6,\"{\"\"M\"\": 128}\",%3,"
                          "2026-02-28 00:23:31,0.7.0\n")
        .arg(kernel, provider, gpu)
        .arg(channels);
}

} // namespace

class TestOverviewCommand : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_file = m_dir.filePath(QStringLiteral("bench.csv"));
        QFile f(m_file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QString csv = QStringLiteral("kernel_name,kernel_provider,kernel_operation_mode,metric_name,metric_unit,"
                                     "x_name,x_label,x_value,y_value_50,y_value_20,y_value_80,"
                                     "extra_benchmark_config_str,gpu_name,timestamp,liger_version\n");
        // cross_entropy: liger and torch on H100 (4 runs), liger on B200 (2); rms_norm: liger on B200 (1);
        // swiglu: torch on RTX 4090 (1).
        const QString h100 = QStringLiteral("NVIDIA H100 80GB HBM3");
        const QString b200 = QStringLiteral("NVIDIA B200");
        csv += row(QStringLiteral("cross_entropy"), QStringLiteral("liger"), h100, 1024);
        csv += row(QStringLiteral("cross_entropy"), QStringLiteral("liger"), h100, 2048);
        csv += row(QStringLiteral("cross_entropy"), QStringLiteral("torch"), h100, 1024);
        csv += row(QStringLiteral("cross_entropy"), QStringLiteral("torch"), h100, 2048);
        csv += row(QStringLiteral("cross_entropy"), QStringLiteral("liger"), b200, 1024);
        csv += row(QStringLiteral("cross_entropy"), QStringLiteral("liger"), b200, 2048);
        csv += row(QStringLiteral("rms_norm"), QStringLiteral("liger"), b200, 1024);
        csv += row(QStringLiteral("swiglu"), QStringLiteral("torch"), QStringLiteral("NVIDIA GeForce RTX 4090"), 1024);
        f.write(csv.toUtf8());
    }

    void json()
    {
        const Result r = runOverview({ m_file, QStringLiteral("--format"), QStringLiteral("json") });
        QVERIFY2(r.code == ExitOk, qPrintable(r.err));
        const QJsonObject root = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(root[QStringLiteral("runs")].toInt(), 8);
        QCOMPARE(root[QStringLiteral("implementations")].toInt(), 2);
        const QJsonArray kernels = root[QStringLiteral("kernels")].toArray();
        QCOMPARE(kernels.size(), 3);
        const QJsonObject ce = kernels[0].toObject();
        QCOMPARE(ce[QStringLiteral("kernel")].toString(), QStringLiteral("cross_entropy"));
        QCOMPARE(ce[QStringLiteral("runs")].toInt(), 6);
        QCOMPARE(ce[QStringLiteral("implementations")].toInt(), 2); // liger on two GPUs counts once
        QCOMPARE(ce[QStringLiteral("filter")].toString(), QStringLiteral("kernel=cross_entropy"));
        const QJsonArray cells = ce[QStringLiteral("cells")].toArray();
        QCOMPARE(cells.size(), 2);
        QCOMPARE(cells[0].toObject()[QStringLiteral("gpu")].toString(), QStringLiteral("NVIDIA H100 80GB HBM3"));
        QCOMPARE(cells[0].toObject()[QStringLiteral("runs")].toInt(), 4);
        QCOMPARE(cells[1].toObject()[QStringLiteral("runs")].toInt(), 2);
        QCOMPARE(cells[1].toObject()[QStringLiteral("implementations")].toInt(), 1);
        const QJsonArray gpus = root[QStringLiteral("gpus")].toArray();
        QCOMPARE(gpus.size(), 3);
        QCOMPARE(gpus[1].toObject()[QStringLiteral("gpu")].toString(), QStringLiteral("NVIDIA B200"));
        QCOMPARE(gpus[1].toObject()[QStringLiteral("runs")].toInt(), 3);
    }

    void csvClausesSelectTheirRuns()
    {
        const Result r = runOverview({ m_file, QStringLiteral("--format"), QStringLiteral("csv") });
        QVERIFY2(r.code == ExitOk, qPrintable(r.err));
        QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.takeFirst(), QStringLiteral("kernel,gpu,runs,implementations,failed,filter"));
        QCOMPARE(lines.size(), 4); // cells with runs only
        for (const QString& line : std::as_const(lines)) {
            const QStringList f = line.split(QLatin1Char(','));
            QCOMPARE(f.size(), 6);
            QVERIFY2(!f[5].isEmpty(), qPrintable(line));
            // Fed back as --filter, a cell's clause counts the cell's runs and nothing else.
            const Result narrowed = runOverview(
                { m_file, QStringLiteral("--format"), QStringLiteral("csv"), QStringLiteral("--filter"), f[5] });
            const QStringList again = narrowed.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            QCOMPARE(again.size(), 2);
            QCOMPARE(again[1], line);
        }
    }

    void tableAndFilter()
    {
        const Result r = runOverview({ m_file, QStringLiteral("--filter"), QStringLiteral("gpu:b200") });
        QVERIFY2(r.code == ExitOk, qPrintable(r.err));
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines[0], QStringLiteral("2 kernel(s) × 1 GPU(s), 3 run(s), 0 failed: runs per kernel and GPU"));
        QCOMPARE(lines[1].simplified(), QStringLiteral("kernel all NVIDIA B200"));
        QCOMPARE(lines[2].simplified(), QStringLiteral("all 3 3"));
        QCOMPARE(lines[3].simplified(), QStringLiteral("cross_entropy 2 2"));
        QCOMPARE(lines[4].simplified(), QStringLiteral("rms_norm 1 1"));
    }

    void exitCodes()
    {
        QCOMPARE(runOverview({ m_file, QStringLiteral("--filter"), QStringLiteral("kernel=nothing") }).code,
            int(ExitFailure));
        QCOMPARE(runOverview({ m_file, m_dir.filePath(QStringLiteral("missing.json")) }).code, int(ExitFailure));
        QCOMPARE(runOverview({ m_file, QStringLiteral("--format"), QStringLiteral("xml") }).code, int(ExitUsage));
        const Result help = runOverview({ QStringLiteral("--help") });
        QCOMPARE(help.code, int(ExitOk));
        QVERIFY(help.out.contains(QStringLiteral("kix overview")));
    }

private:
    QTemporaryDir m_dir;
    QString m_file;
};

KIX_TEST_GUILESS_MAIN(TestOverviewCommand)
#include "tst_overviewcommand.moc"
