// SPDX-License-Identifier: Apache-2.0
// kix-reference: GroupNorm the plain multi-kernel way, the honest baseline the fused kernels are
// measured against. Forward: chunked row moments (exact two-pass within each chunk), a per-row Chan merge,
// an elementwise normalize that reads x again. Backward: per-(n, c) sums of dy * x-hat and dy, per-row
// sums from those, an elementwise dx that reads x and dy again, then dweight/dbias over n.
// Every kernel is correct for any shape (64-bit offsets, rows of any length, any H).

#include "kernels/cuda/groupnorm_device.cuh"
#include "kernels/cuda/groupnorm_internal.h"

#include <algorithm>
#include <climits>

namespace kix::cuda::detail {
namespace {

constexpr int kThreads = 256;

// Elements of the chunk that starts at `begin` of a run of `total`.
__device__ __forceinline__ int chunkLength(std::int64_t total, std::int64_t begin)
{
    const std::int64_t rest = total - begin;
    return static_cast<int>(rest < kReferenceChunk ? rest : kReferenceChunk);
}

// e / d for non-negative values; 32-bit division when both fit (64-bit division is a long subroutine).
__device__ __forceinline__ std::int64_t divide(std::int64_t e, std::int64_t d)
{
    if (e <= UINT_MAX && d <= UINT_MAX)
        return static_cast<unsigned>(e) / static_cast<unsigned>(d);
    return e / d;
}

// One block per (row, chunk): count, mean and sum of squared deviations of the chunk.
template<gn::DType D>
__global__ void __launch_bounds__(kThreads) chunkMomentsKernel(
    const StorageT<D>* x, std::int64_t rows, std::int64_t rowLength, std::int64_t chunks, float3* moments)
{
    __shared__ float2 scratchA[kThreads / 32];
    __shared__ float2 scratchB[kThreads / 32];
    for (std::int64_t b = blockIdx.x; b < rows * chunks; b += gridDim.x) {
        const std::int64_t row = b / chunks;
        const std::int64_t begin = (b % chunks) * kReferenceChunk;
        const int count = chunkLength(rowLength, begin);
        const StorageT<D>* p = x + row * rowLength + begin;
        float sum = 0;
        for (int i = threadIdx.x; i < count; i += kThreads)
            sum += Storage<D>::load(p + i);
        const float chunkMean = rowSum<kThreads>(make_float2(sum, 0.f), scratchA).x / count;
        float squares = 0;
        for (int i = threadIdx.x; i < count; i += kThreads) { // second pass: from L1/L2, exact deviations
            const float d = Storage<D>::load(p + i) - chunkMean;
            squares += d * d;
        }
        squares = rowSum<kThreads>(make_float2(squares, 0.f), scratchB).x;
        if (threadIdx.x == 0)
            moments[b] = make_float3(static_cast<float>(count), chunkMean, squares);
    }
}

// One thread per row: merges the chunks in order (Chan et al.) and writes mean and rstd.
__global__ void mergeMomentsKernel(const float3* moments, std::int64_t rows, std::int64_t rowLength,
    std::int64_t chunks, float eps, float* mean, float* rstd)
{
    for (std::int64_t row = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; row < rows;
         row += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
        const float3* m = moments + row * chunks;
        double n = m[0].x, mu = m[0].y, m2 = m[0].z; // double: counts beyond 2^24, tiny kernel
        for (std::int64_t k = 1; k < chunks; ++k) {
            const double nb = m[k].x, delta = m[k].y - mu, total = n + nb;
            mu += delta * nb / total;
            m2 += m[k].z + delta * delta * n * nb / total;
            n = total;
        }
        mean[row] = static_cast<float>(mu);
        rstd[row] = gn::rstdFromVariance(static_cast<float>(m2 / static_cast<double>(rowLength)), eps);
    }
}

// One block per (row, chunk): y = (x - mean) * a_c + b_c, a_c = w_c * rstd.
template<gn::DType D>
__global__ void __launch_bounds__(kThreads) normalizeKernel(const StorageT<D>* x, const float* weight,
    const float* bias, const float* mean, const float* rstd, StorageT<D>* y, std::int64_t rows, std::int64_t rowLength,
    std::int64_t chunks, std::int64_t hidden, std::int64_t groups, std::int64_t channelsPerGroup)
{
    for (std::int64_t b = blockIdx.x; b < rows * chunks; b += gridDim.x) {
        const std::int64_t row = b / chunks;
        const std::int64_t begin = (b % chunks) * kReferenceChunk;
        const int count = chunkLength(rowLength, begin);
        const std::int64_t c0 = (row % groups) * channelsPerGroup;
        const float mu = mean[row], r = rstd[row];
        const std::int64_t offset = row * rowLength + begin;
        for (int i = threadIdx.x; i < count; i += kThreads) {
            const std::int64_t c = c0 + divide(begin + i, hidden);
            const float a = gn::forwardScale(weight[c], r);
            const float v = gn::normalizeCentered(Storage<D>::load(x + offset + i), mu, a, bias[c]);
            y[offset + i] = Storage<D>::fromFloat(v);
        }
    }
}

// One block per ((n, c), chunk of H): sum of dy * x-hat and of dy.
template<gn::DType D>
__global__ void __launch_bounds__(kThreads) channelSumsKernel(const StorageT<D>* dy, const StorageT<D>* x,
    const float* mean, const float* rstd, std::int64_t batchChannels, std::int64_t channels, std::int64_t hidden,
    std::int64_t chunks, std::int64_t channelsPerGroup, float2* partials)
{
    __shared__ float2 scratch[kThreads / 32];
    for (std::int64_t b = blockIdx.x; b < batchChannels * chunks; b += gridDim.x) {
        const std::int64_t nc = b / chunks; // n * C + c
        const std::int64_t begin = (b % chunks) * kReferenceChunk;
        const int count = chunkLength(hidden, begin);
        const std::int64_t row = (nc / channels) * (channels / channelsPerGroup) + (nc % channels) / channelsPerGroup;
        const float mu = mean[row], r = rstd[row];
        const std::int64_t offset = nc * hidden + begin;
        float2 s = make_float2(0.f, 0.f);
        for (int i = threadIdx.x; i < count; i += kThreads) {
            const float d = Storage<D>::load(dy + offset + i);
            s.x += d * ((Storage<D>::load(x + offset + i) - mu) * r);
            s.y += d;
        }
        s = rowSum<kThreads>(s, scratch);
        if (threadIdx.x == 0)
            partials[b] = s;
        __syncthreads(); // scratch is reused by the next iteration
    }
}

// One thread per row: sum of g = w * dy and of g * x-hat from the per-channel sums, in channel order.
__global__ void rowSumsKernel(const float2* partials, const float* weight, std::int64_t rows, std::int64_t groups,
    std::int64_t channelsPerGroup, std::int64_t chunks, float2* rowSums)
{
    for (std::int64_t row = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; row < rows;
         row += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
        const std::int64_t c0 = (row % groups) * channelsPerGroup;
        float2 total = make_float2(0.f, 0.f); // x: sum g * x-hat, y: sum g
        for (std::int64_t j = 0; j < channelsPerGroup; ++j) {
            const float2* p = partials + (row * channelsPerGroup + j) * chunks; // (n*C + c0 + j) * chunks
            float2 s = make_float2(0.f, 0.f);
            for (std::int64_t k = 0; k < chunks; ++k) {
                s.x += p[k].x;
                s.y += p[k].y;
            }
            total.x += weight[c0 + j] * s.x;
            total.y += weight[c0 + j] * s.y;
        }
        rowSums[row] = total;
    }
}

// One block per (row, chunk): dx = rstd * (g - (sum g + x-hat * sum g x-hat) / L).
template<gn::DType D>
__global__ void __launch_bounds__(kThreads)
    dxKernel(const StorageT<D>* dy, const StorageT<D>* x, const float* weight, const float* mean, const float* rstd,
        const float2* rowSums, StorageT<D>* dx, std::int64_t rows, std::int64_t rowLength, std::int64_t chunks,
        std::int64_t hidden, std::int64_t groups, std::int64_t channelsPerGroup)
{
    const float invL = 1.0f / static_cast<float>(rowLength);
    for (std::int64_t b = blockIdx.x; b < rows * chunks; b += gridDim.x) {
        const std::int64_t row = b / chunks;
        const std::int64_t begin = (b % chunks) * kReferenceChunk;
        const int count = chunkLength(rowLength, begin);
        const std::int64_t c0 = (row % groups) * channelsPerGroup;
        const float mu = mean[row], r = rstd[row];
        const float2 sums = rowSums[row];
        const std::int64_t offset = row * rowLength + begin;
        for (int i = threadIdx.x; i < count; i += kThreads) {
            const float g = weight[c0 + divide(begin + i, hidden)] * Storage<D>::load(dy + offset + i);
            const float xhat = (Storage<D>::load(x + offset + i) - mu) * r;
            dx[offset + i] = Storage<D>::fromFloat(gn::backwardDx(g, xhat, r, sums.y, sums.x, invL));
        }
    }
}

// Block of kReduceChannelsPerBlock channels x kReduceSlices slices of n; each slice sums its n range in order,
// then the slices are added in order.
__global__ void __launch_bounds__(kReduceChannelsPerBlock* kReduceSlices) channelReduceKernel(
    const float2* partials, std::int64_t batch, std::int64_t channels, std::int64_t parts, float* dweight, float* dbias)
{
    // threadIdx.x: one of the block's kReduceChannelsPerBlock channels (8 float pairs: 64 contiguous bytes
    // per n, whole sectors); threadIdx.y: slice y of n, summed in order; the slices then added in order.
    __shared__ float2 sums[kReduceSlices][kReduceChannelsPerBlock];
    const std::int64_t perSlice = (batch + kReduceSlices - 1) / kReduceSlices;
    for (std::int64_t c0 = blockIdx.x * static_cast<std::int64_t>(kReduceChannelsPerBlock); c0 < channels;
         c0 += static_cast<std::int64_t>(gridDim.x) * kReduceChannelsPerBlock) {
        const std::int64_t c = c0 + threadIdx.x;
        float2 s = make_float2(0.f, 0.f);
        if (c < channels) {
            const std::int64_t nEnd = std::min(batch, (threadIdx.y + 1) * perSlice);
            for (std::int64_t n = threadIdx.y * perSlice; n < nEnd; ++n) {
                const float2* p = partials + (n * channels + c) * parts;
                for (std::int64_t k = 0; k < parts; ++k) {
                    const float2 v = __ldcg(p + k); // written by the previous kernel, read once
                    s.x += v.x;
                    s.y += v.y;
                }
            }
        }
        sums[threadIdx.y][threadIdx.x] = s;
        __syncthreads();
        if (threadIdx.y == 0 && c < channels) {
            float2 total = sums[0][threadIdx.x];
            for (int i = 1; i < kReduceSlices; ++i) {
                total.x += sums[i][threadIdx.x].x;
                total.y += sums[i][threadIdx.x].y;
            }
            dweight[c] = total.x;
            dbias[c] = total.y;
        }
        __syncthreads();
    }
}

template<gn::DType D>
cudaError_t forwardTyped(const ForwardArgs& a)
{
    const GroupNormShape& s = a.shape;
    const std::int64_t rows = s.rows(), rowLength = s.rowLength();
    const std::int64_t chunks = ceilDiv(rowLength, kReferenceChunk);
    auto* moments = static_cast<float3*>(a.workspace);
    const auto* x = static_cast<const StorageT<D>*>(a.x);
    KIX_LAUNCH(chunkMomentsKernel<D>, gridFor(rows * chunks), kThreads, 0, a.stream)
    (x, rows, rowLength, chunks, moments);
    KIX_CUDA_RETURN_IF_ERROR(cudaGetLastError());
    KIX_LAUNCH(mergeMomentsKernel, gridFor(ceilDiv(rows, kThreads)), kThreads, 0, a.stream)
    (moments, rows, rowLength, chunks, s.eps, a.mean, a.rstd);
    KIX_CUDA_RETURN_IF_ERROR(cudaGetLastError());
    KIX_LAUNCH(normalizeKernel<D>, gridFor(rows * chunks), kThreads, 0, a.stream)
    (x, a.weight, a.bias, a.mean, a.rstd, static_cast<StorageT<D>*>(a.y), rows, rowLength, chunks, s.hidden, s.groups(),
        s.channelsPerGroup);
    return cudaGetLastError();
}

template<gn::DType D>
cudaError_t backwardTyped(const BackwardArgs& a)
{
    const GroupNormShape& s = a.shape;
    const std::int64_t rows = s.rows(), rowLength = s.rowLength();
    const std::int64_t hChunks = ceilDiv(s.hidden, kReferenceChunk);
    const std::int64_t batchChannels = s.batch * s.channels;
    auto* partials = static_cast<float2*>(a.workspace);
    auto* rowSums = reinterpret_cast<float2*>(
        static_cast<char*>(a.workspace) + alignUp(static_cast<std::size_t>(batchChannels * hChunks) * 8));
    const auto* x = static_cast<const StorageT<D>*>(a.x);
    const auto* dy = static_cast<const StorageT<D>*>(a.dy);
    KIX_LAUNCH(channelSumsKernel<D>, gridFor(batchChannels * hChunks), kThreads, 0, a.stream)
    (dy, x, a.mean, a.rstd, batchChannels, s.channels, s.hidden, hChunks, s.channelsPerGroup, partials);
    KIX_CUDA_RETURN_IF_ERROR(cudaGetLastError());
    KIX_LAUNCH(rowSumsKernel, gridFor(ceilDiv(rows, kThreads)), kThreads, 0, a.stream)
    (partials, a.weight, rows, s.groups(), s.channelsPerGroup, hChunks, rowSums);
    KIX_CUDA_RETURN_IF_ERROR(cudaGetLastError());
    const std::int64_t chunks = ceilDiv(rowLength, kReferenceChunk);
    KIX_LAUNCH(dxKernel<D>, gridFor(rows * chunks), kThreads, 0, a.stream)
    (dy, x, a.weight, a.mean, a.rstd, rowSums, static_cast<StorageT<D>*>(a.dx), rows, rowLength, chunks, s.hidden,
        s.groups(), s.channelsPerGroup);
    KIX_CUDA_RETURN_IF_ERROR(cudaGetLastError());
    return launchChannelReduce(partials, s.batch, s.channels, hChunks, a.dweight, a.dbias, a.stream);
}

} // namespace

std::size_t referenceWorkspaceBytes(GroupNormDirection direction, const GroupNormShape& s)
{
    if (direction == GroupNormDirection::Forward)
        return alignUp(static_cast<std::size_t>(s.rows() * ceilDiv(s.rowLength(), kReferenceChunk)) * sizeof(float3));
    const auto partials = static_cast<std::size_t>(s.batch * s.channels * ceilDiv(s.hidden, kReferenceChunk)) * 8;
    return alignUp(partials) + alignUp(static_cast<std::size_t>(s.rows()) * 8);
}

cudaError_t referenceForward(const ForwardArgs& a)
{
    return gn::dispatchDtype(
        a.dtype, [&](auto tag) { return forwardTyped<decltype(tag)::value>(a); }, cudaErrorInvalidValue);
}

cudaError_t referenceBackward(const BackwardArgs& a)
{
    return gn::dispatchDtype(
        a.dtype, [&](auto tag) { return backwardTyped<decltype(tag)::value>(a); }, cudaErrorInvalidValue);
}

cudaError_t launchChannelReduce(const void* partials, std::int64_t batch, std::int64_t channels, std::int64_t parts,
    float* dweight, float* dbias, cudaStream_t stream)
{
    KIX_LAUNCH(
        channelReduceKernel, channelReduceBlocks(channels), dim3(kReduceChannelsPerBlock, kReduceSlices), 0, stream)
    (static_cast<const float2*>(partials), batch, channels, parts, dweight, dbias);
    return cudaGetLastError();
}

} // namespace kix::cuda::detail
