// SPDX-License-Identifier: Apache-2.0
// kix-fused forward: each (n, group) row is read once into registers, its exact mean and variance come
// from the resident values (two passes over registers, no second memory read), and y is written once.
// Rows longer than a block holds go to the reference kernels (see fusedPlan()).

#include "kernels/cuda/groupnorm_device.cuh"
#include "kernels/cuda/groupnorm_internal.h"

namespace kix::cuda::detail {
namespace {

// kTpr threads per row, kRpb rows per block (kRpb > 1 only with kTpr == 32: a warp per row), kVpt
// vectors of kVec elements per thread. Thread t of a row holds vectors k * kTpr + t, so each load
// instruction of a warp reads 32 consecutive vectors (coalesced). With kVec > 1 the plan guarantees
// 16-byte aligned rows and hidden % kVec == 0, so a vector never straddles two channels.
template<gn::DType D, int kTpr, int kRpb, int kVpt, int kVec>
__global__ void __launch_bounds__(kTpr* kRpb, (fusedMinBlocks<D, kTpr, kVpt, kVec>())) fusedForwardKernel(
    const StorageT<D>* __restrict__ x, const float* __restrict__ weight, const float* __restrict__ bias,
    StorageT<D>* __restrict__ y, float* __restrict__ mean, float* __restrict__ rstd, std::int64_t rows, int rowLength,
    int channelsPerGroup, unsigned groups, unsigned hiddenMagic, float invLength, float eps)
{
    static_assert(kRpb == 1 || kTpr == 32, "several rows per block only with a warp per row");
    constexpr int kElems = kVpt * kVec;
    constexpr int kWarps = kTpr > 32 ? kTpr / 32 : 1;
    __shared__ float scratchA[kWarps];
    __shared__ float scratchB[kWarps];
    const int t = threadIdx.x % kTpr;
    // The channel within the group of each of this thread's vectors: the same in every row, so (16-byte
    // vectors) divided once per thread, not once per vector and row; -1 past the row end. The scalar path
    // (odd H, misaligned rows; off the seed path) divides per element instead of holding kVpt more registers.
    int table[kVec > 1 ? kVpt : 1];
#pragma unroll
    for (int k = 0; k < (kVec > 1 ? kVpt : 1); ++k) {
        const int e = (k * kTpr + t) * kVec;
        table[k] = e < rowLength ? divideSmall(e, hiddenMagic) : -1; // e / hidden
    }
    auto channel = [&](int k) {
        if constexpr (kVec > 1) {
            return table[k];
        } else {
            const int e = k * kTpr + t;
            return e < rowLength ? divideSmall(e, hiddenMagic) : -1;
        }
    };

    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * kRpb;
    for (std::int64_t first = blockIdx.x * static_cast<std::int64_t>(kRpb); first < rows; first += stride) {
        const std::int64_t row = first + threadIdx.x / kTpr;
        if (kRpb > 1 && row >= rows)
            continue; // a whole warp; warp-only reductions, so no barrier is skipped

        // All loads issued before any use: kVpt independent 16-byte loads in flight per thread.
        const StorageT<D>* xr = x + row * rowLength;
        float v[kElems];
#pragma unroll
        for (int k = 0; k < kVpt; ++k) {
            const int e = (k * kTpr + t) * kVec;
            if (e < rowLength) {
                loadElems<D, kVec>(xr + e, v + k * kVec);
            } else {
#pragma unroll
                for (int j = 0; j < kVec; ++j)
                    v[k * kVec + j] = 0.f;
            }
        }

        float sum = 0.f;
#pragma unroll
        for (int i = 0; i < kElems; ++i)
            sum += v[i]; // elements past the row end are zero
        const float mu = blockSumScalar<kTpr>(sum, scratchA) * invLength; // scalar sums, 1/L from the host

        // Exact variance: sum of squared deviations from the resident values (no E[x^2] - mean^2).
        float squares = 0.f;
#pragma unroll
        for (int k = 0; k < kVpt; ++k) {
            if ((k * kTpr + t) * kVec < rowLength) {
#pragma unroll
                for (int j = 0; j < kVec; ++j) {
                    const float d = v[k * kVec + j] - mu;
                    squares += d * d;
                }
            }
        }
        const float r = gn::rstdFromVariance(blockSumScalar<kTpr>(squares, scratchB) * invLength, eps);
        if (t == 0) {
            mean[row] = mu;
            rstd[row] = r;
        }

        const std::int64_t c0 = groupOf(row, groups) * channelsPerGroup;
        StorageT<D>* yr = y + row * rowLength;
#pragma unroll
        for (int k = 0; k < kVpt; ++k) {
            const int e = (k * kTpr + t) * kVec;
            if (channel(k) >= 0) {
                const std::int64_t c = c0 + channel(k); // one channel per vector
                const float a = gn::forwardScale(__ldg(weight + c), r);
                const float b = __ldg(bias + c);
                float out[kVec];
#pragma unroll
                for (int j = 0; j < kVec; ++j)
                    out[j] = gn::normalizeCentered(v[k * kVec + j], mu, a, b); // no a*x + b' cancellation
                storeElems<D, kVec>(yr + e, out);
            }
        }
    }
}

template<gn::DType D, int kTpr, int kRpb, int kElems, int kVec>
cudaError_t launch(const ForwardArgs& a)
{
    static_assert(kElems % kVec == 0, "whole vectors per thread");
    const GroupNormShape& s = a.shape;
    const std::int64_t rows = s.rows();
    const auto kernel = fusedForwardKernel<D, kTpr, kRpb, kElems / kVec, kVec>;
    KIX_LAUNCH(kernel, gridFor(ceilDiv(rows, kRpb)), kTpr * kRpb, 0, a.stream)
    (static_cast<const StorageT<D>*>(a.x), a.weight, a.bias, static_cast<StorageT<D>*>(a.y), a.mean, a.rstd, rows,
        static_cast<int>(s.rowLength()), static_cast<int>(s.channelsPerGroup), static_cast<unsigned>(s.groups()),
        smallDivisorMagic(s.hidden), 1.0f / static_cast<float>(s.rowLength()), s.eps);
    return cudaGetLastError();
}

// Elements per thread: kBase (32 bytes of each input) or 2 x kBase (64 bytes; fusedPlan() also takes
// 16 fp32 values at 1024 threads). 16-bit rows never need 1024 x 32, so that one is not instantiated.
template<gn::DType D, int kTpr, int kRpb, int kVec>
cudaError_t byElems(const ForwardArgs& a, const FusedPlan& p)
{
    constexpr int kBase = sizeof(StorageT<D>) == 4 ? 8 : 16;
    if (p.elemsPerThread == kBase)
        return launch<D, kTpr, kRpb, kBase, kVec>(a);
    if constexpr (kTpr < 1024 || kBase == 8) {
        if (p.elemsPerThread == 2 * kBase)
            return launch<D, kTpr, kRpb, 2 * kBase, kVec>(a);
    }
    return cudaErrorInvalidConfiguration;
}

// The launch shapes fusedPlan() can choose (kernels/cuda/README.md explains the table).
template<gn::DType D, int kVec>
cudaError_t dispatch(const ForwardArgs& a, const FusedPlan& p)
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
cudaError_t forwardTyped(const ForwardArgs& a, const FusedPlan& p)
{
    return p.vectorized ? dispatch<D, kVecElems<D>>(a, p) : dispatch<D, 1>(a, p);
}

} // namespace

cudaError_t fusedForward(const ForwardArgs& a)
{
    const bool aligned = isAligned16(a.x) && isAligned16(a.y);
    const FusedPlan plan = fusedPlan(a.dtype, a.shape, GroupNormDirection::Forward, aligned);
    if (!plan.resident)
        return referenceForward(a);
    return gn::dispatchDtype(
        a.dtype, [&](auto tag) { return forwardTyped<decltype(tag)::value>(a, plan); }, cudaErrorInvalidValue);
}

} // namespace kix::cuda::detail
