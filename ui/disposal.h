// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/jobs/pools.h"

#include <QtConcurrent>

#include <memory>
#include <type_traits>
#include <utility>

namespace kix {

// Frees `value` on a thread of the worker pool (model/jobs/pools.h), not on the caller's: a chart of a million runs
// holds a history or a comparison whose freeing alone would block the GUI thread for tens of milliseconds. Small values
// are freed at once. The value must be safe to free on another thread (implicitly shared Qt containers, shared_ptr:
// yes).
template<typename T>
void disposeOffThread(T&& value, bool large = true)
{
    using Value = std::decay_t<T>;
    if (!large) {
        Value dropped = std::forward<T>(value);
        return;
    }
    auto holder = std::make_unique<Value>(std::forward<T>(value));
    // The task owns the only holder: it is freed there, never back here.
    static_cast<void>(QtConcurrent::run(
        workerPool(), [holder = std::shared_ptr<Value>(std::move(holder))]() mutable { holder.reset(); }));
}

} // namespace kix
