// SPDX-License-Identifier: Apache-2.0
// The shared per-element helpers: the fp16 and bf16 converters pinned to known bit patterns (and to GCC's
// _Float16 where the compiler has it), the loop-free fp16 conversion, storage rounding, the input generator.

#include "kernels/groupnorm_math.h"

#include "kernels/dtype_dispatch.h"

#include "tests/support/testmain.h"

#include <QTest>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

using namespace kix::gn;

class TestGroupNormMath : public QObject
{
    Q_OBJECT

private slots:
    void halfKnownVectors_data();
    void halfKnownVectors();
    void halfDecodesKnownVectors();
    void bf16KnownVectors_data();
    void bf16KnownVectors();
    void nanStaysNan();
    void halfMatchesCompilerFloat16();
    void halfToFloatFastIsExact();
    void floatToHalfFastIsExact();
    void roundToDTypeKnownValues();
    void inputsAreDeterministicAndOnGrid();
    void dispatchDtypeCallsTheMatchingTag();
};

namespace {

float fromBits(std::uint32_t bits)
{
    return bitsFloat(bits);
}

QString hex(std::uint32_t v, int width)
{
    return QStringLiteral("0x%1").arg(v, width, 16, QLatin1Char('0'));
}

} // namespace

// IEEE binary16 patterns worked out by hand (not by the code under test): normal values, the largest finite,
// overflow, subnormals, and round-to-nearest-even at ties.
void TestGroupNormMath::halfKnownVectors_data()
{
    QTest::addColumn<float>("value");
    QTest::addColumn<int>("bits");
    QTest::newRow("1") << 1.0f << 0x3C00;
    QTest::newRow("-2") << -2.0f << 0xC000;
    QTest::newRow("0.5") << 0.5f << 0x3800;
    QTest::newRow("+0") << 0.0f << 0x0000;
    QTest::newRow("-0") << -0.0f << 0x8000;
    QTest::newRow("1/3") << 1.0f / 3.0f << 0x3555; // 1365/4096: 1/3 * 4096 = 1365.33 rounds down
    QTest::newRow("65504 (largest finite)") << 65504.0f << 0x7BFF;
    QTest::newRow("65519 (rounds down to 65504)") << 65519.0f << 0x7BFF;
    QTest::newRow("65520 (the tie above 65504: to +inf)") << 65520.0f << 0x7C00;
    QTest::newRow("-65520") << -65520.0f << 0xFC00;
    QTest::newRow("1e6") << 1e6f << 0x7C00;
    QTest::newRow("+inf") << std::numeric_limits<float>::infinity() << 0x7C00;
    QTest::newRow("2^-14 (smallest normal)") << std::ldexp(1.0f, -14) << 0x0400;
    QTest::newRow("2^-24 (smallest subnormal)") << std::ldexp(1.0f, -24) << 0x0001;
    QTest::newRow("-2^-24") << -std::ldexp(1.0f, -24) << 0x8001;
    QTest::newRow("1023 x 2^-24 (largest subnormal)") << 1023.0f * std::ldexp(1.0f, -24) << 0x03FF;
    QTest::newRow("2^-25 (tie: to even 0)") << std::ldexp(1.0f, -25) << 0x0000;
    QTest::newRow("3 x 2^-25 (tie: to even 2)") << 3.0f * std::ldexp(1.0f, -25) << 0x0002;
    QTest::newRow("0.75 x 2^-24 (rounds up)") << 0.75f * std::ldexp(1.0f, -24) << 0x0001;
    QTest::newRow("2^-26 (rounds to 0)") << std::ldexp(1.0f, -26) << 0x0000;
    QTest::newRow("1 + 2^-11 (tie: to even 0x3C00)") << 1.0f + std::ldexp(1.0f, -11) << 0x3C00;
    QTest::newRow("1 + 3 x 2^-11 (tie: to even 0x3C02)") << 1.0f + 3.0f * std::ldexp(1.0f, -11) << 0x3C02;
    QTest::newRow("1 + 2^-11 + 2^-20 (above the tie)")
        << 1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20) << 0x3C01;
    QTest::newRow("2047 x 2^-11 x 2 (rounds into the next binade)") << fromBits(0x3FFFF000u) << 0x4000;
}

void TestGroupNormMath::halfKnownVectors()
{
    QFETCH(float, value);
    QFETCH(int, bits);
    QCOMPARE(hex(floatToHalf(value), 4), hex(static_cast<std::uint32_t>(bits), 4));
    QCOMPARE(hex(floatToHalfFast(value), 4), hex(static_cast<std::uint32_t>(bits), 4));
}

void TestGroupNormMath::halfDecodesKnownVectors()
{
    const struct
    {
        std::uint16_t bits;
        float value;
    } cases[] = {
        { 0x3C00, 1.0f },
        { 0xC000, -2.0f },
        { 0x7BFF, 65504.0f },
        { 0x0001, std::ldexp(1.0f, -24) },
        { 0x03FF, 1023.0f * std::ldexp(1.0f, -24) },
        { 0x0400, std::ldexp(1.0f, -14) },
        { 0x3555, 1365.0f / 4096.0f },
        { 0x7C00, std::numeric_limits<float>::infinity() },
        { 0xFC00, -std::numeric_limits<float>::infinity() },
        { 0x8000, -0.0f },
    };
    for (const auto& c : cases) {
        QCOMPARE(hex(floatBits(halfToFloat(c.bits)), 8), hex(floatBits(c.value), 8));
        QCOMPARE(hex(floatBits(halfToFloatFast(c.bits)), 8), hex(floatBits(c.value), 8));
    }
}

// bfloat16 = the top half of an fp32, rounded to nearest even.
void TestGroupNormMath::bf16KnownVectors_data()
{
    QTest::addColumn<float>("value");
    QTest::addColumn<int>("bits");
    QTest::newRow("1") << 1.0f << 0x3F80;
    QTest::newRow("-2") << -2.0f << 0xC000;
    QTest::newRow("-0") << -0.0f << 0x8000;
    QTest::newRow("1/3 (0x3EAAAAAB rounds up)") << 1.0f / 3.0f << 0x3EAB;
    QTest::newRow("65504 (rounds up to 65536)") << 65504.0f << 0x4780;
    QTest::newRow("1 + 2^-8 (tie: to even 0x3F80)") << fromBits(0x3F808000u) << 0x3F80;
    QTest::newRow("0x3F818000 (tie: to even 0x3F82)") << fromBits(0x3F818000u) << 0x3F82;
    QTest::newRow("0x3F808001 (above the tie)") << fromBits(0x3F808001u) << 0x3F81;
    QTest::newRow("largest bf16 0x7F7F0000") << fromBits(0x7F7F0000u) << 0x7F7F;
    QTest::newRow("FLT_MAX (rounds to +inf)") << std::numeric_limits<float>::max() << 0x7F80;
    QTest::newRow("+inf") << std::numeric_limits<float>::infinity() << 0x7F80;
    QTest::newRow("-inf") << -std::numeric_limits<float>::infinity() << 0xFF80;
    QTest::newRow("smallest bf16 subnormal 0x00010000") << fromBits(0x00010000u) << 0x0001;
    QTest::newRow("fp32 subnormal 0x00008000 (tie: to even 0)") << fromBits(0x00008000u) << 0x0000;
    QTest::newRow("fp32 subnormal 0x00018000 (tie: to even 2)") << fromBits(0x00018000u) << 0x0002;
    QTest::newRow("smallest fp32 subnormal (to 0)") << fromBits(0x00000001u) << 0x0000;
}

void TestGroupNormMath::bf16KnownVectors()
{
    QFETCH(float, value);
    QFETCH(int, bits);
    QCOMPARE(hex(floatToBf16(value), 4), hex(static_cast<std::uint32_t>(bits), 4));
    // Decoding is exact: the bits back in the top half of an fp32.
    QCOMPARE(hex(floatBits(bf16ToFloat(static_cast<std::uint16_t>(bits))), 8),
        hex(static_cast<std::uint32_t>(bits) << 16, 8));
}

// A NaN never becomes an infinity (a payload in the low bits alone would, if simply truncated).
void TestGroupNormMath::nanStaysNan()
{
    for (const std::uint32_t bits : { 0x7FC00000u, 0x7F800001u, 0xFF800001u, 0x7FFFFFFFu }) {
        const float nan = fromBits(bits);
        QVERIFY2(std::isnan(bf16ToFloat(floatToBf16(nan))), qPrintable(hex(bits, 8)));
        QVERIFY2(std::isnan(halfToFloat(floatToHalf(nan))), qPrintable(hex(bits, 8)));
        QVERIFY2(std::isnan(halfToFloat(floatToHalfFast(nan))), qPrintable(hex(bits, 8)));
    }
}

// GCC's _Float16 (where the compiler has it) converts with the same IEEE rules: every half decodes to the
// same float, and a sweep of floats (all exponents, ties included) encodes to the same bits.
void TestGroupNormMath::halfMatchesCompilerFloat16()
{
#if defined(__FLT16_MAX__)
    for (std::uint32_t h = 0; h <= 0xffffu; ++h) {
        _Float16 x;
        const auto bits = static_cast<std::uint16_t>(h);
        std::memcpy(&x, &bits, sizeof x);
        const float expected = static_cast<float>(x);
        const float actual = halfToFloat(bits);
        if (std::isnan(expected) ? !std::isnan(actual) : floatBits(actual) != floatBits(expected))
            QFAIL(qPrintable(QStringLiteral("half %1").arg(hex(h, 4))));
    }
    auto check = [](std::uint32_t fbits) {
        const float f = bitsFloat(fbits);
        const _Float16 x = static_cast<_Float16>(f);
        std::uint16_t expected;
        std::memcpy(&expected, &x, sizeof expected);
        if (std::isnan(f))
            return (expected & 0x7c00u) == 0x7c00u && (floatToHalf(f) & 0x3ffu) != 0;
        return floatToHalf(f) == expected;
    };
    for (std::uint64_t fbits = 0; fbits <= 0xffffffffu; fbits += 4099) // a prime stride over every pattern
        if (!check(static_cast<std::uint32_t>(fbits)))
            QFAIL(qPrintable(QStringLiteral("float %1").arg(hex(static_cast<std::uint32_t>(fbits), 8))));
    for (std::uint32_t top = 0; top < 0x10000u; ++top) // every half's neighbourhood: exact, tie, and either side
        for (const std::uint32_t low : { 0x0000u, 0x0fffu, 0x1000u, 0x1001u })
            if (!check((top << 16) | low) || !check((top << 16) | (low << 1)))
                QFAIL(qPrintable(QStringLiteral("float %1").arg(hex((top << 16) | low, 8))));
#else
    QSKIP("this compiler has no _Float16");
#endif
}

void TestGroupNormMath::halfToFloatFastIsExact()
{
    for (std::uint32_t h = 0; h <= 0xffffu; ++h) {
        const auto bits = static_cast<std::uint16_t>(h);
        if (floatBits(halfToFloatFast(bits)) != floatBits(halfToFloat(bits)))
            QFAIL(qPrintable(QStringLiteral("half 0x%1").arg(h, 4, 16, QLatin1Char('0'))));
    }
}

void TestGroupNormMath::floatToHalfFastIsExact()
{
    // Every sign and exponent, every pattern of the ten mantissa bits a half keeps, and the low bits that
    // decide rounding (ties, just below and above), plus a sweep of everything else.
    const std::uint32_t lows[] = { 0x0u, 0x1u, 0x7ffu, 0xfffu, 0x1000u, 0x1001u, 0x1fffu, 0x2000u };
    auto check = [](std::uint32_t bits) {
        const float f = bitsFloat(bits);
        if (floatToHalfFast(f) != floatToHalf(f))
            QFAIL(qPrintable(QStringLiteral("float 0x%1").arg(bits, 8, 16, QLatin1Char('0'))));
    };
    for (std::uint32_t signExp = 0; signExp < 512; ++signExp)
        for (std::uint32_t top = 0; top < 1024; ++top)
            for (const std::uint32_t low : lows)
                check((signExp << 23) | (top << 13) | low);
    for (std::uint64_t bits = 0; bits <= 0xffffffffu; bits += 65521) // a prime stride
        check(static_cast<std::uint32_t>(bits));
    for (std::uint32_t bits = 0x33000000u; bits < 0x38800000u; bits += 97) // the subnormal range
        check(bits);
}

// The storage round trip on values whose rounded forms are worked out by hand.
void TestGroupNormMath::roundToDTypeKnownValues()
{
    const struct
    {
        float value, bf16, f16;
    } cases[] = {
        { 1.0f, 1.0f, 1.0f },
        { -2.5f, -2.5f, -2.5f },
        { 1.0f / 3.0f, 171.0f / 512.0f, 1365.0f / 4096.0f },
        { 65504.0f, 65536.0f, 65504.0f },
        { 3.14159f, 3.140625f, 3.140625f }, // bf16: 201.06 steps of 2^-6 -> 201; half: 1608.49 steps of 2^-9 -> 1608
        // bf16: 1.048576 x 2^-20, 134.2 steps of 2^-27 -> 134; half: 16.78 subnormal steps of 2^-24 -> 17
        { 1e-6f, 134.0f * 0x1p-27f, 17.0f * 0x1p-24f },
    };
    for (const auto& c : cases) {
        QCOMPARE(roundToDType(c.value, DType::F32), c.value);
        QCOMPARE(roundToDType(c.value, DType::BF16), c.bf16);
        QCOMPARE(roundToDType(c.value, DType::F16), c.f16);
    }
    QVERIFY(std::isinf(roundToDType(70000.0f, DType::F16)));
    QCOMPARE(roundToDType(70000.0f, DType::BF16), 70144.0f); // 0x47890000 + rounding: 137 x 512
}

void TestGroupNormMath::inputsAreDeterministicAndOnGrid()
{
    for (std::uint64_t i = 0; i < 4096; ++i) {
        for (const Tensor t : { Tensor::X, Tensor::Weight, Tensor::Bias, Tensor::Dy }) {
            const float u = uniformInput(42, t, i);
            QVERIFY(u >= -1.0f && u < 1.0f);
            QCOMPARE(u * 32768.0f, std::floor(u * 32768.0f)); // on the 2^-15 grid
        }
    }
    // Reproducible: the values every backend fills (and every run kix wrote was timed on) are pinned to an
    // independent implementation of the generator (splitmix64's finalizer over seed ^ tensor·0xD1B54A32D192ED03 and
    // (index + 1)·0x9E3779B97F4A7C15, the top 16 bits on the 2^-15 grid), computed in Python, not by this code.
    struct Pinned
    {
        Tensor tensor;
        std::uint64_t index;
        float u;
    };
    const Pinned pinned[] = {
        { Tensor::X, 0, 0.569244384765625f },
        { Tensor::X, 1, -0.537506103515625f },
        { Tensor::X, 4095, -0.50048828125f },
        { Tensor::Weight, 0, 0.956817626953125f },
        { Tensor::Weight, 4095, -0.76983642578125f },
        { Tensor::Bias, 1, 0.12054443359375f },
        { Tensor::Dy, 0, 0.89520263671875f },
        { Tensor::Dy, 4095, -0.680633544921875f },
    };
    for (const Pinned& p : pinned)
        QCOMPARE(uniformInput(42, p.tensor, p.index), p.u);
    // and each tensor's values are its uniform ones mapped as documented
    QCOMPARE(initInput(42, Tensor::X, 0), 1.5f + 2.0f * 0.569244384765625f);
    QCOMPARE(initInput(42, Tensor::Weight, 0), 1.0f + 0.5f * 0.956817626953125f);
    QCOMPARE(initInput(42, Tensor::Bias, 1), 0.25f * 0.12054443359375f);
    QCOMPARE(initInput(42, Tensor::Dy, 0), 0.89520263671875f);
    QVERIFY(uniformInput(1, Tensor::X, 0) != uniformInput(2, Tensor::X, 0));
    QVERIFY(uniformInput(1, Tensor::X, 0) != uniformInput(1, Tensor::Dy, 0));
    // The mean offset of x: a variance formula that cancels would show.
    double sum = 0;
    for (std::uint64_t i = 0; i < 4096; ++i)
        sum += initInput(9, Tensor::X, i);
    QVERIFY(std::abs(sum / 4096 - 1.5) < 0.1);
}

// kernels/dtype_dispatch.h: each dtype reaches f with its own tag, as a compile-time constant (used here as a
// template argument); a value outside the enum reaches nothing and gives the caller's fallback.
template<DType D>
constexpr int widthOf()
{
    return D == DType::F32 ? 32 : 16;
}

void TestGroupNormMath::dispatchDtypeCallsTheMatchingTag()
{
    for (DType dtype : kAllDtypes) {
        int calls = 0;
        int width = 0;
        const DType seen = dispatchDtype(
            dtype,
            [&](auto tag) {
                ++calls;
                width = widthOf<decltype(tag)::value>(); // a template argument: a compile-time constant
                return decltype(tag)::value;
            },
            DType::F16);
        QCOMPARE(width, 8 * dtypeSize(dtype));
        QCOMPARE(seen, dtype);
        QCOMPARE(calls, 1);
        dispatchDtype(dtype, [&](auto tag) { calls += static_cast<int>(decltype(tag)::value) + 10; });
        QCOMPARE(calls, 1 + static_cast<int>(dtype) + 10);
    }
    const DType bad = static_cast<DType>(7);
    int calls = 0;
    QCOMPARE(dispatchDtype(
                 bad, [&](auto) { return ++calls; }, -1),
        -1);
    dispatchDtype(bad, [&](auto) { ++calls; });
    QCOMPARE(calls, 0);
}

KIX_TEST_GUILESS_MAIN(TestGroupNormMath)
#include "tst_groupnorm_math.moc"
