// The engine's CUDA backend: device discovery and its failure message without a device, and, with one,
// every implementation and pass of a small workload through the whole session (correctness check,
// timing, run document).

#include "engine/backendregistry.h"
#include "engine/benchmarksession.h"
#include "engine/cudabackend.h"

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
        QCOMPARE(
            backend.implementations(), QStringList({ QStringLiteral("kix-fused"), QStringLiteral("kix-reference") }));
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
        if (!haveDevice)
            qInfo("--device cuda: %s (CUDA: %s)", qPrintable(error), qPrintable(cuda->unavailableReason()));
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
        for (const char* impl : { "kix-fused", "kix-reference" })
            for (Pass pass : { Pass::Forward, Pass::Backward, Pass::Full })
                for (DType dtype : { DType::F32, DType::BF16 })
                    QTest::addRow("%s/%s/%s", impl, qPrintable(passName(pass)), qPrintable(dtypeName(dtype)))
                        << QString::fromLatin1(impl) << int(pass) << int(dtype);
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
        BenchmarkSpec spec;
        spec.batch = 4;
        spec.channels = 64;
        spec.hidden = 100; // H % 8 != 0: the scalar path for 16-bit storage
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
        QCOMPARE(
            QString::fromStdString(result.document["environment"]["spec"]["hardware"]["vendor"].get<std::string>()),
            QStringLiteral("nvidia"));
    }
};

QTEST_GUILESS_MAIN(TestCudaBackend)
#include "tst_cuda_backend.moc"
