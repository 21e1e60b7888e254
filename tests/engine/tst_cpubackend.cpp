// SPDX-License-Identifier: Apache-2.0
// The CPU backend: discovery, environment, copy bandwidth, and every pass and dtype checked against the
// float64 reference through the engine's correctness check (whole tensors and sampled rows).

#include "engine/correctness.h"
#include "engine/cpubackend.h"
#include "kernels/threadpool.h"

#include "tests/support/testmain.h"

#include <QTest>

#include <cmath>

using namespace kix;

Q_DECLARE_METATYPE(kix::Pass)
Q_DECLARE_METATYPE(kix::DType)

namespace {

BenchmarkSpec tinySpec(Pass pass, DType dtype)
{
    BenchmarkSpec spec;
    spec.pass = pass;
    spec.dtype = dtype;
    spec.batch = 3;
    spec.channels = 12;
    spec.hidden = 17;
    spec.channelsPerGroup = 3;
    spec.implementation = QStringLiteral("kix-cpu");
    return spec;
}

// Wraps a prepared benchmark and spoils one output on the way back.
class Corrupting : public PreparedBenchmark
{
public:
    Corrupting(std::unique_ptr<PreparedBenchmark> inner, Output target)
        : m_inner(std::move(inner))
        , m_target(target)
    {
    }
    void run() override { m_inner->run(); }
    double timedRun() override { return m_inner->timedRun(); }
    void flushCaches() override { m_inner->flushCaches(); }
    void readOutput(Output which, qint64 offset, qint64 count, float* destination) override
    {
        m_inner->readOutput(which, offset, count, destination);
        if (which == m_target && count > 0)
            destination[count / 2] += 0.5f;
    }

private:
    std::unique_ptr<PreparedBenchmark> m_inner;
    Output m_target;
};

} // namespace

class TestCpuBackend : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void discoversTheHost();
    void environmentDescribesTheHost();
    void copyBandwidthIsPositive();
    void passesMatchTheReference_data();
    void passesMatchTheReference();
    void largeWorkloadsAreSampled();
    void corruptedOutputFailsTheCheck_data();
    void corruptedOutputFailsTheCheck();
    void refusesUnknownImplementation();
    void readOutputChecksItsRange();
    void cpuSlugs();

private:
    std::unique_ptr<ThreadPool> m_pool;
    std::unique_ptr<CpuBackend> m_backend;
    DeviceInfo m_device;
};

void TestCpuBackend::initTestCase()
{
    m_pool = std::make_unique<ThreadPool>(2);
    m_backend = std::make_unique<CpuBackend>(m_pool.get());
    m_backend->setCopyBytes(4 << 20);
    m_backend->setFlushBytes(1 << 20);
    const QVector<DeviceInfo> devices = m_backend->devices();
    QCOMPARE(devices.size(), 1);
    m_device = devices.front();
}

void TestCpuBackend::discoversTheHost()
{
    QCOMPARE(m_backend->name(), QStringLiteral("cpu"));
    QCOMPARE(m_device.id, QStringLiteral("cpu"));
    QCOMPARE(m_device.backend, QStringLiteral("cpu"));
    QVERIFY(!m_device.name.isEmpty());
    QVERIFY(m_device.slug.startsWith(QStringLiteral("cpu")));
    QVERIFY(!m_device.slug.contains(QLatin1Char(' ')));
    QVERIFY(m_device.memoryBytes > 0);
    QCOMPARE(m_device.computeUnits, 2);
    QCOMPARE(m_backend->implementations(), QStringList { QStringLiteral("kix-cpu") });
    QCOMPARE(m_backend->timerName(), QStringLiteral("steady_clock"));
}

void TestCpuBackend::environmentDescribesTheHost()
{
    const nlohmann::json env = m_backend->environment(m_device);
    QCOMPARE(QString::fromStdString(env.at("hardware").at("product").get<std::string>()), m_device.name);
    QCOMPARE(env.at("hardware").at("cores").get<int>(), 2);
    QVERIFY(env.at("hardware").at("memoryBytes").get<qint64>() > 0);
    QVERIFY(!env.at("software").at("compiler").get<std::string>().empty());
    QVERIFY(env.at("software").contains("buildFlags"));
    const nlohmann::json impl = m_backend->implementationInfo(QStringLiteral("kix-cpu"));
    QCOMPARE(impl.at("name").get<std::string>(), std::string("kix-cpu"));
}

void TestCpuBackend::copyBandwidthIsPositive()
{
    const double gbs = m_backend->measureCopyBandwidth(m_device);
    QVERIFY(std::isfinite(gbs));
    QVERIFY(gbs > 0);
}

void TestCpuBackend::passesMatchTheReference_data()
{
    QTest::addColumn<Pass>("pass");
    QTest::addColumn<DType>("dtype");
    for (const Pass p : { Pass::Forward, Pass::Backward, Pass::Full })
        for (const DType d : { DType::F32, DType::BF16, DType::F16 })
            QTest::addRow("%s %s", qPrintable(passName(p)), qPrintable(dtypeName(d))) << p << d;
}

void TestCpuBackend::passesMatchTheReference()
{
    QFETCH(Pass, pass);
    QFETCH(DType, dtype);
    const BenchmarkSpec spec = tinySpec(pass, dtype);
    auto prepared = m_backend->prepare(spec, m_device);
    prepared->run();
    const CorrectnessResult result = checkCorrectness(*prepared, spec);
    QVERIFY2(result.passed, qPrintable(result.summary()));
    QVERIFY(!result.sampled);
    QVERIFY(result.maxRelativeError <= result.tolerance);
    // Repetitions are deterministic: a second run gives the same check.
    prepared->flushCaches();
    QVERIFY(prepared->timedRun() >= 0);
    QCOMPARE(checkCorrectness(*prepared, spec).maxRelativeError, result.maxRelativeError);
}

void TestCpuBackend::largeWorkloadsAreSampled()
{
    BenchmarkSpec spec = tinySpec(Pass::Full, DType::F32);
    spec.batch = 2;
    spec.channels = 8;
    spec.hidden = 65600; // just over kWholeTensorCheckElements, rows of 262400 (several chunks)
    spec.channelsPerGroup = 4;
    QVERIFY(spec.elements() > kWholeTensorCheckElements);
    auto prepared = m_backend->prepare(spec, m_device);
    prepared->run();
    const CorrectnessResult result = checkCorrectness(*prepared, spec);
    QVERIFY(result.sampled);
    QVERIFY2(result.passed, qPrintable(result.summary()));
}

void TestCpuBackend::corruptedOutputFailsTheCheck_data()
{
    QTest::addColumn<Pass>("pass");
    QTest::addColumn<int>("output");
    QTest::newRow("y") << Pass::Forward << int(Output::Y);
    QTest::newRow("rstd") << Pass::Forward << int(Output::Rstd);
    QTest::newRow("dx") << Pass::Backward << int(Output::Dx);
    QTest::newRow("dweight") << Pass::Full << int(Output::DWeight);
    QTest::newRow("dbias") << Pass::Backward << int(Output::DBias);
}

void TestCpuBackend::corruptedOutputFailsTheCheck()
{
    QFETCH(Pass, pass);
    QFETCH(int, output);
    const BenchmarkSpec spec = tinySpec(pass, DType::F32);
    Corrupting prepared(m_backend->prepare(spec, m_device), static_cast<Output>(output));
    prepared.run();
    const CorrectnessResult result = checkCorrectness(prepared, spec);
    QVERIFY(!result.passed);
    QVERIFY(result.maxRelativeError > result.tolerance);
    QVERIFY(result.summary().contains(QStringLiteral("max relative error")));
}

void TestCpuBackend::refusesUnknownImplementation()
{
    BenchmarkSpec spec = tinySpec(Pass::Forward, DType::F32);
    spec.implementation = QStringLiteral("torch");
    QVERIFY_THROWS_EXCEPTION(BackendError, m_backend->prepare(spec, m_device));
}

void TestCpuBackend::readOutputChecksItsRange()
{
    const BenchmarkSpec spec = tinySpec(Pass::Forward, DType::F32);
    auto prepared = m_backend->prepare(spec, m_device);
    prepared->run();
    float value = 0;
    QVERIFY_THROWS_EXCEPTION(BackendError, prepared->readOutput(Output::Dx, 0, 1, &value)); // not a forward output
    QVERIFY_THROWS_EXCEPTION(BackendError, prepared->readOutput(Output::Y, spec.elements(), 1, &value));
    prepared->readOutput(Output::Y, spec.elements() - 1, 1, &value);
    QVERIFY(std::isfinite(value));
}

void TestCpuBackend::cpuSlugs()
{
    QCOMPARE(cpuSlug(QStringLiteral("AMD EPYC 7763 64-Core Processor")), QStringLiteral("cpu-amd-epyc-7763"));
    QCOMPARE(cpuSlug(QStringLiteral("Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz")),
        QStringLiteral("cpu-intel-xeon-gold-6248"));
    QCOMPARE(cpuSlug(QStringLiteral("AMD EPYC")), QStringLiteral("cpu-amd-epyc"));
    QCOMPARE(cpuSlug(QString()), QStringLiteral("cpu"));
}

KIX_TEST_GUILESS_MAIN(TestCpuBackend)
#include "tst_cpubackend.moc"
