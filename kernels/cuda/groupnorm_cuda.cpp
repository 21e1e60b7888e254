// SPDX-License-Identifier: Apache-2.0
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
constexpr std::int64_t kMaxFusedRows = 0xffffffffLL;
std::atomic<int> g_bytesPerThread { 32 };

} // namespace

KernelCache& launchCache()
{
    static KernelCache cache;
    return cache;
}

SharedPlan backwardSharedPlan(int threadsPerRow, int rowsPerBlock, int vectorsPerThread, std::int64_t channelsPerGroup)
{
    SharedPlan plan;
    const std::int64_t warps = threadsPerRow > 32 ? threadsPerRow / 32 : 1;
    const std::int64_t spans = static_cast<std::int64_t>(vectorsPerThread) * warps;
    plan.dynamicBytes = static_cast<std::size_t>(rowsPerBlock * (spans + channelsPerGroup)) * 2 * sizeof(float);
    plan.staticBytes = static_cast<std::size_t>(warps) * 2 * sizeof(float); // the kernels' `scratch`
    const std::size_t total = plan.dynamicBytes + plan.staticBytes;
    plan.optIn = total > kSharedWithoutOptIn;
    plan.fits = total <= kSharedPlanLimit;
    return plan;
}

FusedPlan fusedPlan(gn::DType dtype, const GroupNormShape& shape, GroupNormDirection direction, bool aligned)
{
    return fusedPlan(dtype, shape, direction, aligned, g_bytesPerThread.load(std::memory_order_relaxed));
}

FusedPlan fusedPlan(
    gn::DType dtype, const GroupNormShape& shape, GroupNormDirection direction, bool aligned, int bytesPerThread)
{
    FusedPlan plan;
    const std::int64_t length = shape.rowLength();
    // The kernels take the group of a row as a 32-bit remainder (groupOf()): more rows go to the reference.
    if (!shapeValid(shape) || length > kMaxResidentRow || shape.rows() > kMaxFusedRows)
        return plan;
    const int vecElems = gn::dtypeSize(dtype) == 4 ? 4 : 8; // 16 bytes
    // 32 bytes of each input per thread by default: two 16-byte loads in flight per tensor and thread.
    int elems = bytesPerThread / gn::dtypeSize(dtype);
    int threads = 32;
    while (threads < 1024 && static_cast<std::int64_t>(threads) * elems < length)
        threads *= 2;
    if (static_cast<std::int64_t>(threads) * elems < length)
        elems *= 2; // only fp32 at 32 bytes gets here: 1024 x 16 holds the longest resident row
    plan.vectorized = aligned && shape.hidden % vecElems == 0; // whole vectors inside one channel
    plan.threadsPerRow = threads;
    plan.rowsPerBlock = threads == 32 ? 4 : 1; // short rows: a warp per row, four rows per block
    plan.elemsPerThread = elems;
    // Backward scalar rows of 16 elements at 1024 threads (fp32 or 16-bit rows over 8192 elements with odd H or
    // misaligned pointers) spill at the 64 registers such a block allows: the reference kernels run them.
    if (direction == GroupNormDirection::Backward && !plan.vectorized && threads == 1024 && elems == 16)
        return FusedPlan {};
    if (direction == GroupNormDirection::Backward) {
        const SharedPlan shared = backwardSharedPlan(
            threads, plan.rowsPerBlock, elems / (plan.vectorized ? vecElems : 1), shape.channelsPerGroup);
        if (!shared.fits)
            return FusedPlan {}; // the channel table alone is too large: the reference kernels
        plan.sharedBytes = shared.dynamicBytes;
        plan.sharedOptIn = shared.optIn;
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

FusedPlan persistentPlan(gn::DType dtype, const GroupNormShape& shape, GroupNormDirection direction, bool aligned)
{
    FusedPlan plan = fusedPlan(dtype, shape, direction, aligned, 32);
    const std::int64_t maxInt = 0x7fffffff;
    // Scalar rows (odd H, misaligned pointers) stay with kix-fused: the per-thread channel table of a scalar
    // row costs 16 registers more than the persistent design can spend.
    // Backward rows that need 1024 threads (fp32 over 4096 elements, 16-bit over 8192) would spill at the 64
    // registers a 1024-thread block allows: kix-fused runs them.
    // The kernels index channels in int (c0 = group * channelsPerGroup, + the channel in the group: below C), so
    // C must fit an int too (issue 32: C over 2^31 - 1 overflowed c0).
    if (!plan.resident || !plan.vectorized || plan.rowsPerBlock != 1 || shape.batch > maxInt || shape.groups() > maxInt
        || shape.channels > maxInt || (direction == GroupNormDirection::Backward && plan.threadsPerRow > 512))
        return FusedPlan {};
    return plan;
}

std::size_t persistentWorkspaceBytes(GroupNormDirection direction, gn::DType dtype, const GroupNormShape& shape)
{
    // The plan (and so the fallback to kix-fused) may depend on the pointers' alignment: size for both.
    const std::size_t fallback = fusedWorkspaceBytes(direction, dtype, shape);
    if (direction == GroupNormDirection::Forward)
        return fallback;
    const std::size_t own = alignUp(static_cast<std::size_t>(shape.batch * shape.channels) * 2 * sizeof(float));
    return std::max(own, fallback);
}

} // namespace detail

cudaError_t resetDeviceAfterFault()
{
    const cudaError_t reset = cudaDeviceReset();
    detail::launchCache().clear(); // the reset cleared every kernel's shared-memory opt-in
    if (reset != cudaSuccess)
        return reset;
    (void)cudaGetLastError();
    return cudaDeviceSynchronize();
}

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
    switch (impl) {
    case GroupNormImpl::Reference:
        return "kix-reference";
    case GroupNormImpl::Fused:
        return "kix-fused";
    case GroupNormImpl::Persistent:
        return "kix-persistent";
    }
    return "";
}

bool implFromName(const char* name, GroupNormImpl& impl)
{
    if (!name)
        return false;
    for (GroupNormImpl candidate : kAllImpls) {
        if (std::strcmp(name, implName(candidate)) == 0) {
            impl = candidate;
            return true;
        }
    }
    return false;
}

const char* implAlgorithm(GroupNormImpl impl)
{
    switch (impl) {
    case GroupNormImpl::Reference:
        return "chunked row moments (two-pass per 4096-element chunk, Chan merge), elementwise normalize; backward "
               "per-(n, c) sums, per-row sums, elementwise dx, dweight/dbias over n in a fixed order";
    case GroupNormImpl::Fused:
        return "one (n, g) row per block (or per warp, 4 per block, for rows <= 32 x elements/thread) resident in "
               "registers, 16-byte loads when aligned; exact two-pass fp32 variance from registers; centred affine; "
               "backward reads x and dy once, per-(n, c) partials by segmented warp sums reduced over n in a fixed "
               "order; rows over 16384 elements fall back to the reference kernels";
    case GroupNormImpl::Persistent:
        return "kix-fused's resident rows on a persistent grid (SMs x resident blocks) that loads row i+1 (streaming "
               "16-byte loads, raw storage words) while reducing row i; channel index and 1/L without divisions, "
               "scalar warp sums, hardware bf16/fp16 conversions, streaming stores; backward writes per-(n, c) "
               "partials "
               "with plain stores (no fence or counter per row) and kix-fused's channel reduction sums them over n "
               "in a fixed order; shapes that are not one row per block of >= 64 threads run kix-fused";
    }
    return "";
}

const char* implLaunchPolicy(GroupNormImpl impl)
{
    switch (impl) {
    case GroupNormImpl::Reference:
        return "256 threads per block, 4096 elements per block";
    case GroupNormImpl::Fused:
        return "32 bytes of each input per thread (fp32 8, 16-bit 16 elements); threads per row the smallest power "
               "of two >= 32 holding the row, up to 1024 (fp32 then 16 elements)";
    case GroupNormImpl::Persistent:
        return "kix-fused's threads per row and elements per thread at 32 bytes, one row per block; grid = SMs x "
               "blocks per SM from the occupancy API (capped at the row count, one query per kernel, block size and "
               "shared bytes); backward adds the channel reduction (C / 8 blocks of 256 threads)";
    }
    return "";
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
    switch (impl) {
    case GroupNormImpl::Reference:
        return detail::referenceWorkspaceBytes(direction, shape);
    case GroupNormImpl::Fused:
        return detail::fusedWorkspaceBytes(direction, dtype, shape);
    case GroupNormImpl::Persistent:
        return detail::persistentWorkspaceBytes(direction, dtype, shape);
    }
    return 0;
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
    switch (impl) {
    case GroupNormImpl::Reference:
        return detail::referenceForward(args);
    case GroupNormImpl::Fused:
        return detail::fusedForward(args);
    case GroupNormImpl::Persistent:
        return detail::persistentForward(args);
    }
    return cudaErrorInvalidValue;
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
    switch (impl) {
    case GroupNormImpl::Reference:
        return detail::referenceBackward(args);
    case GroupNormImpl::Fused:
        return detail::fusedBackward(args);
    case GroupNormImpl::Persistent:
        return detail::persistentBackward(args);
    }
    return cudaErrorInvalidValue;
}

const char* launchDescription(GroupNormImpl impl, gn::DType dtype, const GroupNormShape& shape,
    GroupNormDirection direction, bool aligned, char* buffer, std::size_t bufferSize)
{
    if (!buffer || bufferSize == 0)
        return "";
    if (impl == GroupNormImpl::Reference) {
        std::snprintf(buffer, bufferSize, "reference kernels");
        return buffer;
    }
    if (impl == GroupNormImpl::Fused)
        return fusedLaunchDescription(dtype, shape, direction, aligned, buffer, bufferSize);
    const detail::FusedPlan plan = detail::persistentPlan(dtype, shape, direction, aligned);
    if (!plan.resident) {
        const int used = std::snprintf(buffer, bufferSize, "not one row per block: kix-fused, ");
        if (used > 0 && static_cast<std::size_t>(used) < bufferSize)
            fusedLaunchDescription(dtype, shape, direction, aligned, buffer + used, bufferSize - used);
        return buffer;
    }
    std::snprintf(buffer, bufferSize,
        "persistent rows: %d threads/row, grid SMs x resident blocks, %d elements/thread, %s, next row prefetched, "
        "%zu B shared",
        plan.threadsPerRow, plan.elemsPerThread, plan.vectorized ? "16-byte streaming loads" : "scalar streaming loads",
        plan.sharedBytes);
    return buffer;
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
