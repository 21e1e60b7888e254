// SPDX-License-Identifier: Apache-2.0
#pragma once
// GroupNorm on CUDA: two implementations behind one API. Plain C++ (g++ includes it).
//
// Layout (as engine/backend.h describes): x, y, dy, dx are M x C x H, contiguous, in `dtype` storage
// (fp32, bf16 or fp16); the math is fp32. weight, bias, dweight, dbias are C fp32 values whatever the
// storage dtype (they are 0.01% of the bytes, and fp32 keeps dweight/dbias sums exact enough).
// mean and rstd are M x G fp32 values, row n*G + g, G = C / channelsPerGroup.
//
// Every entry point enqueues its kernels on `stream`, returns without synchronising, and reports launch
// and argument errors as cudaError_t (cudaErrorInvalidValue for a bad shape, a null pointer or too small
// a workspace). Kernel faults surface at the caller's next synchronisation, as usual.
//
// Backward takes the mean and rstd the forward wrote (as torch's autograd does) and recomputes x-hat.
// dweight and dbias are reduced in a fixed order: two runs on the same inputs give bitwise equal results.

#include "kernels/groupnorm_math.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace kix::cuda {

enum class GroupNormImpl {
    Reference, // "kix-reference": row moments, elementwise normalize; backward per-(n,c) sums, dx, dw/db
    Fused, // "kix-fused": each row read once, resident in registers; see kernels/cuda/README.md
    Persistent, // "kix-persistent": kix-fused's rows on a persistent grid that prefetches the next row
};

// Every implementation, the default (kix-fused) first: what the engine's CUDA backend offers by name
// (`kix bench --impl`, the Benchmark panel) and what kix_cuda_check verifies and times.
constexpr GroupNormImpl kAllImpls[] = { GroupNormImpl::Fused, GroupNormImpl::Persistent, GroupNormImpl::Reference };

// "kix-reference", "kix-fused", "kix-persistent".
const char* implName(GroupNormImpl impl);
// Accepts the names above; false (and `impl` untouched) for anything else.
bool implFromName(const char* name, GroupNormImpl& impl);
// One line on what the implementation does and how it launches (the run's implementation record).
const char* implAlgorithm(GroupNormImpl impl);
const char* implLaunchPolicy(GroupNormImpl impl);

// The shape is gn::Shape (kernels/groupnorm_math.h), eps included. Valid: all sizes positive, channels a
// multiple of channelsPerGroup, eps not negative.
using GroupNormShape = gn::Shape;
bool shapeValid(const GroupNormShape& shape);

enum class GroupNormDirection { Forward, Backward };

// Scratch device memory an entry point needs (0 when none); pass at least that many bytes, aligned as
// cudaMalloc aligns. Depends only on the arguments, never on the device.
std::size_t groupNormWorkspaceBytes(
    GroupNormImpl impl, GroupNormDirection direction, gn::DType dtype, const GroupNormShape& shape);

// y = (x - mean) * (rstd * weight[c]) + bias[c] (gn::normalizeCentered); also writes mean and rstd.
cudaError_t groupNormForward(GroupNormImpl impl, gn::DType dtype, const GroupNormShape& shape, const void* x,
    const float* weight, const float* bias, void* y, float* mean, float* rstd, void* workspace,
    std::size_t workspaceBytes, cudaStream_t stream);

// dx, dweight = sum over n, h of dy * x-hat, dbias = sum over n, h of dy.
cudaError_t groupNormBackward(GroupNormImpl impl, gn::DType dtype, const GroupNormShape& shape, const void* dy,
    const void* x, const float* weight, const float* mean, const float* rstd, void* dx, float* dweight, float* dbias,
    void* workspace, std::size_t workspaceBytes, cudaStream_t stream);

// What the fused implementation will do for a shape, for the implementation record and the tests:
// "resident rows: 256 threads/row, 1 row/block, 8 elements/thread, 16-byte loads" or the fallback taken.
// `aligned`: whether the caller's pointers are 16-byte aligned (cudaMalloc's are).
const char* fusedLaunchDescription(gn::DType dtype, const GroupNormShape& shape, GroupNormDirection direction,
    bool aligned, char* buffer, std::size_t bufferSize);

// The same for any implementation: the fused or persistent plan, or "reference kernels".
const char* launchDescription(GroupNormImpl impl, gn::DType dtype, const GroupNormShape& shape,
    GroupNormDirection direction, bool aligned, char* buffer, std::size_t bufferSize);

// After a kernel fault, whose sticky error fails every later CUDA call: cudaDeviceReset, then forget the launch
// memo (occupancy answers, shared-memory opt-ins: the reset cleared the kernels' attributes). Every device
// pointer, stream and event from before the reset is invalid. cudaSuccess when the device is usable again.
cudaError_t resetDeviceAfterFault();

// Bytes of each input one fused thread holds: 32 (the default: fp32 8, 16-bit 16 elements) or 64. A
// process-wide tuning knob for measuring both on a device; false (and unchanged) for other values.
bool setFusedBytesPerThread(int bytes);
int fusedBytesPerThread();

// How this library was compiled: nvcc's version ("13.0.88") and the architectures it holds code for
// ("80,90,100", from __CUDA_ARCH_LIST__).
const char* nvccVersion();
const char* compiledArchitectures();

} // namespace kix::cuda
