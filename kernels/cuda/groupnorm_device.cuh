// SPDX-License-Identifier: Apache-2.0
#pragma once
// Device helpers shared by the GroupNorm kernels: storage conversion, 16-byte vector access and
// deterministic reductions. Every reduction here adds in an order fixed by the code alone, so repeated
// runs give bitwise equal results.

#include "kernels/groupnorm_math.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "kernels/cuda/launch.cuh"

#include <cstdint>

namespace kix::cuda::detail {

constexpr unsigned kFullMask = 0xffffffffu;

// Storage of one dtype: the element type in memory and its conversions to and from fp32.
template<gn::DType D>
struct Storage;

template<>
struct Storage<gn::DType::F32>
{
    using T = float;
    static __device__ __forceinline__ float load(const T* p) { return __ldg(p); }
    static __device__ __forceinline__ float toFloat(std::uint32_t bits) { return __uint_as_float(bits); }
    static __device__ __forceinline__ T fromFloat(float v) { return v; }
};

template<>
struct Storage<gn::DType::BF16>
{
    using T = std::uint16_t;
    static __device__ __forceinline__ float toFloat(std::uint32_t bits)
    {
        return gn::bf16ToFloat(static_cast<std::uint16_t>(bits));
    }
    static __device__ __forceinline__ float load(const T* p) { return toFloat(__ldg(p)); }
    // cvt.rn.bf16.f32 (sm_80+): round to nearest even, as gn::floatToBf16 on the host (one instruction
    // instead of ~8 of integer rounding; NaN stays NaN, its payload is the hardware's).
    static __device__ __forceinline__ T fromFloat(float v) { return __bfloat16_as_ushort(__float2bfloat16_rn(v)); }
};

template<>
struct Storage<gn::DType::F16>
{
    using T = std::uint16_t;
    // The hardware conversions round to nearest even, as gn::floatToHalf does on the host.
    static __device__ __forceinline__ float toFloat(std::uint32_t bits)
    {
        return __half2float(__ushort_as_half(static_cast<unsigned short>(bits)));
    }
    static __device__ __forceinline__ float load(const T* p) { return toFloat(__ldg(p)); }
    static __device__ __forceinline__ T fromFloat(float v) { return __half_as_ushort(__float2half_rn(v)); }
};

template<gn::DType D>
using StorageT = typename Storage<D>::T;

// Elements in one 16-byte vector.
template<gn::DType D>
constexpr int kVecElems = 16 / static_cast<int>(sizeof(StorageT<D>));

// One 32-bit word holding two 16-bit elements (element 2i in the low half) to two floats. bf16 is the high
// half of an fp32: one shift or one mask each, exact. fp16: one cvt per pair.
template<gn::DType D>
__device__ __forceinline__ void unpackPair(std::uint32_t word, float& lo, float& hi)
{
    if constexpr (D == gn::DType::BF16) {
        lo = __uint_as_float(word << 16);
        hi = __uint_as_float(word & 0xffff0000u);
    } else {
        __half2 h;
        static_assert(sizeof h == sizeof word, "half2 is one word");
        memcpy(&h, &word, sizeof word);
        const float2 f = __half22float2(h);
        lo = f.x;
        hi = f.y;
    }
}

// Two floats to one word of two 16-bit elements, round to nearest even (cvt.rn.bf16x2.f32 / f16x2).
template<gn::DType D>
__device__ __forceinline__ std::uint32_t packPair(float lo, float hi)
{
    std::uint32_t word;
    if constexpr (D == gn::DType::BF16) {
        const __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi); // .x = lo (low half)
        memcpy(&word, &h, sizeof word);
    } else {
        const __half2 h = __floats2half2_rn(lo, hi);
        memcpy(&word, &h, sizeof word);
    }
    return word;
}

// Loads N consecutive elements starting at p into out[0..N). N == kVecElems<D> uses one 16-byte load
// (p must be 16-byte aligned); N == 1 a scalar load.
template<gn::DType D, int N>
__device__ __forceinline__ void loadElems(const StorageT<D>* p, float* out)
{
    if constexpr (N == 1) {
        out[0] = Storage<D>::load(p);
    } else {
        static_assert(N == kVecElems<D>, "vector width must be 16 bytes");
        const uint4 raw = __ldg(reinterpret_cast<const uint4*>(p));
        const std::uint32_t words[4] = { raw.x, raw.y, raw.z, raw.w };
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            if constexpr (sizeof(StorageT<D>) == 4) {
                out[i] = Storage<D>::toFloat(words[i]);
            } else { // little-endian: element 2i is the low half of word i
                unpackPair<D>(words[i], out[2 * i], out[2 * i + 1]);
            }
        }
    }
}

template<gn::DType D, int N>
__device__ __forceinline__ void storeElems(StorageT<D>* p, const float* in)
{
    if constexpr (N == 1) {
        p[0] = Storage<D>::fromFloat(in[0]);
    } else {
        static_assert(N == kVecElems<D>, "vector width must be 16 bytes");
        std::uint32_t words[4];
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            if constexpr (sizeof(StorageT<D>) == 4) {
                words[i] = __float_as_uint(in[i]);
            } else {
                words[i] = packPair<D>(in[2 * i], in[2 * i + 1]); // one cvt.rn.{bf16,f16}x2.f32 per pair
            }
        }
        *reinterpret_cast<uint4*>(p) = make_uint4(words[0], words[1], words[2], words[3]);
    }
}

// Butterfly sum over a warp: every lane ends with the same bits (IEEE addition is commutative, and
// at each step the two partners add the same two values).
__device__ __forceinline__ float2 warpSum(float2 v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        v.x += __shfl_xor_sync(kFullMask, v.x, offset);
        v.y += __shfl_xor_sync(kFullMask, v.y, offset);
    }
    return v;
}

// Butterfly sum of one float over a warp; every lane gets the same bits.
__device__ __forceinline__ float warpSumScalar(float v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_xor_sync(kFullMask, v, offset);
    return v;
}

// Sum over a block of kThreads threads (kThreads a multiple of 32, one row per block); every thread gets
// the same bits. Callers alternate two scratch arrays of kThreads / 32 floats, as rowSum() does.
template<int kThreads>
__device__ __forceinline__ float blockSumScalar(float v, float* scratch)
{
    v = warpSumScalar(v);
    if constexpr (kThreads == 32) {
        return v;
    } else {
        if (threadIdx.x % 32 == 0)
            scratch[threadIdx.x / 32] = v;
        __syncthreads();
        float total = scratch[0];
#pragma unroll
        for (int w = 1; w < kThreads / 32; ++w)
            total += scratch[w];
        return total;
    }
}

// Sum over the kThreads threads of one row (a warp, or the whole block when kThreads > 32); every
// thread gets the same bits. `scratch` holds kThreads / 32 entries; callers alternate between two
// scratch arrays so that consecutive reductions need no extra barrier.
template<int kThreads>
__device__ __forceinline__ float2 rowSum(float2 v, float2* scratch)
{
    v = warpSum(v);
    if constexpr (kThreads == 32) {
        return v;
    } else {
        const int warp = threadIdx.x / 32;
        if (threadIdx.x % 32 == 0)
            scratch[warp] = v;
        __syncthreads();
        float2 total = scratch[0];
#pragma unroll
        for (int w = 1; w < kThreads / 32; ++w) {
            total.x += scratch[w].x;
            total.y += scratch[w].y;
        }
        return total;
    }
}

// Segmented suffix sum over a warp whose lanes carry non-decreasing segment keys: afterwards the first
// lane of each segment holds that segment's sum over the warp. Fixed order, so deterministic.
__device__ __forceinline__ float2 warpSegmentedSum(float2 v, int key)
{
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int offset = 1; offset < 32; offset <<= 1) {
        const float ox = __shfl_down_sync(kFullMask, v.x, offset);
        const float oy = __shfl_down_sync(kFullMask, v.y, offset);
        const int okey = __shfl_down_sync(kFullMask, key, offset);
        if (lane + offset < 32 && okey == key) {
            v.x += ox;
            v.y += oy;
        }
    }
    return v;
}

// The minBlocksPerSM of kix-fused's __launch_bounds__: 0 (none: ptxas's own register target) for the 16-byte
// vector rows of a block per row, and for a warp per row at 32 bytes per thread, whose registers
// ptxas-budget.txt pins (the seed's design); 1 for the scalar rows and the 16-bit warp rows at 64 bytes, where
// ptxas's own target spilled 4-20 bytes to reach an occupancy step (issue 21). With an explicit minimum of
// one block ptxas uses registers instead (up to 65536 / threads). Measured, not derived: ptxas-budget.txt
// fails the build's test if either choice spills.
template<gn::DType D, int kTpr, int kVpt, int kVec>
constexpr int fusedMinBlocks()
{
    constexpr int kBase = sizeof(StorageT<D>) == 4 ? 8 : 16; // elements in 32 bytes
    return kVec > 1 && (kTpr > 32 || kVpt * kVec == kBase) ? 0 : 1;
}

// The group of row `row` (row % groups) as a 32-bit remainder, which is inline code; a 64-bit remainder is a
// called subroutine, and ptxas spilled the registers live across that call (a row's x and dy) to the stack
// in kix-fused. fusedPlan() keeps rows whose count does not fit 32 bits on the reference kernels.
__device__ __forceinline__ unsigned groupOf(std::int64_t row, unsigned groups)
{
    return static_cast<unsigned>(row) % groups;
}

} // namespace kix::cuda::detail
