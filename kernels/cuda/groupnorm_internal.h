#pragma once
// Internal interface between the GroupNorm CUDA translation units (not for callers outside kernels/cuda).

#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/groupnorm_cuda.h"

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

// How the fused path runs a shape.
struct FusedPlan
{
    bool resident = false; // false: the row does not fit one block; the reference kernels run instead
    bool vectorized = false; // 16-byte loads and stores
    int threadsPerRow = 0;
    int rowsPerBlock = 0;
    int elemsPerThread = 0;
    std::size_t sharedBytes = 0; // dynamic shared memory per block (backward)
};
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
// partials of M x C x K float pairs; fixed order over n and k.
cudaError_t launchChannelReduce(const void* partials, std::int64_t batch, std::int64_t channels, std::int64_t parts,
    float* dweight, float* dbias, cudaStream_t stream);

} // namespace kix::cuda::detail
