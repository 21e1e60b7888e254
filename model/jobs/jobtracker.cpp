// SPDX-License-Identifier: Apache-2.0
#include "model/jobs/jobtracker.h"

namespace kix {

JobTracker::JobTracker(QObject* context)
    : m_context(context)
    , m_latest(std::make_shared<std::atomic<quint64>>(0))
{
}

JobTracker::~JobTracker()
{
    cancel();
}

CancelToken JobTracker::start()
{
    const quint64 id = m_latest->fetch_add(1, std::memory_order_relaxed) + 1;
    return CancelToken(m_latest, id);
}

void JobTracker::cancel()
{
    m_latest->fetch_add(1, std::memory_order_relaxed);
}

bool JobTracker::isCurrent(const CancelToken& token) const
{
    return token.m_latest == m_latest && token.m_id == m_latest->load(std::memory_order_relaxed);
}

void JobTracker::waitForDone()
{
    // Their watchers still report later (when the context's event loop runs), delivering or dropping the results.
    for (QFutureWatcherBase* watcher : std::as_const(m_watchers))
        watcher->waitForFinished();
}

} // namespace kix
