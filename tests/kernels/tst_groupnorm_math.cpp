// The shared per-element helpers: the loop-free fp16 conversion, storage rounding, and the input generator.

#include "kernels/groupnorm_math.h"

#include <QTest>

#include <cmath>
#include <cstdint>

using namespace kix::gn;

class TestGroupNormMath : public QObject
{
    Q_OBJECT

private slots:
    void halfToFloatFastIsExact();
    void floatToHalfFastIsExact();
    void roundToDTypeMatchesStorage();
    void inputsAreDeterministicAndOnGrid();
};

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

void TestGroupNormMath::roundToDTypeMatchesStorage()
{
    for (const float v : { 0.f, 1.f, -2.5f, 1.0f / 3.0f, 65504.f, 1e-6f, 3.14159f }) {
        QCOMPARE(roundToDType(v, DType::F32), v);
        QCOMPARE(roundToDType(v, DType::BF16), bf16ToFloat(floatToBf16(v)));
        QCOMPARE(roundToDType(v, DType::F16), halfToFloat(floatToHalf(v)));
    }
}

void TestGroupNormMath::inputsAreDeterministicAndOnGrid()
{
    for (std::uint64_t i = 0; i < 4096; ++i) {
        for (const Tensor t : { Tensor::X, Tensor::Weight, Tensor::Bias, Tensor::Dy }) {
            const float u = uniformInput(42, t, i);
            QVERIFY(u >= -1.0f && u < 1.0f);
            QCOMPARE(u * 32768.0f, std::floor(u * 32768.0f)); // on the 2^-15 grid
            QCOMPARE(initInput(42, t, i), initInput(42, t, i));
        }
    }
    QVERIFY(uniformInput(1, Tensor::X, 0) != uniformInput(2, Tensor::X, 0));
    QVERIFY(uniformInput(1, Tensor::X, 0) != uniformInput(1, Tensor::Dy, 0));
    // The mean offset of x: a variance formula that cancels would show.
    double sum = 0;
    for (std::uint64_t i = 0; i < 4096; ++i)
        sum += initInput(9, Tensor::X, i);
    QVERIFY(std::abs(sum / 4096 - 1.5) < 0.1);
}

QTEST_GUILESS_MAIN(TestGroupNormMath)
#include "tst_groupnorm_math.moc"
