// SPDX-License-Identifier: Apache-2.0
#pragma once
// Benchmark inputs generated on the device, element for element what gn::initInput() gives the host
// (rounded to the storage dtype as gn::roundToDType rounds), so nothing large is copied to the device.
// Plain C++ (g++ includes it).

#include "kernels/groupnorm_math.h"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kix::cuda {

// out[i] = initInput(seed, tensor, i) stored as `dtype`, for i in [0, count). Enqueued on `stream`.
cudaError_t fillInput(
    gn::DType dtype, gn::Tensor tensor, std::uint64_t seed, void* out, std::int64_t count, cudaStream_t stream);

} // namespace kix::cuda
