// SPDX-License-Identifier: Apache-2.0
#include "kernels/cuda/cuda_check.h"

namespace kix::cuda {

std::string errorText(cudaError_t error)
{
    const char* name = cudaGetErrorName(error);
    const char* text = cudaGetErrorString(error);
    return std::string(name ? name : "cudaError?") + " (" + (text ? text : "unknown error") + ")";
}

std::string callFailure(cudaError_t error, const char* call, const char* file, int line)
{
    return std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " + errorText(error);
}

void throwCallFailure(cudaError_t error, const char* call, const char* file, int line)
{
    throw CudaError(error, callFailure(error, call, file, line));
}

DeviceBuffer::DeviceBuffer(std::size_t bytes)
{
    if (bytes == 0)
        return;
    KIX_CUDA_CHECK(cudaMalloc(&m_data, bytes));
    m_bytes = bytes;
}

DeviceBuffer::~DeviceBuffer()
{
    if (m_data)
        (void)cudaFree(m_data); // a destructor must not throw; a failed free leaves nothing to do
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept
{
    if (this != &other) {
        if (m_data)
            (void)cudaFree(m_data);
        m_data = std::exchange(other.m_data, nullptr);
        m_bytes = std::exchange(other.m_bytes, 0);
    }
    return *this;
}

Event::Event(unsigned flags)
{
    KIX_CUDA_CHECK(cudaEventCreateWithFlags(&m_event, flags));
}

Event::~Event()
{
    if (m_event)
        (void)cudaEventDestroy(m_event);
}

Stream::Stream()
{
    KIX_CUDA_CHECK(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking));
}

Stream::~Stream()
{
    if (m_stream)
        (void)cudaStreamDestroy(m_stream);
}

GraphExec::~GraphExec()
{
    reset();
}

void GraphExec::reset()
{
    if (m_exec)
        (void)cudaGraphExecDestroy(m_exec);
    if (m_graph)
        (void)cudaGraphDestroy(m_graph);
    m_exec = nullptr;
    m_graph = nullptr;
}

void GraphExec::finishCapture(cudaStream_t stream)
{
    KIX_CUDA_CHECK(cudaStreamEndCapture(stream, &m_graph));
    KIX_CUDA_CHECK(cudaGraphInstantiate(&m_exec, m_graph, 0));
}

void GraphExec::launch(cudaStream_t stream) const
{
    KIX_CUDA_CHECK(cudaGraphLaunch(m_exec, stream));
}

} // namespace kix::cuda
