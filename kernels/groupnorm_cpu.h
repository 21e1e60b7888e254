// SPDX-License-Identifier: Apache-2.0
#pragma once
// GroupNorm on the CPU: fp32 math over fp32, bf16 or fp16 storage, all cores of a ThreadPool.
// Layout as in engine/backend.h: x, y, dy, dx are M x C x H in the storage dtype; weight, bias, dweight,
// dbias are C floats; mean and rstd are M x G floats.

#include "kernels/groupnorm_math.h"

#include <cstddef>

namespace kix {
class ThreadPool;
}

namespace kix::gn::cpu {

struct ForwardArgs
{
    Shape shape;
    DType dtype = DType::F32;
    const void* x = nullptr;
    const float* weight = nullptr;
    const float* bias = nullptr;
    void* y = nullptr;
    float* mean = nullptr;
    float* rstd = nullptr;
};

struct BackwardArgs
{
    Shape shape;
    DType dtype = DType::F32;
    const void* x = nullptr;
    const void* dy = nullptr;
    const float* weight = nullptr;
    const float* mean = nullptr; // from the forward
    const float* rstd = nullptr;
    void* dx = nullptr;
    float* dweight = nullptr;
    float* dbias = nullptr;
    float* workspace = nullptr; // backwardWorkspaceFloats(shape) floats: per-(n, c) partial sums
};

// Floats of scratch the backward needs: the per-(n, c) partials of dweight and dbias, summed over n in a
// fixed order afterwards so the result does not depend on the thread count.
std::size_t backwardWorkspaceFloats(const Shape& shape);

// Mean and rstd per row from two passes over the row (mean, then the sum of squared deviations: never
// negative), then y = (x - mean) * (w * rstd) + b (the centred form: see gn::normalizeCentered).
void forward(const ForwardArgs& args, ThreadPool& pool);

// dx per row from the row sums of g = w * dy and g * xhat; dweight and dbias from per-(n, c) partials.
void backward(const BackwardArgs& args, ThreadPool& pool);

} // namespace kix::gn::cpu
