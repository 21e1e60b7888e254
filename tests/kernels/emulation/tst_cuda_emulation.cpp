// SPDX-License-Identifier: Apache-2.0
// The CUDA kernels' own sources run on the CPU (kernels/cuda/emulation: one fiber per CUDA thread), so every
// test run executes them: the verify table (every implementation x dtype x case, shapes shrunk to keep the
// emulator's time down but every code path kept), guard bytes around every buffer, each case run with the
// threads of a block scheduled forwards and then backwards (an unsynchronised shared-memory read gives a
// different answer), the shared-memory opt-in sequence of a cpg sweep, the persistent plan's int limit, and the
// emulator's own fault detectors and recovery. No GPU and no nvcc needed.

#include "kernels/cuda/emulation/cuda_emu.h"
#include "kernels/cuda/groupnorm_internal.h"
#include "kernels/cuda/groupnorm_verify.h"
#include "kernels/cuda/launch.cuh"

#include "tests/support/testmain.h"

#include <QTest>

#include <algorithm>
#include <string>
#include <vector>

using namespace kix;
using namespace kix::cuda;

Q_DECLARE_METATYPE(kix::gn::DType)
Q_DECLARE_METATYPE(kix::cuda::GroupNormImpl)

namespace {

// The verify table's rows this process runs: KIX_TEST_SHARD=I/N (set by ctest, which runs N processes of this
// test in parallel, the emulator being single-threaded) keeps one Nth of the rows; unset, every row.
std::pair<int, int> tableShard()
{
    const QList<QByteArray> parts = qgetenv("KIX_TEST_SHARD").split('/');
    bool okIndex = false, okCount = false;
    const int index = parts.size() == 2 ? parts[0].toInt(&okIndex) : 0;
    const int count = parts.size() == 2 ? parts[1].toInt(&okCount) : 1;
    if (!okIndex || !okCount || count < 1 || index < 0 || index >= count)
        return { 0, 1 };
    return { index, count };
}

GroupNormShape shapeOf(std::int64_t m, std::int64_t c, std::int64_t h, std::int64_t cpg)
{
    GroupNormShape s;
    s.batch = m;
    s.channels = c;
    s.hidden = h;
    s.channelsPerGroup = cpg;
    return s;
}

struct EmulatedCase
{
    VerifyCase c;
    int multiprocessors = 132; // fewer: the persistent grid is small, so a few rows make each block walk many
};

// verificationCases(false), every case and code path, with the shapes that are large only to be large shrunk, on
// a device made small where the persistent grid matters: the seed slice keeps its rows of 2048, and the persistent
// cases keep more rows than the grid holds (persistent-many-rows: 64-thread rows, 2 SMs x 32 blocks = 64 blocks for
// 90 rows of 30 groups, so blocks walk 1-2 rows and the group index wraps by 64 mod 30).
// Under ASan (about 10x slower here) the quick table only: the small cases, every implementation and dtype
// (quickTableRunsEveryImplementation).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kQuickTable = true;
#else
constexpr bool kQuickTable = false;
#endif

std::vector<EmulatedCase> emulatedCases(bool quick = kQuickTable)
{
    std::vector<EmulatedCase> cases;
    const std::vector<VerifyCase> table = verificationCases(quick);
    for (const VerifyCase& c : table) {
        EmulatedCase e { c, 132 };
        if (c.name == "seed-slice")
            e.c.shape = shapeOf(2, 32, 512, 4); // rows of 2048 as the seed's, 16 of them
        else if (c.name == "persistent-many-rows") {
            e.c.shape = shapeOf(3, 120, 128, 4); // 90 rows of 30 groups on a 64-block grid
            e.multiprocessors = 2;
        } else if (c.name == "persistent-odd-batch") {
            e.c.shape = shapeOf(9, 16, 256, 4); // still an odd batch, 4 groups, 36 rows on 2 SMs' 32 blocks
            e.multiprocessors = 2;
        }
        cases.push_back(e);
    }
    return cases;
}

struct OrderGuard
{
    ~OrderGuard()
    {
        emu::setOrder(emu::Order::Forward);
        emu::deviceConfig().multiprocessors = 132;
        (void)resetDeviceAfterFault();
    }
};

// Test kernels for the emulator's own checks.
__global__ void unsynchronisedKernel(float* out)
{
    __shared__ float cells[64];
    cells[threadIdx.x] = static_cast<float>(threadIdx.x + 1);
    // no __syncthreads(): thread t reads what thread 63 - t may not have written yet
    out[threadIdx.x] = cells[63 - threadIdx.x];
    __syncthreads();
    cells[threadIdx.x] = 0.f; // so that the next launch starts from zeros too
}

__global__ void misalignedKernel(const float* in, float* out)
{
    const uint4 v = __ldg(reinterpret_cast<const uint4*>(in + 1)); // 4 bytes past a 16-byte boundary
    out[threadIdx.x] = __uint_as_float(v.x);
}

__global__ void divergentBarrierKernel(float* out)
{
    float v = 1.f;
    if (threadIdx.x == 0)
        __syncthreads(); // the rest of warp 0 waits in the shuffle for lane 0: a deadlock on the device
    else
        v = __shfl_xor_sync(0xffffffffu, v, 1);
    out[threadIdx.x] = v;
}

__global__ void exitedLaneKernel(float* out)
{
    if (threadIdx.x % 32 == 31)
        return; // lane 31 leaves, the others then name it in a full-mask shuffle
    out[threadIdx.x] = __shfl_xor_sync(0xffffffffu, 1.f, 1);
}

__global__ void sharedKernel(float* out)
{
    KIX_DYNAMIC_SHARED(float, table);
    table[threadIdx.x] = 2.f;
    __syncthreads();
    out[threadIdx.x] = table[threadIdx.x];
}

// Static shared memory: 49,156 B, one float over the 48 KiB a block may declare.
__global__ void staticOverLimitKernel(float* out)
{
    __shared__ float cells[12 * 1024 + 1];
    cells[threadIdx.x] = static_cast<float>(threadIdx.x);
    __syncthreads();
    out[threadIdx.x] = cells[(threadIdx.x + 1) % blockDim.x];
}

// 32 KiB static (two arrays) and dynamic shared memory: 16 KiB dynamic fit without the opt-in.
__global__ void staticAndDynamicKernel(float* out)
{
    __shared__ float cells[4 * 1024];
    __shared__ float more[4 * 1024];
    KIX_DYNAMIC_SHARED(float, table);
    cells[threadIdx.x] = 1.f;
    more[threadIdx.x] = 2.f;
    table[threadIdx.x] = 3.f;
    __syncthreads();
    out[threadIdx.x] = cells[(threadIdx.x + 1) % blockDim.x] + more[threadIdx.x] + table[threadIdx.x];
}

} // namespace

class TestCudaEmulation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        int devices = 0;
        QCOMPARE(cudaGetDeviceCount(&devices), cudaSuccess);
        QCOMPARE(devices, 1);
        cudaDeviceProp prop;
        QCOMPARE(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
        QCOMPARE(prop.multiProcessorCount, 132);
        QCOMPARE(prop.sharedMemPerMultiprocessor, std::size_t(228 * 1024));
        QCOMPARE(prop.sharedMemPerBlock, std::size_t(48 * 1024));
    }

    void verifyTable_data()
    {
        QTest::addColumn<int>("caseIndex");
        QTest::addColumn<kix::gn::DType>("dtype");
        QTest::addColumn<kix::cuda::GroupNormImpl>("impl");
        const std::vector<EmulatedCase> cases = emulatedCases();
        const auto [shard, shards] = tableShard();
        // Rows go to shards by (case and dtype) + implementation, not by row number: with three implementations and
        // three shards, the row number would give every shard one implementation, and the reference one costs
        // three times the others.
        int group = 0;
        for (int i = 0; i < static_cast<int>(cases.size()); ++i)
            for (gn::DType dtype : { gn::DType::F32, gn::DType::BF16, gn::DType::F16 }) {
                int implIndex = 0;
                for (GroupNormImpl impl : kAllImpls)
                    if ((group + implIndex++) % shards == shard)
                        QTest::addRow("%s/%s/%s", cases[static_cast<std::size_t>(i)].c.name.c_str(), dtypeText(dtype),
                            implName(impl))
                            << i << dtype << impl;
                ++group;
            }
    }

    // Forward and backward against the float64 reference (verifyCase: outputs poisoned, guard bytes around
    // every buffer, the backward twice and bitwise equal), with the threads of each block resumed first to last
    // and then last to first: both pass, and every output is bitwise the same in both orders.
    void verifyTable()
    {
        QFETCH(int, caseIndex);
        QFETCH(kix::gn::DType, dtype);
        QFETCH(kix::cuda::GroupNormImpl, impl);
        const EmulatedCase e = emulatedCases().at(static_cast<std::size_t>(caseIndex));
        OrderGuard restore;
        emu::deviceConfig().multiprocessors = e.multiprocessors;
        const std::uint64_t seed = 0x5eed + static_cast<std::uint64_t>(caseIndex);
        VerifyResult results[2];
        const emu::Order orders[2] = { emu::Order::Forward, emu::Order::Backward };
        // The channel-table cases (cpg 4096 and more) are most of the emulator's time (the reference kernels launch
        // a 256-thread block per (n, c)): one order for them; the other cases check both.
        const int runs = e.c.shape.channelsPerGroup >= 4096 ? 1 : 2;
        results[1] = results[0];
        for (int k = 0; k < runs; ++k) {
            emu::setOrder(orders[k]);
            const long long faults = emu::stats().faults;
            try {
                results[k] = verifyCase(impl, dtype, e.c, seed);
            } catch (const CudaError& error) {
                QFAIL(error.what());
            }
            QCOMPARE(emu::stats().faults, faults);
            const QByteArray summary = QByteArray::fromStdString(
                std::string(k == 0 ? "forwards: " : "backwards: ") + results[k].summary() + "; " + results[k].plan);
            QVERIFY2(results[k].passed(), summary.constData());
            QVERIFY2(results[k].guardsBroken.empty(), summary.constData());
        }
        if (runs == 1)
            return;
        QVERIFY2(results[0].digest == results[1].digest,
            "the outputs differ between the two thread orders: a shared-memory read without a barrier");
    }

    // The quick table (all the asan suite runs of verifyTable) still reaches every implementation's own kernels
    // in every dtype and direction: kix-fused's resident rows, kix-persistent's persistent rows, the reference
    // kernels; a fallback alone would leave an implementation's kernels unrun under ASan.
    void quickTableRunsEveryImplementation()
    {
        const std::vector<EmulatedCase> quick = emulatedCases(true);
        for (GroupNormImpl impl : kAllImpls) {
            const std::string own = impl == GroupNormImpl::Fused ? "resident rows"
                : impl == GroupNormImpl::Persistent              ? "persistent rows"
                                                                 : "reference kernels";
            for (gn::DType dtype : { gn::DType::F32, gn::DType::BF16, gn::DType::F16 })
                for (GroupNormDirection d : { GroupNormDirection::Forward, GroupNormDirection::Backward }) {
                    const bool runs = std::any_of(quick.begin(), quick.end(), [&](const EmulatedCase& e) {
                        char text[256];
                        return std::string(
                                   launchDescription(impl, dtype, e.c.shape, d, !e.c.misaligned, text, sizeof text))
                                   .rfind(own, 0)
                            == 0;
                    });
                    QVERIFY2(runs, (std::string(implName(impl)) + " " + dtypeText(dtype)).c_str());
                }
        }
    }

    // A cpg sweep on one kernel (fp32 kix-fused backward, 1024 x 8 scalar rows): 67,584 B of dynamic shared
    // memory, then 49,152 B (still over 48 KiB with the 256 B of static scratch: an opt-in), then 67,584 B again.
    // cudaFuncSetAttribute sets the limit, so a memo of exact sizes lowered it to 49,152 B and skipped the third
    // call: the third launch failed with cudaErrorInvalidValue.
    void sharedMemoryOptInSequence()
    {
        OrderGuard restore;
        (void)resetDeviceAfterFault();
        const std::int64_t sweep[] = { 8192, 5888, 8192 };
        for (std::int64_t cpg : sweep) {
            const GroupNormShape s = shapeOf(1, cpg, 1, cpg);
            const detail::FusedPlan plan = detail::fusedPlan(gn::DType::F32, s, GroupNormDirection::Backward, true, 32);
            QVERIFY(plan.resident && plan.sharedOptIn);
            QCOMPARE(plan.threadsPerRow, 1024);
            QCOMPARE(plan.sharedBytes, std::size_t(cpg == 8192 ? 67584 : 49152));
            VerifyResult r;
            try {
                r = verifyCase(GroupNormImpl::Fused, gn::DType::F32, { "opt-in", s, false }, 7);
            } catch (const CudaError& error) {
                QFAIL(error.what());
            }
            QVERIFY2(r.passed(), r.summary().c_str());
        }
    }

    // The rule the sequence above depends on, as the emulator models it (and the device enforces it).
    void optInSetsTheLimit()
    {
        OrderGuard restore;
        (void)resetDeviceAfterFault();
        float* out = nullptr;
        QCOMPARE(cudaMalloc(&out, 1024 * sizeof(float)), cudaSuccess);
        const auto kernel = sharedKernel;
        KIX_LAUNCH(kernel, 1, 64, 67584, nullptr)(out);
        QCOMPARE(cudaGetLastError(), cudaErrorInvalidValue); // over 48 KiB without the opt-in
        QCOMPARE(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 67584), cudaSuccess);
        KIX_LAUNCH(kernel, 1, 64, 67584, nullptr)(out);
        QCOMPARE(cudaGetLastError(), cudaSuccess);
        QCOMPARE(out[63], 2.f);
        QCOMPARE(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 49152), cudaSuccess);
        KIX_LAUNCH(kernel, 1, 64, 67584, nullptr)(out);
        QCOMPARE(cudaGetLastError(), cudaErrorInvalidValue); // the second call lowered the limit
        QCOMPARE(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024 + 1),
            cudaErrorInvalidValue);
        (void)cudaGetLastError();

        // KernelCache::raiseTo, the memo allowSharedMemory() uses: the smaller request is not passed on.
        detail::KernelCache cache;
        const detail::KernelKey key { 0, reinterpret_cast<const void*>(kernel), -1, 0 };
        std::vector<long long> granted;
        auto grant = [&](long long bytes) {
            granted.push_back(bytes);
            return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes));
        };
        for (long long bytes : { 67584LL, 49152LL, 67584LL }) {
            QCOMPARE(cache.raiseTo(key, bytes, grant), 0);
            KIX_LAUNCH(kernel, 1, 64, static_cast<std::size_t>(bytes), nullptr)(out);
            QCOMPARE(cudaGetLastError(), cudaSuccess);
        }
        QCOMPARE(granted, std::vector<long long>({ 67584 }));
        QCOMPARE(cache.raiseTo(key, 100000, grant), 0);
        QCOMPARE(granted, std::vector<long long>({ 67584, 100000 }));
        QCOMPARE(cudaFree(out), cudaSuccess);
    }

    // Static __shared__ counts as on the device: at most 48 KiB of it, the default dynamic limit is 48 KiB less the
    // static bytes, and the opt-in grants at most 227 KiB less them. A launch over a limit fails
    // (cudaErrorInvalidValue, not sticky) and runs nothing.
    void staticSharedLimits()
    {
        OrderGuard restore;
        (void)resetDeviceAfterFault();
        QCOMPARE(emu::staticSharedBytes(sharedKernel), std::size_t(0));
        QCOMPARE(emu::staticSharedBytes(unsynchronisedKernel), std::size_t(256));
        QCOMPARE(emu::staticSharedBytes(staticOverLimitKernel), std::size_t(49156));
        QCOMPARE(emu::staticSharedBytes(staticAndDynamicKernel), std::size_t(32768));
        float* out = nullptr;
        QCOMPARE(cudaMalloc(&out, 64 * sizeof(float)), cudaSuccess);
        const long long launches = emu::stats().launches;

        KIX_LAUNCH(staticOverLimitKernel, 1, 64, 0, nullptr)(out);
        QCOMPARE(cudaGetLastError(), cudaErrorInvalidValue);
        QCOMPARE(emu::stats().launches, launches);
        QCOMPARE(cudaDeviceSynchronize(), cudaSuccess); // not sticky

        const auto kernel = staticAndDynamicKernel;
        KIX_LAUNCH(kernel, 1, 64, 16 * 1024, nullptr)(out); // 48 KiB together: no opt-in needed
        QCOMPARE(cudaGetLastError(), cudaSuccess);
        QCOMPARE(out[63], 6.f);
        KIX_LAUNCH(kernel, 1, 64, 16 * 1024 + 4, nullptr)(out); // over 48 KiB less the static
        QCOMPARE(cudaGetLastError(), cudaErrorInvalidValue);
        QCOMPARE(emu::stats().launches, launches + 1);
        const int most = 227 * 1024 - 32768;
        QCOMPARE(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, most + 1),
            cudaErrorInvalidValue); // static + dynamic over 227 KiB
        (void)cudaGetLastError();
        QCOMPARE(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, most), cudaSuccess);
        out[63] = 0.f;
        KIX_LAUNCH(kernel, 1, 64, static_cast<std::size_t>(most), nullptr)(out);
        QCOMPARE(cudaGetLastError(), cudaSuccess);
        QCOMPARE(out[63], 6.f);
        KIX_LAUNCH(kernel, 1, 64, static_cast<std::size_t>(most) + 16, nullptr)(out);
        QCOMPARE(cudaGetLastError(), cudaErrorInvalidValue);
        QCOMPARE(emu::stats().launches, launches + 2);

        // Occupancy counts the static bytes with the dynamic: 228 KiB per SM, 1 KiB reserved per block.
        int blocks = 0;
        QCOMPARE(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, 64, 16 * 1024), cudaSuccess);
        QCOMPARE(blocks, 228 / 49);
        QCOMPARE(cudaFree(out), cudaSuccess);
    }

    // c0 = group * channelsPerGroup is an int in the persistent kernels: C over 2^31 - 1 stays with kix-fused.
    void persistentPlanKeepsChannelsInInt()
    {
        const GroupNormShape fits = shapeOf(1, 0x7ffffffcLL, 512, 4);
        const GroupNormShape over = shapeOf(1, 0x80000000LL, 512, 4);
        for (GroupNormDirection d : { GroupNormDirection::Forward, GroupNormDirection::Backward }) {
            QVERIFY(detail::persistentPlan(gn::DType::F32, fits, d, true).resident);
            QVERIFY(!detail::persistentPlan(gn::DType::F32, over, d, true).resident);
            QVERIFY(detail::fusedPlan(gn::DType::F32, over, d, true).resident); // kix-fused (int64 c0) runs it
        }
    }

    // The race detector: a shared-memory read without a barrier gives different answers in the two orders.
    void unsynchronisedReadDiffersBetweenOrders()
    {
        OrderGuard restore;
        float* out = nullptr;
        QCOMPARE(cudaMalloc(&out, 64 * sizeof(float)), cudaSuccess);
        std::vector<float> seen[2];
        const emu::Order orders[2] = { emu::Order::Forward, emu::Order::Backward };
        for (int k = 0; k < 2; ++k) {
            emu::setOrder(orders[k]);
            KIX_LAUNCH(unsynchronisedKernel, 1, 64, 0, nullptr)(out);
            QCOMPARE(cudaDeviceSynchronize(), cudaSuccess);
            seen[k].assign(out, out + 64);
        }
        QVERIFY(seen[0] != seen[1]);
        QCOMPARE(cudaFree(out), cudaSuccess);
    }

    // Device faults: each ends its kernel with a sticky error that fails later calls until the device is reset;
    // resetDeviceAfterFault() brings it back, and a verify case passes afterwards.
    void faultsAreStickyUntilReset_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<int>("expected");
        QTest::newRow("misaligned 16-byte load") << 0 << static_cast<int>(cudaErrorMisalignedAddress);
        QTest::newRow("warp split between __syncthreads and a shuffle")
            << 1 << static_cast<int>(cudaErrorLaunchFailure);
        QTest::newRow("shuffle naming an exited lane") << 2 << static_cast<int>(cudaErrorIllegalInstruction);
    }
    void faultsAreStickyUntilReset()
    {
        QFETCH(int, which);
        QFETCH(int, expected);
        OrderGuard restore;
        float* buffer = nullptr;
        QCOMPARE(cudaMalloc(&buffer, 256 * sizeof(float)), cudaSuccess);
        const long long faults = emu::stats().faults;
        if (which == 0)
            KIX_LAUNCH(misalignedKernel, 1, 32, 0, nullptr)(buffer, buffer + 128);
        else if (which == 1)
            KIX_LAUNCH(divergentBarrierKernel, 1, 64, 0, nullptr)(buffer);
        else
            KIX_LAUNCH(exitedLaneKernel, 1, 64, 0, nullptr)(buffer);
        QCOMPARE(emu::stats().faults, faults + 1);
        QCOMPARE(static_cast<int>(cudaDeviceSynchronize()), expected);
        void* more = nullptr;
        QCOMPARE(static_cast<int>(cudaMalloc(&more, 16)), expected); // sticky
        QCOMPARE(resetDeviceAfterFault(), cudaSuccess);
        VerifyResult r;
        try {
            r = verifyCase(
                GroupNormImpl::Persistent, gn::DType::BF16, { "after-reset", shapeOf(2, 64, 512, 4), false }, 9);
        } catch (const CudaError& error) {
            QFAIL(error.what());
        }
        QVERIFY2(r.passed(), r.summary().c_str());
    }
};

KIX_TEST_GUILESS_MAIN(TestCudaEmulation)
#include "tst_cuda_emulation.moc"
