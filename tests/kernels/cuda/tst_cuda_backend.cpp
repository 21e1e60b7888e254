// SPDX-License-Identifier: Apache-2.0
// The engine's CUDA backend: device discovery and its failure message without a device, and, with one,
// every implementation and pass of a small workload through the whole session (correctness check,
// timing, run document).

#include "engine/backendregistry.h"
#include "engine/benchmarksession.h"
#include "engine/cudabackend.h"
#include "kernels/cuda/cudatiming.h"

#include "tests/support/testmain.h"

#include <QTest>

using namespace kix;

class TestCudaBackend : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void discovery()
    {
        CudaBackend backend;
        QCOMPARE(backend.name(), QStringLiteral("cuda"));
        // Every kernels/cuda implementation by name, the default first; each has its own record.
        QCOMPARE(backend.implementations(),
            QStringList(
                { QStringLiteral("kix-fused"), QStringLiteral("kix-persistent"), QStringLiteral("kix-reference") }));
        for (const QString& name : backend.implementations()) {
            const nlohmann::json info = backend.implementationInfo(name);
            QCOMPARE(QString::fromStdString(info.at("name").get<std::string>()), name);
            QVERIFY(!info.at("algorithm").get<std::string>().empty());
        }
        QCOMPARE(backend.implementationInfo(QString()).at("name").get<std::string>(), std::string("kix-fused"));
        QVERIFY(backend.implementationInfo(QStringLiteral("kix-persistent")).at("algorithm")
            != backend.implementationInfo(QStringLiteral("kix-fused")).at("algorithm"));
        QVERIFY_THROWS_EXCEPTION(BackendError, backend.implementationInfo(QStringLiteral("kix-cpu")));
        QCOMPARE(backend.timerName(), QStringLiteral("cuda_events"));
        const QVector<DeviceInfo> devices = backend.devices();
        if (devices.isEmpty()) {
            // No device: the reason names the CUDA error, so `kix bench --device cuda` can say it.
            QVERIFY2(backend.unavailableReason().contains(QLatin1String("cudaError")),
                qPrintable(backend.unavailableReason()));
            return;
        }
        QVERIFY(backend.unavailableReason().isEmpty());
        const DeviceInfo& d = devices.front();
        QCOMPARE(d.id, QStringLiteral("cuda:0"));
        QVERIFY(d.architecture.startsWith(QLatin1String("sm_")));
        QVERIFY(d.computeUnits > 0 && d.cacheBytes > 0 && d.memoryBytes > 0);
        QVERIFY(!d.slug.isEmpty() && !d.slug.contains(QLatin1Char(' ')));
        const nlohmann::json env = backend.environment(d);
        QVERIFY(env["hardware"].contains("l2CacheBytes"));
        QVERIFY(env["software"].contains("cudaRuntime"));
    }

    // With every built-in backend: "auto" takes the CUDA device when there is one, else the CPU; "cuda"
    // without a device is refused with a message.
    void deviceSelection()
    {
        BackendRegistry registry;
        Backend* backend = nullptr;
        DeviceInfo info;
        QString error;
        QVERIFY(registry.resolve(QStringLiteral("auto"), backend, info, error));
        auto* cuda = static_cast<CudaBackend*>(registry.backend(QStringLiteral("cuda")));
        QVERIFY(cuda);
        const bool haveDevice = !cuda->devices().isEmpty();
        QCOMPARE(backend->name(), haveDevice ? QStringLiteral("cuda") : QStringLiteral("cpu"));
        QCOMPARE(registry.resolve(QStringLiteral("cuda"), backend, info, error), haveDevice);
        if (!haveDevice) {
            // The refusal repeats the backend's reason, through the Backend interface.
            const Backend* asBackend = cuda;
            QVERIFY(!asBackend->unavailableReason().isEmpty());
            QVERIFY2(error.contains(asBackend->unavailableReason()) && error.contains(QLatin1String("cudaError")),
                qPrintable(error));
        }
    }

    // What a run records about the clocks: both samples, the plan, and the warning only when throttled.
    void runDetails()
    {
        cuda::ClockSample full;
        full.valid = true;
        full.smMHz = 1980;
        full.memoryMHz = 3201;
        full.maxSmMHz = 1980;
        cuda::ClockSample slow = full;
        slow.smMHz = 1100;
        const nlohmann::json fine = cudaRunDetails(full, full, "fp32 256 threads x 8");
        QCOMPARE(fine.at("clocks").at("before").at("smMHz").get<unsigned>(), 1980u);
        QCOMPARE(fine.at("clocks").at("after").at("maxSmMHz").get<unsigned>(), 1980u);
        QCOMPARE(fine.at("launchPlan").get<std::string>(), std::string("fp32 256 threads x 8"));
        QVERIFY(!fine.contains("warning"));
        const nlohmann::json throttled = cudaRunDetails(full, slow, "plan");
        QCOMPARE(throttled.at("clocks").at("after").at("smMHz").get<unsigned>(), 1100u);
        QVERIFY2(throttled.at("warning").get<std::string>().find("1100 MHz after") != std::string::npos,
            throttled.dump().c_str());
        cuda::ClockSample none;
        none.note = "NVML not available (libnvidia-ml.so.1 not found)";
        const nlohmann::json noNvml = cudaRunDetails(none, none, "plan");
        QCOMPARE(noNvml.at("clocks").at("before").at("available").get<bool>(), false);
        QVERIFY(noNvml.at("clocks").at("after").at("note").get<std::string>().find("NVML") != std::string::npos);
        QVERIFY(!noNvml.contains("warning"));
    }

    // The environment of a CUDA run: GPU name, sm_XX, driver and runtime versions, memory, clocks, L2.
    void environmentFields()
    {
        cuda::DeviceSummary d;
        d.name = "NVIDIA H200";
        d.architecture = "sm_90";
        d.major = 9;
        d.memoryBytes = 150754820096;
        d.multiprocessors = 132;
        d.l2Bytes = 52428800;
        d.maxSmClockKHz = 1980000;
        d.memoryClockKHz = 3201000;
        d.memoryBusBits = 6144;
        d.eccEnabled = true;
        d.driverVersion = 13000;
        d.runtimeVersion = 13000;
        const nlohmann::json env = cudaEnvironment(d, "580.159.04");
        const nlohmann::json& hw = env.at("hardware");
        QCOMPARE(hw.at("product").get<std::string>(), std::string("NVIDIA H200"));
        QCOMPARE(hw.at("architecture").get<std::string>(), std::string("sm_90"));
        QCOMPARE(hw.at("memoryBytes").get<std::int64_t>(), std::int64_t(150754820096));
        QCOMPARE(hw.at("l2CacheBytes").get<std::int64_t>(), std::int64_t(52428800));
        QCOMPARE(hw.at("maxSmClockMHz").get<int>(), 1980);
        QCOMPARE(hw.at("memoryClockMHz").get<int>(), 3201);
        QCOMPARE(hw.at("multiprocessors").get<int>(), 132);
        QCOMPARE(hw.at("eccEnabled").get<bool>(), true);
        const nlohmann::json& sw = env.at("software");
        QCOMPARE(sw.at("driver").get<std::string>(), std::string("580.159.04"));
        QCOMPARE(sw.at("cudaDriver").get<std::string>(), std::string("13.0"));
        QCOMPARE(sw.at("cudaRuntime").get<std::string>(), std::string("13.0"));
        QVERIFY(!sw.at("nvcc").get<std::string>().empty());
        QVERIFY(!sw.at("cudaArchitectures").get<std::string>().empty());
        // Without NVML the driver's CUDA version stands in.
        QCOMPARE(cudaEnvironment(d, {}).at("software").at("driver").get<std::string>(), std::string("13.0"));
    }

    // Preparing without a device fails with a BackendError that names the CUDA error.
    void prepareWithoutDevice()
    {
        CudaBackend backend;
        if (!backend.devices().isEmpty())
            QSKIP("a CUDA device is present");
        BenchmarkSpec spec;
        spec.batch = 2;
        spec.channels = 8;
        spec.hidden = 16;
        spec.channelsPerGroup = 2;
        spec.implementation = QStringLiteral("kix-fused");
        DeviceInfo device;
        try {
            backend.prepare(spec, device);
            QFAIL("prepare succeeded without a device");
        } catch (const BackendError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QLatin1String("cudaError")), e.what());
        }
    }

    void session_data()
    {
        QTest::addColumn<QString>("implementation");
        QTest::addColumn<int>("pass");
        QTest::addColumn<int>("dtype");
        QTest::addColumn<int>("hidden");
        // Every implementation the backend offers; H 100 takes the scalar path for 16-bit storage (and
        // kix-persistent's fallback to kix-fused), H 256 16-byte vectors (kix-persistent's own kernels).
        for (const QString& impl : CudaBackend().implementations())
            for (Pass pass : { Pass::Forward, Pass::Backward, Pass::Full })
                for (DType dtype : { DType::F32, DType::BF16 })
                    for (int hidden : { 100, 256 })
                        QTest::addRow("%s/%s/%s/H%d", qPrintable(impl), qPrintable(passName(pass)),
                            qPrintable(dtypeName(dtype)), hidden)
                            << impl << int(pass) << int(dtype) << hidden;
    }

    void session()
    {
        std::vector<std::unique_ptr<Backend>> backends;
        backends.push_back(std::make_unique<CudaBackend>());
        BackendRegistry registry(std::move(backends));
        if (registry.devices().isEmpty())
            QSKIP(qPrintable(QStringLiteral("no CUDA device: ")
                + static_cast<CudaBackend*>(registry.backend(QStringLiteral("cuda")))->unavailableReason()));
        QFETCH(QString, implementation);
        QFETCH(int, pass);
        QFETCH(int, dtype);
        QFETCH(int, hidden);
        BenchmarkSpec spec;
        spec.batch = 4;
        spec.channels = 64;
        spec.hidden = hidden;
        spec.channelsPerGroup = 4;
        spec.pass = static_cast<Pass>(pass);
        spec.dtype = static_cast<DType>(dtype);
        spec.implementation = implementation;
        spec.device = QStringLiteral("cuda:0");
        spec.timing.warmupMs = 1;
        spec.timing.repMs = 5;
        BenchmarkSession session(registry);
        const BenchmarkResult result = session.run(spec);
        QVERIFY2(result.status == BenchmarkResult::Status::Passed, qPrintable(result.message));
        QVERIFY(result.correctness.passed);
        QVERIFY(result.statistics.median > 0);
        // The run names the implementation that ran, in its name and in its implementation record's digest.
        QVERIFY(QString::fromStdString(result.document["run"]["metadata"]["name"].get<std::string>())
                    .contains(implementation));
        QCOMPARE(
            QString::fromStdString(result.document["environment"]["spec"]["hardware"]["vendor"].get<std::string>()),
            QStringLiteral("nvidia"));
        // The clocks around the timing loop are in the run (NVML may be missing: then they say so).
        const nlohmann::json& details = result.document["run"]["spec"]["sourceNative"]["engine"]["deviceDetails"];
        QVERIFY2(details.contains("clocks") && details["clocks"].contains("before") && details.contains("launchPlan"),
            details.dump().c_str());
        if (details.contains("warning"))
            qWarning("clock warning: %s", details["warning"].get<std::string>().c_str());
    }

    // --cuda-graph: the pass replayed as one graph launch, correct, and recorded in the protocol.
    void graphReplaySession()
    {
        std::vector<std::unique_ptr<Backend>> backends;
        backends.push_back(std::make_unique<CudaBackend>());
        BackendRegistry registry(std::move(backends));
        if (registry.devices().isEmpty())
            QSKIP(qPrintable(QStringLiteral("no CUDA device: ")
                + static_cast<CudaBackend*>(registry.backend(QStringLiteral("cuda")))->unavailableReason()));
        for (const Pass pass : { Pass::Forward, Pass::Backward, Pass::Full }) {
            BenchmarkSpec spec;
            spec.batch = 4;
            spec.channels = 64;
            spec.hidden = 128;
            spec.channelsPerGroup = 4;
            spec.pass = pass;
            spec.implementation = QStringLiteral("kix-fused");
            spec.device = QStringLiteral("cuda:0");
            spec.timing.warmupMs = 1;
            spec.timing.repMs = 5;
            spec.timing.cudaGraph = true;
            BenchmarkSession session(registry);
            const BenchmarkResult result = session.run(spec);
            QVERIFY2(result.status == BenchmarkResult::Status::Passed, qPrintable(result.message));
            QCOMPARE(result.document["protocol"]["spec"]["measurement"]["launch"].get<std::string>(),
                std::string("cuda_graph"));
        }
    }
};

KIX_TEST_GUILESS_MAIN(TestCudaBackend)
#include "tst_cuda_backend.moc"
