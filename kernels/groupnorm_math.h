// SPDX-License-Identifier: Apache-2.0
#pragma once
// Per-element GroupNorm math shared by the CPU kernels and the CUDA kernels. No Qt, no std:: containers:
// everything here compiles for the host and, under nvcc, for the device too.

#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define KIX_HD __host__ __device__ __forceinline__
#else
#define KIX_HD inline
#endif

namespace kix::gn {

enum class DType : int { F32 = 0, BF16 = 1, F16 = 2 };

// x is batch x channels x hidden, contiguous; a row is one (n, g) pair of channelsPerGroup * hidden elements.
struct Shape
{
    std::int64_t batch = 0; // M
    std::int64_t channels = 0; // C
    std::int64_t hidden = 0; // H
    std::int64_t channelsPerGroup = 0;
    float eps = 1e-6f;

    KIX_HD std::int64_t groups() const { return channels / channelsPerGroup; }
    KIX_HD std::int64_t rows() const { return batch * groups(); }
    KIX_HD std::int64_t rowLength() const { return channelsPerGroup * hidden; }
    KIX_HD std::int64_t elements() const { return batch * channels * hidden; }
};

KIX_HD int dtypeSize(DType t)
{
    return t == DType::F32 ? 4 : 2;
}

KIX_HD std::uint32_t floatBits(float f)
{
#if defined(__CUDA_ARCH__)
    return __float_as_uint(f);
#else
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
#endif
}

KIX_HD float bitsFloat(std::uint32_t u)
{
#if defined(__CUDA_ARCH__)
    return __uint_as_float(u);
#else
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
#endif
}

// bfloat16 storage: the top 16 bits of an fp32, rounded to nearest even; NaN stays NaN.
KIX_HD std::uint16_t floatToBf16(float f)
{
    std::uint32_t u = floatBits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return static_cast<std::uint16_t>((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return static_cast<std::uint16_t>(u >> 16);
}

KIX_HD float bf16ToFloat(std::uint16_t h)
{
    return bitsFloat(static_cast<std::uint32_t>(h) << 16);
}

// IEEE binary16 storage, round to nearest even, with subnormals, infinities and NaN.
KIX_HD std::uint16_t floatToHalf(float f)
{
    const std::uint32_t u = floatBits(f);
    const std::uint32_t sign = (u >> 16) & 0x8000u;
    const std::uint32_t absu = u & 0x7fffffffu;
    if (absu > 0x7f800000u)
        return static_cast<std::uint16_t>(sign | 0x7e00u);
    if (absu >= 0x47800000u) // >= 65536: overflow to infinity (65520 and above round to inf too)
        return static_cast<std::uint16_t>(sign | 0x7c00u);
    if (absu < 0x38800000u) { // below the smallest normal half (2^-14): subnormal or zero
        if (absu < 0x33000000u) // below half of the smallest subnormal (2^-25)
            return static_cast<std::uint16_t>(sign);
        const std::uint32_t exp = absu >> 23;
        const std::uint32_t mant = (absu & 0x7fffffu) | 0x800000u;
        const std::uint32_t shift = 126u - exp; // 14 - (exp - 127) + 13 - 1 ... in [14, 24]
        std::uint32_t half = mant >> shift;
        const std::uint32_t rem = mant & ((1u << shift) - 1u);
        const std::uint32_t halfway = 1u << (shift - 1u);
        if (rem > halfway || (rem == halfway && (half & 1u)))
            ++half;
        return static_cast<std::uint16_t>(sign | half);
    }
    std::uint32_t v = absu - 0x38000000u; // rebias exponent 127 -> 15
    v += 0xfffu + ((v >> 13) & 1u);
    if (v >= 0x0f800000u) // rounding overflowed into infinity
        return static_cast<std::uint16_t>(sign | 0x7c00u);
    return static_cast<std::uint16_t>(sign | (v >> 13));
}

KIX_HD float halfToFloat(std::uint16_t h)
{
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    std::uint32_t exp = (h >> 10) & 0x1fu;
    std::uint32_t mant = h & 0x3ffu;
    if (exp == 0x1fu)
        return bitsFloat(sign | 0x7f800000u | (mant << 13));
    if (exp == 0) {
        if (mant == 0)
            return bitsFloat(sign);
        // subnormal: normalise
        exp = 1;
        while ((mant & 0x400u) == 0) {
            mant <<= 1;
            --exp;
        }
        mant &= 0x3ffu;
        return bitsFloat(sign | ((exp + 112u) << 23) | (mant << 13));
    }
    return bitsFloat(sign | ((exp + 112u) << 23) | (mant << 13));
}

// Forward, fused form: a = w * rstd, b' = b - mean * a, y = a * x + b'.
KIX_HD float forwardScale(float weight, float rstd)
{
    return weight * rstd;
}

// The centred form, (x - mean) * scale + bias: one more subtraction, but no cancellation between a*x and
// b' when |mean| * scale >> |y| (large offsets, or near-constant rows where rstd ~ 1/sqrt(eps)).
KIX_HD float normalizeCentered(float x, float mean, float scale, float bias)
{
    return (x - mean) * scale + bias;
}

// rstd from a variance that rounding can never make negative.
KIX_HD float rstdFromVariance(float variance, float eps)
{
    const float v = variance > 0.f ? variance : 0.f;
#if defined(__CUDA_ARCH__)
    return rsqrtf(v + eps);
#else
    return 1.0f / __builtin_sqrtf(v + eps);
#endif
}

// Backward for one element, with xhat = (x - mean) * rstd and g = w[c] * dy:
// dx = rstd * (g - (sum_g + xhat * sum_gxhat) / L).
KIX_HD float backwardDx(float g, float xhat, float rstd, float sumG, float sumGXhat, float invL)
{
    return rstd * (g - (sumG + xhat * sumGXhat) * invL);
}

// The same dx with the row constants folded, 5 operations per element instead of 8:
// dx = (rstd * w) * dy + xmCoefficient * (x - mean) + constant, where
// xmCoefficient = -rstd^2 * sumGXhat / L and constant = -rstd * sumG / L. (x - mean) stays explicit so that
// a large mean does not cancel.
struct BackwardCoefficients
{
    float xmCoefficient;
    float constant;
};

KIX_HD BackwardCoefficients backwardCoefficients(float rstd, float sumG, float sumGXhat, float invL)
{
    return { -rstd * rstd * sumGXhat * invL, -rstd * sumG * invL };
}

KIX_HD float backwardDxFused(float dy, float x, float mean, float scale, BackwardCoefficients k)
{
    return scale * dy + k.xmCoefficient * (x - mean) + k.constant;
}

// The same value as halfToFloat without its normalising loop, so that loops over fp16 storage vectorize:
// the half's exponent and mantissa are placed in an fp32 and rescaled by 2^112 (exact, subnormals too).
KIX_HD float halfToFloatFast(std::uint16_t h)
{
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t magnitude = h & 0x7fffu;
    const float scaled = bitsFloat(magnitude << 13) * 0x1p112f;
    const std::uint32_t bits = magnitude >= 0x7c00u ? (0x7f800000u | ((magnitude & 0x3ffu) << 13)) : floatBits(scaled);
    return bitsFloat(bits | sign);
}

// The same value as floatToHalf, written with selects instead of branches so that loops over fp16
// storage vectorize. Half subnormals come from the FPU's own round-to-nearest-even: adding 0.5 to |f| (whose
// ulp, 2^-24, is the half subnormal step) leaves the rounded half mantissa in the low bits.
KIX_HD std::uint16_t floatToHalfFast(float f)
{
    const std::uint32_t u = floatBits(f);
    const std::uint32_t sign = (u >> 16) & 0x8000u;
    const std::uint32_t magnitude = u & 0x7fffffffu;
    const std::uint32_t special = magnitude > 0x7f800000u ? 0x7e00u : 0x7c00u; // NaN, or infinity on overflow
    const std::uint32_t subnormal = floatBits(bitsFloat(magnitude) + 0.5f) - 0x3f000000u;
    const std::uint32_t rebiased = magnitude - 0x38000000u; // exponent 127 -> 15
    const std::uint32_t normal = (rebiased + 0xfffu + ((magnitude >> 13) & 1u)) >> 13; // carries into inf
    const std::uint32_t half = magnitude >= 0x47800000u ? special : magnitude < 0x38800000u ? subnormal : normal;
    return static_cast<std::uint16_t>(sign | half);
}

// Storage round trip: the value a float becomes once stored in `t` and read back.
KIX_HD float roundToDType(float v, DType t)
{
    return t == DType::BF16 ? bf16ToFloat(floatToBf16(v)) : t == DType::F16 ? halfToFloat(floatToHalf(v)) : v;
}

// Benchmark inputs, a pure function of (seed, tensor, element index) so that every backend fills the same
// tensors and the host can regenerate any element for the float64 reference without copying it back.
enum class Tensor : std::uint32_t { X = 1, Weight = 2, Bias = 3, Dy = 4 };

// Uniform in [-1, 1) on a 2^-15 grid (splitmix64 of the index). The coarse grid keeps every derived
// value below exact in fp32, so host and device agree bit for bit whether or not they contract to FMA.
KIX_HD float uniformInput(std::uint64_t seed, Tensor tensor, std::uint64_t index)
{
    std::uint64_t z = seed ^ (static_cast<std::uint64_t>(tensor) * 0xD1B54A32D192ED03ull);
    z += (index + 1u) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<float>(static_cast<std::uint32_t>(z >> 48)) * (1.0f / 32768.0f) - 1.0f;
}

// The value of one input element before storage rounding: x has a mean offset (so a variance formula that
// cancels would show), weight is near 1, bias and dy are centred.
KIX_HD float initInput(std::uint64_t seed, Tensor tensor, std::uint64_t index)
{
    const float u = uniformInput(seed, tensor, index);
    switch (tensor) {
    case Tensor::X:
        return 1.5f + 2.0f * u;
    case Tensor::Weight:
        return 1.0f + 0.5f * u;
    case Tensor::Bias:
        return 0.25f * u;
    case Tensor::Dy:
        return u;
    }
    return u;
}

} // namespace kix::gn
