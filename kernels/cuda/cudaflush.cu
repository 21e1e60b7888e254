// SPDX-License-Identifier: Apache-2.0
// The read sweep behind L2Flush (cudatiming.h): every 16 bytes of a buffer read once through L2, so that
// what the L2 held before (the previous repetition's outputs, dirty) is written back now, outside the
// timed window, and what it holds afterwards is clean.

#include "kernels/cuda/cudaflush.h"
#include "kernels/cuda/launch.cuh"

#include <cstdint>

namespace kix::cuda {
namespace {

// The XOR of everything read is stored only when it equals a value the caller's all-zero buffer never
// produces, so the compiler must keep every load and the store never happens.
__global__ void __launch_bounds__(256)
    readSweepKernel(const uint4* __restrict__ buffer, std::int64_t vectors, unsigned* __restrict__ sink)
{
    unsigned acc = 0;
    for (std::int64_t i = blockIdx.x * 256LL + threadIdx.x; i < vectors; i += gridDim.x * 256LL) {
        const uint4 v = __ldcg(buffer + i); // through L2 (cached there), not L1
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9e3779b9u)
        *sink = acc;
}

} // namespace

cudaError_t launchReadSweep(const void* buffer, std::size_t bytes, unsigned* sink, int blocks, cudaStream_t stream)
{
    if (!buffer || !sink || blocks < 1)
        return cudaErrorInvalidValue;
    KIX_LAUNCH(readSweepKernel, static_cast<unsigned>(blocks), 256, 0, stream)
    (static_cast<const uint4*>(buffer), static_cast<std::int64_t>(bytes / 16), sink);
    return cudaGetLastError();
}

} // namespace kix::cuda
