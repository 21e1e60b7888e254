// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtGlobal>

#include <atomic>

namespace kix {

// A chart build that a newer one supersedes: the chart panel bumps its generation counter, and the build of an
// older generation stops soon after (its result is dropped). Default: never cancelled.
struct BuildCancel
{
    const std::atomic<int>* latest = nullptr;
    int generation = 0;
    bool cancelled() const { return latest && latest->load(std::memory_order_relaxed) != generation; }
};

// The builders (quantiles, sweep, speed-ups, history, ranking, overview) poll the cancel token of the build
// running on their thread in their loops over runs, without a parameter through every helper: prepareChart sets
// it for its thread while it runs (ScopedBuildCancel). A cancelled builder returns what it has so far: partial,
// meant to be dropped.
bool buildCancelled();
// Every `every` calls (a power of two), buildCancelled(): for loops over a million runs.
bool buildCancelledEvery(qint64 i, qint64 every = 4096);

class ScopedBuildCancel
{
public:
    explicit ScopedBuildCancel(const BuildCancel& cancel);
    ~ScopedBuildCancel();
    ScopedBuildCancel(const ScopedBuildCancel&) = delete;
    ScopedBuildCancel& operator=(const ScopedBuildCancel&) = delete;

private:
    const BuildCancel* m_previous;
};

} // namespace kix
