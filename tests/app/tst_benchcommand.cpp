// SPDX-License-Identifier: Apache-2.0
// `kix bench` in-process: usage errors (exit 2), device failures (exit 1), sweeps, and a tiny run that writes one
// document per (pass, shape, dtype, implementation).

#include "app/commands/bench.h"
#include "app/commands/commandline.h"
#include "kix/config.h"
#include "model/read/documentparser.h"
#include "tests/engine/smallcpu.h"

#include "tests/support/processes.h"
#include "tests/support/testmain.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace kix;
using namespace kix::cli;
using namespace kix::test;

namespace {

using Outcome = kixtest::CommandResult;

// `registry` null: every built-in backend, as `kix bench` runs.
Outcome benchWith(BackendRegistry* registry, const QStringList& args)
{
    Outcome o;
    QTextStream out(&o.out);
    QTextStream err(&o.err);
    o.code = runBench(args, out, err, registry);
    out.flush();
    err.flush();
    return o;
}

Outcome bench(const QStringList& args)
{
    auto registry = smallCpuRegistry();
    return benchWith(registry.get(), args);
}

// A "cuda" backend first (as the built-in registry orders them), then the small CPU backend.
std::unique_ptr<BackendRegistry> cudaThenCpu(std::unique_ptr<Backend> cuda)
{
    std::vector<std::unique_ptr<Backend>> backends;
    backends.push_back(std::move(cuda));
    backends.push_back(smallCpuBackend());
    return std::make_unique<BackendRegistry>(std::move(backends));
}

nlohmann::json onlyDocument(const QString& path)
{
    const QStringList files = QDir(path).entryList({ QStringLiteral("*.json") }, QDir::Files);
    if (files.size() != 1)
        return nullptr;
    QFile file(QDir(path).filePath(files.front()));
    if (!file.open(QIODevice::ReadOnly))
        return nullptr;
    return nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
}

QStringList jsonFiles(const QString& path)
{
    return QDir(path).entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name);
}

const QStringList kFast
    = { QStringLiteral("--warmup-ms"), QStringLiteral("0.1"), QStringLiteral("--rep-ms"), QStringLiteral("0.3") };

} // namespace

class TestBenchCommand : public QObject
{
    Q_OBJECT

private slots:
    void usageErrors_data();
    void usageErrors();
    void missingDeviceIsAFailure();
    void unavailableDeviceSaysWhy();
    void builtInCudaSaysWhy();
    void cudaGraphOption();
    void runWarningIsShown();
    void help();
    void writesOneFilePerRun();
    void sweepsAShapeKey();
    void refusedSpecRunsNothing();
};

void TestBenchCommand::usageErrors_data()
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

void TestBenchCommand::usageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Outcome o = bench(args);
    QCOMPARE(o.code, int(ExitUsage));
    QVERIFY2(o.err.contains(message), qPrintable(o.err));
    QVERIFY(o.err.startsWith(QStringLiteral("kix bench: ")));
    QVERIFY(!QFileInfo::exists(QStringLiteral("/nonexistent/never-written")));
}

void TestBenchCommand::missingDeviceIsAFailure()
{
    QTemporaryDir dir;
    const Outcome o
        = bench({ QStringLiteral("--device"), QStringLiteral("cuda:5"), QStringLiteral("--out"), dir.path() });
    QCOMPARE(o.code, int(ExitFailure));
    QVERIFY2(o.err.contains(QStringLiteral("cuda")), qPrintable(o.err));
    QVERIFY(jsonFiles(dir.path()).isEmpty());
    const Outcome bad
        = bench({ QStringLiteral("--device"), QStringLiteral("tpu"), QStringLiteral("--out"), dir.path() });
    QCOMPARE(bad.code, int(ExitFailure));
    QVERIFY(bad.err.contains(QStringLiteral("unknown device 'tpu'")));
}

void TestBenchCommand::unavailableDeviceSaysWhy()
{
    QTemporaryDir dir;
    const QString reason = QStringLiteral("cudaErrorNoDevice (no CUDA-capable device is detected)");
    auto registry = cudaThenCpu(std::make_unique<NoDeviceBackend>(reason));
    for (const QString& device : { QStringLiteral("cuda"), QStringLiteral("cuda:1") }) {
        const Outcome o
            = benchWith(registry.get(), { QStringLiteral("--device"), device, QStringLiteral("--out"), dir.path() });
        QCOMPARE(o.code, int(ExitFailure));
        QVERIFY2(o.err.contains(QStringLiteral("no usable cuda device: ") + reason), qPrintable(o.err));
    }
    // A backend with nothing to say keeps the plain message.
    auto silent = cudaThenCpu(std::make_unique<NoDeviceBackend>(QString()));
    const Outcome plain = benchWith(
        silent.get(), { QStringLiteral("--device"), QStringLiteral("cuda"), QStringLiteral("--out"), dir.path() });
    QVERIFY2(plain.err.contains(QStringLiteral("no cuda device found")), qPrintable(plain.err));
    // auto falls back to the CPU and runs.
    const Outcome autoRun = benchWith(registry.get(),
        QStringList { QStringLiteral("--device"), QStringLiteral("auto"), QStringLiteral("--shape"),
            QStringLiteral("2,8,16"), QStringLiteral("--channels-per-group"), QStringLiteral("2"),
            QStringLiteral("--pass"), QStringLiteral("forward"), QStringLiteral("--out"), dir.path() }
            + kFast);
    QVERIFY2(autoRun.code == ExitOk, qPrintable(autoRun.err));
    QVERIFY(autoRun.err.contains(QStringLiteral(" on cpu")));
    QVERIFY2(autoRun.err.contains(QStringLiteral("no usable cuda device (%1); using cpu").arg(reason)),
        qPrintable(autoRun.err));
    QCOMPARE(jsonFiles(dir.path()).size(), 1);
    // Asked for the CPU, nothing is said about CUDA.
    const Outcome cpuRun = benchWith(registry.get(),
        QStringList { QStringLiteral("--device"), QStringLiteral("cpu"), QStringLiteral("--shape"),
            QStringLiteral("2,8,16"), QStringLiteral("--channels-per-group"), QStringLiteral("2"),
            QStringLiteral("--pass"), QStringLiteral("forward"), QStringLiteral("--out"), dir.path() }
            + kFast);
    QVERIFY2(cpuRun.code == ExitOk && !cpuRun.err.contains(QStringLiteral("usable")), qPrintable(cpuRun.err));
}

void TestBenchCommand::builtInCudaSaysWhy()
{
    // The backends this kix was built with, on this machine: a GPU-less machine must hear why.
    BackendRegistry builtIn;
    bool haveGpu = false;
    for (const DeviceInfo& d : builtIn.devices())
        haveGpu = haveGpu || d.backend == QStringLiteral("cuda");
    Backend* backend = nullptr;
    DeviceInfo info;
    QString error;
    QVERIFY2(builtIn.resolve(QStringLiteral("auto"), backend, info, error), qPrintable(error));
    QCOMPARE(backend->name(), haveGpu ? QStringLiteral("cuda") : QStringLiteral("cpu"));
#if KIX_HAVE_CUDA
    QVERIFY(builtIn.backend(QStringLiteral("cuda")));
    if (haveGpu)
        QSKIP("a CUDA device is present");
    const QString expected = QStringLiteral("cudaError");
#else
    QVERIFY(!builtIn.backend(QStringLiteral("cuda")));
    const QString expected = QStringLiteral("this kix was built without the CUDA backend");
#endif
    QTemporaryDir dir;
    for (const QString& device : { QStringLiteral("cuda"), QStringLiteral("cuda:0") }) {
        const Outcome o
            = benchWith(nullptr, { QStringLiteral("--device"), device, QStringLiteral("--out"), dir.path() });
        QCOMPARE(o.code, int(ExitFailure));
        QVERIFY2(o.err.contains(expected), qPrintable(o.err));
        QVERIFY(!o.err.contains(QStringLiteral("no cuda device found")));
    }
    QVERIFY(jsonFiles(dir.path()).isEmpty());
}

void TestBenchCommand::cudaGraphOption()
{
    qunsetenv("KIX_CUDA_GRAPH");
    QTemporaryDir dir;
    const QStringList tiny
        = QStringList { QStringLiteral("--shape"), QStringLiteral("2,8,16"), QStringLiteral("--channels-per-group"),
              QStringLiteral("2"), QStringLiteral("--pass"), QStringLiteral("forward") }
        + kFast;
    // Not for the CPU: refused before anything runs.
    const Outcome cpu = bench(QStringList { QStringLiteral("--device"), QStringLiteral("cpu"),
                                  QStringLiteral("--cuda-graph"), QStringLiteral("--out"), dir.path() }
        + tiny);
    QCOMPARE(cpu.code, int(ExitUsage));
    QVERIFY2(cpu.err.contains(QStringLiteral("CUDA-graph replay needs a CUDA device, not cpu")), qPrintable(cpu.err));
    QVERIFY(jsonFiles(dir.path()).isEmpty());
    QVERIFY(bench({ QStringLiteral("--help") }).out.contains(QStringLiteral("--cuda-graph")));

    for (const bool graph : { true, false }) {
        auto backend = std::make_unique<CpuAsCudaBackend>();
        CpuAsCudaBackend* cuda = backend.get();
        std::vector<std::unique_ptr<Backend>> backends;
        backends.push_back(std::move(backend));
        BackendRegistry registry(std::move(backends));
        QTemporaryDir out;
        QStringList args
            = QStringList { QStringLiteral("--device"), QStringLiteral("cuda"), QStringLiteral("--out"), out.path() }
            + tiny;
        if (graph)
            args << QStringLiteral("--cuda-graph");
        const Outcome o = benchWith(&registry, args);
        QVERIFY2(o.code == ExitOk, qPrintable(o.err));
        QCOMPARE(cuda->lastSpec.timing.cudaGraph, graph); // what the backend was asked to run
        const nlohmann::json doc = onlyDocument(out.path());
        QVERIFY(doc.is_object());
        const nlohmann::json& protocol = doc.at("protocol").at("spec");
        const std::string notes = protocol.at("comparability").at("notes").get<std::string>();
        if (graph) {
            // no launch member in the schema: a label of the protocol, and the notes (in its digest) say it
            QCOMPARE(doc.at("protocol").at("metadata").at("labels").at("measurement_launch").get<std::string>(),
                std::string("cuda_graph"));
            QVERIFY2(notes.find("CUDA graph") != std::string::npos, notes.c_str());
        } else {
            QVERIFY(!doc.at("protocol").at("metadata").at("labels").contains("measurement_launch"));
            QVERIFY(notes.find("graph") == std::string::npos);
        }
    }

    // KIX_CUDA_GRAPH=1 makes it the default on CUDA devices only; the CPU still runs.
    qputenv("KIX_CUDA_GRAPH", "1");
    auto registry = cudaThenCpu(std::make_unique<CpuAsCudaBackend>());
    auto* cuda = static_cast<CpuAsCudaBackend*>(registry->backend(QStringLiteral("cuda")));
    QTemporaryDir envDir;
    const Outcome onCuda = benchWith(registry.get(),
        QStringList { QStringLiteral("--device"), QStringLiteral("cuda"), QStringLiteral("--out"), envDir.path() }
            + tiny);
    const Outcome onCpu = benchWith(registry.get(),
        QStringList { QStringLiteral("--device"), QStringLiteral("cpu"), QStringLiteral("--out"), envDir.path() }
            + tiny);
    qunsetenv("KIX_CUDA_GRAPH");
    QVERIFY2(onCuda.code == ExitOk, qPrintable(onCuda.err));
    QVERIFY(cuda->lastSpec.timing.cudaGraph);
    QVERIFY2(onCpu.code == ExitOk, qPrintable(onCpu.err));
}

void TestBenchCommand::runWarningIsShown()
{
    QTemporaryDir dir;
    auto registry = smallCpuRegistry(std::make_unique<DetailedCpuBackend>());
    const Outcome o = benchWith(registry.get(),
        QStringList { QStringLiteral("--shape"), QStringLiteral("2,8,16"), QStringLiteral("--channels-per-group"),
            QStringLiteral("2"), QStringLiteral("--pass"), QStringLiteral("forward"), QStringLiteral("--out"),
            dir.path() }
            + kFast);
    QVERIFY2(o.code == ExitOk, qPrintable(o.err));
    QVERIFY2(o.err.contains(QStringLiteral("  warning: SM clock 900 MHz after the repetitions (simulated)")),
        qPrintable(o.err));
    const nlohmann::json doc = onlyDocument(dir.path());
    QVERIFY(doc.is_object());
    // sourceNative holds numbers only: the device details ride as the run's labels
    const nlohmann::json& labels = doc.at("run").at("metadata").at("labels");
    QVERIFY(labels.at("source_device_details_warning").get<std::string>().find("900 MHz") != std::string::npos);
    // Asked after the timing loop: every timed repetition had run.
    QVERIFY(std::stoll(labels.at("source_device_details_timed_before_details").get<std::string>())
        >= doc.at("run").at("spec").at("timing").at("samples").get<long long>());
    // A plain CPU run says nothing.
    QTemporaryDir plainDir;
    const Outcome plain
        = bench(QStringList { QStringLiteral("--shape"), QStringLiteral("2,8,16"),
                    QStringLiteral("--channels-per-group"), QStringLiteral("2"), QStringLiteral("--pass"),
                    QStringLiteral("forward"), QStringLiteral("--out"), plainDir.path() }
            + kFast);
    QVERIFY(!plain.err.contains(QStringLiteral("warning")));
    QVERIFY(
        !onlyDocument(plainDir.path()).at("run").at("metadata").at("labels").contains("source_device_details_warning"));
}

void TestBenchCommand::help()
{
    const Outcome o = bench({ QStringLiteral("--help") });
    QCOMPARE(o.code, int(ExitOk));
    QVERIFY(o.out.contains(QStringLiteral("Usage: kix bench")));
}

void TestBenchCommand::writesOneFilePerRun()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("runs")); // created on demand
    const Outcome o = bench(QStringList { QStringLiteral("--device"), QStringLiteral("cpu"), QStringLiteral("--shape"),
                                QStringLiteral("2,8,16"), QStringLiteral("--channels-per-group"), QStringLiteral("2"),
                                QStringLiteral("--pass"), QStringLiteral("forward,backward"), QStringLiteral("--dtype"),
                                QStringLiteral("fp32,bf16"), QStringLiteral("--out"), out }
        + kFast);
    QVERIFY2(o.code == ExitOk, qPrintable(o.err + o.out));
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

void TestBenchCommand::sweepsAShapeKey()
{
    QTemporaryDir dir;
    const Outcome o = bench(QStringList { QStringLiteral("--shape"), QStringLiteral("2,8,8"), QStringLiteral("--pass"),
                                QStringLiteral("full"), QStringLiteral("--sweep"),
                                QStringLiteral("channels=4,8,...,16"), QStringLiteral("--out"), dir.path() }
        + kFast);
    QVERIFY2(o.code == ExitOk, qPrintable(o.err));
    const QStringList files = jsonFiles(dir.path());
    QCOMPARE(files.size(), 3); // channels 4, 8, 16
    QVERIFY(files.filter(QStringLiteral("channels16-")).size() == 1);
    QVERIFY(files.filter(QStringLiteral("-full-")).size() == 3);
}

void TestBenchCommand::refusedSpecRunsNothing()
{
    QTemporaryDir dir;
    // channels 6 of the sweep is not divisible by 4: nothing runs, not even channels 8.
    const Outcome o = bench(QStringList { QStringLiteral("--shape"), QStringLiteral("2,8,8"), QStringLiteral("--sweep"),
                                QStringLiteral("channels=8,6"), QStringLiteral("--out"), dir.path() }
        + kFast);
    QCOMPARE(o.code, int(ExitUsage));
    QVERIFY(o.err.contains(QStringLiteral("channels (6) is not divisible")));
    QVERIFY(jsonFiles(dir.path()).isEmpty());
}

KIX_TEST_GUILESS_MAIN(TestBenchCommand)
#include "tst_benchcommand.moc"
