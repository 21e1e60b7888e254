// SPDX-License-Identifier: Apache-2.0
#include "kernels/groupnorm_reference.h"

#include "kernels/dtype_dispatch.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kix::gn::ref {

void ErrorAccumulator::add(double out, double reference)
{
    if (!std::isfinite(out) && std::isfinite(reference)) {
        nonFinite = true;
        return;
    }
    maxDifference = std::max(maxDifference, std::abs(out - reference));
    maxReference = std::max(maxReference, std::abs(reference));
}

double ErrorAccumulator::relative() const
{
    if (nonFinite)
        return std::numeric_limits<double>::infinity();
    if (maxDifference == 0)
        return 0;
    return maxDifference / std::max(maxReference, std::numeric_limits<double>::min());
}

namespace {

// One overload per dtype: a dtype added to dispatchDtype without a tolerance does not compile.
constexpr double toleranceOf(DTypeTag<DType::F32>)
{
    return 1e-5;
}
constexpr double toleranceOf(DTypeTag<DType::BF16>)
{
    return 8e-3;
}
constexpr double toleranceOf(DTypeTag<DType::F16>)
{
    return 2e-3;
}

} // namespace

double tolerance(DType dtype)
{
    return dispatchDtype(
        dtype, [](auto tag) { return toleranceOf(tag); }, 0.0);
}

void rowStatistics(const double* x, std::int64_t length, double eps, double& mean, double& rstd)
{
    double sum = 0;
    for (std::int64_t i = 0; i < length; ++i)
        sum += x[i];
    mean = sum / static_cast<double>(length);
    double squares = 0;
    for (std::int64_t i = 0; i < length; ++i)
        squares += (x[i] - mean) * (x[i] - mean);
    rstd = 1.0 / std::sqrt(squares / static_cast<double>(length) + eps);
}

void forwardRow(const double* x, const double* weight, const double* bias, const Shape& shape, double* y, double& mean,
    double& rstd)
{
    rowStatistics(x, shape.rowLength(), static_cast<double>(shape.eps), mean, rstd);
    for (std::int64_t c = 0; c < shape.channelsPerGroup; ++c)
        for (std::int64_t h = 0; h < shape.hidden; ++h) {
            const std::int64_t i = c * shape.hidden + h;
            y[i] = (x[i] - mean) * rstd * weight[c] + bias[c];
        }
}

void backwardRow(const double* x, const double* dy, const double* weight, const Shape& shape, double* dx,
    double* dweight, double* dbias)
{
    const std::int64_t length = shape.rowLength();
    double mean = 0;
    double rstd = 0;
    rowStatistics(x, length, static_cast<double>(shape.eps), mean, rstd);
    double sumG = 0;
    double sumGXhat = 0;
    for (std::int64_t c = 0; c < shape.channelsPerGroup; ++c)
        for (std::int64_t h = 0; h < shape.hidden; ++h) {
            const std::int64_t i = c * shape.hidden + h;
            const double xhat = (x[i] - mean) * rstd;
            sumG += weight[c] * dy[i];
            sumGXhat += weight[c] * dy[i] * xhat;
            dweight[c] += dy[i] * xhat;
            dbias[c] += dy[i];
        }
    for (std::int64_t c = 0; c < shape.channelsPerGroup; ++c)
        for (std::int64_t h = 0; h < shape.hidden; ++h) {
            const std::int64_t i = c * shape.hidden + h;
            const double xhat = (x[i] - mean) * rstd;
            dx[i] = rstd * (weight[c] * dy[i] - (sumG + xhat * sumGXhat) / static_cast<double>(length));
        }
}

void forward(const Shape& shape, const double* x, const double* weight, const double* bias, double* y, double* mean,
    double* rstd)
{
    const std::int64_t length = shape.rowLength();
    for (std::int64_t row = 0; row < shape.rows(); ++row) {
        const std::int64_t first = (row % shape.groups()) * shape.channelsPerGroup;
        forwardRow(x + row * length, weight + first, bias + first, shape, y + row * length, mean[row], rstd[row]);
    }
}

void backward(const Shape& shape, const double* x, const double* dy, const double* weight, double* dx, double* dweight,
    double* dbias)
{
    for (std::int64_t c = 0; c < shape.channels; ++c) {
        dweight[c] = 0;
        dbias[c] = 0;
    }
    const std::int64_t length = shape.rowLength();
    for (std::int64_t row = 0; row < shape.rows(); ++row) {
        const std::int64_t first = (row % shape.groups()) * shape.channelsPerGroup;
        backwardRow(x + row * length, dy + row * length, weight + first, shape, dx + row * length, dweight + first,
            dbias + first);
    }
}

} // namespace kix::gn::ref
