// SPDX-License-Identifier: Apache-2.0
#pragma once
// The CUDA emulator: what the kernel sources in kernels/cuda/ use from CUDA, for the host compiler, so that the
// same .cu files run on the CPU (target kix_kernels_cuda_emu, test tst_cuda_emulation). Every CUDA thread is a
// cooperative fiber (boost::context); the threads of one block run on the calling OS thread, block after block.
// The include/ folder next to this header holds cuda_runtime.h, cuda_runtime_api.h, cuda_bf16.h and
// cuda_fp16.h, each of which includes this header only; kernels/cuda/launch.cuh maps KIX_LAUNCH and
// KIX_DYNAMIC_SHARED onto it.
//
// Device side: threadIdx/blockIdx/blockDim/gridDim, __syncthreads, __syncwarp, __shfl_{xor,down,up,}_sync
// (every lane the mask names must take part, and must not have exited), static __shared__ (one copy per kernel,
// reused by its blocks; its size, staticSharedBytes, counts against the limits) and dynamic shared memory (per
// block, filled with 0xff bytes, so a read before any write gives NaN), __ldg/__ldcs/__ldcg/__stcs with their
// alignment checked, atomics, __threadfence, the bf16/fp16 conversions (round to nearest even, as cvt.rn).
// Host side: a fake runtime for one H200-like device (132 SMs, 228 KiB shared memory per SM, 48 KiB per block
// by default, 227 KiB with the opt-in): memory, streams (kernels run when launched, or are recorded while a
// stream is captured), events, cudaFuncSetAttribute (which *sets* the limit, as the device does), occupancy,
// device properties, sticky errors after a kernel fault (cleared by cudaDeviceReset).
// A launch over the limits (threads, grid; static shared memory over 48 KiB, dynamic over the kernel's limit,
// both over 227 KiB) runs nothing and fails with cudaErrorInvalidConfiguration or cudaErrorInvalidValue (not
// sticky). A fault in device code (misaligned vector access, barrier deadlock, shuffle with an exited lane) ends
// the kernel, prints what and where on stderr, and leaves the sticky error cudaErrorLaunchFailure,
// cudaErrorMisalignedAddress or cudaErrorIllegalInstruction.
//
// What this proves and what it cannot: docs/benchmarks.md ("The CUDA kernels on the CPU").

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

#include "kernels/groupnorm_math.h"

#ifndef KIX_CUDA_EMULATION
#define KIX_CUDA_EMULATION 1
#endif

// ---- qualifiers ------------------------------------------------------------------------------------------------
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(...)
#define __shared__ static
#define __constant__ static

// ---- runtime types ---------------------------------------------------------------------------------------------
enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInsufficientDriver = 35,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorIllegalState = 401,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorAssert = 710,
    cudaErrorIllegalInstruction = 715,
    cudaErrorMisalignedAddress = 716,
    cudaErrorLaunchFailure = 719,
    cudaErrorNotSupported = 801,
    cudaErrorStreamCaptureUnsupported = 900,
    cudaErrorUnknown = 999,
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};

enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrClockRate = 13,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
};

enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};

enum cudaStreamCaptureMode {
    cudaStreamCaptureModeGlobal = 0,
    cudaStreamCaptureModeThreadLocal = 1,
    cudaStreamCaptureModeRelaxed = 2,
};

constexpr unsigned cudaStreamDefault = 0x0;
constexpr unsigned cudaStreamNonBlocking = 0x1;
constexpr unsigned cudaEventDefault = 0x0;
constexpr unsigned cudaEventBlockingSync = 0x1;
constexpr unsigned cudaEventDisableTiming = 0x2;

struct CUstream_st;
struct CUevent_st;
struct CUgraph_st;
struct CUgraphExec_st;
typedef CUstream_st* cudaStream_t;
typedef CUevent_st* cudaEvent_t;
typedef CUgraph_st* cudaGraph_t;
typedef CUgraphExec_st* cudaGraphExec_t;

struct cudaDeviceProp
{
    char name[256];
    std::size_t totalGlobalMem;
    std::size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;
    int major;
    int minor;
    int multiProcessorCount;
    int memoryClockRate;
    int memoryBusWidth;
    int l2CacheSize;
    int maxThreadsPerMultiProcessor;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    std::size_t sharedMemPerMultiprocessor;
    std::size_t sharedMemPerBlockOptin;
    int regsPerMultiprocessor;
};

// ---- vector types ----------------------------------------------------------------------------------------------
struct dim3
{
    unsigned x = 1, y = 1, z = 1;
    constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1)
        : x(vx)
        , y(vy)
        , z(vz)
    {
    }
};
struct uint3
{
    unsigned x, y, z;
};
struct alignas(8) float2
{
    float x, y;
};
struct float3
{
    float x, y, z;
};
struct alignas(16) float4
{
    float x, y, z, w;
};
struct alignas(8) uint2
{
    unsigned x, y;
};
struct alignas(16) uint4
{
    unsigned x, y, z, w;
};
struct alignas(8) int2
{
    int x, y;
};
struct alignas(16) int4
{
    int x, y, z, w;
};
inline float2 make_float2(float x, float y)
{
    return { x, y };
}
inline float3 make_float3(float x, float y, float z)
{
    return { x, y, z };
}
inline float4 make_float4(float x, float y, float z, float w)
{
    return { x, y, z, w };
}
inline uint2 make_uint2(unsigned x, unsigned y)
{
    return { x, y };
}
inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w)
{
    return { x, y, z, w };
}

// ---- 16-bit floating point -------------------------------------------------------------------------------------
struct __half
{
    unsigned short bits;
};
struct alignas(4) __half2
{
    __half x, y;
};
struct __nv_bfloat16
{
    unsigned short bits;
};
struct alignas(4) __nv_bfloat162
{
    __nv_bfloat16 x, y;
};
inline float __half2float(__half h)
{
    return ::kix::gn::halfToFloat(h.bits);
}
inline __half __float2half_rn(float f)
{
    return { ::kix::gn::floatToHalf(f) };
}
inline __half __float2half(float f)
{
    return __float2half_rn(f);
}
inline unsigned short __half_as_ushort(__half h)
{
    return h.bits;
}
inline __half __ushort_as_half(unsigned short bits)
{
    return { bits };
}
inline float2 __half22float2(__half2 h)
{
    return { __half2float(h.x), __half2float(h.y) };
}
inline __half2 __floats2half2_rn(float lo, float hi)
{
    return { __float2half_rn(lo), __float2half_rn(hi) };
}
inline float __bfloat162float(__nv_bfloat16 h)
{
    return ::kix::gn::bf16ToFloat(h.bits);
}
inline __nv_bfloat16 __float2bfloat16_rn(float f)
{
    return { ::kix::gn::floatToBf16(f) };
}
inline __nv_bfloat16 __float2bfloat16(float f)
{
    return __float2bfloat16_rn(f);
}
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h)
{
    return h.bits;
}
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short bits)
{
    return { bits };
}
inline __nv_bfloat162 __floats2bfloat162_rn(float lo, float hi)
{
    return { __float2bfloat16_rn(lo), __float2bfloat16_rn(hi) };
}

// ---- bit casts and math ----------------------------------------------------------------------------------------
inline float __uint_as_float(unsigned u)
{
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}
inline unsigned __float_as_uint(float f)
{
    unsigned u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}
inline float __int_as_float(int i)
{
    float f;
    std::memcpy(&f, &i, sizeof f);
    return f;
}
inline int __float_as_int(float f)
{
    int i;
    std::memcpy(&i, &f, sizeof i);
    return i;
}
// The host's correctly rounded 1/sqrt, not the hardware's approximation (docs/benchmarks.md says what that means).
inline float rsqrtf(float v)
{
    return 1.0f / std::sqrt(v);
}
inline float __fdividef(float a, float b)
{
    return a / b;
}

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

// ---- host runtime ----------------------------------------------------------------------------------------------
const char* cudaGetErrorName(cudaError_t error);
const char* cudaGetErrorString(cudaError_t error);
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaDeviceReset();
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceGetPCIBusId(char* bus, int length, int device);
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaRuntimeGetVersion(int* version);
cudaError_t cudaMalloc(void** p, std::size_t bytes);
template<typename T>
cudaError_t cudaMalloc(T** p, std::size_t bytes)
{
    return cudaMalloc(reinterpret_cast<void**>(p), bytes);
}
cudaError_t cudaFree(void* p);
cudaError_t cudaMemcpy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(
    void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t stream = nullptr);
cudaError_t cudaMemset(void* p, int value, std::size_t bytes);
cudaError_t cudaMemsetAsync(void* p, int value, std::size_t bytes, cudaStream_t stream = nullptr);
cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags = 0);
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaFuncSetAttribute(const void* kernel, cudaFuncAttribute attr, int value);
template<typename... Params>
cudaError_t cudaFuncSetAttribute(void (*kernel)(Params...), cudaFuncAttribute attr, int value)
{
    return cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel), attr, value);
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int* blocks, const void* kernel, int blockSize, std::size_t dynamicShared);
template<typename... Params>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int* blocks, void (*kernel)(Params...), int blockSize, std::size_t dynamicShared)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        blocks, reinterpret_cast<const void*>(kernel), blockSize, dynamicShared);
}
