// SPDX-License-Identifier: Apache-2.0
#include "engine/cpupreparedbenchmark.h"

#include "kernels/groupnorm_cpu.h"
#include "kernels/threadpool.h"

#include <chrono>
#include <cstdint>
#include <cstring>

namespace kix {
namespace {

std::size_t bytes(qint64 count, std::size_t size)
{
    return static_cast<std::size_t>(count) * size;
}

} // namespace

CpuPreparedBenchmark::CpuPreparedBenchmark(const BenchmarkSpec& spec, ThreadPool& pool, qint64 flushBytes)
    : m_spec(spec)
    , m_pool(pool)
{
    const std::size_t storage = static_cast<std::size_t>(gn::dtypeSize(spec.dtype));
    const bool forward = spec.pass != Pass::Backward;
    const bool backward = spec.pass != Pass::Forward;
    try {
        m_x = AlignedBuffer(bytes(spec.elements(), storage));
        m_weight = AlignedBuffer(bytes(spec.channels, sizeof(float)));
        m_bias = AlignedBuffer(bytes(spec.channels, sizeof(float)));
        m_mean = AlignedBuffer(bytes(spec.rows(), sizeof(float)));
        m_rstd = AlignedBuffer(bytes(spec.rows(), sizeof(float)));
        if (forward)
            m_y = AlignedBuffer(bytes(spec.elements(), storage));
        if (backward) {
            m_dy = AlignedBuffer(bytes(spec.elements(), storage));
            m_dx = AlignedBuffer(bytes(spec.elements(), storage));
            m_dweight = AlignedBuffer(bytes(spec.channels, sizeof(float)));
            m_dbias = AlignedBuffer(bytes(spec.channels, sizeof(float)));
            m_workspace = AlignedBuffer(gn::cpu::backwardWorkspaceFloats(spec.shape()) * sizeof(float));
        }
        m_flush = AlignedBuffer(static_cast<std::size_t>(flushBytes) / 8 * 8);
    } catch (const std::bad_alloc&) {
        throw BackendError("out of host memory allocating the tensors of " + spec.workloadSlug().toStdString());
    }

    fillInput(m_x, static_cast<int>(gn::Tensor::X));
    for (qint64 c = 0; c < spec.channels; ++c) {
        const auto i = static_cast<std::uint64_t>(c);
        m_weight.as<float>()[c] = gn::initInput(spec.seed, gn::Tensor::Weight, i);
        m_bias.as<float>()[c] = gn::initInput(spec.seed, gn::Tensor::Bias, i);
    }
    zero(m_y);
    zero(m_flush);
    if (backward) {
        fillInput(m_dy, static_cast<int>(gn::Tensor::Dy));
        zero(m_dx);
        zero(m_workspace);
        // The backward consumes the forward's statistics; dx serves as the forward's y (same size, and
        // the backward overwrites it).
        runForward(m_dx.data());
    }
}

void CpuPreparedBenchmark::fillInput(AlignedBuffer& buffer, int tensor)
{
    const auto t = static_cast<gn::Tensor>(tensor);
    const DType dtype = m_spec.dtype;
    const quint64 seed = m_spec.seed;
    m_pool.parallelFor(m_spec.elements(), [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i) {
            const float v = gn::initInput(seed, t, static_cast<std::uint64_t>(i));
            if (dtype == DType::F32)
                buffer.as<float>()[i] = v;
            else
                buffer.as<std::uint16_t>()[i] = dtype == DType::BF16 ? gn::floatToBf16(v) : gn::floatToHalf(v);
        }
    });
}

void CpuPreparedBenchmark::zero(AlignedBuffer& buffer)
{
    const std::int64_t size = static_cast<std::int64_t>(buffer.size());
    m_pool.parallelFor(size, [&](std::int64_t begin, std::int64_t end) {
        std::memset(buffer.data() + begin, 0, static_cast<std::size_t>(end - begin));
    });
}

void CpuPreparedBenchmark::runForward(void* y)
{
    gn::cpu::ForwardArgs args;
    args.shape = m_spec.shape();
    args.dtype = m_spec.dtype;
    args.x = m_x.data();
    args.weight = m_weight.as<float>();
    args.bias = m_bias.as<float>();
    args.y = y;
    args.mean = m_mean.as<float>();
    args.rstd = m_rstd.as<float>();
    gn::cpu::forward(args, m_pool);
}

void CpuPreparedBenchmark::runBackward()
{
    gn::cpu::BackwardArgs args;
    args.shape = m_spec.shape();
    args.dtype = m_spec.dtype;
    args.x = m_x.data();
    args.dy = m_dy.data();
    args.weight = m_weight.as<float>();
    args.mean = m_mean.as<float>();
    args.rstd = m_rstd.as<float>();
    args.dx = m_dx.data();
    args.dweight = m_dweight.as<float>();
    args.dbias = m_dbias.as<float>();
    args.workspace = m_workspace.as<float>();
    gn::cpu::backward(args, m_pool);
}

void CpuPreparedBenchmark::run()
{
    switch (m_spec.pass) {
    case Pass::Forward:
        runForward(m_y.data());
        break;
    case Pass::Backward:
        runBackward();
        break;
    case Pass::Full:
        runForward(m_y.data());
        runBackward();
        break;
    }
}

double CpuPreparedBenchmark::timedRun()
{
    const auto start = std::chrono::steady_clock::now();
    run();
    const auto end = std::chrono::steady_clock::now();
    return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count());
}

void CpuPreparedBenchmark::flushCaches()
{
    // A read-modify-write of every word: the compiler cannot turn it into a memset, whose large-size
    // path uses non-temporal stores that would bypass (and so not evict) the caches.
    const std::uint64_t round = ++m_flushRound;
    auto* words = m_flush.as<std::uint64_t>();
    m_pool.parallelFor(static_cast<std::int64_t>(m_flush.size() / 8), [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i)
            words[i] += round;
    });
}

void CpuPreparedBenchmark::readOutput(Output which, qint64 offset, qint64 count, float* destination)
{
    const AlignedBuffer* source = nullptr;
    bool storage = false; // in the storage dtype rather than fp32
    qint64 size = 0;
    switch (which) {
    case Output::Y:
        source = &m_y;
        storage = true;
        size = m_spec.elements();
        break;
    case Output::Dx:
        source = &m_dx;
        storage = true;
        size = m_spec.elements();
        break;
    case Output::Mean:
        source = &m_mean;
        size = m_spec.rows();
        break;
    case Output::Rstd:
        source = &m_rstd;
        size = m_spec.rows();
        break;
    case Output::DWeight:
        source = &m_dweight;
        size = m_spec.channels;
        break;
    case Output::DBias:
        source = &m_dbias;
        size = m_spec.channels;
        break;
    }
    if (!source || source->empty() || offset < 0 || count < 0 || offset + count > size)
        throw BackendError("readOutput: output not produced by this pass, or range out of bounds");
    if (!storage || m_spec.dtype == DType::F32) {
        std::memcpy(destination, source->as<float>() + offset, bytes(count, sizeof(float)));
        return;
    }
    const std::uint16_t* bits = source->as<std::uint16_t>() + offset;
    for (qint64 i = 0; i < count; ++i)
        destination[i] = m_spec.dtype == DType::BF16 ? gn::bf16ToFloat(bits[i]) : gn::halfToFloat(bits[i]);
}

} // namespace kix
