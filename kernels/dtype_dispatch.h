// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one place that turns a run-time gn::DType into a compile-time one (issue 19: ten copies of the same
// switch in kernels/). dispatchDtype(dtype, f) calls f(DTypeTag<D>{}) for the D that `dtype` names, so the
// CPU kernels, the CUDA launches and the per-dtype constants all branch here and a new dtype is added in one
// switch (and then in every overload that the compiler finds missing). Host code only: it runs before a
// launch, never inside a kernel. No Qt.

#include "kernels/groupnorm_math.h"

#include <type_traits>
#include <utility>

namespace kix::gn {

// A dtype as a type: `decltype(tag)::value` is a constant expression in the body of f.
template<DType D>
struct DTypeTag
{
    static constexpr DType value = D;
};

// Every dtype, in enum order, for tests and tables that cover them all.
inline constexpr DType kAllDtypes[] = { DType::F32, DType::BF16, DType::F16 };

// f(DTypeTag<dtype>{}), or `otherwise` for a value outside the enum (a cast from a bad integer): callers
// return an error there (cudaErrorInvalidValue, 0) instead of running a kernel of the wrong width.
// Every branch of f must return the same type, R or something convertible to it.
template<class F, class R>
R dispatchDtype(DType dtype, F&& f, R otherwise)
{
    switch (dtype) {
    case DType::F32:
        return std::forward<F>(f)(DTypeTag<DType::F32> {});
    case DType::BF16:
        return std::forward<F>(f)(DTypeTag<DType::BF16> {});
    case DType::F16:
        return std::forward<F>(f)(DTypeTag<DType::F16> {});
    }
    return otherwise;
}

// For an f that returns nothing: a value outside the enum runs nothing.
template<class F>
void dispatchDtype(DType dtype, F&& f)
{
    static_assert(std::is_void_v<decltype(f(DTypeTag<DType::F32> {}))>,
        "give the value for an unknown dtype: dispatchDtype(dtype, f, otherwise)");
    switch (dtype) {
    case DType::F32:
        std::forward<F>(f)(DTypeTag<DType::F32> {});
        return;
    case DType::BF16:
        std::forward<F>(f)(DTypeTag<DType::BF16> {});
        return;
    case DType::F16:
        std::forward<F>(f)(DTypeTag<DType::F16> {});
        return;
    }
}

} // namespace kix::gn
