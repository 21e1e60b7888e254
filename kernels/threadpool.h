// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kix {

// A fixed set of worker threads (std::thread; kernels never use Qt) that run one parallel loop at a time.
// The calling thread works too, so a pool of N threads has N - 1 workers.
class ThreadPool
{
public:
    // threads <= 0: one per hardware thread.
    explicit ThreadPool(int threads = 0);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int size() const { return static_cast<int>(m_workers.size()) + 1; }

    // Calls body(begin, end) over [0, count) in chunks of at most `grain` indices, handed out dynamically
    // (a shared machine's threads do not run at the same speed); returns when every chunk is done.
    // grain <= 0 picks about eight chunks per thread. Not reentrant: one loop at a time per pool.
    void parallelFor(
        std::int64_t count, const std::function<void(std::int64_t, std::int64_t)>& body, std::int64_t grain = 0);

    // A pool shared by the CPU kernels and the CPU backend, one thread per hardware thread.
    static ThreadPool& shared();

private:
    void workerLoop();
    void runChunks();

    std::vector<std::thread> m_workers;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_done;
    std::uint64_t m_generation = 0; // bumped for every loop; workers wait for a new one
    int m_busy = 0; // workers still in the current loop
    bool m_stop = false;

    // The current loop, valid while a generation runs.
    const std::function<void(std::int64_t, std::int64_t)>* m_body = nullptr;
    std::int64_t m_count = 0;
    std::int64_t m_grain = 1;
    std::atomic<std::int64_t> m_next { 0 }; // next unclaimed index
    std::mutex m_loopMutex; // serialises parallelFor callers
};

} // namespace kix
