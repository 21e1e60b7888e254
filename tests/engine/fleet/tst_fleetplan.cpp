// SPDX-License-Identifier: Apache-2.0
// The fleet's matrix: expansion into cells and tasks, the limits, a --matrix file, the sbatch script and arguments.
#include "engine/benchmarkspec.h"
#include "engine/fleet/fleetplan.h"

#include "tests/support/testmain.h"

#include <QSet>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix::fleet;

class TestFleetPlan : public QObject
{
    Q_OBJECT
private slots:
    void expandsLikeKixBench()
    {
        Matrix m;
        m.device = QStringLiteral("cpu");
        m.passes = { QStringLiteral("forward,backward") };
        m.shape = QStringLiteral("4,256,64");
        m.sweeps = { QStringLiteral("channels=64,128,...,512") };
        m.dtypes = { QStringLiteral("fp32"), QStringLiteral("bf16") };
        m.timingArgs = { QStringLiteral("--rep-ms"), QStringLiteral("5") };
        QVector<Cell> cells;
        QString error;
        QVERIFY2(expandCells(m, cells, &error), qPrintable(error));
        QCOMPARE(cells.size(), 2 * 4 * 2); // passes × channels 64,128,256,512 × dtypes
        QCOMPARE(cells.first().benchArgs,
            QStringList({ "--device", "cpu", "--pass", "forward", "--shape", "4,64,64", "--channels-per-group", "4",
                "--dtype", "fp32", "--rep-ms", "5" }));
        QCOMPARE(
            cells.first().label, QStringLiteral("forward batch4-channels64-channels_per_group4-hidden64-fp32 default"));
        QCOMPARE(cells.last().benchArgs.mid(2, 4), QStringList({ "--pass", "backward", "--shape", "4,512,64" }));
        QSet<QString> labels;
        for (const Cell& c : cells)
            labels.insert(c.label);
        QCOMPARE(labels.size(), cells.size());
    }

    void refusesMalformedMatrices_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("pass") << "pass"
                              << "forward,sideways"
                              << "unknown pass 'sideways'";
        QTest::newRow("dtype") << "dtype"
                               << "fp8"
                               << "unknown dtype 'fp8'";
        QTest::newRow("shape") << "shape"
                               << "1,2"
                               << "--shape expects M,C,H";
        QTest::newRow("zero shape") << "shape"
                                    << "0,64,64"
                                    << "--shape expects M,C,H";
        QTest::newRow("sweep key") << "sweep"
                                   << "width=1,2"
                                   << "unknown key 'width'";
        QTest::newRow("sweep values") << "sweep"
                                      << "channels=64,x"
                                      << "'x' is not a positive integer";
        QTest::newRow("groups") << "cpg"
                                << "3"
                                << "not a multiple of channels_per_group 3";
    }
    void refusesMalformedMatrices()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, message);
        Matrix m;
        if (field == "pass")
            m.passes = { value };
        else if (field == "dtype")
            m.dtypes = { value };
        else if (field == "shape")
            m.shape = value;
        else if (field == "sweep")
            m.sweeps = { value };
        else
            m.channelsPerGroup = value;
        QVector<Cell> cells;
        QString error;
        QVERIFY(!expandCells(m, cells, &error));
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    void tasksAreTargetsTimesChunks()
    {
        QVector<Cell> cells(10);
        Target h100, b200;
        QString error;
        QVERIFY(parseTarget(QStringLiteral("h100:1"), h100, &error));
        QVERIFY(parseTarget(QStringLiteral("partition=gpu-b200,gres=b200:2"), b200, &error));
        QCOMPARE(h100.name(), QStringLiteral("h100:1"));
        QCOMPARE(b200.name(), QStringLiteral("partition=gpu-b200,b200:2"));
        QVector<ArrayJob> jobs;
        QVERIFY2(planJobs(cells, { h100, b200 }, 3, 100, jobs, &error), qPrintable(error));
        QCOMPARE(jobs.size(), 2);
        QCOMPARE(jobs[0].tasks.size(), 4); // 3 + 3 + 3 + 1
        QCOMPARE(jobs[0].tasks.last().size(), 1);
        QCOMPARE(taskCount(jobs), 8);
        QCOMPARE(jobs[1].target.partition, QStringLiteral("gpu-b200"));
    }

    void zeroOrTooManyTasksAreRefused()
    {
        QVector<ArrayJob> jobs;
        QString error;
        QVERIFY(!planJobs({}, {}, 1, 100, jobs, &error));
        QVERIFY2(error.contains("no tasks") && error.contains("nothing submitted"), qPrintable(error));
        QVERIFY(jobs.isEmpty());
        QVERIFY(!planJobs(QVector<Cell>(101), {}, 1, 100, jobs, &error));
        QVERIFY2(error.contains("101 tasks") && error.contains("limit of 100"), qPrintable(error));
        QVERIFY(planJobs(QVector<Cell>(101), {}, 2, 100, jobs, &error)); // chunked: 51 tasks
        QCOMPARE(taskCount(jobs), 51);
        QVERIFY(!planJobs(QVector<Cell>(3), {}, 0, 100, jobs, &error));

        Matrix m; // an empty pass list expands to nothing
        m.passes = { QStringLiteral(",") };
        QVector<Cell> cells;
        QVERIFY(expandCells(m, cells, &error));
        QVERIFY(cells.isEmpty());
        QVERIFY(!planJobs(cells, {}, 1, 100, jobs, &error));
    }

    void badTargetsAreRefused_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << "";
        QTest::newRow("gpu prefix") << "gpu:h100:1";
        QTest::newRow("unknown key") << "nodes=4";
        QTest::newRow("shell") << "h100:1;rm";
    }
    void badTargetsAreRefused()
    {
        QFETCH(QString, text);
        Target t;
        QString error;
        QVERIFY(!parseTarget(text, t, &error));
        QVERIFY(error.contains("expected TYPE:N"));
    }

    void matrixFileBecomesOptions()
    {
        QStringList args;
        QString error;
        QVERIFY2(matrixFileArgs(QFINDTESTDATA("../data/engine/fleet/matrix.json"), args, &error), qPrintable(error));
        QVERIFY(args.contains("--pass"));
        QCOMPARE(args[args.indexOf("--pass") + 1], QStringLiteral("forward,backward"));
        QCOMPARE(args[args.indexOf("--channels-per-group") + 1], QStringLiteral("4"));
        QCOMPARE(args.count("--target"), 2);
        QVERIFY(!args.contains("--noise-stop")); // false: left out
        QVERIFY(!matrixFileArgs(QFINDTESTDATA("../data/engine/fleet/bad-key.json"), args, &error));
        QVERIFY2(error.contains("bad-key.json: /shapes: unknown matrix option"), qPrintable(error));
        QVERIFY(!matrixFileArgs(QStringLiteral("/no/such/matrix.json"), args, &error));
        QVERIFY(error.startsWith("/no/such/matrix.json: cannot open"));
    }

    void scriptAndSbatchArguments()
    {
        ArrayJob job;
        QVERIFY(parseTarget(QStringLiteral("h200:1"), job.target, nullptr));
        job.tasks = QVector<QVector<Cell>>(4);
        SubmitOptions o;
        o.resultsDir = QStringLiteral("/shared/results");
        o.kixBinary = QStringLiteral("/opt/kix's/bin/kix");
        o.planFile = QStringLiteral("/shared/results/.kix-fleet/plans/p.json");
        o.time = QStringLiteral("00:30:00");
        o.account = QStringLiteral("perf");
        o.partition = QStringLiteral("gpu");
        o.extra = { QStringLiteral("--qos=high") };
        const QString script = batchScript(job, o);
        QVERIFY(script.startsWith("#!/bin/sh\n"));
        QVERIFY2(
            script.contains("exec '/opt/kix'\\''s/bin/kix' fleet task --plan '/shared/results/.kix-fleet/plans/p.json'"
                            " --index \"${SLURM_ARRAY_TASK_ID"),
            qPrintable(script));
        const QStringList args = sbatchArguments(job, o, QStringLiteral("/s.sh"));
        QCOMPARE(args,
            QStringList({ "--parsable", "--job-name=kix-fleet", "--array=0-3",
                "--output=/shared/results/.kix-fleet/logs/%A_%a.out",
                "--error=/shared/results/.kix-fleet/logs/%A_%a.err", "--time=00:30:00", "--account=perf",
                "--partition=gpu", "--gres=gpu:h200:1", "--qos=high", "/s.sh" }));
        QCOMPARE(shellQuote(QStringLiteral("a b")), QStringLiteral("'a b'"));
        o.throttle = 2;
        QVERIFY(sbatchArguments(job, o, QStringLiteral("/s.sh")).contains("--array=0-3%2"));
    }

    void planDocumentHoldsEveryTask()
    {
        Matrix m;
        m.passes = { QStringLiteral("full") };
        m.sweeps = { QStringLiteral("batch=1,2,3") };
        QVector<Cell> cells;
        QString error;
        QVERIFY(expandCells(m, cells, &error));
        QVector<ArrayJob> jobs;
        QVERIFY(planJobs(cells, {}, 2, 10, jobs, &error));
        const nlohmann::json doc = planDocument(jobs.first(), QStringLiteral("/r"));
        QCOMPARE(doc["results"].get<std::string>(), std::string("/r"));
        QCOMPARE(doc["target"].get<std::string>(), std::string("default"));
        QCOMPARE(doc["tasks"].size(), size_t(2));
        QCOMPARE(doc["tasks"][0].size(), size_t(2));
        QCOMPARE(doc["tasks"][1][0]["args"][5].get<std::string>(), std::string("3,2048,512"));
    }

    void panelSpecsBecomeCells()
    {
        kix::BenchmarkSpec spec;
        spec.device = QStringLiteral("cuda:1");
        spec.implementation = QStringLiteral("kix-fused");
        spec.timing.cudaGraph = true;
        const QVector<Cell> cells = cellsFromSpecs({ spec });
        QCOMPARE(cells.size(), 1);
        const QStringList& a = cells.first().benchArgs;
        QCOMPARE(a[a.indexOf("--device") + 1], QStringLiteral("cuda"));
        QCOMPARE(a[a.indexOf("--impl") + 1], QStringLiteral("kix-fused"));
        QVERIFY(a.contains("--cuda-graph"));
    }
};

KIX_TEST_GUILESS_MAIN(TestFleetPlan)
#include "tst_fleetplan.moc"
