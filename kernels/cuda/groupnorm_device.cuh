#pragma once
// Device helpers shared by the GroupNorm kernels: storage conversion, 16-byte vector access and
// deterministic reductions. Every reduction here adds in an order fixed by the code alone, so repeated
// runs give bitwise equal results.

#include "kernels/groupnorm_math.h"

#include <cuda_fp16.h>
#include <cuda_runtime.h>

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
    static __device__ __forceinline__ T fromFloat(float v) { return gn::floatToBf16(v); } // nearest even
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
                out[2 * i] = Storage<D>::toFloat(words[i] & 0xffffu);
                out[2 * i + 1] = Storage<D>::toFloat(words[i] >> 16);
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
                words[i] = static_cast<std::uint32_t>(Storage<D>::fromFloat(in[2 * i]))
                    | (static_cast<std::uint32_t>(Storage<D>::fromFloat(in[2 * i + 1])) << 16);
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

} // namespace kix::cuda::detail
