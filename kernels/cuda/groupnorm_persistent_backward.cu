// SPDX-License-Identifier: Apache-2.0
// kix-persistent backward: the persistent row walk of the forward (next row's x and dy, mean and rstd in
// flight while this row is reduced). Each row's per-(n, c) sums go to the workspace once, with plain stores:
// no fence and no arrival counter in the row loop (issue 21: a __threadfence per row made warp 0 wait for its
// own next-row prefetch, and the last arrivals put every group reduction on warp 0 in the last wave). The
// kernel boundary orders them; kix-fused's channelReduceKernel then sums them over n in a fixed order, so
// dweight and dbias are bitwise reproducible.

#include "kernels/cuda/groupnorm_persistent.cuh"

#include <climits>

namespace kix::cuda::detail {
namespace {

struct BackwardParams
{
    const float* __restrict__ weight;
    const float* __restrict__ mean;
    const float* __restrict__ rstd;
    float2* __restrict__ partials; // M x C pairs (sum dy * x-hat, sum dy), row-major over (n, c)
    std::int64_t rows;
    int rowLength;
    int hidden;
    int channelsPerGroup;
    int groups;
    float invLength;
};

// Thread t of a row holds vectors k * kTpr + t, as in kix-fused. Per-channel sums: a warp sum per span of 32
// vectors (a plain butterfly when the span lies in one channel, which the seed's spans all do; else the
// segmented sum), one partial per (span, channel) into shared memory, added in span order per channel.
template<gn::DType D, int kTpr, int kVpt, int kVec>
__global__ void __launch_bounds__(kTpr) persistentBackwardKernel(const StorageT<D>* __restrict__ dy,
    const StorageT<D>* __restrict__ x, StorageT<D>* __restrict__ dx, BackwardParams p)
{
    using R = RawT<D, kVec>;
    constexpr int kElems = kVpt * kVec;
    constexpr int kWarps = kTpr / 32;
    constexpr int kSpans = kVpt * kWarps;
    constexpr int kNoChannel = INT_MAX;
    KIX_DYNAMIC_SHARED(float2, heads); // kSpans span partials, then channelsPerGroup channel starts
    __shared__ float2 scratch[kWarps];
    const int t = threadIdx.x;
    const int warp = t / 32;
    const int lane = t % 32;

    // Row-invariant layout, computed once: each vector's channel, where its warp partial goes (-1: not a
    // segment head), and which spans lie inside one channel (warp-uniform bits).
    int channel[kVpt];
    int headSlot[kVpt];
    unsigned uniformSpans = 0;
#pragma unroll
    for (int k = 0; k < kVpt; ++k) {
        const int e = (k * kTpr + t) * kVec;
        const bool valid = e < p.rowLength;
        channel[k] = valid ? e / p.hidden : kNoChannel;
        const bool head = valid && (lane == 0 || (e - kVec) / p.hidden != channel[k]);
        headSlot[k] = !head ? -1 : e == channel[k] * p.hidden ? kSpans + channel[k] : k * kWarps + warp;
        const int first = (k * kTpr + warp * 32) * kVec, last = first + 32 * kVec - 1;
        if (last < p.rowLength && first / p.hidden == last / p.hidden)
            uniformSpans |= 1u << k;
    }

    const std::int64_t stride = gridDim.x;
    const int groupStep = static_cast<int>(stride % p.groups);
    std::int64_t row = blockIdx.x;
    int group = static_cast<int>(row % p.groups);

    auto load = [&](std::int64_t r, R* xr, R* dr, float2& stats) {
        const std::int64_t offset = r * p.rowLength;
#pragma unroll
        for (int k = 0; k < kVpt; ++k) {
            const bool valid = channel[k] != kNoChannel;
            xr[k] = valid ? loadStreaming<D, kVec>(x + offset + (k * kTpr + t) * kVec) : rawZero<D, kVec>();
            dr[k] = valid ? loadStreaming<D, kVec>(dy + offset + (k * kTpr + t) * kVec) : rawZero<D, kVec>();
        }
        stats = make_float2(__ldg(p.mean + r), __ldg(p.rstd + r));
    };

    auto process = [&](const R* xr, const R* dr, float2 stats) {
        float xv[kElems]; // x, then x-hat
        float gv[kElems]; // dy, then g = w * dy
#pragma unroll
        for (int k = 0; k < kVpt; ++k) {
            unpack<D, kVec>(xr[k], xv + k * kVec);
            unpack<D, kVec>(dr[k], gv + k * kVec);
        }
        const float mu = stats.x, r = stats.y;
        const int c0 = group * p.channelsPerGroup;
        float2* spanHeads = heads;
        float2 rowAcc = make_float2(0.f, 0.f); // x: sum g * x-hat, y: sum g
#pragma unroll
        for (int k = 0; k < kVpt; ++k) {
            float2 chanAcc = make_float2(0.f, 0.f); // x: sum dy * x-hat, y: sum dy
            if (channel[k] != kNoChannel) {
                const float w = __ldg(p.weight + c0 + channel[k]);
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
            const float2 seg = (uniformSpans >> k) & 1u ? warpSum(chanAcc) : warpSegmentedSum(chanAcc, channel[k]);
            if (headSlot[k] >= 0)
                spanHeads[headSlot[k]] = seg;
        }
        const float2 sums = rowSum<kTpr>(rowAcc, scratch); // its barrier also publishes the heads

        // Per-channel totals in span order: the channel's first partial, then each span that starts strictly
        // inside the channel.
        const float2* channelStarts = heads + kSpans;
        const int vectorsPerChannel = p.hidden / kVec;
        for (int c = t; c < p.channelsPerGroup; c += kTpr) {
            float2 total = channelStarts[c];
            const int v0 = c * vectorsPerChannel, v1 = (c + 1) * vectorsPerChannel;
            for (int span = v0 / 32 + 1; span * 32 < v1; ++span) {
                total.x += spanHeads[span].x;
                total.y += spanHeads[span].y;
            }
            p.partials[row * p.channelsPerGroup + c] = total; // (n * C + g * cpg + c)
        }
        __syncthreads(); // the heads are read before the next row writes them
        const std::int64_t offset = row * p.rowLength;
#pragma unroll
        for (int k = 0; k < kVpt; ++k) {
            if (channel[k] != kNoChannel) {
                float out[kVec];
#pragma unroll
                for (int j = 0; j < kVec; ++j)
                    out[j] = gn::backwardDx(gv[k * kVec + j], xv[k * kVec + j], r, sums.y, sums.x, p.invLength);
                storeStreaming<D, kVec>(dx + offset + (k * kTpr + t) * kVec, out);
            }
        }
    };

    auto advance = [&] {
        row += stride;
        group += groupStep;
        if (group >= p.groups)
            group -= p.groups;
    };

    // The next row's x, dy, mean and rstd are loaded before this row is reduced and moved into place after
    // it. (Two buffers used in turn, as the forward does, cost ptxas 22-26 more registers here: 98 against 72
    // for fp32, 112 against 90 for bf16, one block less per SM either way.)
    R xa[kVpt], da[kVpt], xb[kVpt], db[kVpt];
    float2 sa = make_float2(0.f, 0.f), sb = sa;
    if (row < p.rows)
        load(row, xa, da, sa);
    while (row < p.rows) {
        if (row + stride < p.rows)
            load(row + stride, xb, db, sb);
        process(xa, da, sa);
        advance();
#pragma unroll
        for (int k = 0; k < kVpt; ++k) {
            xa[k] = xb[k];
            da[k] = db[k];
        }
        sa = sb;
    }
}

template<gn::DType D, int kTpr, int kElems, int kVec>
cudaError_t launch(const BackwardArgs& a, const FusedPlan& plan)
{
    static_assert(kElems % kVec == 0, "whole vectors per thread");
    const GroupNormShape& s = a.shape;
    BackwardParams p;
    p.weight = a.weight;
    p.mean = a.mean;
    p.rstd = a.rstd;
    p.partials = static_cast<float2*>(a.workspace);
    p.rows = s.rows();
    p.rowLength = static_cast<int>(s.rowLength());
    p.hidden = static_cast<int>(s.hidden);
    p.channelsPerGroup = static_cast<int>(s.channelsPerGroup);
    p.groups = static_cast<int>(s.groups());
    p.invLength = 1.0f / static_cast<float>(s.rowLength());
    const auto kernel = persistentBackwardKernel<D, kTpr, kElems / kVec, kVec>;
    unsigned grid = 0;
    KIX_CUDA_RETURN_IF_ERROR(allowSharedMemory(kernel, plan)); // before the occupancy query, which depends on it
    KIX_CUDA_RETURN_IF_ERROR(persistentGrid(kernel, kTpr, plan.sharedBytes, p.rows, grid));
    KIX_LAUNCH(kernel, grid, kTpr, plan.sharedBytes, a.stream)
    (static_cast<const StorageT<D>*>(a.dy), static_cast<const StorageT<D>*>(a.x), static_cast<StorageT<D>*>(a.dx), p);
    KIX_CUDA_RETURN_IF_ERROR(cudaGetLastError());
    return launchChannelReduce(a.workspace, s.batch, s.channels, 1, a.dweight, a.dbias, a.stream);
}

// The shapes persistentPlan() chooses for backward: 64..512 threads per row, 32 bytes per thread.
template<gn::DType D, int kVec>
cudaError_t dispatch(const BackwardArgs& a, const FusedPlan& p)
{
    constexpr int kBase = sizeof(StorageT<D>) == 4 ? 8 : 16;
    if (p.elemsPerThread != kBase)
        return cudaErrorInvalidConfiguration;
    switch (p.threadsPerRow) {
    case 64:
        return launch<D, 64, kBase, kVec>(a, p);
    case 128:
        return launch<D, 128, kBase, kVec>(a, p);
    case 256:
        return launch<D, 256, kBase, kVec>(a, p);
    case 512:
        return launch<D, 512, kBase, kVec>(a, p);
    default: // 1024 threads would spill at their 64 registers: persistentPlan() leaves those rows to kix-fused
        return cudaErrorInvalidConfiguration;
    }
}

template<gn::DType D>
cudaError_t backwardTyped(const BackwardArgs& a, const FusedPlan& p)
{
    return p.vectorized ? dispatch<D, kVecElems<D>>(a, p) : cudaErrorInvalidConfiguration; // see persistentPlan()
}

} // namespace

cudaError_t persistentBackward(const BackwardArgs& a)
{
    const bool aligned = isAligned16(a.x) && isAligned16(a.dy) && isAligned16(a.dx);
    const FusedPlan plan = persistentPlan(a.dtype, a.shape, GroupNormDirection::Backward, aligned);
    if (!plan.resident)
        return fusedBackward(a);
    return gn::dispatchDtype(
        a.dtype, [&](auto tag) { return backwardTyped<decltype(tag)::value>(a, plan); }, cudaErrorInvalidValue);
}

} // namespace kix::cuda::detail
