// SPDX-License-Identifier: Apache-2.0
#include "kernels/threadpool.h"

#include <algorithm>

namespace kix {

ThreadPool::ThreadPool(int threads)
{
    if (threads <= 0)
        threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    m_workers.reserve(static_cast<std::size_t>(threads - 1));
    for (int i = 1; i < threads; ++i)
        m_workers.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool()
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (auto& worker : m_workers)
        worker.join();
}

ThreadPool& ThreadPool::shared()
{
    static ThreadPool pool;
    return pool;
}

void ThreadPool::runChunks()
{
    for (;;) {
        const std::int64_t begin = m_next.fetch_add(m_grain, std::memory_order_relaxed);
        if (begin >= m_count)
            return;
        (*m_body)(begin, std::min(m_count, begin + m_grain));
    }
}

void ThreadPool::workerLoop()
{
    std::uint64_t seen = 0;
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_wake.wait(lock, [&] { return m_stop || m_generation != seen; });
            if (m_stop)
                return;
            seen = m_generation;
        }
        runChunks();
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            --m_busy;
        }
        m_done.notify_one();
    }
}

void ThreadPool::parallelFor(
    std::int64_t count, const std::function<void(std::int64_t, std::int64_t)>& body, std::int64_t grain)
{
    if (count <= 0)
        return;
    if (grain <= 0)
        grain = std::max<std::int64_t>(1, count / (8 * static_cast<std::int64_t>(size())));
    if (m_workers.empty() || count <= grain) {
        body(0, count);
        return;
    }
    std::lock_guard<std::mutex> loopLock(m_loopMutex);
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_body = &body;
        m_count = count;
        m_grain = grain;
        m_next.store(0, std::memory_order_relaxed);
        m_busy = static_cast<int>(m_workers.size());
        ++m_generation;
    }
    m_wake.notify_all();
    runChunks();
    std::unique_lock<std::mutex> lock(m_mutex);
    m_done.wait(lock, [&] { return m_busy == 0; });
    m_body = nullptr;
}

} // namespace kix
