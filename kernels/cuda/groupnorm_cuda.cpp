// The GroupNorm CUDA API: argument checks, the fused implementation's launch plan, dispatch.

#include "kernels/cuda/groupnorm_internal.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>

namespace kix::cuda {

namespace detail {

namespace {

// The most elements a resident row may have: 1024 threads x 16 fp32 values (or 16-bit values) each,
// 32 registers per input per thread in the backward kernel. Longer rows use the reference kernels.
constexpr std::int64_t kMaxResidentRow = 1024 * 16;
// Dynamic shared memory the backward kernel may use without an opt-in.
constexpr std::size_t kMaxBackwardShared = 48 * 1024;

std::atomic<int> g_bytesPerThread { 32 };

} // namespace

FusedPlan fusedPlan(gn::DType dtype, const GroupNormShape& shape, GroupNormDirection direction, bool aligned)
{
    FusedPlan plan;
    const std::int64_t length = shape.rowLength();
    if (!shapeValid(shape) || length > kMaxResidentRow)
        return plan;
    const int vecElems = gn::dtypeSize(dtype) == 4 ? 4 : 8; // 16 bytes
    // 32 bytes of each input per thread by default: two 16-byte loads in flight per tensor and thread.
    int elems = g_bytesPerThread.load(std::memory_order_relaxed) / gn::dtypeSize(dtype);
    int threads = 32;
    while (threads < 1024 && static_cast<std::int64_t>(threads) * elems < length)
        threads *= 2;
    if (static_cast<std::int64_t>(threads) * elems < length)
        elems *= 2; // only fp32 at 32 bytes gets here: 1024 x 16 holds the longest resident row
    plan.vectorized = aligned && shape.hidden % vecElems == 0; // whole vectors inside one channel
    plan.threadsPerRow = threads;
    plan.rowsPerBlock = threads == 32 ? 4 : 1; // short rows: a warp per row, four rows per block
    plan.elemsPerThread = elems;
    if (direction == GroupNormDirection::Backward) {
        const int vectorsPerThread = elems / (plan.vectorized ? vecElems : 1);
        const std::int64_t spans = static_cast<std::int64_t>(vectorsPerThread) * threads / 32;
        plan.sharedBytes
            = static_cast<std::size_t>(plan.rowsPerBlock * (spans + shape.channelsPerGroup)) * 2 * sizeof(float);
        if (plan.sharedBytes > kMaxBackwardShared)
            return FusedPlan {};
    }
    plan.resident = true;
    return plan;
}

std::size_t fusedWorkspaceBytes(GroupNormDirection direction, gn::DType dtype, const GroupNormShape& shape)
{
    // The plan (and so the fallback) may depend on the pointers' alignment: size for both.
    const bool residentAlways
        = fusedPlan(dtype, shape, direction, true).resident && fusedPlan(dtype, shape, direction, false).resident;
    const std::size_t fallback = residentAlways ? 0 : referenceWorkspaceBytes(direction, shape);
    if (direction == GroupNormDirection::Forward)
        return fallback;
    const auto partials = alignUp(static_cast<std::size_t>(shape.batch * shape.channels) * 2 * sizeof(float));
    return std::max(partials, fallback);
}

} // namespace detail

bool setFusedBytesPerThread(int bytes)
{
    if (bytes != 32 && bytes != 64)
        return false;
    detail::g_bytesPerThread.store(bytes, std::memory_order_relaxed);
    return true;
}

int fusedBytesPerThread()
{
    return detail::g_bytesPerThread.load(std::memory_order_relaxed);
}

const char* implName(GroupNormImpl impl)
{
    return impl == GroupNormImpl::Reference ? "kix-reference" : "kix-fused";
}

bool implFromName(const char* name, GroupNormImpl& impl)
{
    if (!name)
        return false;
    if (std::strcmp(name, "kix-reference") == 0) {
        impl = GroupNormImpl::Reference;
        return true;
    }
    if (std::strcmp(name, "kix-fused") == 0) {
        impl = GroupNormImpl::Fused;
        return true;
    }
    return false;
}

bool shapeValid(const GroupNormShape& s)
{
    return s.batch > 0 && s.channels > 0 && s.hidden > 0 && s.channelsPerGroup > 0
        && s.channels % s.channelsPerGroup == 0 && s.eps >= 0.f;
}

std::size_t groupNormWorkspaceBytes(
    GroupNormImpl impl, GroupNormDirection direction, gn::DType dtype, const GroupNormShape& shape)
{
    if (!shapeValid(shape))
        return 0;
    return impl == GroupNormImpl::Reference ? detail::referenceWorkspaceBytes(direction, shape)
                                            : detail::fusedWorkspaceBytes(direction, dtype, shape);
}

cudaError_t groupNormForward(GroupNormImpl impl, gn::DType dtype, const GroupNormShape& shape, const void* x,
    const float* weight, const float* bias, void* y, float* mean, float* rstd, void* workspace,
    std::size_t workspaceBytes, cudaStream_t stream)
{
    if (!shapeValid(shape) || !x || !weight || !bias || !y || !mean || !rstd
        || workspaceBytes < groupNormWorkspaceBytes(impl, GroupNormDirection::Forward, dtype, shape)
        || (workspaceBytes > 0 && !workspace))
        return cudaErrorInvalidValue;
    detail::ForwardArgs args;
    args.dtype = dtype;
    args.shape = shape;
    args.x = x;
    args.weight = weight;
    args.bias = bias;
    args.y = y;
    args.mean = mean;
    args.rstd = rstd;
    args.workspace = workspace;
    args.stream = stream;
    return impl == GroupNormImpl::Reference ? detail::referenceForward(args) : detail::fusedForward(args);
}

cudaError_t groupNormBackward(GroupNormImpl impl, gn::DType dtype, const GroupNormShape& shape, const void* dy,
    const void* x, const float* weight, const float* mean, const float* rstd, void* dx, float* dweight, float* dbias,
    void* workspace, std::size_t workspaceBytes, cudaStream_t stream)
{
    const std::size_t needed = groupNormWorkspaceBytes(impl, GroupNormDirection::Backward, dtype, shape);
    if (!shapeValid(shape) || !dy || !x || !weight || !mean || !rstd || !dx || !dweight || !dbias
        || workspaceBytes < needed || !workspace)
        return cudaErrorInvalidValue;
    detail::BackwardArgs args;
    args.dtype = dtype;
    args.shape = shape;
    args.dy = dy;
    args.x = x;
    args.weight = weight;
    args.mean = mean;
    args.rstd = rstd;
    args.dx = dx;
    args.dweight = dweight;
    args.dbias = dbias;
    args.workspace = workspace;
    args.stream = stream;
    return impl == GroupNormImpl::Reference ? detail::referenceBackward(args) : detail::fusedBackward(args);
}

const char* fusedLaunchDescription(gn::DType dtype, const GroupNormShape& shape, GroupNormDirection direction,
    bool aligned, char* buffer, std::size_t bufferSize)
{
    if (!buffer || bufferSize == 0)
        return "";
    const detail::FusedPlan plan = detail::fusedPlan(dtype, shape, direction, aligned);
    if (!plan.resident) {
        std::snprintf(buffer, bufferSize, "row of %lld elements not resident: reference kernels",
            static_cast<long long>(shape.rowLength()));
    } else {
        std::snprintf(buffer, bufferSize,
            "resident rows: %d threads/row, %d rows/block, %d elements/thread, %s, %zu B shared", plan.threadsPerRow,
            plan.rowsPerBlock, plan.elemsPerThread, plan.vectorized ? "16-byte loads" : "scalar loads",
            plan.sharedBytes);
    }
    return buffer;
}

} // namespace kix::cuda
