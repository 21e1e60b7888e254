// SPDX-License-Identifier: Apache-2.0
#pragma once
// The CUDA emulator's number types and math (cuda_emu.h): __half and __nv_bfloat16 with their conversions, bit
// casts, and the fast-math functions.

#include <cmath>
#include <cstring>

#include "kernels/cuda/emulation/cuda_emu_types.h"
#include "kernels/groupnorm_math.h"

// ---- 16-bit floating point -------------------------------------------------------------------------------------
struct __half
{
    unsigned short bits;
};
struct alignas(4) __half2
{
    __half x, y;
};
struct __nv_bfloat16
{
    unsigned short bits;
};
struct alignas(4) __nv_bfloat162
{
    __nv_bfloat16 x, y;
};
inline float __half2float(__half h)
{
    return ::kix::gn::halfToFloat(h.bits);
}
inline __half __float2half_rn(float f)
{
    return { ::kix::gn::floatToHalf(f) };
}
inline __half __float2half(float f)
{
    return __float2half_rn(f);
}
inline unsigned short __half_as_ushort(__half h)
{
    return h.bits;
}
inline __half __ushort_as_half(unsigned short bits)
{
    return { bits };
}
inline float2 __half22float2(__half2 h)
{
    return { __half2float(h.x), __half2float(h.y) };
}
inline __half2 __floats2half2_rn(float lo, float hi)
{
    return { __float2half_rn(lo), __float2half_rn(hi) };
}
inline float __bfloat162float(__nv_bfloat16 h)
{
    return ::kix::gn::bf16ToFloat(h.bits);
}
inline __nv_bfloat16 __float2bfloat16_rn(float f)
{
    return { ::kix::gn::floatToBf16(f) };
}
inline __nv_bfloat16 __float2bfloat16(float f)
{
    return __float2bfloat16_rn(f);
}
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h)
{
    return h.bits;
}
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short bits)
{
    return { bits };
}
inline __nv_bfloat162 __floats2bfloat162_rn(float lo, float hi)
{
    return { __float2bfloat16_rn(lo), __float2bfloat16_rn(hi) };
}

// ---- bit casts and math ----------------------------------------------------------------------------------------
inline float __uint_as_float(unsigned u)
{
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}
inline unsigned __float_as_uint(float f)
{
    unsigned u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}
inline float __int_as_float(int i)
{
    float f;
    std::memcpy(&f, &i, sizeof f);
    return f;
}
inline int __float_as_int(float f)
{
    int i;
    std::memcpy(&i, &f, sizeof i);
    return i;
}
// The host's correctly rounded 1/sqrt, not the hardware's approximation (docs/benchmarks.md says what that means).
inline float rsqrtf(float v)
{
    return 1.0f / std::sqrt(v);
}
inline float __fdividef(float a, float b)
{
    return a / b;
}
