// SPDX-License-Identifier: Apache-2.0
#include "kernels/groupnorm_cpu.h"

#include "kernels/dtype_dispatch.h"
#include "kernels/threadpool.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace kix::gn::cpu {
namespace {

// Sums: each chunk of kChunk elements is reduced in fp32 by a loop the compiler vectorizes (`omp simd
// reduction`, enabled by -fopenmp-simd without any OpenMP runtime: the lanes' order is fixed by the binary,
// not by the thread count), and chunk sums are added in double so long rows (channels_per_group = C) stay
// accurate.
constexpr std::int64_t kChunk = 2048;

// Sum of (x - shift): with shift = the row's first element the fp32 partial sums stay small whatever the
// row's offset (|mean| >> stddev would otherwise lose the low bits of every addition).
double shiftedSum(const float* x, std::int64_t n, float shift)
{
    double total = 0;
    for (std::int64_t i = 0; i < n; i += kChunk) {
        const std::int64_t m = std::min(kChunk, n - i);
        const float* p = x + i;
        // Two independent halves: one accumulator would wait on the adder's latency.
        const std::int64_t half = m / 2;
        float s0 = 0.f;
        float s1 = 0.f;
#pragma omp simd reduction(+ : s0, s1)
        for (std::int64_t j = 0; j < half; ++j) {
            s0 += p[j] - shift;
            s1 += p[j + half] - shift;
        }
        if (m % 2)
            s0 += p[m - 1] - shift;
        total += static_cast<double>(s0) + s1;
    }
    return total;
}

// Sum of (x - mean)^2: the second pass of the two-pass variance, never negative.
double squaredDeviations(const float* x, std::int64_t n, float mean)
{
    double total = 0;
    for (std::int64_t i = 0; i < n; i += kChunk) {
        const std::int64_t m = std::min(kChunk, n - i);
        const float* p = x + i;
        const std::int64_t half = m / 2;
        float s0 = 0.f;
        float s1 = 0.f;
#pragma omp simd reduction(+ : s0, s1)
        for (std::int64_t j = 0; j < half; ++j) {
            const float d0 = p[j] - mean;
            const float d1 = p[j + half] - mean;
            s0 += d0 * d0;
            s1 += d1 * d1;
        }
        if (m % 2) {
            const float d = p[m - 1] - mean;
            s0 += d * d;
        }
        total += static_cast<double>(s0) + s1;
    }
    return total;
}

// Sum of dy and of dy * (x - mean) over one channel's H elements.
void channelSums(const float* x, const float* dy, std::int64_t n, float mean, double& sumDy, double& sumDyXm)
{
    sumDy = 0;
    sumDyXm = 0;
    for (std::int64_t i = 0; i < n; i += kChunk) {
        const std::int64_t m = std::min(kChunk, n - i);
        const float* px = x + i;
        const float* pdy = dy + i;
        float dySum = 0.f;
        float dyXmSum = 0.f;
#pragma omp simd reduction(+ : dySum, dyXmSum)
        for (std::int64_t j = 0; j < m; ++j) {
            dySum += pdy[j];
            dyXmSum += pdy[j] * (px[j] - mean);
        }
        sumDy += dySum;
        sumDyXm += dyXmSum;
    }
}

// Where this thread's next row lies (storage bytes). In the forward, channel c of it is requested while
// channel c of the current row is finished from L1, so memory keeps working during the passes that only
// compute. (Asking for a whole row at once swamps the line-fill buffers; in the backward, whose first pass
// already streams two inputs, any prefetch measured slower.)
struct NextRow
{
    const char* x = nullptr; // null: no next row
    std::int64_t channelBytes = 0;

    void prefetchChannel(std::int64_t c) const
    {
#if defined(__GNUC__)
        for (std::int64_t i = 0; x && i < channelBytes; i += 64)
            __builtin_prefetch(x + c * channelBytes + i, 0, 3);
#else
        (void)c;
#endif
    }
};

// One row in fp32: x and y hold channelsPerGroup * hidden elements; weight and bias point at the group's
// first channel.
void forwardRow(const float* x, float* y, const float* weight, const float* bias, const Shape& s, float& meanOut,
    float& rstdOut, const NextRow& next)
{
    const std::int64_t length = s.rowLength();
    const float shift = x[0];
    const float mean = static_cast<float>(shift + shiftedSum(x, length, shift) / static_cast<double>(length));
    const float variance = static_cast<float>(squaredDeviations(x, length, mean) / static_cast<double>(length));
    const float rstd = rstdFromVariance(variance, s.eps);
    for (std::int64_t c = 0; c < s.channelsPerGroup; ++c) {
        const float scale = forwardScale(weight[c], rstd);
        const float b = bias[c];
        const float* xc = x + c * s.hidden;
        float* yc = y + c * s.hidden;
        next.prefetchChannel(c);
        for (std::int64_t h = 0; h < s.hidden; ++h)
            yc[h] = normalizeCentered(xc[h], mean, scale, b);
    }
    meanOut = mean;
    rstdOut = rstd;
}

// One row in fp32; partialWeight/partialBias receive this row's per-channel sums (channelsPerGroup each).
void backwardRow(const float* x, const float* dy, float* dx, const float* weight, const Shape& s, float mean,
    float rstd, float* partialWeight, float* partialBias)
{
    double sumG = 0; // sum over the row of w * dy
    double sumGXhat = 0; // sum over the row of w * dy * xhat
    for (std::int64_t c = 0; c < s.channelsPerGroup; ++c) {
        double sumDy = 0;
        double sumDyXm = 0;
        channelSums(x + c * s.hidden, dy + c * s.hidden, s.hidden, mean, sumDy, sumDyXm);
        const double dyXhat = static_cast<double>(rstd) * sumDyXm;
        partialBias[c] = static_cast<float>(sumDy);
        partialWeight[c] = static_cast<float>(dyXhat);
        sumG += static_cast<double>(weight[c]) * sumDy;
        sumGXhat += static_cast<double>(weight[c]) * dyXhat;
    }
    const BackwardCoefficients k = backwardCoefficients(
        rstd, static_cast<float>(sumG), static_cast<float>(sumGXhat), 1.0f / static_cast<float>(s.rowLength()));
    for (std::int64_t c = 0; c < s.channelsPerGroup; ++c) {
        const float scale = forwardScale(weight[c], rstd); // rstd * w: dx's coefficient of dy
        const float* xc = x + c * s.hidden;
        const float* dyc = dy + c * s.hidden;
        float* dxc = dx + c * s.hidden;
        for (std::int64_t h = 0; h < s.hidden; ++h)
            dxc[h] = backwardDxFused(dyc[h], xc[h], mean, scale, k);
    }
}

// Storage types: fp32 is used in place; 16-bit rows are widened into a per-thread fp32 buffer.
struct Bf16
{
    static float load(std::uint16_t v) { return bf16ToFloat(v); }
    static std::uint16_t store(float v) { return floatToBf16(v); }
};
struct F16
{
    static float load(std::uint16_t v) { return halfToFloatFast(v); }
    static std::uint16_t store(float v) { return floatToHalfFast(v); }
};

// The storage type of each dtype on the host: float itself, or the codec of a 16-bit format.
template<DType D>
using HostStorage = std::conditional_t<D == DType::F32, float, std::conditional_t<D == DType::BF16, Bf16, F16>>;

template<typename Codec>
void widen(const std::uint16_t* src, float* dst, std::int64_t n)
{
    for (std::int64_t i = 0; i < n; ++i)
        dst[i] = Codec::load(src[i]);
}

template<typename Codec>
void narrow(const float* src, std::uint16_t* dst, std::int64_t n)
{
    for (std::int64_t i = 0; i < n; ++i)
        dst[i] = Codec::store(src[i]);
}

struct RowBuffers
{
    std::vector<float> x, dy, out;
    void reserve(std::int64_t n)
    {
        const auto size = static_cast<std::size_t>(n);
        if (x.size() < size) {
            x.resize(size);
            dy.resize(size);
            out.resize(size);
        }
    }
};

RowBuffers& rowBuffers()
{
    thread_local RowBuffers buffers;
    return buffers;
}

// Writes a computed row (fp32 in `row`) to the output in its storage type.
template<typename Codec>
void writeRow(const float* row, void* output, std::int64_t offset, std::int64_t length)
{
    if constexpr (std::is_same_v<Codec, float>) {
        float* destination = static_cast<float*>(output) + offset;
        if (destination != row)
            std::memcpy(destination, row, static_cast<std::size_t>(length) * sizeof(float));
    } else {
        narrow<Codec>(row, static_cast<std::uint16_t*>(output) + offset, length);
    }
}

template<typename Codec>
void forwardRows(const ForwardArgs& a, std::int64_t begin, std::int64_t end)
{
    const Shape& s = a.shape;
    const std::int64_t length = s.rowLength();
    const std::int64_t groups = s.groups();
    constexpr bool f32 = std::is_same_v<Codec, float>;
    RowBuffers& buf = rowBuffers();
    if (!f32)
        buf.reserve(length);
    for (std::int64_t row = begin; row < end; ++row) {
        const std::int64_t offset = row * length; // row (n, g) starts at (n * C + g * cpg) * H
        const std::int64_t firstChannel = (row % groups) * s.channelsPerGroup;
        const float* x = buf.x.data();
        if constexpr (f32)
            x = static_cast<const float*>(a.x) + offset;
        else
            widen<Codec>(static_cast<const std::uint16_t*>(a.x) + offset, buf.x.data(), length);
        // fp32 computes straight into y; 16-bit storage into the row buffer first.
        float* y = f32 ? static_cast<float*>(a.y) + offset : buf.out.data();
        NextRow next;
        if (row + 1 < end) {
            next.channelBytes = s.hidden * dtypeSize(a.dtype);
            next.x = static_cast<const char*>(a.x) + (offset + length) * dtypeSize(a.dtype);
        }
        forwardRow(x, y, a.weight + firstChannel, a.bias + firstChannel, s, a.mean[row], a.rstd[row], next);
        writeRow<Codec>(y, a.y, offset, length);
    }
}

template<typename Codec>
void backwardRows(const BackwardArgs& a, std::int64_t begin, std::int64_t end)
{
    const Shape& s = a.shape;
    const std::int64_t length = s.rowLength();
    const std::int64_t groups = s.groups();
    constexpr bool f32 = std::is_same_v<Codec, float>;
    float* partialWeight = a.workspace;
    float* partialBias = a.workspace + s.batch * s.channels;
    RowBuffers& buf = rowBuffers();
    if (!f32)
        buf.reserve(length);
    for (std::int64_t row = begin; row < end; ++row) {
        const std::int64_t offset = row * length;
        const std::int64_t n = row / groups;
        const std::int64_t firstChannel = (row % groups) * s.channelsPerGroup;
        const std::int64_t partial = n * s.channels + firstChannel;
        const float* x = buf.x.data();
        const float* dy = buf.dy.data();
        if constexpr (f32) {
            x = static_cast<const float*>(a.x) + offset;
            dy = static_cast<const float*>(a.dy) + offset;
        } else {
            widen<Codec>(static_cast<const std::uint16_t*>(a.x) + offset, buf.x.data(), length);
            widen<Codec>(static_cast<const std::uint16_t*>(a.dy) + offset, buf.dy.data(), length);
        }
        float* dx = f32 ? static_cast<float*>(a.dx) + offset : buf.out.data();
        backwardRow(x, dy, dx, a.weight + firstChannel, s, a.mean[row], a.rstd[row], partialWeight + partial,
            partialBias + partial);
        writeRow<Codec>(dx, a.dx, offset, length);
    }
}

// dweight[c] = sum over n of the partials, n in increasing order whatever the thread count.
void reducePartials(const BackwardArgs& a, ThreadPool& pool)
{
    const Shape& s = a.shape;
    const float* partialWeight = a.workspace;
    const float* partialBias = a.workspace + s.batch * s.channels;
    pool.parallelFor(s.channels, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t c = begin; c < end; ++c) {
            double w = 0;
            double b = 0;
            for (std::int64_t n = 0; n < s.batch; ++n) {
                w += partialWeight[n * s.channels + c];
                b += partialBias[n * s.channels + c];
            }
            a.dweight[c] = static_cast<float>(w);
            a.dbias[c] = static_cast<float>(b);
        }
    });
}

// Rows per chunk handed to a thread: enough work (about 64 K elements) to amortise the hand-out.
std::int64_t rowGrain(const Shape& s, int threads)
{
    const std::int64_t byWork
        = std::max<std::int64_t>(1, (std::int64_t(1) << 16) / std::max<std::int64_t>(1, s.rowLength()));
    const std::int64_t byBalance = std::max<std::int64_t>(1, s.rows() / (8 * static_cast<std::int64_t>(threads)));
    return std::min(byWork, byBalance);
}

} // namespace

std::size_t backwardWorkspaceFloats(const Shape& shape)
{
    return static_cast<std::size_t>(2 * shape.batch * shape.channels);
}

void forward(const ForwardArgs& args, ThreadPool& pool)
{
    const std::int64_t grain = rowGrain(args.shape, pool.size());
    pool.parallelFor(
        args.shape.rows(),
        [&](std::int64_t begin, std::int64_t end) {
            dispatchDtype(
                args.dtype, [&](auto tag) { forwardRows<HostStorage<decltype(tag)::value>>(args, begin, end); });
        },
        grain);
}

void backward(const BackwardArgs& args, ThreadPool& pool)
{
    const std::int64_t grain = rowGrain(args.shape, pool.size());
    pool.parallelFor(
        args.shape.rows(),
        [&](std::int64_t begin, std::int64_t end) {
            dispatchDtype(
                args.dtype, [&](auto tag) { backwardRows<HostStorage<decltype(tag)::value>>(args, begin, end); });
        },
        grain);
    reducePartials(args, pool);
}

} // namespace kix::gn::cpu
