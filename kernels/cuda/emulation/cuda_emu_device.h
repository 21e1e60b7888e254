// SPDX-License-Identifier: Apache-2.0
#pragma once
// The CUDA emulator's device-side built-ins (cuda_emu.h): threadIdx and friends, the barriers, the warp shuffles,
// the cache-hint loads and stores, and the atomics.

#include <cstddef>

#include "kernels/cuda/emulation/cuda_emu_core.h"

#define threadIdx (::kix::cuda::emu::current()->index)
#define blockIdx (::kix::cuda::emu::currentBlockIdx())
#define blockDim (::kix::cuda::emu::currentBlockDim())
#define gridDim (::kix::cuda::emu::currentGridDim())
constexpr int warpSize = 32;

inline void __syncthreads()
{
    ::kix::cuda::emu::syncThreads();
}
inline void __syncwarp(unsigned mask = 0xffffffffu)
{
    ::kix::cuda::emu::syncWarp(mask);
}
inline void __threadfence() { }
inline void __threadfence_block() { }
inline void __threadfence_system() { }

template<typename T>
T __shfl_sync(unsigned mask, T var, int srcLane, int width = 32)
{
    const int lane = ::kix::cuda::emu::current()->lane;
    return ::kix::cuda::emu::exchange(mask, var, (lane / width) * width + srcLane % width);
}
template<typename T>
T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = 32)
{
    const int lane = ::kix::cuda::emu::current()->lane;
    const int source = lane ^ laneMask;
    return ::kix::cuda::emu::exchange(mask, var, source / width == lane / width ? source : lane);
}
template<typename T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32)
{
    const int lane = ::kix::cuda::emu::current()->lane;
    const int source = lane + static_cast<int>(delta);
    return ::kix::cuda::emu::exchange(mask, var, source / width == lane / width ? source : lane);
}
template<typename T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32)
{
    const int lane = ::kix::cuda::emu::current()->lane;
    const int source = lane - static_cast<int>(delta);
    return ::kix::cuda::emu::exchange(mask, var, source >= 0 && source / width == lane / width ? source : lane);
}

// Loads and stores through the cache-hint intrinsics: alignment checked (a misaligned vector access faults on
// the device), then a plain access.
template<typename T>
T __ldg(const T* p)
{
    ::kix::cuda::emu::checkAligned(p, alignof(T), "__ldg");
    return *p;
}
template<typename T>
T __ldcs(const T* p)
{
    ::kix::cuda::emu::checkAligned(p, alignof(T), "__ldcs");
    return *p;
}
template<typename T>
T __ldcg(const T* p)
{
    ::kix::cuda::emu::checkAligned(p, alignof(T), "__ldcg");
    return *p;
}
template<typename T>
T __ldlu(const T* p)
{
    ::kix::cuda::emu::checkAligned(p, alignof(T), "__ldlu");
    return *p;
}
template<typename T>
void __stcs(T* p, T value)
{
    ::kix::cuda::emu::checkAligned(p, alignof(T), "__stcs");
    *p = value;
}
template<typename T>
void __stcg(T* p, T value)
{
    ::kix::cuda::emu::checkAligned(p, alignof(T), "__stcg");
    *p = value;
}
template<typename T>
void __stwt(T* p, T value)
{
    ::kix::cuda::emu::checkAligned(p, alignof(T), "__stwt");
    *p = value;
}

// Atomics: the threads of a launch never run at the same time, so a plain read-modify-write is atomic.
template<typename T>
T atomicAdd(T* p, T v)
{
    ::kix::cuda::emu::checkAligned(p, alignof(T), "atomicAdd");
    const T old = *p;
    *p = old + v;
    return old;
}
template<typename T>
T atomicSub(T* p, T v)
{
    ::kix::cuda::emu::checkAligned(p, alignof(T), "atomicSub");
    const T old = *p;
    *p = old - v;
    return old;
}
template<typename T>
T atomicMax(T* p, T v)
{
    ::kix::cuda::emu::checkAligned(p, alignof(T), "atomicMax");
    const T old = *p;
    *p = old < v ? v : old;
    return old;
}
template<typename T>
T atomicMin(T* p, T v)
{
    ::kix::cuda::emu::checkAligned(p, alignof(T), "atomicMin");
    const T old = *p;
    *p = v < old ? v : old;
    return old;
}
template<typename T>
T atomicExch(T* p, T v)
{
    ::kix::cuda::emu::checkAligned(p, alignof(T), "atomicExch");
    const T old = *p;
    *p = v;
    return old;
}
template<typename T>
T atomicCAS(T* p, T compare, T v)
{
    ::kix::cuda::emu::checkAligned(p, alignof(T), "atomicCAS");
    const T old = *p;
    if (old == compare)
        *p = v;
    return old;
}
inline unsigned atomicInc(unsigned* p, unsigned limit)
{
    ::kix::cuda::emu::checkAligned(p, alignof(unsigned), "atomicInc");
    const unsigned old = *p;
    *p = old >= limit ? 0u : old + 1u;
    return old;
}
