// SPDX-License-Identifier: Apache-2.0
// kix-persistent forward: a grid of exactly the blocks the SMs hold at once; each block walks rows
// blockIdx.x, + gridDim.x, ... and issues the loads of its next row before it reduces the current one, so
// the memory system never waits for a block boundary. Per row as kix-fused (exact two-pass variance from
// registers, one write), but: the next row is held as raw storage words (streaming loads), the channel of
// each vector is computed once per thread (it is the same in every row), the group index steps without a
// division, 1/L comes from the host, scalar warp sums, hardware bf16/fp16 conversions, streaming stores.
// Shapes whose plan is not one resident row per block run kix-fused instead (see persistentPlan()).

#include "kernels/cuda/groupnorm_persistent.cuh"

namespace kix::cuda::detail {
namespace {

// kTpr threads per row (= per block, 64..1024), kVpt vectors of kVec elements per thread; thread t holds
// vectors k * kTpr + t (coalesced, as in kix-fused).
template<gn::DType D, int kTpr, int kVpt, int kVec>
struct ForwardRow
{
    static constexpr int kElems = kVpt * kVec;
    using R = RawT<D, kVec>;

    const StorageT<D>* __restrict__ x;
    const float* __restrict__ weight;
    const float* __restrict__ bias;
    StorageT<D>* __restrict__ y;
    float* __restrict__ mean;
    float* __restrict__ rstd;
    int rowLength;
    int channelsPerGroup;
    float invLength;
    float eps;
    int channel[kVpt]; // channel within the group of this thread's vector k; -1 past the row end

    __device__ __forceinline__ void load(std::int64_t row, R* raw) const
    {
        const StorageT<D>* xr = x + row * rowLength;
#pragma unroll
        for (int k = 0; k < kVpt; ++k)
            raw[k]
                = channel[k] >= 0 ? loadStreaming<D, kVec>(xr + (k * kTpr + threadIdx.x) * kVec) : rawZero<D, kVec>();
    }

    __device__ __forceinline__ void process(
        std::int64_t row, int group, const R* raw, float* scratchA, float* scratchB) const
    {
        float v[kElems];
#pragma unroll
        for (int k = 0; k < kVpt; ++k)
            unpack<D, kVec>(raw[k], v + k * kVec); // zero past the row end
        float sum = 0.f;
#pragma unroll
        for (int i = 0; i < kElems; ++i)
            sum += v[i];
        const float mu = blockSumScalar<kTpr>(sum, scratchA) * invLength;
        float squares = 0.f;
#pragma unroll
        for (int k = 0; k < kVpt; ++k) {
            if (channel[k] >= 0) {
#pragma unroll
                for (int j = 0; j < kVec; ++j) {
                    const float d = v[k * kVec + j] - mu;
                    squares += d * d;
                }
            }
        }
        const float r = gn::rstdFromVariance(blockSumScalar<kTpr>(squares, scratchB) * invLength, eps);
        if (threadIdx.x == 0) {
            mean[row] = mu;
            rstd[row] = r;
        }
        const int c0 = group * channelsPerGroup;
        StorageT<D>* yr = y + row * rowLength;
#pragma unroll
        for (int k = 0; k < kVpt; ++k) {
            if (channel[k] >= 0) {
                const float a = gn::forwardScale(__ldg(weight + c0 + channel[k]), r);
                const float b = __ldg(bias + c0 + channel[k]);
                float out[kVec];
#pragma unroll
                for (int j = 0; j < kVec; ++j)
                    out[j] = gn::normalizeCentered(v[k * kVec + j], mu, a, b);
                storeStreaming<D, kVec>(yr + (k * kTpr + threadIdx.x) * kVec, out);
            }
        }
    }
};

template<gn::DType D, int kTpr, int kVpt, int kVec>
__global__ void __launch_bounds__(kTpr)
    persistentForwardKernel(const StorageT<D>* __restrict__ x, const float* __restrict__ weight,
        const float* __restrict__ bias, StorageT<D>* __restrict__ y, float* __restrict__ mean, float* __restrict__ rstd,
        std::int64_t rows, int rowLength, int hidden, int channelsPerGroup, int groups, float invLength, float eps)
{
    using Row = ForwardRow<D, kTpr, kVpt, kVec>;
    using R = typename Row::R;
    __shared__ float scratchA[kTpr / 32];
    __shared__ float scratchB[kTpr / 32];
    Row p { x, weight, bias, y, mean, rstd, rowLength, channelsPerGroup, invLength, eps, {} };
#pragma unroll
    for (int k = 0; k < kVpt; ++k) { // the only divisions: once per thread, not per row
        const int e = (k * kTpr + static_cast<int>(threadIdx.x)) * kVec;
        p.channel[k] = e < rowLength ? e / hidden : -1;
    }
    const std::int64_t stride = gridDim.x;
    const int groupStep = static_cast<int>(stride % groups);
    std::int64_t row = blockIdx.x;
    int group = static_cast<int>(row % groups);
    auto advance = [&] {
        row += stride;
        group += groupStep;
        if (group >= groups)
            group -= groups;
    };
    // Two register buffers used in turn: the next row's loads are in flight while this one is reduced, and no
    // copy between the buffers waits for them.
    R a[kVpt], b[kVpt];
    if (row < rows)
        p.load(row, a);
    while (row < rows) {
        if (row + stride < rows)
            p.load(row + stride, b);
        p.process(row, group, a, scratchA, scratchB);
        advance();
        if (row >= rows)
            break;
        if (row + stride < rows)
            p.load(row + stride, a);
        p.process(row, group, b, scratchA, scratchB);
        advance();
    }
}

template<gn::DType D, int kTpr, int kElems, int kVec>
cudaError_t launch(const ForwardArgs& a)
{
    static_assert(kElems % kVec == 0, "whole vectors per thread");
    const GroupNormShape& s = a.shape;
    const auto kernel = persistentForwardKernel<D, kTpr, kElems / kVec, kVec>;
    unsigned grid = 0;
    KIX_CUDA_RETURN_IF_ERROR(persistentGrid(kernel, kTpr, 0, s.rows(), grid));
    KIX_LAUNCH(kernel, grid, kTpr, 0, a.stream)
    (static_cast<const StorageT<D>*>(a.x), a.weight, a.bias, static_cast<StorageT<D>*>(a.y), a.mean, a.rstd, s.rows(),
        static_cast<int>(s.rowLength()), static_cast<int>(s.hidden), static_cast<int>(s.channelsPerGroup),
        static_cast<int>(s.groups()), 1.0f / static_cast<float>(s.rowLength()), s.eps);
    return cudaGetLastError();
}

// The shapes persistentPlan() chooses: 32 bytes of each input per thread (fp32 8, 16-bit 16 elements),
// 64..1024 threads per row; fp32 rows over 8192 elements take 16 elements at 1024 threads.
template<gn::DType D, int kVec>
cudaError_t dispatch(const ForwardArgs& a, const FusedPlan& p)
{
    constexpr int kBase = sizeof(StorageT<D>) == 4 ? 8 : 16;
    if (p.elemsPerThread != kBase && !(kBase == 8 && p.elemsPerThread == 16 && p.threadsPerRow == 1024))
        return cudaErrorInvalidConfiguration;
    switch (p.threadsPerRow) {
    case 64:
        return launch<D, 64, kBase, kVec>(a);
    case 128:
        return launch<D, 128, kBase, kVec>(a);
    case 256:
        return launch<D, 256, kBase, kVec>(a);
    case 512:
        return launch<D, 512, kBase, kVec>(a);
    case 1024:
        if constexpr (kBase == 8) {
            if (p.elemsPerThread == 16)
                return launch<D, 1024, 16, kVec>(a);
        }
        return launch<D, 1024, kBase, kVec>(a);
    default:
        return cudaErrorInvalidConfiguration;
    }
}

template<gn::DType D>
cudaError_t forwardTyped(const ForwardArgs& a, const FusedPlan& p)
{
    return p.vectorized ? dispatch<D, kVecElems<D>>(a, p) : cudaErrorInvalidConfiguration; // see persistentPlan()
}

} // namespace

cudaError_t persistentForward(const ForwardArgs& a)
{
    const bool aligned = isAligned16(a.x) && isAligned16(a.y);
    const FusedPlan plan = persistentPlan(a.dtype, a.shape, GroupNormDirection::Forward, aligned);
    if (!plan.resident)
        return fusedForward(a);
    return gn::dispatchDtype(
        a.dtype, [&](auto tag) { return forwardTyped<decltype(tag)::value>(a, plan); }, cudaErrorInvalidValue);
}

} // namespace kix::cuda::detail
