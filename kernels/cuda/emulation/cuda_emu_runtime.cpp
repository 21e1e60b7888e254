// SPDX-License-Identifier: Apache-2.0
// The CUDA emulator's host runtime for the device itself (cuda_emu.h): error names and the last error, the device,
// its properties and attributes, versions, kernel attributes and occupancy.

#include "kernels/cuda/emulation/cuda_emu.h"
#include "kernels/cuda/emulation/cuda_emu_internal.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>

using namespace kix::cuda::emu;

// ---- host runtime ----------------------------------------------------------------------------------------------
const char* cudaGetErrorName(cudaError_t error)
{
    switch (error) {
#define KIX_EMU_NAME(e)                                                                                                \
    case e:                                                                                                            \
        return #e;
        KIX_EMU_NAME(cudaSuccess)
        KIX_EMU_NAME(cudaErrorInvalidValue)
        KIX_EMU_NAME(cudaErrorMemoryAllocation)
        KIX_EMU_NAME(cudaErrorInitializationError)
        KIX_EMU_NAME(cudaErrorInvalidConfiguration)
        KIX_EMU_NAME(cudaErrorInvalidDevicePointer)
        KIX_EMU_NAME(cudaErrorInvalidMemcpyDirection)
        KIX_EMU_NAME(cudaErrorInsufficientDriver)
        KIX_EMU_NAME(cudaErrorNoDevice)
        KIX_EMU_NAME(cudaErrorInvalidDevice)
        KIX_EMU_NAME(cudaErrorInvalidResourceHandle)
        KIX_EMU_NAME(cudaErrorIllegalState)
        KIX_EMU_NAME(cudaErrorNotReady)
        KIX_EMU_NAME(cudaErrorIllegalAddress)
        KIX_EMU_NAME(cudaErrorLaunchOutOfResources)
        KIX_EMU_NAME(cudaErrorAssert)
        KIX_EMU_NAME(cudaErrorIllegalInstruction)
        KIX_EMU_NAME(cudaErrorMisalignedAddress)
        KIX_EMU_NAME(cudaErrorLaunchFailure)
        KIX_EMU_NAME(cudaErrorNotSupported)
        KIX_EMU_NAME(cudaErrorStreamCaptureUnsupported)
        KIX_EMU_NAME(cudaErrorUnknown)
#undef KIX_EMU_NAME
    }
    return "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t error)
{
    switch (error) {
    case cudaSuccess:
        return "no error";
    case cudaErrorInvalidValue:
        return "invalid argument";
    case cudaErrorMemoryAllocation:
        return "out of memory";
    case cudaErrorInvalidConfiguration:
        return "invalid configuration argument";
    case cudaErrorIllegalInstruction:
        return "an illegal instruction was encountered (emulated)";
    case cudaErrorMisalignedAddress:
        return "misaligned address (emulated)";
    case cudaErrorLaunchFailure:
        return "unspecified launch failure (emulated)";
    default:
        return "error (CUDA emulator)";
    }
}

cudaError_t cudaGetLastError()
{
    if (rt().sticky != cudaSuccess)
        return rt().sticky;
    const cudaError_t e = rt().last;
    rt().last = cudaSuccess;
    return e;
}

cudaError_t cudaPeekAtLastError()
{
    return rt().sticky != cudaSuccess ? rt().sticky : rt().last;
}

cudaError_t cudaGetDeviceCount(int* count)
{
    if (!count)
        return cudaErrorInvalidValue;
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device)
{
    KIX_EMU_STICKY();
    if (!device)
        return cudaErrorInvalidValue;
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
    KIX_EMU_STICKY();
    return device == 0 ? cudaSuccess : setLast(cudaErrorInvalidDevice);
}

cudaError_t cudaDeviceReset()
{
    std::lock_guard<std::mutex> lock(rt().mutex);
    for (auto& [base, bytes] : rt().allocations) {
        (void)bytes;
        std::free(const_cast<char*>(base));
    }
    rt().allocations.clear();
    rt().dynamicSharedLimit.clear();
    rt().sticky = cudaSuccess;
    rt().last = cudaSuccess;
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize()
{
    KIX_EMU_STICKY();
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device)
{
    KIX_EMU_STICKY();
    if (!prop || device != 0)
        return cudaErrorInvalidValue;
    const DeviceConfig& c = rt().config;
    *prop = cudaDeviceProp {};
    std::snprintf(prop->name, sizeof prop->name, "kix CUDA emulator (H200-like, %d SMs)", c.multiprocessors);
    prop->totalGlobalMem = 141ull << 30;
    prop->sharedMemPerBlock = c.sharedPerBlock;
    prop->sharedMemPerBlockOptin = c.sharedPerBlockOptIn;
    prop->sharedMemPerMultiprocessor = c.sharedPerMultiprocessor;
    prop->regsPerBlock = 65536;
    prop->regsPerMultiprocessor = 65536;
    prop->warpSize = 32;
    prop->maxThreadsPerBlock = 1024;
    prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = 1024;
    prop->maxThreadsDim[2] = 64;
    prop->maxGridSize[0] = 0x7fffffff;
    prop->maxGridSize[1] = prop->maxGridSize[2] = 65535;
    prop->clockRate = 1980000;
    prop->major = 9;
    prop->minor = 0;
    prop->multiProcessorCount = c.multiprocessors;
    prop->memoryClockRate = 2619000;
    prop->memoryBusWidth = 6144;
    prop->l2CacheSize = 50 * 1024 * 1024;
    prop->maxThreadsPerMultiProcessor = c.maxThreadsPerMultiprocessor;
    prop->ECCEnabled = 1;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device)
{
    KIX_EMU_STICKY();
    cudaDeviceProp p;
    if (!value)
        return cudaErrorInvalidValue;
    const cudaError_t e = cudaGetDeviceProperties(&p, device);
    if (e != cudaSuccess)
        return e;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock:
        *value = p.maxThreadsPerBlock;
        break;
    case cudaDevAttrMaxSharedMemoryPerBlock:
        *value = static_cast<int>(p.sharedMemPerBlock);
        break;
    case cudaDevAttrWarpSize:
        *value = 32;
        break;
    case cudaDevAttrClockRate:
        *value = p.clockRate;
        break;
    case cudaDevAttrMultiProcessorCount:
        *value = p.multiProcessorCount;
        break;
    case cudaDevAttrMemoryClockRate:
        *value = p.memoryClockRate;
        break;
    case cudaDevAttrGlobalMemoryBusWidth:
        *value = p.memoryBusWidth;
        break;
    case cudaDevAttrL2CacheSize:
        *value = p.l2CacheSize;
        break;
    case cudaDevAttrMaxThreadsPerMultiProcessor:
        *value = p.maxThreadsPerMultiProcessor;
        break;
    case cudaDevAttrComputeCapabilityMajor:
        *value = p.major;
        break;
    case cudaDevAttrComputeCapabilityMinor:
        *value = p.minor;
        break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
        *value = static_cast<int>(p.sharedMemPerMultiprocessor);
        break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
        *value = static_cast<int>(p.sharedMemPerBlockOptin);
        break;
    default:
        return setLast(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

cudaError_t cudaDeviceGetPCIBusId(char* bus, int length, int device)
{
    KIX_EMU_STICKY();
    if (!bus || length < 1 || device != 0)
        return cudaErrorInvalidValue;
    std::snprintf(bus, static_cast<std::size_t>(length), "emulator");
    return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* version)
{
    if (!version)
        return cudaErrorInvalidValue;
    *version = 13000;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* version)
{
    if (!version)
        return cudaErrorInvalidValue;
    *version = 13000;
    return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void* kernel, cudaFuncAttribute attr, int value)
{
    KIX_EMU_STICKY();
    if (!kernel)
        return setLast(cudaErrorInvalidValue);
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout)
        return value >= -1 && value <= 100 ? cudaSuccess : setLast(cudaErrorInvalidValue);
    // The dynamic size plus the kernel's static shared memory must fit the opt-in limit.
    if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize || value < 0
        || static_cast<std::size_t>(value) + staticSharedBytes(kernel) > rt().config.sharedPerBlockOptIn)
        return setLast(cudaErrorInvalidValue);
    std::lock_guard<std::mutex> lock(rt().mutex);
    rt().dynamicSharedLimit[kernel] = value; // sets the limit: a smaller value lowers it, as on the device
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int* blocks, const void* kernel, int blockSize, std::size_t dynamicShared)
{
    KIX_EMU_STICKY();
    if (!blocks || !kernel || blockSize < 1 || blockSize > 1024)
        return setLast(cudaErrorInvalidValue);
    const DeviceConfig& c = rt().config;
    const int warps = (blockSize + 31) / 32;
    int n = std::min(c.maxBlocksPerMultiprocessor, c.maxThreadsPerMultiprocessor / (warps * 32));
    // 1 KiB of shared memory per block is the runtime's own reservation (sm_80 and later).
    const std::size_t perBlock = dynamicShared + staticSharedBytes(kernel) + 1024;
    n = std::min(n, static_cast<int>(c.sharedPerMultiprocessor / perBlock));
    *blocks = std::max(n, 0);
    return cudaSuccess;
}
