// SPDX-License-Identifier: Apache-2.0
// kix-fused backward: each row's x and dy are read once into registers; dx is written once; the per-(n, c)
// sums of dy * x-hat and dy go to a workspace (one pair per (n, c), written once, no atomics) and a small
// kernel reduces them over n in a fixed order, so dweight and dbias are bitwise reproducible.
// Rows longer than a block holds go to the reference kernels (see fusedPlan()).

#include "kernels/cuda/groupnorm_device.cuh"
#include "kernels/cuda/groupnorm_internal.h"

#include <climits>

namespace kix::cuda::detail {
namespace {

// Layout as in the forward kernel: thread t of a row holds vectors k * kTpr + t (kVec elements each, one
// channel per vector). Per-channel sums: a segmented sum over each warp's 32 vectors leaves one partial
// per (warp span, channel) at the span's first lane of that channel; those partials go to shared memory
// (a channel's first one at channelStarts[c], a span that continues a channel at spanHeads[span]) and
// are then added in span order. Dynamic shared memory: kRpb * (kVpt * kTpr / 32 + channelsPerGroup) pairs.
template<gn::DType D, int kTpr, int kRpb, int kVpt, int kVec>
__global__ void __launch_bounds__(kTpr* kRpb, (fusedMinBlocks<D, kTpr, kVpt, kVec>()))
    fusedBackwardKernel(const StorageT<D>* __restrict__ dy, const StorageT<D>* __restrict__ x,
        const float* __restrict__ weight, const float* __restrict__ mean, const float* __restrict__ rstd,
        StorageT<D>* __restrict__ dx, float2* __restrict__ partials, std::int64_t rows, int rowLength, int hidden,
        int channelsPerGroup, unsigned groups, float invL)
{
    static_assert(kRpb == 1 || kTpr == 32, "several rows per block only with a warp per row");
    constexpr int kElems = kVpt * kVec;
    constexpr int kWarps = kTpr > 32 ? kTpr / 32 : 1;
    constexpr int kSpans = kVpt * kWarps;
    constexpr int kNoChannel = INT_MAX; // segment key of vectors past the row end
    KIX_DYNAMIC_SHARED(float2, heads);
    __shared__ float2 scratch[kWarps];
    const int t = threadIdx.x % kTpr;
    const int warp = t / 32;
    const int lane = t % 32;
    float2* spanHeads = heads + (threadIdx.x / kTpr) * (kSpans + channelsPerGroup);
    float2* channelStarts = spanHeads + kSpans;

    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * kRpb;
    for (std::int64_t first = blockIdx.x * static_cast<std::int64_t>(kRpb); first < rows; first += stride) {
        const std::int64_t row = first + threadIdx.x / kTpr;
        if (kRpb == 1 || row < rows) { // a skipped row is a whole warp, and kRpb > 1 has no block barriers
            const std::int64_t offset = row * rowLength;
            float xv[kElems]; // x, then x-hat
            float gv[kElems]; // dy, then g = w * dy
#pragma unroll
            for (int k = 0; k < kVpt; ++k) {
                const int e = (k * kTpr + t) * kVec;
                if (e < rowLength) {
                    loadElems<D, kVec>(x + offset + e, xv + k * kVec);
                    loadElems<D, kVec>(dy + offset + e, gv + k * kVec);
                } else {
#pragma unroll
                    for (int j = 0; j < kVec; ++j)
                        xv[k * kVec + j] = gv[k * kVec + j] = 0.f;
                }
            }
            const float mu = mean[row], r = rstd[row];
            const std::int64_t c0 = groupOf(row, groups) * channelsPerGroup;

            float2 rowAcc = make_float2(0.f, 0.f); // x: sum g * x-hat, y: sum g
#pragma unroll
            for (int k = 0; k < kVpt; ++k) {
                const int e = (k * kTpr + t) * kVec;
                const bool valid = e < rowLength;
                const int channel = valid ? e / hidden : kNoChannel;
                float2 chanAcc = make_float2(0.f, 0.f); // x: sum dy * x-hat, y: sum dy
                if (valid) {
                    const float w = __ldg(weight + c0 + channel);
#pragma unroll
                    for (int j = 0; j < kVec; ++j) {
                        const int i = k * kVec + j;
                        const float xhat = (xv[i] - mu) * r;
                        const float g = w * gv[i];
                        rowAcc.x += g * xhat;
                        rowAcc.y += g;
                        chanAcc.x += gv[i] * xhat;
                        chanAcc.y += gv[i];
                        xv[i] = xhat;
                        gv[i] = g;
                    }
                }
                const float2 seg = warpSegmentedSum(chanAcc, channel);
                const int previous = __shfl_up_sync(kFullMask, channel, 1);
                if (valid && (lane == 0 || previous != channel)) {
                    if (e == channel * hidden)
                        channelStarts[channel] = seg;
                    else // lane 0 of a span inside the channel
                        spanHeads[k * kWarps + warp] = seg;
                }
            }
            const float2 sums = rowSum<kTpr>(rowAcc, scratch); // its barrier also publishes the heads
            if constexpr (kTpr == 32)
                __syncwarp();

            // Per-channel totals in span order: the channel's first partial, then each span that starts
            // strictly inside the channel (vector indices (v0, v1)).
            for (int c = t; c < channelsPerGroup; c += kTpr) {
                float2 total = channelStarts[c];
                const int v0 = c * (hidden / kVec), v1 = (c + 1) * (hidden / kVec);
                for (int span = v0 / 32 + 1; span * 32 < v1; ++span) {
                    total.x += spanHeads[span].x;
                    total.y += spanHeads[span].y;
                }
                partials[row * channelsPerGroup + c] = total; // (n * C + g * cpg + c)
            }

#pragma unroll
            for (int k = 0; k < kVpt; ++k) {
                const int e = (k * kTpr + t) * kVec;
                if (e < rowLength) {
                    float out[kVec];
#pragma unroll
                    for (int j = 0; j < kVec; ++j)
                        out[j] = gn::backwardDx(gv[k * kVec + j], xv[k * kVec + j], r, sums.y, sums.x, invL);
                    storeElems<D, kVec>(dx + offset + e, out);
                }
            }
        }
        // The next row's head and scratch writes must wait for this row's reads.
        if (first + stride < rows) {
            if constexpr (kTpr == 32)
                __syncwarp();
            else
                __syncthreads();
        }
    }
}

template<gn::DType D, int kTpr, int kRpb, int kElems, int kVec>
cudaError_t launch(const BackwardArgs& a, const FusedPlan& p)
{
    static_assert(kElems % kVec == 0, "whole vectors per thread");
    const GroupNormShape& s = a.shape;
    const std::int64_t rows = s.rows();
    const auto kernel = fusedBackwardKernel<D, kTpr, kRpb, kElems / kVec, kVec>;
    KIX_CUDA_RETURN_IF_ERROR(allowSharedMemory(kernel, p)); // channel tables over 48 KiB with the scratch
    KIX_LAUNCH(kernel, gridFor(ceilDiv(rows, kRpb)), kTpr * kRpb, p.sharedBytes, a.stream)
    (static_cast<const StorageT<D>*>(a.dy), static_cast<const StorageT<D>*>(a.x), a.weight, a.mean, a.rstd,
        static_cast<StorageT<D>*>(a.dx), static_cast<float2*>(a.workspace), rows, static_cast<int>(s.rowLength()),
        static_cast<int>(s.hidden), static_cast<int>(s.channelsPerGroup), static_cast<unsigned>(s.groups()),
        1.0f / static_cast<float>(s.rowLength()));
    KIX_CUDA_RETURN_IF_ERROR(cudaGetLastError());
    return launchChannelReduce(a.workspace, s.batch, s.channels, 1, a.dweight, a.dbias, a.stream);
}

// Elements per thread: kBase (32 bytes of each input) or 2 x kBase (64 bytes; fusedPlan() also takes
// 16 fp32 values at 1024 threads). 16-bit rows never need 1024 x 32, so that one is not instantiated; nor
// are the scalar rows of 16 elements at 1024 threads, which spill at the 64 registers such a block allows
// (fusedPlan() leaves them to the reference kernels).
template<gn::DType D, int kTpr, int kRpb, int kVec>
cudaError_t byElems(const BackwardArgs& a, const FusedPlan& p)
{
    constexpr int kBase = sizeof(StorageT<D>) == 4 ? 8 : 16;
    if constexpr (kTpr < 1024 || kVec > 1 || kBase < 16) {
        if (p.elemsPerThread == kBase)
            return launch<D, kTpr, kRpb, kBase, kVec>(a, p);
    }
    if constexpr (kTpr < 1024 || (kBase == 8 && kVec > 1)) {
        if (p.elemsPerThread == 2 * kBase)
            return launch<D, kTpr, kRpb, 2 * kBase, kVec>(a, p);
    }
    return cudaErrorInvalidConfiguration;
}

// The launch shapes fusedPlan() can choose (kernels/cuda/README.md explains the table).
template<gn::DType D, int kVec>
cudaError_t dispatch(const BackwardArgs& a, const FusedPlan& p)
{
    switch (p.threadsPerRow) {
    case 32:
        return byElems<D, 32, 4, kVec>(a, p); // a warp per row, four rows per block
    case 64:
        return byElems<D, 64, 1, kVec>(a, p);
    case 128:
        return byElems<D, 128, 1, kVec>(a, p);
    case 256:
        return byElems<D, 256, 1, kVec>(a, p);
    case 512:
        return byElems<D, 512, 1, kVec>(a, p);
    case 1024:
        return byElems<D, 1024, 1, kVec>(a, p);
    default:
        return cudaErrorInvalidConfiguration;
    }
}

template<gn::DType D>
cudaError_t backwardTyped(const BackwardArgs& a, const FusedPlan& p)
{
    return p.vectorized ? dispatch<D, kVecElems<D>>(a, p) : dispatch<D, 1>(a, p);
}

} // namespace

cudaError_t fusedBackward(const BackwardArgs& a)
{
    const bool aligned = isAligned16(a.x) && isAligned16(a.dy) && isAligned16(a.dx);
    const FusedPlan plan = fusedPlan(a.dtype, a.shape, GroupNormDirection::Backward, aligned);
    if (!plan.resident)
        return referenceBackward(a);
    return gn::dispatchDtype(
        a.dtype, [&](auto tag) { return backwardTyped<decltype(tag)::value>(a, plan); }, cudaErrorInvalidValue);
}

} // namespace kix::cuda::detail
