// SPDX-License-Identifier: Apache-2.0
// The CUDA emulator's host runtime for memory and ordering (cuda_emu.h): allocations, copies and sets, streams and
// their capture into graphs, and events.

#include "kernels/cuda/emulation/cuda_emu.h"
#include "kernels/cuda/emulation/cuda_emu_internal.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <utility>

using namespace kix::cuda::emu;

cudaError_t cudaMalloc(void** p, std::size_t bytes)
{
    KIX_EMU_STICKY();
    if (!p)
        return setLast(cudaErrorInvalidValue);
    void* memory = nullptr;
    // Exactly `bytes` (ASan then flags the first byte past it), 256-byte aligned as cudaMalloc's.
    if (posix_memalign(&memory, 256, bytes == 0 ? 1 : bytes) != 0)
        return setLast(cudaErrorMemoryAllocation);
    std::lock_guard<std::mutex> lock(rt().mutex);
    rt().allocations[static_cast<const char*>(memory)] = bytes;
    *p = memory;
    return cudaSuccess;
}

cudaError_t cudaFree(void* p)
{
    KIX_EMU_STICKY();
    if (!p)
        return cudaSuccess;
    std::lock_guard<std::mutex> lock(rt().mutex);
    auto it = rt().allocations.find(static_cast<const char*>(p));
    if (it == rt().allocations.end())
        return setLast(cudaErrorInvalidValue);
    rt().allocations.erase(it);
    std::free(p);
    return cudaSuccess;
}

namespace {

bool isDeviceRange(const void* p, std::size_t bytes)
{
    std::lock_guard<std::mutex> lock(rt().mutex);
    const char* c = static_cast<const char*>(p);
    auto it = rt().allocations.upper_bound(c);
    if (it == rt().allocations.begin())
        return false;
    --it;
    return c >= it->first && c + bytes <= it->first + it->second;
}

cudaError_t checkCopy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind)
{
    const bool toDevice = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    const bool fromDevice = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if ((bytes > 0 && (!to || !from)) || (toDevice && !isDeviceRange(to, bytes))
        || (fromDevice && !isDeviceRange(from, bytes)))
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

} // namespace

cudaError_t cudaMemcpy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind)
{
    return cudaMemcpyAsync(to, from, bytes, kind, nullptr);
}

cudaError_t cudaMemcpyAsync(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t stream)
{
    KIX_EMU_STICKY();
    const cudaError_t e = checkCopy(to, from, bytes, kind);
    if (e != cudaSuccess)
        return setLast(e);
    if (bytes > 0)
        submit(stream, [=] { std::memmove(to, from, bytes); });
    return cudaSuccess;
}

cudaError_t cudaMemset(void* p, int value, std::size_t bytes)
{
    return cudaMemsetAsync(p, value, bytes, nullptr);
}

cudaError_t cudaMemsetAsync(void* p, int value, std::size_t bytes, cudaStream_t stream)
{
    KIX_EMU_STICKY();
    if (bytes > 0 && !isDeviceRange(p, bytes))
        return setLast(cudaErrorInvalidValue);
    if (bytes > 0)
        submit(stream, [=] { std::memset(p, value, bytes); });
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* stream)
{
    return cudaStreamCreateWithFlags(stream, cudaStreamDefault);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags)
{
    KIX_EMU_STICKY();
    (void)flags;
    if (!stream)
        return cudaErrorInvalidValue;
    *stream = new CUstream_st;
    return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    delete stream;
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    KIX_EMU_STICKY();
    if (stream && stream->capturing)
        return setLast(cudaErrorStreamCaptureUnsupported);
    return cudaSuccess;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode)
{
    KIX_EMU_STICKY();
    (void)mode;
    if (!stream || stream->capturing)
        return setLast(cudaErrorIllegalState);
    stream->capturing = true;
    stream->captured.clear();
    return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph)
{
    if (!stream || !stream->capturing || !graph)
        return cudaErrorIllegalState;
    stream->capturing = false;
    *graph = new CUgraph_st { std::move(stream->captured) };
    stream->captured.clear();
    KIX_EMU_STICKY();
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags)
{
    KIX_EMU_STICKY();
    (void)flags;
    if (!exec || !graph)
        return cudaErrorInvalidValue;
    *exec = new CUgraphExec_st { graph->operations };
    return cudaSuccess;
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream)
{
    KIX_EMU_STICKY();
    if (!exec)
        return cudaErrorInvalidValue;
    for (const auto& operation : exec->operations)
        submit(stream, operation);
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    delete graph;
    return cudaSuccess;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec)
{
    delete exec;
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event)
{
    return cudaEventCreateWithFlags(event, cudaEventDefault);
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags)
{
    KIX_EMU_STICKY();
    (void)flags;
    if (!event)
        return cudaErrorInvalidValue;
    *event = new CUevent_st;
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    delete event;
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    KIX_EMU_STICKY();
    if (!event)
        return cudaErrorInvalidResourceHandle;
    submit(stream, [event] {
        event->time = std::chrono::steady_clock::now();
        event->recorded = true;
    });
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    KIX_EMU_STICKY();
    return event ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end)
{
    KIX_EMU_STICKY();
    if (!ms || !start || !end)
        return cudaErrorInvalidValue;
    if (!start->recorded || !end->recorded)
        return cudaErrorInvalidResourceHandle;
    *ms = std::chrono::duration<float, std::milli>(end->time - start->time).count(); // host time, not the device's
    return cudaSuccess;
}
