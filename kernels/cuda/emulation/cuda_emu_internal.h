// SPDX-License-Identifier: Apache-2.0
#pragma once
// The CUDA emulator's shared state, for its own sources only (kernels include cuda_emu.h): the stream, event and
// graph objects, the runtime's state, the sticky error, and how an operation reaches its stream.

#include "kernels/cuda/emulation/cuda_emu.h"

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

// The objects behind the runtime's handles.
struct CUstream_st
{
    bool capturing = false;
    std::vector<std::function<void()>> captured;
};
struct CUevent_st
{
    std::chrono::steady_clock::time_point time {};
    bool recorded = false;
};
struct CUgraph_st
{
    std::vector<std::function<void()>> operations;
};
struct CUgraphExec_st
{
    std::vector<std::function<void()>> operations;
};

namespace kix::cuda::emu {

// ---- the device and the runtime's state ------------------------------------------------------------------------
struct Runtime
{
    std::mutex mutex;
    std::map<const char*, std::size_t> allocations; // base -> bytes
    std::map<const void*, int> dynamicSharedLimit; // cudaFuncAttributeMaxDynamicSharedMemorySize per kernel
    std::map<const void*, std::size_t> staticShared; // staticSharedBytes per kernel, once looked up
    cudaError_t sticky = cudaSuccess;
    cudaError_t last = cudaSuccess;
    Order order = Order::Forward;
    Stats stats;
    DeviceConfig config;
};

inline Runtime& rt()
{
    static Runtime runtime;
    return runtime;
}

inline cudaError_t setLast(cudaError_t error)
{
    if (error != cudaSuccess)
        rt().last = error;
    return error;
}

// The sticky error of a faulted kernel, returned by every later call until cudaDeviceReset.
#define KIX_EMU_STICKY()                                                                                               \
    do {                                                                                                               \
        if (rt().sticky != cudaSuccess)                                                                                \
            return rt().sticky;                                                                                        \
    } while (0)

// Runs `operation` now, or records it while `stream` is being captured.
inline void submit(cudaStream_t stream, std::function<void()> operation)
{
    if (stream && stream->capturing)
        stream->captured.push_back(std::move(operation));
    else
        operation();
}

// The launch itself, now or when a captured graph runs (cuda_emu.cpp): every block of the grid, one after the
// other; a fault in one ends the kernel and leaves the sticky error.
void execute(const void* kernel, dim3 grid, dim3 block, std::size_t sharedBytes, const char* where,
    const std::shared_ptr<std::function<void()>>& body);

} // namespace kix::cuda::emu
