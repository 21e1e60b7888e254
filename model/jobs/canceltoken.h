// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a background job polls to learn that its result is no longer wanted: a newer job of its tracker has started
// (model/jobs/jobtracker.h), or the tracker is gone. Passed to the work as a parameter, never held per thread: a
// builder that takes one (quantiles, sweep, speed-ups, history, ranking, overview) polls it in its loops over runs,
// passes it to the helpers that poll, and once cancelled returns what it has so far: partial, meant to be dropped.

#include <QtGlobal>

#include <atomic>
#include <memory>

namespace kix {

class CancelToken
{
public:
    CancelToken() = default; // never cancelled: for a caller that waits for the result
    bool cancelled() const { return m_latest && m_latest->load(std::memory_order_relaxed) != m_id; }
    // cancelled() every `every` calls (a power of two): for the loops over a million runs, where one atomic load per
    // run would show.
    bool cancelledEvery(qint64 i, qint64 every = 4096) const { return (i & (every - 1)) == 0 && cancelled(); }

private:
    friend class JobTracker;
    CancelToken(std::shared_ptr<const std::atomic<quint64>> latest, quint64 id)
        : m_latest(std::move(latest))
        , m_id(id)
    {
    }

    std::shared_ptr<const std::atomic<quint64>> m_latest;
    quint64 m_id = 0;
};

} // namespace kix
