// SPDX-License-Identifier: Apache-2.0
// The CPU GroupNorm kernels against the float64 reference, over a table of shapes and every dtype.

#include "kernels/groupnorm_cpu.h"
#include "kernels/groupnorm_math.h"
#include "kernels/groupnorm_reference.h"
#include "kernels/threadpool.h"

#include "tests/support/testmain.h"

#include <QTest>

#include <cstdint>
#include <vector>

using namespace kix;
using kix::gn::DType;
using kix::gn::Shape;

Q_DECLARE_METATYPE(kix::gn::DType)

namespace {

const char* dtypeLabel(DType t)
{
    return t == DType::F32 ? "fp32" : t == DType::BF16 ? "bf16" : "fp16";
}

// Host tensors of one test case: storage bytes for the kernels, float64 copies of the stored values for
// the reference.
struct Tensors
{
    Shape shape;
    DType dtype = DType::F32;
    std::vector<std::uint8_t> x, dy, y, dx;
    std::vector<float> weight, bias, mean, rstd, dweight, dbias, workspace;
    std::vector<double> xRef, dyRef, weightRef, biasRef;

    Tensors(const Shape& s, DType t, std::uint64_t seed)
        : shape(s)
        , dtype(t)
    {
        const auto n = static_cast<std::size_t>(s.elements());
        const auto size = static_cast<std::size_t>(gn::dtypeSize(t));
        x.resize(n * size);
        dy.resize(n * size);
        y.resize(n * size);
        dx.resize(n * size);
        xRef.resize(n);
        dyRef.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            xRef[i] = store(x, i, gn::initInput(seed, gn::Tensor::X, i));
            dyRef[i] = store(dy, i, gn::initInput(seed, gn::Tensor::Dy, i));
        }
        const auto c = static_cast<std::size_t>(s.channels);
        for (std::size_t i = 0; i < c; ++i) {
            weight.push_back(gn::initInput(seed, gn::Tensor::Weight, i));
            bias.push_back(gn::initInput(seed, gn::Tensor::Bias, i));
            weightRef.push_back(weight.back());
            biasRef.push_back(bias.back());
        }
        mean.resize(static_cast<std::size_t>(s.rows()));
        rstd.resize(mean.size());
        dweight.resize(c);
        dbias.resize(c);
        workspace.resize(gn::cpu::backwardWorkspaceFloats(s));
    }

    // Stores v in the dtype; returns the stored value.
    double store(std::vector<std::uint8_t>& buffer, std::size_t i, float v) const
    {
        if (dtype == DType::F32) {
            reinterpret_cast<float*>(buffer.data())[i] = v;
            return v;
        }
        const std::uint16_t bits = dtype == DType::BF16 ? gn::floatToBf16(v) : gn::floatToHalf(v);
        reinterpret_cast<std::uint16_t*>(buffer.data())[i] = bits;
        return dtype == DType::BF16 ? gn::bf16ToFloat(bits) : gn::halfToFloat(bits);
    }

    double load(const std::vector<std::uint8_t>& buffer, std::size_t i) const
    {
        if (dtype == DType::F32)
            return reinterpret_cast<const float*>(buffer.data())[i];
        const std::uint16_t bits = reinterpret_cast<const std::uint16_t*>(buffer.data())[i];
        return dtype == DType::BF16 ? gn::bf16ToFloat(bits) : gn::halfToFloat(bits);
    }

    void runForward(ThreadPool& pool)
    {
        gn::cpu::ForwardArgs args;
        args.shape = shape;
        args.dtype = dtype;
        args.x = x.data();
        args.weight = weight.data();
        args.bias = bias.data();
        args.y = y.data();
        args.mean = mean.data();
        args.rstd = rstd.data();
        gn::cpu::forward(args, pool);
    }

    void runBackward(ThreadPool& pool)
    {
        gn::cpu::BackwardArgs args;
        args.shape = shape;
        args.dtype = dtype;
        args.x = x.data();
        args.dy = dy.data();
        args.weight = weight.data();
        args.mean = mean.data();
        args.rstd = rstd.data();
        args.dx = dx.data();
        args.dweight = dweight.data();
        args.dbias = dbias.data();
        args.workspace = workspace.data();
        gn::cpu::backward(args, pool);
    }
};

double errorOf(const std::vector<float>& out, const std::vector<double>& reference)
{
    gn::ref::ErrorAccumulator error;
    for (std::size_t i = 0; i < out.size(); ++i)
        error.add(out[i], reference[i]);
    return error.relative();
}

} // namespace

class TestGroupNormCpu : public QObject
{
    Q_OBJECT

private slots:
    void matchesReference_data();
    void matchesReference();
    void gradientsAreBitwiseReproducible();
    void constantRowsHaveZeroVariance();
    void largeOffsetKeepsVarianceAccurate();
};

void TestGroupNormCpu::matchesReference_data()
{
    QTest::addColumn<qint64>("batch");
    QTest::addColumn<qint64>("channels");
    QTest::addColumn<qint64>("hidden");
    QTest::addColumn<qint64>("channelsPerGroup");
    QTest::addColumn<DType>("dtype");

    struct Case
    {
        const char* name;
        qint64 m, c, h, cpg;
    };
    const Case cases[] = {
        { "seed-like", 2, 64, 32, 4 },
        { "odd H", 3, 12, 7, 3 },
        { "H 1", 2, 64, 1, 8 },
        { "channels_per_group 1", 2, 16, 33, 1 },
        { "channels_per_group C", 2, 8, 17, 8 },
        { "M 1", 1, 32, 64, 4 },
        { "large rows", 2, 4, 8191, 4 },
        { "many rows", 5, 96, 9, 4 },
    };
    for (const DType t : { DType::F32, DType::BF16, DType::F16 })
        for (const Case& c : cases)
            QTest::addRow("%s %s", c.name, dtypeLabel(t)) << c.m << c.c << c.h << c.cpg << t;
}

void TestGroupNormCpu::matchesReference()
{
    QFETCH(qint64, batch);
    QFETCH(qint64, channels);
    QFETCH(qint64, hidden);
    QFETCH(qint64, channelsPerGroup);
    QFETCH(DType, dtype);

    Shape shape;
    shape.batch = batch;
    shape.channels = channels;
    shape.hidden = hidden;
    shape.channelsPerGroup = channelsPerGroup;
    Tensors t(shape, dtype, 7);
    ThreadPool pool(3);
    t.runForward(pool);
    t.runBackward(pool);

    const auto n = static_cast<std::size_t>(shape.elements());
    std::vector<double> y(n), dx(n), mean(t.mean.size()), rstd(t.rstd.size());
    std::vector<double> dweight(t.dweight.size()), dbias(t.dbias.size());
    gn::ref::forward(shape, t.xRef.data(), t.weightRef.data(), t.biasRef.data(), y.data(), mean.data(), rstd.data());
    gn::ref::backward(
        shape, t.xRef.data(), t.dyRef.data(), t.weightRef.data(), dx.data(), dweight.data(), dbias.data());

    gn::ref::ErrorAccumulator yError;
    gn::ref::ErrorAccumulator dxError;
    for (std::size_t i = 0; i < n; ++i) {
        yError.add(t.load(t.y, i), y[i]);
        dxError.add(t.load(t.dx, i), dx[i]);
    }
    const double tolerance = gn::ref::tolerance(dtype);
    const double fp32 = gn::ref::tolerance(DType::F32); // statistics and parameter gradients are fp32
    QVERIFY2(yError.relative() <= tolerance, qPrintable(QStringLiteral("y error %1").arg(yError.relative())));
    QVERIFY2(dxError.relative() <= tolerance, qPrintable(QStringLiteral("dx error %1").arg(dxError.relative())));
    QVERIFY2(errorOf(t.mean, mean) <= fp32, qPrintable(QStringLiteral("mean error %1").arg(errorOf(t.mean, mean))));
    QVERIFY2(errorOf(t.rstd, rstd) <= fp32, qPrintable(QStringLiteral("rstd error %1").arg(errorOf(t.rstd, rstd))));
    QVERIFY2(errorOf(t.dweight, dweight) <= fp32,
        qPrintable(QStringLiteral("dweight error %1").arg(errorOf(t.dweight, dweight))));
    QVERIFY2(
        errorOf(t.dbias, dbias) <= fp32, qPrintable(QStringLiteral("dbias error %1").arg(errorOf(t.dbias, dbias))));
}

void TestGroupNormCpu::gradientsAreBitwiseReproducible()
{
    Shape shape;
    shape.batch = 7;
    shape.channels = 24;
    shape.hidden = 19;
    shape.channelsPerGroup = 3;
    std::vector<float> firstWeight, firstBias;
    std::vector<std::uint8_t> firstDx;
    for (const int threads : { 1, 2, 5 }) {
        Tensors t(shape, DType::F32, 11);
        ThreadPool pool(threads);
        t.runForward(pool);
        t.runBackward(pool);
        if (firstWeight.empty()) {
            firstWeight = t.dweight;
            firstBias = t.dbias;
            firstDx = t.dx;
            continue;
        }
        QVERIFY(std::memcmp(firstWeight.data(), t.dweight.data(), firstWeight.size() * sizeof(float)) == 0);
        QVERIFY(std::memcmp(firstBias.data(), t.dbias.data(), firstBias.size() * sizeof(float)) == 0);
        QVERIFY(firstDx == t.dx);
    }
}

void TestGroupNormCpu::constantRowsHaveZeroVariance()
{
    Shape shape;
    shape.batch = 2;
    shape.channels = 8;
    shape.hidden = 37;
    shape.channelsPerGroup = 4;
    Tensors t(shape, DType::F32, 3);
    auto* x = reinterpret_cast<float*>(t.x.data());
    for (qint64 i = 0; i < shape.elements(); ++i)
        x[i] = 1000.25f; // E[x^2] - mean^2 would round to garbage, possibly negative
    ThreadPool pool(2);
    t.runForward(pool);
    const float expectedRstd = 1.0f / std::sqrt(shape.eps);
    for (std::size_t r = 0; r < t.rstd.size(); ++r) {
        QCOMPARE(t.mean[r], 1000.25f);
        QCOMPARE(t.rstd[r], expectedRstd);
    }
    const auto* y = reinterpret_cast<const float*>(t.y.data());
    for (qint64 i = 0; i < shape.elements(); ++i)
        QCOMPARE(y[i], t.bias[static_cast<std::size_t>((i / shape.hidden) % shape.channels)]);
}

void TestGroupNormCpu::largeOffsetKeepsVarianceAccurate()
{
    Shape shape;
    shape.batch = 2;
    shape.channels = 8;
    shape.hidden = 512;
    shape.channelsPerGroup = 4;
    Tensors t(shape, DType::F32, 5);
    auto* x = reinterpret_cast<float*>(t.x.data());
    for (qint64 i = 0; i < shape.elements(); ++i) {
        x[i] += 1.0e4f; // |mean| >> stddev
        t.xRef[static_cast<std::size_t>(i)] = x[i];
    }
    ThreadPool pool(2);
    t.runForward(pool);
    std::vector<double> y(static_cast<std::size_t>(shape.elements())), mean(t.mean.size()), rstd(t.rstd.size());
    gn::ref::forward(shape, t.xRef.data(), t.weightRef.data(), t.biasRef.data(), y.data(), mean.data(), rstd.data());
    // The fp32 mean of values near 1e4 is within half an ulp (5e-4) of the exact one: y keeps about 2e-4.
    QVERIFY2(errorOf(t.rstd, rstd) <= 1e-5, qPrintable(QString::number(errorOf(t.rstd, rstd))));
    gn::ref::ErrorAccumulator yError;
    for (std::size_t i = 0; i < y.size(); ++i)
        yError.add(t.load(t.y, i), y[i]);
    QVERIFY2(yError.relative() <= 5e-4, qPrintable(QString::number(yError.relative())));
}

KIX_TEST_GUILESS_MAIN(TestGroupNormCpu)
#include "tst_groupnorm_cpu.moc"
