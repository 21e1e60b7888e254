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

// The types, the number formats, the emulator's interface and the device built-ins, each in a header of its own.
#include "kernels/cuda/emulation/cuda_emu_core.h"
#include "kernels/cuda/emulation/cuda_emu_device.h"
#include "kernels/cuda/emulation/cuda_emu_math.h"
#include "kernels/cuda/emulation/cuda_emu_types.h"

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
