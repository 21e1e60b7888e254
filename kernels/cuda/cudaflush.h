// SPDX-License-Identifier: Apache-2.0
#pragma once
// The device side of L2Flush's read sweep (cudaflush.cu). Plain C++.

#include <cuda_runtime_api.h>

#include <cstddef>

namespace kix::cuda {

// Reads `bytes` (a multiple of 16, 16-byte aligned, all zero) of `buffer` through L2 with `blocks` blocks
// of 256 threads; `sink` is written only if the data were not all zero. Enqueued on `stream`.
cudaError_t launchReadSweep(const void* buffer, std::size_t bytes, unsigned* sink, int blocks, cudaStream_t stream);

} // namespace kix::cuda
