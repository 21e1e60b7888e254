// SPDX-License-Identifier: Apache-2.0
#pragma once
// GroupNorm in float64, straight from the definition: the reference the tests and the engine's correctness
// check compare every implementation with. Not fast, not benchmarked.

#include "kernels/groupnorm_math.h"

#include <cstdint>

namespace kix::gn::ref {

// Error of an output against the reference: max |out - ref| over max |ref| of the tensor (a relative error
// that a value near zero cannot blow up). Zero when both are zero everywhere.
struct ErrorAccumulator
{
    double maxDifference = 0;
    double maxReference = 0;
    bool nonFinite = false; // a NaN or infinity in the output where the reference is finite

    void add(double out, double reference);
    double relative() const;
};

// Largest relative error (as ErrorAccumulator measures it) accepted for outputs stored in `dtype`: a few
// roundings of the storage type (bf16 2^-8, fp16 2^-11) plus the fp32 math.
double tolerance(DType dtype);

// Mean and 1 / sqrt(variance + eps) of one row (two passes).
void rowStatistics(const double* x, std::int64_t length, double eps, double& mean, double& rstd);

// One row of channelsPerGroup * hidden elements; weight and bias point at the group's first channel.
void forwardRow(const double* x, const double* weight, const double* bias, const Shape& shape, double* y, double& mean,
    double& rstd);

// One row: dx, and this row's contributions added to dweight and dbias (channelsPerGroup entries each,
// pointing at the group's first channel). Mean and rstd are recomputed from x.
void backwardRow(const double* x, const double* dy, const double* weight, const Shape& shape, double* dx,
    double* dweight, double* dbias);

// Whole tensors in the layout of engine/backend.h (mean and rstd: M x G; dweight and dbias: C).
void forward(const Shape& shape, const double* x, const double* weight, const double* bias, double* y, double* mean,
    double* rstd);
void backward(const Shape& shape, const double* x, const double* dy, const double* weight, double* dx, double* dweight,
    double* dbias);

} // namespace kix::gn::ref
