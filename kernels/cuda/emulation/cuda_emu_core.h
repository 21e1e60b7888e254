// SPDX-License-Identifier: Apache-2.0
#pragma once
// The CUDA emulator's own interface (namespace kix::cuda::emu, cuda_emu.h): the executing CUDA thread, the
// device-side operations the built-ins call, the kernel launch, and the emulated device's knobs and counters.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

#include "kernels/cuda/emulation/cuda_emu_types.h"

namespace kix::cuda::emu {

// ---- the executing CUDA thread ---------------------------------------------------------------------------------
struct Block;

struct Thread
{
    uint3 index {};
    int linear = 0; // x + y * bx + z * bx * by
    int warp = 0;
    int lane = 0;
    Block* block = nullptr;
};

// The CUDA thread now running on this OS thread (nullptr outside a kernel).
Thread* current();
const dim3& currentBlockIdx();
const dim3& currentBlockDim();
const dim3& currentGridDim();

// Device-side operations (cuda_emu.cpp).
void syncThreads();
void syncWarp(unsigned mask);
// Exchanges `value` across the warp: returns the value lane `source` contributed (own value when `source` is
// out of range, as the hardware does for shfl_up/down at the edges).
std::uint64_t shuffle(unsigned mask, std::uint64_t value, int source);
// Ends the kernel with `error` (a device fault), naming `what`; never returns to the faulting thread.
[[noreturn]] void fault(cudaError_t error, const char* what);
void checkAligned(const void* p, std::size_t alignment, const char* what);

// The block's dynamic shared memory (extern __shared__), 16-byte aligned.
void* dynamicShared();

// Kernel launch: runs `body` once per thread of every block, now (or when the captured graph is launched).
// `where`: the launch site ("file:line"), named in fault messages.
cudaError_t launch(const void* kernel, dim3 grid, dim3 block, std::size_t sharedBytes, cudaStream_t stream,
    std::function<void()> body, const char* where);

// The kernel's static shared memory per block: the sizes of its function-local statics (`__shared__` is `static`
// here; its own body's only, not those of device functions it calls), from the symbol table; 0 where that is
// stripped. Launches, cudaFuncSetAttribute and occupancy count it as the device does.
std::size_t staticSharedBytes(const void* kernel);
template<typename... Params>
std::size_t staticSharedBytes(void (*kernel)(Params...))
{
    return staticSharedBytes(reinterpret_cast<const void*>(kernel));
}

// The emulated device's knobs (the test shrinks the SM count so that a few rows fill several persistent waves).
struct DeviceConfig
{
    int multiprocessors = 132;
    std::size_t sharedPerMultiprocessor = 228 * 1024;
    std::size_t sharedPerBlock = 48 * 1024;
    std::size_t sharedPerBlockOptIn = 227 * 1024;
    int maxThreadsPerMultiprocessor = 2048;
    int maxBlocksPerMultiprocessor = 32;
};
DeviceConfig& deviceConfig();

// Block scheduling order: the threads of a block (and the blocks of a grid) resumed first to last, or last
// to first. An unsynchronised read of shared memory sees different data in the two orders.
enum class Order { Forward, Backward };
void setOrder(Order order);
Order order();

// Counters since the last reset (tests; also how much the emulator has run).
struct Stats
{
    long long launches = 0;
    long long blocks = 0;
    long long threads = 0;
    long long faults = 0;
};
Stats stats();

template<typename... Params>
struct Launcher
{
    void (*kernel)(Params...);
    dim3 grid;
    dim3 block;
    std::size_t sharedBytes;
    cudaStream_t stream;
    const char* where;

    template<typename... Args>
    void operator()(Args&&... args) const
    {
        static_assert(sizeof...(Args) == sizeof...(Params), "kernel argument count");
        // Arguments are converted to the parameter types and copied once, as a launch copies them to the
        // parameter space; every thread then gets its own copy of each.
        auto values = std::make_shared<std::tuple<std::decay_t<Params>...>>(std::forward<Args>(args)...);
        void (*k)(Params...) = kernel;
        // The error, as on the device, is left for cudaGetLastError().
        (void)launch(
            reinterpret_cast<const void*>(k), grid, block, sharedBytes, stream,
            [k, values] { std::apply(k, std::tuple<std::decay_t<Params>...>(*values)); }, where);
    }
};

template<typename... Params>
Launcher<Params...> launcher(
    void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t sharedBytes, cudaStream_t stream, const char* where)
{
    return { kernel, grid, block, sharedBytes, stream, where };
}

template<typename T>
T exchange(unsigned mask, T value, int source)
{
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "shuffle of a word");
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof value);
    bits = shuffle(mask, bits, source);
    T out;
    std::memcpy(&out, &bits, sizeof out);
    return out;
}

} // namespace kix::cuda::emu
