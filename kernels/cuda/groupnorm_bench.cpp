// SPDX-License-Identifier: Apache-2.0
#include "kernels/cuda/groupnorm_bench.h"

#include "kernels/cuda/groupnorm_init.h"

#include <vector>

namespace kix::cuda {

namespace {

std::size_t bytesOf(std::int64_t count, int elementSize)
{
    return static_cast<std::size_t>(count) * static_cast<std::size_t>(elementSize);
}

int selectDevice(int index)
{
    KIX_CUDA_CHECK(cudaSetDevice(index));
    return index;
}

} // namespace

GroupNormBench::GroupNormBench(const BenchConfig& config)
    : m_deviceIndex(selectDevice(config.device))
    , m_config(config)
    , m_device(queryDevice(config.device))
{
    const GroupNormShape& s = config.shape;
    if (!shapeValid(s))
        throw CudaError(cudaErrorInvalidValue, "invalid GroupNorm shape");
    m_flush = std::make_unique<L2Flush>(m_device.l2Bytes, config.flush);

    const int size = gn::dtypeSize(config.dtype);
    const std::int64_t n = s.elements();
    const bool forward = config.pass != BenchPass::Backward;
    const bool backward = config.pass != BenchPass::Forward;
    m_x = DeviceBuffer(bytesOf(n, size));
    if (forward)
        m_y = DeviceBuffer(bytesOf(n, size));
    m_weight = DeviceBuffer(bytesOf(s.channels, 4));
    m_bias = DeviceBuffer(bytesOf(s.channels, 4));
    m_mean = DeviceBuffer(bytesOf(s.rows(), 4));
    m_rstd = DeviceBuffer(bytesOf(s.rows(), 4));
    m_forwardWork = DeviceBuffer(groupNormWorkspaceBytes(config.impl, GroupNormDirection::Forward, config.dtype, s));
    if (backward) {
        m_dy = DeviceBuffer(bytesOf(n, size));
        m_dx = DeviceBuffer(bytesOf(n, size));
        m_dweight = DeviceBuffer(bytesOf(s.channels, 4));
        m_dbias = DeviceBuffer(bytesOf(s.channels, 4));
        m_backwardWork
            = DeviceBuffer(groupNormWorkspaceBytes(config.impl, GroupNormDirection::Backward, config.dtype, s));
    }
    cudaStream_t stream = m_stream.get();
    KIX_CUDA_CHECK(fillInput(config.dtype, gn::Tensor::X, config.seed, m_x.get(), n, stream));
    KIX_CUDA_CHECK(fillInput(gn::DType::F32, gn::Tensor::Weight, config.seed, m_weight.get(), s.channels, stream));
    KIX_CUDA_CHECK(fillInput(gn::DType::F32, gn::Tensor::Bias, config.seed, m_bias.get(), s.channels, stream));
    if (backward)
        KIX_CUDA_CHECK(fillInput(config.dtype, gn::Tensor::Dy, config.seed, m_dy.get(), n, stream));
    if (!forward) { // mean and rstd for the backward, as autograd saves them; y goes to dx, overwritten later
        KIX_CUDA_CHECK(groupNormForward(config.impl, config.dtype, s, m_x.get(), m_weight.as<float>(),
            m_bias.as<float>(), m_dx.get(), m_mean.as<float>(), m_rstd.as<float>(), m_forwardWork.get(),
            m_forwardWork.bytes(), stream));
    }
    KIX_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (config.graph) {
        // One pass first, so that whatever an implementation sets up lazily (kix-persistent's occupancy query)
        // happens before the capture and not inside it.
        run();
        m_graph.capture(stream, [this] { enqueue(); });
    }
}

GroupNormBench::~GroupNormBench() = default;

void GroupNormBench::enqueueForward()
{
    const BenchConfig& c = m_config;
    KIX_CUDA_CHECK(groupNormForward(c.impl, c.dtype, c.shape, m_x.get(), m_weight.as<float>(), m_bias.as<float>(),
        m_y.get(), m_mean.as<float>(), m_rstd.as<float>(), m_forwardWork.get(), m_forwardWork.bytes(), m_stream.get()));
}

void GroupNormBench::enqueueBackward()
{
    const BenchConfig& c = m_config;
    KIX_CUDA_CHECK(groupNormBackward(c.impl, c.dtype, c.shape, m_dy.get(), m_x.get(), m_weight.as<float>(),
        m_mean.as<float>(), m_rstd.as<float>(), m_dx.get(), m_dweight.as<float>(), m_dbias.as<float>(),
        m_backwardWork.get(), m_backwardWork.bytes(), m_stream.get()));
}

void GroupNormBench::enqueue()
{
    if (m_graph.valid()) {
        m_graph.launch(m_stream.get());
        return;
    }
    if (m_config.pass != BenchPass::Backward)
        enqueueForward();
    if (m_config.pass != BenchPass::Forward)
        enqueueBackward();
}

void GroupNormBench::run()
{
    enqueue();
    KIX_CUDA_CHECK(cudaStreamSynchronize(m_stream.get()));
}

double GroupNormBench::timedRunNs()
{
    const int launches = m_config.launches > 1 ? m_config.launches : 1;
    m_timer.start(m_stream.get());
    for (int i = 0; i < launches; ++i)
        enqueue();
    return m_timer.stopNs(m_stream.get()) / launches;
}

void GroupNormBench::flushCaches()
{
    m_flush->flush(m_stream.get());
}

void GroupNormBench::poisonOutputs()
{
    for (DeviceBuffer* b : { &m_y, &m_mean, &m_rstd, &m_dx, &m_dweight, &m_dbias })
        if (b->get() && (m_config.pass != BenchPass::Backward || (b != &m_mean && b != &m_rstd)))
            KIX_CUDA_CHECK(cudaMemsetAsync(b->get(), 0xff, b->bytes(), m_stream.get()));
    KIX_CUDA_CHECK(cudaStreamSynchronize(m_stream.get()));
}

std::string GroupNormBench::flushDescription() const
{
    return m_flush->description(m_config.launches > 1 ? m_config.launches : 1);
}

void GroupNormBench::readOutput(BenchOutput which, std::int64_t offset, std::int64_t count, float* destination)
{
    const GroupNormShape& s = m_config.shape;
    const void* source = nullptr;
    gn::DType dtype = gn::DType::F32;
    std::int64_t size = 0;
    switch (which) {
    case BenchOutput::Y:
    case BenchOutput::Dx:
        source = which == BenchOutput::Y ? m_y.get() : m_dx.get();
        dtype = m_config.dtype;
        size = s.elements();
        break;
    case BenchOutput::Mean:
    case BenchOutput::Rstd:
        source = which == BenchOutput::Mean ? m_mean.get() : m_rstd.get();
        size = s.rows();
        break;
    case BenchOutput::DWeight:
    case BenchOutput::DBias:
        source = which == BenchOutput::DWeight ? m_dweight.get() : m_dbias.get();
        size = s.channels;
        break;
    }
    if (!source || offset < 0 || count < 0 || offset + count > size)
        throw CudaError(cudaErrorInvalidValue, "readOutput: output not produced by this pass, or range out of bounds");
    const int elementSize = gn::dtypeSize(dtype);
    const char* from = static_cast<const char*>(source) + bytesOf(offset, elementSize);
    KIX_CUDA_CHECK(cudaStreamSynchronize(m_stream.get()));
    if (dtype == gn::DType::F32) {
        KIX_CUDA_CHECK(cudaMemcpy(destination, from, bytesOf(count, 4), cudaMemcpyDeviceToHost));
        return;
    }
    std::vector<std::uint16_t> raw(static_cast<std::size_t>(count));
    KIX_CUDA_CHECK(cudaMemcpy(raw.data(), from, bytesOf(count, 2), cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < raw.size(); ++i)
        destination[i] = dtype == gn::DType::BF16 ? gn::bf16ToFloat(raw[i]) : gn::halfToFloat(raw[i]);
}

std::string GroupNormBench::plan() const
{
    char text[200];
    std::string p;
    if (m_config.pass != BenchPass::Backward)
        p += std::string("forward: ")
            + launchDescription(
                m_config.impl, m_config.dtype, m_config.shape, GroupNormDirection::Forward, true, text, sizeof text);
    if (m_config.pass != BenchPass::Forward)
        p += std::string(p.empty() ? "" : "; ") + "backward: "
            + launchDescription(
                m_config.impl, m_config.dtype, m_config.shape, GroupNormDirection::Backward, true, text, sizeof text);
    return p;
}

const char* benchPassName(BenchPass pass)
{
    return pass == BenchPass::Forward ? "forward" : pass == BenchPass::Backward ? "backward" : "full";
}

bool parseBenchPass(const std::string& text, BenchPass& pass)
{
    for (BenchPass p : { BenchPass::Forward, BenchPass::Backward, BenchPass::Full })
        if (text == benchPassName(p)) {
            pass = p;
            return true;
        }
    return false;
}

bool parseDType(const std::string& text, gn::DType& dtype)
{
    if (text == "fp32" || text == "bf16" || text == "fp16") {
        dtype = text == "fp32" ? gn::DType::F32 : text == "bf16" ? gn::DType::BF16 : gn::DType::F16;
        return true;
    }
    return false;
}

std::int64_t minimumBytes(BenchPass pass, gn::DType dtype, const GroupNormShape& s)
{
    const std::int64_t tensor = s.elements() * gn::dtypeSize(dtype);
    const std::int64_t parameter = s.channels * 4;
    const std::int64_t statistic = s.rows() * 4;
    switch (pass) {
    case BenchPass::Forward:
        return 2 * tensor + 2 * parameter + 2 * statistic;
    case BenchPass::Backward:
        return 3 * tensor + 3 * parameter + 2 * statistic;
    case BenchPass::Full:
        return 5 * tensor + 5 * parameter + 4 * statistic; // forward's + backward's
    }
    return 0;
}

} // namespace kix::cuda
