// SPDX-License-Identifier: Apache-2.0
// The host side of the CUDA launch plans, without a GPU: the memo behind the persistent grid and the
// shared-memory opt-ins (keyed per kernel instantiation, block size and shared bytes: issue 21 found one
// grid fixed for every later shape), and the backward's shared-memory plan (the static scratch counted,
// the opt-in asked for past 48 KiB, the reference kernels past the plan's limit).

#include "kernels/cuda/groupnorm_internal.h"

#include "tests/support/testmain.h"

#include <QFile>
#include <QSet>
#include <QTest>

using namespace kix;
using namespace kix::cuda;
using namespace kix::cuda::detail;

namespace {

// Two distinct "kernels": only their addresses matter to the cache.
const int kKernelA = 1;
const int kKernelB = 2;

GroupNormShape shapeOf(std::int64_t m, std::int64_t c, std::int64_t h, std::int64_t cpg)
{
    GroupNormShape s;
    s.batch = m;
    s.channels = c;
    s.hidden = h;
    s.channelsPerGroup = cpg;
    return s;
}

} // namespace

class TestLaunchPlan : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Every fact is learnt once per (device, kernel, threads, shared bytes), and each such key gets its own:
    // the bf16 and fp16 kernels share a signature but not an address, an L=512 shape's 64-thread kernel is
    // not the L=16384 shape's 1024-thread one.
    void cacheKeysPerKernelAndShape()
    {
        KernelCache cache;
        int queries = 0;
        auto answer = [&](long long result) {
            return [&queries, result](long long& value) {
                ++queries;
                value = result;
                return 0;
            };
        };
        long long found = 0;
        QCOMPARE(cache.lookup({ 0, &kKernelA, 1024, 0 }, found, answer(132)), 0);
        QCOMPARE(found, 132LL);
        QCOMPARE(cache.lookup({ 0, &kKernelA, 1024, 0 }, found, answer(999)), 0);
        QCOMPARE(found, 132LL); // cached: not asked again
        QCOMPARE(queries, 1);
        QCOMPARE(cache.lookup({ 0, &kKernelB, 1024, 0 }, found, answer(4224)), 0);
        QCOMPARE(found, 4224LL); // same signature and shared bytes, another instantiation: its own answer
        QCOMPARE(cache.lookup({ 0, &kKernelA, 64, 0 }, found, answer(4224)), 0);
        QCOMPARE(found, 4224LL); // same kernel, other block size
        QCOMPARE(cache.lookup({ 0, &kKernelA, 1024, 2048 }, found, answer(660)), 0);
        QCOMPARE(found, 660LL); // other shared bytes
        QCOMPARE(cache.lookup({ 1, &kKernelA, 1024, 0 }, found, answer(114)), 0);
        QCOMPARE(found, 114LL); // other device
        QCOMPARE(queries, 5);
        QCOMPARE(cache.size(), std::size_t(5));
        QCOMPARE(cache.lookup({ 0, &kKernelA, 1024, 0 }, found, answer(1)), 0);
        QCOMPARE(found, 132LL); // the first entry is untouched by the others
    }

    // A failed query is reported and not remembered: the next launch asks again.
    void failedQueryIsNotCached()
    {
        KernelCache cache;
        long long value = 0;
        QCOMPARE(cache.lookup({ 0, &kKernelA, 128, 0 }, value,
                     [](long long& v) {
                         v = 7;
                         return 98; // cudaErrorInvalidDeviceFunction
                     }),
            98);
        QCOMPARE(cache.size(), std::size_t(0));
        QCOMPARE(cache.lookup({ 0, &kKernelA, 128, 0 }, value,
                     [](long long& v) {
                         v = 1320;
                         return 0;
                     }),
            0);
        QCOMPARE(value, 1320LL);
    }

    // The channel index without a division: exact for every divisor up to 16384 at every quotient boundary
    // (k*d - 1, k*d, k*d + 1) of the resident range (n < 2^15), and at n = 2^16 - 1.
    void divisionByMagicIsExact()
    {
        for (int d = 1; d <= 16384; ++d) {
            const unsigned magic = smallDivisorMagic(d);
            for (int k = 0; k * d <= 32768; ++k)
                for (int n : { k * d - 1, k * d, k * d + 1 })
                    if (n >= 0 && divideSmall(n, magic) != n / d)
                        QFAIL(qPrintable(QStringLiteral("%1 / %2").arg(n).arg(d)));
            QCOMPARE(divideSmall(65535, magic), 65535 / d);
        }
    }

    void persistentGridIsSlotsCappedByRows()
    {
        QCOMPARE(persistentGridSize(1320, 65536), 1320u);
        QCOMPARE(persistentGridSize(1320, 32), 32u); // fewer rows than found: a block per row
        QCOMPARE(persistentGridSize(0, 32), 1u);
    }

    // dweight/dbias over n: the seed's 2048 channels spread over 256 blocks (not 64), at most 4 partials per
    // thread for its batch of 128 (not 16), each block's 8 channels one 64-byte run per n.
    void channelReduceSpreadsOverBlocks()
    {
        QCOMPARE(channelReduceBlocks(2048), 256u);
        QCOMPARE(ceilDiv(128, kReduceSlices), std::int64_t(4));
        QCOMPARE(kReduceChannelsPerBlock * kReduceSlices, 256);
        QCOMPARE(channelReduceBlocks(3), 1u);
        QCOMPARE(channelReduceBlocks(9), 2u);
    }

    // The backward's dynamic channel table plus the static scratch: at channels_per_group 5632, H 2 (fp32,
    // 1024 threads x 16 scalar elements) the table alone is exactly 48 KiB and the 256 B of scratch take the
    // block over it, which without the opt-in fails to launch.
    void sharedPlanCountsTheStaticScratch()
    {
        const SharedPlan p = backwardSharedPlan(1024, 1, 16, 5632);
        QCOMPARE(p.dynamicBytes, std::size_t(48 * 1024));
        QCOMPARE(p.staticBytes, std::size_t(32 * 8));
        QVERIFY(p.optIn);
        QVERIFY(p.fits);
        // That plan (1024 x 16 scalar) now runs on the reference kernels (see scalarRowsThatWouldSpill); the
        // same boundary at 1024 x 8 scalar: channels_per_group 5888 at H 1.
        QVERIFY(!fusedPlan(gn::DType::F32, shapeOf(2, 5632, 2, 5632), GroupNormDirection::Backward, true, 32).resident);
        const FusedPlan fp
            = fusedPlan(gn::DType::F32, shapeOf(2, 5888, 1, 5888), GroupNormDirection::Backward, true, 32);
        QCOMPARE(fp.threadsPerRow, 1024);
        QCOMPARE(fp.elemsPerThread, 8);
        QVERIFY(fp.resident);
        QCOMPARE(fp.sharedBytes, std::size_t(48 * 1024));
        QVERIFY(fp.sharedOptIn);
        // The seed's rows need a few KiB: no opt-in.
        const FusedPlan seed
            = fusedPlan(gn::DType::BF16, shapeOf(128, 2048, 512, 4), GroupNormDirection::Backward, true, 32);
        QVERIFY(seed.resident);
        QVERIFY(!seed.sharedOptIn);
    }

    // Over every channels_per_group at H 1 and 2 (fp32 and bf16, both alignments): a resident backward plan
    // either stays within 48 KiB with its scratch or asks for the opt-in, and never exceeds the plan's limit;
    // past it the reference kernels run, and the workspace is sized for them.
    void sharedPlanSweep()
    {
        for (gn::DType dtype : { gn::DType::F32, gn::DType::BF16 })
            for (std::int64_t h : { 1, 2 })
                for (std::int64_t cpg = 64; cpg * h <= 16384; cpg += 32) {
                    const GroupNormShape s = shapeOf(2, cpg, h, cpg);
                    for (bool aligned : { true, false }) {
                        const FusedPlan p = fusedPlan(dtype, s, GroupNormDirection::Backward, aligned, 32);
                        if (!p.resident) {
                            QVERIFY(
                                groupNormWorkspaceBytes(GroupNormImpl::Fused, GroupNormDirection::Backward, dtype, s)
                                >= referenceWorkspaceBytes(GroupNormDirection::Backward, s));
                            continue;
                        }
                        const int warps = p.threadsPerRow > 32 ? p.threadsPerRow / 32 : 1;
                        const std::size_t total = p.sharedBytes + static_cast<std::size_t>(warps) * 8;
                        QVERIFY2(total <= kSharedPlanLimit, qPrintable(QStringLiteral("cpg %1 H %2").arg(cpg).arg(h)));
                        QCOMPARE(p.sharedOptIn, total > kSharedWithoutOptIn);
                    }
                }
        // Past the limit: a 12288-channel group at H 1 (fp32, 1024 x 16) needs 100 KiB.
        QVERIFY(
            !fusedPlan(gn::DType::F32, shapeOf(2, 12288, 1, 12288), GroupNormDirection::Backward, true, 32).resident);
        // channels_per_group 8192 at H 1 (66 KiB) now runs resident, with the opt-in.
        const FusedPlan big
            = fusedPlan(gn::DType::F32, shapeOf(2, 8192, 1, 8192), GroupNormDirection::Backward, true, 32);
        QVERIFY(big.resident && big.sharedOptIn);
    }

    // Backward scalar rows of 16 elements at 1024 threads spilled 112-144 B at the 64 registers such a block
    // allows: the plan never chooses them (rows over 8192 elements with odd H or misaligned pointers run on
    // the reference kernels, at both bytes per thread), and it still chooses the forward and the vectors.
    void scalarRowsThatWouldSpill()
    {
        for (gn::DType dtype : gn::kAllDtypes)
            for (int bytes : { 32, 64 })
                for (std::int64_t length = 8193; length <= 16384; length += 397) {
                    const GroupNormShape s = shapeOf(2, length, 1, length);
                    const FusedPlan b = fusedPlan(dtype, s, GroupNormDirection::Backward, false, bytes);
                    QVERIFY(!(b.resident && !b.vectorized && b.threadsPerRow == 1024 && b.elemsPerThread == 16));
                    QVERIFY(fusedPlan(dtype, s, GroupNormDirection::Forward, false, bytes).resident);
                }
        QVERIFY(
            !fusedPlan(gn::DType::BF16, shapeOf(2, 16384, 1, 16384), GroupNormDirection::Backward, false, 32).resident);
        // 16 fp32 values of a 16-byte-vector row at 1024 threads do fit: still resident.
        const FusedPlan v
            = fusedPlan(gn::DType::F32, shapeOf(2, 4096, 4, 4096), GroupNormDirection::Backward, true, 32);
        QVERIFY(v.resident && v.vectorized && v.threadsPerRow == 1024 && v.elemsPerThread == 16);
    }

    // The kix-fused kernels take a row's group as a 32-bit remainder (a 64-bit one is a called subroutine that
    // spilled the registers live across it): more than 2^32 - 1 rows run on the reference kernels.
    void rowCountFitsThirtyTwoBits()
    {
        QVERIFY(
            fusedPlan(gn::DType::F32, shapeOf(0xffffffffLL, 1, 1, 1), GroupNormDirection::Forward, true, 32).resident);
        QVERIFY(!fusedPlan(gn::DType::F32, shapeOf(0x100000000LL, 1, 1, 1), GroupNormDirection::Forward, true, 32)
                     .resident);
        QVERIFY(!persistentPlan(gn::DType::F32, shapeOf(0x80000000LL, 4, 8, 2), GroupNormDirection::Forward, true)
                     .resident);
    }

    // Every kernel instantiation the plans choose, over dtypes, bytes per thread, alignment, H and row lengths
    // around every block-size step, has a line in kernels/cuda/ptxas-budget.txt (so the ptxas_budget test holds
    // it to a register cap and no spills), and every kix-fused and kix-persistent line is one the plans choose:
    // the budget covers exactly what can run. (ptxas_budget itself fails on a compiled kernel without a line.)
    void everyPlanChoiceIsBudgeted()
    {
        QFile file(QStringLiteral(KIX_TEST_DATA_DIR "/../../kernels/cuda/ptxas-budget.txt"));
        QVERIFY2(file.open(QIODevice::ReadOnly | QIODevice::Text), qPrintable(file.fileName()));
        QSet<QString> budgeted;
        for (const QByteArray& line : file.readAll().split('\n')) {
            const QString text = QString::fromUtf8(line);
            if (text.startsWith(QLatin1Char('#')) || !text.contains(QLatin1Char('|')))
                continue;
            const QString name = text.section(QLatin1Char('|'), 0, 0).trimmed();
            if (name.startsWith(QLatin1String("fused")) || name.startsWith(QLatin1String("persistent")))
                budgeted.insert(name);
        }
        QSet<QString> chosen;
        auto add = [&](const char* kernel, gn::DType dtype, const FusedPlan& p, bool rowsPerBlock) {
            if (!p.resident)
                return;
            const int vec = p.vectorized ? 16 / gn::dtypeSize(dtype) : 1;
            const QString rpb = rowsPerBlock ? QStringLiteral("%1, ").arg(p.rowsPerBlock) : QString();
            chosen.insert(QStringLiteral("%1<(kix::gn::DType)%2, %3, %4%5, %6>")
                              .arg(QLatin1String(kernel))
                              .arg(static_cast<int>(dtype))
                              .arg(p.threadsPerRow)
                              .arg(rpb)
                              .arg(p.elemsPerThread / vec)
                              .arg(vec));
        };
        for (gn::DType dtype : gn::kAllDtypes)
            for (std::int64_t h : { 1, 8 })
                for (int step = 0; step <= 14; ++step)
                    for (std::int64_t delta : { -8, 0, 8 }) {
                        const std::int64_t length = (std::int64_t(1) << step) + delta;
                        if (length < h || length % h != 0 || length > 16384)
                            continue;
                        const GroupNormShape s = shapeOf(2, length / h, h, length / h);
                        for (bool aligned : { true, false }) {
                            for (int bytes : { 32, 64 }) {
                                add("fusedForwardKernel", dtype,
                                    fusedPlan(dtype, s, GroupNormDirection::Forward, aligned, bytes), true);
                                add("fusedBackwardKernel", dtype,
                                    fusedPlan(dtype, s, GroupNormDirection::Backward, aligned, bytes), true);
                            }
                            add("persistentForwardKernel", dtype,
                                persistentPlan(dtype, s, GroupNormDirection::Forward, aligned), false);
                            add("persistentBackwardKernel", dtype,
                                persistentPlan(dtype, s, GroupNormDirection::Backward, aligned), false);
                        }
                    }
        for (const QString& name : chosen)
            QVERIFY2(budgeted.contains(name), qPrintable(name + QStringLiteral(": chosen but not budgeted")));
        for (const QString& name : budgeted)
            QVERIFY2(chosen.contains(name), qPrintable(name + QStringLiteral(": budgeted but never chosen")));
        QVERIFY(chosen.contains(QStringLiteral("fusedForwardKernel<(kix::gn::DType)1, 128, 1, 2, 8>"))); // the seed
        QCOMPARE(chosen.size(), budgeted.size());
    }
};

KIX_TEST_GUILESS_MAIN(TestLaunchPlan)
#include "tst_launchplan.moc"
