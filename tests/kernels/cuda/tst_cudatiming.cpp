// SPDX-License-Identifier: Apache-2.0
// The host-side CUDA measurement helpers that need no GPU: the throttling decision on synthetic clock
// readings (the warning every CUDA run document carries when it fires), version text, and the device
// count's error text on a machine without a usable GPU.

#include "kernels/cuda/cudatiming.h"
#include "kernels/cuda/groupnorm_bench.h"

#include "tests/support/testmain.h"

#include <QTest>

using namespace kix::cuda;

namespace {

ClockSample clocks(unsigned smMHz, unsigned maxSmMHz, unsigned long long reasons = 0)
{
    ClockSample s;
    s.valid = true;
    s.smMHz = smMHz;
    s.memoryMHz = 3201;
    s.maxSmMHz = maxSmMHz;
    s.reasons = reasons;
    return s;
}

ClockSample noNvml()
{
    ClockSample s;
    s.note = "NVML not available (libnvidia-ml.so.1 not found)";
    return s;
}

} // namespace

Q_DECLARE_METATYPE(ClockSample)

class TestCudaTiming : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void throttleWarning_data()
    {
        QTest::addColumn<ClockSample>("before");
        QTest::addColumn<ClockSample>("after");
        QTest::addColumn<QStringList>("expected"); // fragments of the warning; empty: no warning
        // An H200: 1980 MHz maximum SM clock; 75% of it is 1485 MHz.
        QTest::newRow("full clocks") << clocks(1980, 1980) << clocks(1755, 1980) << QStringList();
        QTest::newRow("exactly 75%") << clocks(1485, 1980) << clocks(1485, 1980) << QStringList();
        QTest::newRow("just below 75% after")
            << clocks(1980, 1980) << clocks(1484, 1980)
            << QStringList { QStringLiteral("SM clock 1484 MHz after the repetitions"),
                   QStringLiteral("below 75% of its maximum 1980 MHz") };
        QTest::newRow("low before") << clocks(900, 1980) << clocks(1980, 1980)
                                    << QStringList { QStringLiteral("SM clock 900 MHz before") };
        QTest::newRow("both low") << clocks(900, 1980) << clocks(1000, 1980)
                                  << QStringList { QStringLiteral("900 MHz before"),
                                         QStringLiteral("; SM clock 1000 MHz after") };
        QTest::newRow("idle GPU clocks down on purpose")
            << clocks(345, 1980, 0x1) << clocks(1980, 1980) << QStringList();
        QTest::newRow("application clocks bit is benign")
            << clocks(1980, 1980, 0x2) << clocks(1980, 1980, 0x2) << QStringList();
        QTest::newRow("power cap") << clocks(1980, 1980) << clocks(1900, 1980, 0x4)
                                   << QStringList { QStringLiteral("clock event reasons 0x4"),
                                          QStringLiteral("(power or thermal slowdown) after") };
        QTest::newRow("hardware thermal, idle") << clocks(1980, 1980,
            0x41) << clocks(1980, 1980) << QStringList { QStringLiteral("reasons 0x41"), QStringLiteral("before") };
        QTest::newRow("no maximum known") << clocks(300, 0) << clocks(300, 0) << QStringList();
        QTest::newRow("no NVML") << noNvml() << noNvml() << QStringList();
        QTest::newRow("no NVML before, low after")
            << noNvml() << clocks(1000, 1980) << QStringList { QStringLiteral("1000 MHz after") };
        QTest::newRow("huge numbers do not overflow")
            << clocks(3000000000u, 4000000000u) << clocks(3000000000u, 4000000000u) << QStringList();
    }

    void throttleWarning()
    {
        QFETCH(ClockSample, before);
        QFETCH(ClockSample, after);
        QFETCH(QStringList, expected);
        const QString warning = QString::fromStdString(kix::cuda::throttleWarning(before, after));
        if (expected.isEmpty())
            QVERIFY2(warning.isEmpty(), qPrintable(warning));
        for (const QString& fragment : expected)
            QVERIFY2(warning.contains(fragment), qPrintable(warning));
    }

    void versionText()
    {
        QCOMPARE(QString::fromStdString(cudaVersionText(13000)), QStringLiteral("13.0"));
        QCOMPARE(QString::fromStdString(cudaVersionText(12080)), QStringLiteral("12.8"));
    }

    // The flush modes by name (kix_cuda_check bench --flush) and what a run records about them.
    void flushModes()
    {
        FlushMode mode = FlushMode::Memset;
        QVERIFY(parseFlushMode("read", mode));
        QCOMPARE(mode, FlushMode::ReadSweep);
        QVERIFY(parseFlushMode("memset", mode));
        QCOMPARE(mode, FlushMode::Memset);
        QVERIFY(!parseFlushMode("write", mode));
        QCOMPARE(mode, FlushMode::Memset); // untouched on a refusal
        QVERIFY(parseFlushMode("none", mode));
        QCOMPARE(mode, FlushMode::None);
        for (FlushMode m : { FlushMode::ReadSweep, FlushMode::Memset, FlushMode::None }) {
            FlushMode parsed = m == FlushMode::ReadSweep ? FlushMode::Memset : FlushMode::ReadSweep;
            QVERIFY(parseFlushMode(flushModeName(m), parsed));
            QCOMPARE(parsed, m);
        }
        const QString read = QString::fromStdString(flushDescription(FlushMode::ReadSweep, std::size_t(120) << 20));
        QVERIFY2(read.startsWith(QLatin1String("a read sweep of 120 MiB")) && read.contains(QLatin1String("clean")),
            qPrintable(read));
        const QString memset = QString::fromStdString(flushDescription(FlushMode::Memset, std::size_t(64) << 20));
        QVERIFY2(memset.startsWith(QLatin1String("cudaMemsetAsync over 64 MiB"))
                && memset.contains(QLatin1String("dirty")) && memset.contains(QLatin1String("do_bench")),
            qPrintable(memset));
        const QString none = QString::fromStdString(flushDescription(FlushMode::None, 0, 20));
        QVERIFY2(none.startsWith(QLatin1String("no flush: 20 repetitions back to back")), qPrintable(none));
    }

    // One policy for every implementation in a comparison: do_bench's memset unless a run asks otherwise
    // (torch's figures are taken with it), one repetition per event pair.
    void defaultFlushIsDoBenchs()
    {
        const BenchConfig config;
        QCOMPARE(config.flush, FlushMode::Memset);
        QCOMPARE(config.launches, 1);
    }

    // Full = forward + backward: x and y, then x, dy and dx (5 tensors), each pass at its own floor.
    void minimumBytesOfEachPass()
    {
        kix::gn::Shape s;
        s.batch = 128;
        s.channels = 2048;
        s.hidden = 512;
        s.channelsPerGroup = 4;
        const std::int64_t tensor = std::int64_t(128) * 2048 * 512 * 4, params = 2048 * 4, stats = 128 * 512 * 4;
        QCOMPARE(minimumBytes(BenchPass::Forward, kix::gn::DType::F32, s), 2 * tensor + 2 * params + 2 * stats);
        QCOMPARE(minimumBytes(BenchPass::Backward, kix::gn::DType::F32, s), 3 * tensor + 3 * params + 2 * stats);
        QCOMPARE(minimumBytes(BenchPass::Full, kix::gn::DType::F32, s), 5 * tensor + 5 * params + 4 * stats);
        QCOMPARE(minimumBytes(BenchPass::Full, kix::gn::DType::BF16, s), 5 * tensor / 2 + 5 * params + 4 * stats);
    }

    // Without a usable GPU the count is 0 and the error is named, for `kix bench --device cuda` to print.
    void deviceCountNamesTheError()
    {
        std::string error;
        const int count = deviceCount(&error);
        if (count > 0)
            QSKIP("a CUDA device is present");
        QVERIFY2(QString::fromStdString(error).startsWith(QLatin1String("cudaError")), error.c_str());
    }
};

KIX_TEST_GUILESS_MAIN(TestCudaTiming)
#include "tst_cudatiming.moc"
