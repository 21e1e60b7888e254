// SPDX-License-Identifier: Apache-2.0
#include "kernels/cuda/groupnorm_device.cuh"
#include "kernels/cuda/groupnorm_init.h"
#include "kernels/cuda/groupnorm_internal.h"

namespace kix::cuda {
namespace {

template<gn::DType D>
__global__ void fillKernel(detail::StorageT<D>* out, std::int64_t count, std::uint64_t seed, gn::Tensor tensor)
{
    for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
        out[i] = detail::Storage<D>::fromFloat(gn::initInput(seed, tensor, static_cast<std::uint64_t>(i)));
}

template<gn::DType D>
cudaError_t fill(void* out, std::int64_t count, std::uint64_t seed, gn::Tensor tensor, cudaStream_t stream)
{
    constexpr int kThreads = 256;
    // A grid-stride loop over at most 64K blocks: enough to fill the device, few enough to launch cheaply.
    const std::int64_t blocks = detail::ceilDiv(count, kThreads);
    KIX_LAUNCH(fillKernel<D>, detail::gridFor(blocks < 65536 ? blocks : 65536), kThreads, 0, stream)
    (static_cast<detail::StorageT<D>*>(out), count, seed, tensor);
    return cudaGetLastError();
}

} // namespace

cudaError_t fillInput(
    gn::DType dtype, gn::Tensor tensor, std::uint64_t seed, void* out, std::int64_t count, cudaStream_t stream)
{
    if (!out || count < 0)
        return cudaErrorInvalidValue;
    if (count == 0)
        return cudaSuccess;
    return gn::dispatchDtype(
        dtype, [&](auto tag) { return fill<decltype(tag)::value>(out, count, seed, tensor, stream); },
        cudaErrorInvalidValue);
}

#define KIX_STRINGIZE_(...) #__VA_ARGS__
#define KIX_STRINGIZE(...) KIX_STRINGIZE_(__VA_ARGS__)

const char* nvccVersion()
{
#if defined(KIX_CUDA_EMULATION)
    return "none (CUDA emulator: host compiler)";
#else
    return KIX_STRINGIZE(__CUDACC_VER_MAJOR__) "." KIX_STRINGIZE(__CUDACC_VER_MINOR__) "." KIX_STRINGIZE(
        __CUDACC_VER_BUILD__);
#endif
}

const char* compiledArchitectures()
{
#if defined(KIX_CUDA_EMULATION)
    return "emulated";
#elif defined(__CUDA_ARCH_LIST__)
    return KIX_STRINGIZE(__CUDA_ARCH_LIST__);
#else
    return "unknown";
#endif
}

} // namespace kix::cuda
