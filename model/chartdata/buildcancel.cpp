// SPDX-License-Identifier: Apache-2.0
#include "model/chartdata/buildcancel.h"

namespace kix {

namespace {

thread_local const BuildCancel* current = nullptr;

} // namespace

bool buildCancelled()
{
    return current && current->cancelled();
}

bool buildCancelledEvery(qint64 i, qint64 every)
{
    return (i & (every - 1)) == 0 && buildCancelled();
}

ScopedBuildCancel::ScopedBuildCancel(const BuildCancel& cancel)
    : m_previous(current)
{
    current = &cancel;
}

ScopedBuildCancel::~ScopedBuildCancel()
{
    current = m_previous;
}

} // namespace kix
