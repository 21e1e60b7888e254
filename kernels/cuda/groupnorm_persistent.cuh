// SPDX-License-Identifier: Apache-2.0
#pragma once
// Device helpers of kix-persistent (groupnorm_persistent_forward.cu, groupnorm_persistent_backward.cu):
// rows held as raw storage words while they are in flight (a prefetched bf16 row costs half the registers
// of its fp32 values), streaming (evict-first) loads and stores, hardware bf16/fp16 conversions two
// elements per instruction, scalar warp and block sums, and the occupancy-sized persistent grid.

#include "kernels/cuda/groupnorm_device.cuh"
#include "kernels/cuda/groupnorm_internal.h"

namespace kix::cuda::detail {

// kVec elements of storage D as they sit in memory: a 16-byte vector (kVec == kVecElems<D>) or one element.
template<gn::DType D, int kVec>
struct Raw
{
    using T = StorageT<D>; // kVec == 1
};
template<gn::DType D>
struct Raw<D, 4>
{
    using T = uint4;
};
template<gn::DType D>
struct Raw<D, 8>
{
    using T = uint4;
};
template<gn::DType D, int kVec>
using RawT = typename Raw<D, kVec>::T;

// ld.global.cs: each element of x and dy is read exactly once, so it should not displace anything in L1/L2.
template<gn::DType D, int kVec>
__device__ __forceinline__ RawT<D, kVec> loadStreaming(const StorageT<D>* p)
{
    if constexpr (kVec == 1)
        return __ldcs(p);
    else
        return __ldcs(reinterpret_cast<const uint4*>(p));
}

template<gn::DType D, int kVec>
__device__ __forceinline__ RawT<D, kVec> rawZero()
{
    if constexpr (kVec == 1)
        return StorageT<D>(0);
    else
        return make_uint4(0u, 0u, 0u, 0u);
}

template<gn::DType D, int kVec>
__device__ __forceinline__ void unpack(const RawT<D, kVec>& raw, float* out)
{
    if constexpr (D == gn::DType::F32) {
        if constexpr (kVec == 1) {
            out[0] = raw;
        } else {
            out[0] = __uint_as_float(raw.x);
            out[1] = __uint_as_float(raw.y);
            out[2] = __uint_as_float(raw.z);
            out[3] = __uint_as_float(raw.w);
        }
    } else if constexpr (kVec == 1) {
        out[0] = D == gn::DType::BF16 ? __uint_as_float(static_cast<std::uint32_t>(raw) << 16)
                                      : __half2float(__ushort_as_half(raw));
    } else {
        unpackPair<D>(raw.x, out[0], out[1]);
        unpackPair<D>(raw.y, out[2], out[3]);
        unpackPair<D>(raw.z, out[4], out[5]);
        unpackPair<D>(raw.w, out[6], out[7]);
    }
}

// st.global.cs of kVec elements converted from `in`.
template<gn::DType D, int kVec>
__device__ __forceinline__ void storeStreaming(StorageT<D>* p, const float* in)
{
    if constexpr (D == gn::DType::F32) {
        if constexpr (kVec == 1)
            __stcs(p, in[0]);
        else
            __stcs(reinterpret_cast<uint4*>(p),
                make_uint4(
                    __float_as_uint(in[0]), __float_as_uint(in[1]), __float_as_uint(in[2]), __float_as_uint(in[3])));
    } else if constexpr (kVec == 1) {
        const unsigned short bits = D == gn::DType::BF16 ? __bfloat16_as_ushort(__float2bfloat16_rn(in[0]))
                                                         : __half_as_ushort(__float2half_rn(in[0]));
        __stcs(p, bits);
    } else {
        __stcs(reinterpret_cast<uint4*>(p),
            make_uint4(packPair<D>(in[0], in[1]), packPair<D>(in[2], in[3]), packPair<D>(in[4], in[5]),
                packPair<D>(in[6], in[7])));
    }
}

// The persistent grid: every resident block of every SM, at most one block per row. The occupancy query is
// made once per device, kernel, block size and shared-memory size (launchCache(): the timed loop must not pay
// for it on every launch, and every instantiation and shape gets its own answer).
template<typename Kernel>
cudaError_t persistentGrid(Kernel kernel, int threads, std::size_t sharedBytes, std::int64_t rows, unsigned& grid)
{
    int device = 0;
    KIX_CUDA_RETURN_IF_ERROR(cudaGetDevice(&device));
    const KernelKey key { device, reinterpret_cast<const void*>(kernel), threads, sharedBytes };
    long long residentBlocks = 0;
    const int error = launchCache().lookup(key, residentBlocks, [&](long long& value) {
        int sms = 0, perSm = 0;
        cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        if (e == cudaSuccess)
            e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, threads, sharedBytes);
        value = static_cast<long long>(sms) * (perSm > 0 ? perSm : 1);
        return e;
    });
    if (error != 0)
        return static_cast<cudaError_t>(error);
    grid = persistentGridSize(residentBlocks, rows);
    return cudaSuccess;
}

} // namespace kix::cuda::detail
