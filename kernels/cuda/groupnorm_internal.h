// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal interface between the GroupNorm CUDA translation units (not for callers outside kernels/cuda).

#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/groupnorm_cuda.h"
#include "kernels/cuda/kernelcache.h"
#include "kernels/dtype_dispatch.h"

#include <cstdint>

namespace kix::cuda::detail {

struct ForwardArgs
{
    gn::DType dtype = gn::DType::F32;
    GroupNormShape shape;
    const void* x = nullptr;
    const float* weight = nullptr;
    const float* bias = nullptr;
    void* y = nullptr;
    float* mean = nullptr;
    float* rstd = nullptr;
    void* workspace = nullptr;
    cudaStream_t stream = nullptr;
};

struct BackwardArgs
{
    gn::DType dtype = gn::DType::F32;
    GroupNormShape shape;
    const void* dy = nullptr;
    const void* x = nullptr;
    const float* weight = nullptr;
    const float* mean = nullptr;
    const float* rstd = nullptr;
    void* dx = nullptr;
    float* dweight = nullptr;
    float* dbias = nullptr;
    void* workspace = nullptr;
    cudaStream_t stream = nullptr;
};

// Rounds a byte count up so that the next sub-buffer of a workspace stays 256-byte aligned.
constexpr std::size_t alignUp(std::size_t bytes)
{
    return (bytes + 255) / 256 * 256;
}

constexpr std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
{
    return (a + b - 1) / b;
}

// n / d without a division for n, d < 2^16 (resident rows have at most 16384 elements): the quotient is
// the high word of n * ceil(2^32 / d) (one mul.hi.u32), exact for every such n and d (Lemire, Kaser, Kurz
// 2019, with F = 2N = 32). d = 1 (magic 2^32 does not fit) is magic 0, quotient n. The kernels take the
// magic from the host.
constexpr unsigned smallDivisorMagic(std::int64_t d)
{
    return d <= 1 ? 0u
                  : static_cast<unsigned>(
                      ((1ull << 32) + static_cast<unsigned long long>(d) - 1) / static_cast<unsigned long long>(d));
}
constexpr int divideSmall(int n, unsigned magic)
{
    return magic == 0 ? n : static_cast<int>((static_cast<unsigned long long>(static_cast<unsigned>(n)) * magic) >> 32);
}

inline bool isAligned16(const void* p)
{
    return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

// Grid size for `blocks` blocks; kernels loop when more are needed than a grid holds.
inline unsigned gridFor(std::int64_t blocks)
{
    constexpr std::int64_t kMaxGrid = 0x7fffffff;
    return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > kMaxGrid ? kMaxGrid : blocks));
}

// Elements one reference block handles along a row (chunks of the row moments and of the per-(n,c) sums).
constexpr std::int64_t kReferenceChunk = 4096;

std::size_t referenceWorkspaceBytes(GroupNormDirection direction, const GroupNormShape& shape);
cudaError_t referenceForward(const ForwardArgs& args);
cudaError_t referenceBackward(const BackwardArgs& args);

// The process-wide memo of occupancy answers and shared-memory opt-ins (kernelcache.h).
KernelCache& launchCache();

// Shared memory a block may use without an opt-in, and what the plans allow with one: dynamic plus static,
// 96 KiB, which every device the library is built for grants (sm_80: 163 KiB, sm_86/89: 99 KiB, sm_90 and
// sm_100: 227 KiB of opt-in per block).
constexpr std::size_t kSharedWithoutOptIn = 48 * 1024;
constexpr std::size_t kSharedPlanLimit = 96 * 1024;

// The backward block's shared memory: the span and channel tables (dynamic: rowsPerBlock x (spans +
// channelsPerGroup) float pairs, spans = vectors per thread x warps per row) and the block reduction's
// scratch (static: one float pair per warp of a row). `optIn`: over 48 KiB together, so the launch must
// raise the kernel's cudaFuncAttributeMaxDynamicSharedMemorySize first; `fits`: within kSharedPlanLimit.
struct SharedPlan
{
    std::size_t dynamicBytes = 0;
    std::size_t staticBytes = 0;
    bool optIn = false;
    bool fits = false;
};
SharedPlan backwardSharedPlan(int threadsPerRow, int rowsPerBlock, int vectorsPerThread, std::int64_t channelsPerGroup);

// How the fused path runs a shape.
struct FusedPlan
{
    bool resident = false; // false: the row does not fit one block; the reference kernels run instead
    bool vectorized = false; // 16-byte loads and stores
    int threadsPerRow = 0;
    int rowsPerBlock = 0;
    int elemsPerThread = 0;
    std::size_t sharedBytes = 0; // dynamic shared memory per block (backward)
    bool sharedOptIn = false; // backward: dynamic + static shared memory over 48 KiB (see SharedPlan)
};

// Raises `kernel`'s dynamic shared-memory limit to plan.sharedBytes when the plan needs the opt-in; cudaSuccess
// otherwise. cudaFuncSetAttribute sets the limit (a smaller value lowers it), so launchCache() keeps the largest
// size granted per device and kernel and only ever raises it (KernelCache::raiseTo). The device refuses
// (cudaErrorInvalidValue) a size over its own opt-in maximum.
template<typename Kernel>
cudaError_t allowSharedMemory(Kernel kernel, const FusedPlan& plan)
{
    if (!plan.sharedOptIn)
        return cudaSuccess;
    int device = 0;
    KIX_CUDA_RETURN_IF_ERROR(cudaGetDevice(&device));
    const void* entry = reinterpret_cast<const void*>(kernel);
    return static_cast<cudaError_t>(launchCache().raiseTo(
        KernelKey { device, entry, -1, 0 }, static_cast<long long>(plan.sharedBytes), [&](long long bytes) {
            return cudaFuncSetAttribute(entry, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes));
        }));
}
// With the process-wide bytes per thread (setFusedBytesPerThread), or with `bytesPerThread` (32 or 64).
FusedPlan fusedPlan(gn::DType dtype, const GroupNormShape& shape, GroupNormDirection direction, bool aligned);
FusedPlan fusedPlan(
    gn::DType dtype, const GroupNormShape& shape, GroupNormDirection direction, bool aligned, int bytesPerThread);

std::size_t fusedWorkspaceBytes(GroupNormDirection direction, gn::DType dtype, const GroupNormShape& shape);
cudaError_t fusedForward(const ForwardArgs& args);
cudaError_t fusedBackward(const BackwardArgs& args);

// How kix-persistent runs a shape: the 32-bytes-per-thread fused plan when it puts one row in a block of 64
// or more threads with 16-byte vectors (at most 512 threads in backward; and the counts fit an int);
// otherwise `resident` is false and kix-fused runs the shape.
FusedPlan persistentPlan(gn::DType dtype, const GroupNormShape& shape, GroupNormDirection direction, bool aligned);
std::size_t persistentWorkspaceBytes(GroupNormDirection direction, gn::DType dtype, const GroupNormShape& shape);
cudaError_t persistentForward(const ForwardArgs& args);
cudaError_t persistentBackward(const BackwardArgs& args);

// dweight[c] = sum over n, k of partials[(n * C + c) * K + k].x, dbias[c] likewise of .y, for
// partials of M x C x K float pairs; fixed order over n and k. Blocks of kReduceChannelsPerBlock channels x
// kReduceSlices slices of n (issue 21: 32 channels x 8 slices made the seed's 2048 channels 64 blocks of 16
// dependent loads per thread, 8-12 us; now 256 blocks of 4).
constexpr int kReduceChannelsPerBlock = 8;
constexpr int kReduceSlices = 32;
inline unsigned channelReduceBlocks(std::int64_t channels)
{
    return gridFor(ceilDiv(channels, kReduceChannelsPerBlock));
}
cudaError_t launchChannelReduce(const void* partials, std::int64_t batch, std::int64_t channels, std::int64_t parts,
    float* dweight, float* dbias, cudaStream_t stream);

} // namespace kix::cuda::detail
