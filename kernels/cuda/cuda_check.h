// SPDX-License-Identifier: Apache-2.0
#pragma once
// Checked CUDA runtime calls and RAII owners for device memory, events, streams and graphs.
// Plain C++ (g++ includes it): only <cuda_runtime_api.h> types, no device code.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

namespace kix::cuda {

// A failed CUDA runtime call: what() names the call, its file and line, and the CUDA error.
class CudaError : public std::runtime_error
{
public:
    CudaError(cudaError_t error, const std::string& message)
        : std::runtime_error(message)
        , m_error(error)
    {
    }
    cudaError_t error() const { return m_error; }

private:
    cudaError_t m_error;
};

// "cudaErrorNoDevice (no CUDA-capable device is detected)"
std::string errorText(cudaError_t error);

// "kernels/cuda/x.cpp:12: cudaMalloc(&p, n) failed: cudaErrorMemoryAllocation (out of memory)"
std::string callFailure(cudaError_t error, const char* call, const char* file, int line);

[[noreturn]] void throwCallFailure(cudaError_t error, const char* call, const char* file, int line);

} // namespace kix::cuda

// Throws kix::cuda::CudaError when the call does not return cudaSuccess. Also clears the sticky
// last-error state of a non-sticky failure so that the next check is not blamed for it.
#define KIX_CUDA_CHECK(call)                                                                                           \
    do {                                                                                                               \
        const cudaError_t kixCudaStatus_ = (call);                                                                     \
        if (kixCudaStatus_ != cudaSuccess) {                                                                           \
            (void)cudaGetLastError();                                                                                  \
            ::kix::cuda::throwCallFailure(kixCudaStatus_, #call, __FILE__, __LINE__);                                  \
        }                                                                                                              \
    } while (0)

// For functions that report errors by returning cudaError_t (the kernel entry points).
#define KIX_CUDA_RETURN_IF_ERROR(call)                                                                                 \
    do {                                                                                                               \
        const cudaError_t kixCudaStatus_ = (call);                                                                     \
        if (kixCudaStatus_ != cudaSuccess)                                                                             \
            return kixCudaStatus_;                                                                                     \
    } while (0)

namespace kix::cuda {

// Device memory, freed on destruction. Move-only.
class DeviceBuffer
{
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t bytes);
    ~DeviceBuffer();
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : m_data(std::exchange(other.m_data, nullptr))
        , m_bytes(std::exchange(other.m_bytes, 0))
    {
    }
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    void* get() const { return m_data; }
    template<typename T>
    T* as() const
    {
        return static_cast<T*>(m_data);
    }
    std::size_t bytes() const { return m_bytes; }

private:
    void* m_data = nullptr;
    std::size_t m_bytes = 0;
};

class Event
{
public:
    explicit Event(unsigned flags = cudaEventDefault);
    ~Event();
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    cudaEvent_t get() const { return m_event; }

private:
    cudaEvent_t m_event = nullptr;
};

class Stream
{
public:
    Stream(); // non-blocking, so the legacy default stream never serialises with it
    ~Stream();
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return m_stream; }

private:
    cudaStream_t m_stream = nullptr;
};

// A captured and instantiated CUDA graph, replayed with launch().
class GraphExec
{
public:
    GraphExec() = default;
    ~GraphExec();
    GraphExec(const GraphExec&) = delete;
    GraphExec& operator=(const GraphExec&) = delete;

    // Captures whatever `work` enqueues on `stream` (capture mode: thread-local) and instantiates it.
    template<typename Work>
    void capture(cudaStream_t stream, Work&& work)
    {
        reset();
        KIX_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
        try {
            work();
        } catch (...) {
            cudaGraph_t broken = nullptr;
            (void)cudaStreamEndCapture(stream, &broken);
            if (broken)
                (void)cudaGraphDestroy(broken);
            throw;
        }
        finishCapture(stream);
    }
    void launch(cudaStream_t stream) const;
    bool valid() const { return m_exec != nullptr; }
    void reset();

private:
    void finishCapture(cudaStream_t stream);
    cudaGraph_t m_graph = nullptr;
    cudaGraphExec_t m_exec = nullptr;
};

} // namespace kix::cuda
