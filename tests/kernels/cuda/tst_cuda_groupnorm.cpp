// SPDX-License-Identifier: Apache-2.0
// The CUDA GroupNorm kernels against the float64 reference, and their host-side plan and argument checks.
// Device tests skip with the CUDA error (cudaErrorNoDevice, cudaErrorInsufficientDriver ...) without a GPU.

#include "kernels/cuda/cudatiming.h"
#include "kernels/cuda/groupnorm_bench.h"
#include "kernels/cuda/groupnorm_verify.h"

#include "tests/support/testmain.h"

#include <QRandomGenerator>
#include <QTest>

#include <cstring>

using namespace kix;
using namespace kix::cuda;

Q_DECLARE_METATYPE(kix::cuda::GroupNormImpl)
Q_DECLARE_METATYPE(kix::gn::DType)

namespace {

GroupNormShape shape(qint64 m, qint64 c, qint64 h, qint64 cpg)
{
    GroupNormShape s;
    s.batch = m;
    s.channels = c;
    s.hidden = h;
    s.channelsPerGroup = cpg;
    return s;
}

QString describe(gn::DType dtype, const GroupNormShape& s, GroupNormDirection direction, bool aligned = true)
{
    char text[160];
    return QString::fromLatin1(fusedLaunchDescription(dtype, s, direction, aligned, text, sizeof text));
}

} // namespace

class TestCudaGroupNorm : public QObject
{
    Q_OBJECT

private:
    QString m_noDevice; // the CUDA error when no device is usable
    quint64 m_seed = 0;

private Q_SLOTS:
    void initTestCase()
    {
        std::string error;
        if (deviceCount(&error) == 0)
            m_noDevice = QString::fromStdString(error);
        // A fresh seed each run, printed; KIX_CUDA_TEST_SEED=N replays a failing one.
        const QByteArray fixed = qgetenv("KIX_CUDA_TEST_SEED");
        bool ok = false;
        m_seed = fixed.isEmpty() ? QRandomGenerator::global()->generate64() : fixed.toULongLong(&ok);
        if (!fixed.isEmpty() && !ok)
            QFAIL(qPrintable(QStringLiteral("KIX_CUDA_TEST_SEED is not a number: ") + QString::fromLatin1(fixed)));
        qInfo("seed %llu (%s); device: %s", static_cast<unsigned long long>(m_seed),
            fixed.isEmpty() ? "fresh; replay with KIX_CUDA_TEST_SEED" : "from KIX_CUDA_TEST_SEED",
            m_noDevice.isEmpty() ? "present" : qPrintable(m_noDevice));
    }

    // Host-only: the launch plan the fused implementation picks (no device needed).
    void fusedPlan()
    {
        const GroupNormShape seed = shape(128, 2048, 512, 4); // rows of 2048 elements
        QVERIFY(describe(gn::DType::F32, seed, GroupNormDirection::Forward)
                    .startsWith(QLatin1String(
                        "resident rows: 256 threads/row, 1 rows/block, 8 elements/thread, 16-byte loads")));
        QVERIFY(describe(gn::DType::BF16, seed, GroupNormDirection::Forward)
                    .startsWith(QLatin1String(
                        "resident rows: 128 threads/row, 1 rows/block, 16 elements/thread, 16-byte loads")));
        QVERIFY(
            describe(gn::DType::F32, seed, GroupNormDirection::Forward, false).contains(QLatin1String("scalar loads")));
        QVERIFY(describe(gn::DType::F32, shape(2, 6, 7, 3), GroupNormDirection::Forward)
                    .contains(QLatin1String("32 threads/row, 4 rows/block")));
        QVERIFY(describe(gn::DType::F32, shape(2, 6, 7, 3), GroupNormDirection::Forward)
                    .contains(QLatin1String("scalar loads")));
        QVERIFY(describe(gn::DType::F32, shape(2, 4, 6000, 2), GroupNormDirection::Forward)
                    .contains(QLatin1String("1024 threads/row, 1 rows/block, 16 elements/thread")));
        QVERIFY(describe(gn::DType::F32, shape(1, 2, 40000, 1), GroupNormDirection::Forward)
                    .contains(QLatin1String("reference kernels")));
        // A channel table over 48 KiB of shared memory runs resident with the opt-in; over 96 KiB backward falls
        // back, forward stays resident.
        QVERIFY(describe(gn::DType::F32, shape(2, 8192, 1, 8192), GroupNormDirection::Backward)
                    .startsWith(QLatin1String("resident")));
        QVERIFY(describe(gn::DType::F32, shape(1, 12288, 1, 12288), GroupNormDirection::Backward)
                    .contains(QLatin1String("reference kernels")));
        QVERIFY(describe(gn::DType::F32, shape(2, 8192, 1, 8192), GroupNormDirection::Forward)
                    .startsWith(QLatin1String("resident")));
        // The tuning knob: 64 bytes of each input per thread halves the threads per row.
        QVERIFY(!setFusedBytesPerThread(48));
        QVERIFY(setFusedBytesPerThread(64));
        const QString wideF32 = describe(gn::DType::F32, seed, GroupNormDirection::Forward);
        const QString wideBf16 = describe(gn::DType::BF16, seed, GroupNormDirection::Backward);
        QVERIFY(setFusedBytesPerThread(32));
        QCOMPARE(fusedBytesPerThread(), 32);
        QVERIFY2(wideF32.startsWith(QLatin1String("resident rows: 128 threads/row, 1 rows/block, 16 elements/thread")),
            qPrintable(wideF32));
        QVERIFY2(wideBf16.startsWith(QLatin1String("resident rows: 64 threads/row, 1 rows/block, 32 elements/thread")),
            qPrintable(wideBf16));
    }

    // Host-only: where kix-persistent runs its own kernels and where it hands a shape to kix-fused.
    void persistentPlan()
    {
        const GroupNormShape seed = shape(128, 2048, 512, 4);
        char text[200];
        auto plan = [&](gn::DType dtype, const GroupNormShape& s, GroupNormDirection direction, bool aligned = true) {
            return QString::fromLatin1(
                launchDescription(GroupNormImpl::Persistent, dtype, s, direction, aligned, text, sizeof text));
        };
        for (GroupNormDirection direction : { GroupNormDirection::Forward, GroupNormDirection::Backward }) {
            const QString f32 = plan(gn::DType::F32, seed, direction);
            QVERIFY2(f32.startsWith(QLatin1String("persistent rows: 256 threads/row, grid SMs x resident blocks, 8 "
                                                  "elements/thread, 16-byte streaming loads")),
                qPrintable(f32));
            QVERIFY(
                plan(gn::DType::BF16, seed, direction).startsWith(QLatin1String("persistent rows: 128 threads/row")));
            // Scalar rows (misaligned, odd H) and warp-per-row shapes go to kix-fused, which says so.
            QVERIFY(plan(gn::DType::F32, seed, direction, false)
                        .startsWith(QLatin1String("not one row per block: kix-fused, resident rows: 256")));
            QVERIFY(plan(gn::DType::F32, shape(2, 6, 7, 3), direction).contains(QLatin1String("kix-fused")));
            QVERIFY(plan(gn::DType::F32, shape(3, 8, 16, 2), direction).contains(QLatin1String("4 rows/block")));
        }
        // Backward rows that need 1024 threads go to kix-fused (they would spill); forward keeps them.
        const GroupNormShape long8k = shape(2, 4, 4096, 2); // rows of 8192 elements: fp32 1024 threads
        QVERIFY(plan(gn::DType::F32, long8k, GroupNormDirection::Forward)
                    .startsWith(QLatin1String("persistent rows: 1024")));
        QVERIFY(plan(gn::DType::F32, long8k, GroupNormDirection::Backward).contains(QLatin1String("kix-fused")));
        QVERIFY(plan(gn::DType::BF16, long8k, GroupNormDirection::Backward)
                    .startsWith(QLatin1String("persistent rows: 512")));
        // The 64-byte knob is kix-fused's alone: kix-persistent keeps 32 bytes per thread.
        QVERIFY(setFusedBytesPerThread(64));
        const QString wide = plan(gn::DType::F32, seed, GroupNormDirection::Forward);
        QVERIFY(setFusedBytesPerThread(32));
        QVERIFY2(wide.startsWith(QLatin1String("persistent rows: 256 threads/row")), qPrintable(wide));
        QCOMPARE(QString::fromLatin1(launchDescription(GroupNormImpl::Reference, gn::DType::F32, seed,
                     GroupNormDirection::Forward, true, text, sizeof text)),
            QStringLiteral("reference kernels"));
        // Backward workspace: the M x C partials (no arrival counters since issue 21).
        QCOMPARE(groupNormWorkspaceBytes(GroupNormImpl::Persistent, GroupNormDirection::Backward, gn::DType::F32, seed),
            std::size_t(128 * 2048 * 8));
        QCOMPARE(groupNormWorkspaceBytes(GroupNormImpl::Persistent, GroupNormDirection::Forward, gn::DType::F32, seed),
            std::size_t(0));
        // Names round-trip for every implementation.
        for (GroupNormImpl impl : kAllImpls) {
            GroupNormImpl parsed = GroupNormImpl::Reference;
            QVERIFY(implFromName(implName(impl), parsed));
            QCOMPARE(parsed, impl);
            QVERIFY(std::strlen(implAlgorithm(impl)) > 0 && std::strlen(implLaunchPolicy(impl)) > 0);
        }
    }

    // Host-only: bad arguments are rejected before anything reaches the device.
    void argumentChecks()
    {
        float dummy = 0;
        const GroupNormShape bad = shape(2, 6, 4, 4); // channels not a multiple of channelsPerGroup
        QVERIFY(!shapeValid(bad));
        QCOMPARE(groupNormForward(GroupNormImpl::Fused, gn::DType::F32, bad, &dummy, &dummy, &dummy, &dummy, &dummy,
                     &dummy, nullptr, 0, nullptr),
            cudaErrorInvalidValue);
        const GroupNormShape good = shape(2, 8, 4, 4);
        QCOMPARE(groupNormForward(GroupNormImpl::Fused, gn::DType::F32, good, nullptr, &dummy, &dummy, &dummy, &dummy,
                     &dummy, nullptr, 0, nullptr),
            cudaErrorInvalidValue);
        const std::size_t need
            = groupNormWorkspaceBytes(GroupNormImpl::Fused, GroupNormDirection::Backward, gn::DType::F32, good);
        QCOMPARE(need, std::size_t(256)); // 2 x 8 pairs of floats, rounded up to 256 bytes
        QCOMPARE(groupNormBackward(GroupNormImpl::Fused, gn::DType::F32, good, &dummy, &dummy, &dummy, &dummy, &dummy,
                     &dummy, &dummy, &dummy, &dummy, need - 1, nullptr),
            cudaErrorInvalidValue);
        GroupNormImpl impl = GroupNormImpl::Reference;
        QVERIFY(implFromName("kix-fused", impl));
        QCOMPARE(impl, GroupNormImpl::Fused);
        QVERIFY(!implFromName("kix-cpu", impl));
    }

    // Without a device, preparing a benchmark fails with a message that names the CUDA error.
    void noDeviceError()
    {
        if (m_noDevice.isEmpty())
            QSKIP("a CUDA device is present");
        BenchConfig config;
        config.shape = shape(2, 8, 4, 4);
        try {
            GroupNormBench bench(config);
            QFAIL("GroupNormBench constructed without a device");
        } catch (const CudaError& e) {
            QVERIFY2(QString::fromLatin1(e.what()).contains(QLatin1String("cudaError")), e.what());
        }
    }

    void correctness_data()
    {
        QTest::addColumn<int>("caseIndex");
        QTest::addColumn<kix::gn::DType>("dtype");
        QTest::addColumn<kix::cuda::GroupNormImpl>("impl");
        const std::vector<VerifyCase> cases = verificationCases(false);
        for (int i = 0; i < static_cast<int>(cases.size()); ++i)
            for (gn::DType dtype : { gn::DType::F32, gn::DType::BF16, gn::DType::F16 })
                for (GroupNormImpl impl : kAllImpls)
                    QTest::addRow("%s/%s/%s", cases[i].name.c_str(), dtypeText(dtype), implName(impl))
                        << i << dtype << impl;
    }

    // Forward and backward against the float64 reference, outputs poisoned first, and the backward's dx,
    // dweight and dbias bitwise equal over two runs.
    void correctness()
    {
        if (!m_noDevice.isEmpty())
            QSKIP(qPrintable(QStringLiteral("no CUDA device: ") + m_noDevice));
        QFETCH(int, caseIndex);
        QFETCH(kix::gn::DType, dtype);
        QFETCH(kix::cuda::GroupNormImpl, impl);
        const VerifyCase c = verificationCases(false).at(static_cast<std::size_t>(caseIndex));
        VerifyResult r;
        try {
            r = verifyCase(impl, dtype, c, m_seed + static_cast<quint64>(caseIndex));
        } catch (const CudaError& e) {
            // A kernel fault's sticky error would fail every later case too: reset the device (and the launch
            // memo) so that they run, and say so.
            if (cudaDeviceSynchronize() != cudaSuccess) {
                const cudaError_t reset = resetDeviceAfterFault();
                QFAIL(qPrintable(QString::fromStdString(std::string(e.what()) + "; a kernel fault: device reset "
                    + (reset == cudaSuccess ? "for the next cases" : "FAILED: " + errorText(reset)))));
            }
            QFAIL(e.what());
        }
        const QByteArray summary = QByteArray::fromStdString(r.summary() + "; " + r.plan);
        QVERIFY2(r.passed(), summary.constData()); // y, dx: the dtype's tolerance; fp32 outputs: fp32's
    }
};

KIX_TEST_GUILESS_MAIN(TestCudaGroupNorm)
#include "tst_cuda_groupnorm.moc"
