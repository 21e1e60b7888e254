// SPDX-License-Identifier: Apache-2.0
#pragma once
// Host-side memo of per-kernel launch facts that cost a runtime call to learn (the persistent grid's
// resident blocks from the occupancy API; whether a kernel's dynamic shared-memory opt-in was granted), so
// that the timed loop does not pay for the call on every launch. Plain C++ (no CUDA headers): the tests
// check it without a GPU.
//
// Keyed by everything the fact depends on: the device, the kernel itself (its address: every template
// instantiation is its own kernel, even when two share a signature, as bf16 and fp16 do), the block size
// and the dynamic shared memory. A cache keyed on less (issue 21: shared-memory bytes only, one cache for
// every instantiation of one signature) hands the first shape's grid to every later one.

#include <cstddef>
#include <mutex>
#include <vector>

namespace kix::cuda::detail {

struct KernelKey
{
    int device = 0;
    const void* kernel = nullptr;
    int threads = 0;
    std::size_t sharedBytes = 0;
    bool operator==(const KernelKey& o) const
    {
        return device == o.device && kernel == o.kernel && threads == o.threads && sharedBytes == o.sharedBytes;
    }
};

class KernelCache
{
public:
    // The value stored for `key`, or `compute(value)` (which returns 0 on success, else an error code that
    // is returned and nothing stored) when there is none. Thread-safe; `compute` runs outside the lock.
    template<typename Compute>
    int lookup(const KernelKey& key, long long& value, Compute&& compute)
    {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            for (const Entry& e : m_entries)
                if (e.key == key) {
                    value = e.value;
                    return 0;
                }
        }
        const int error = static_cast<int>(compute(value));
        if (error != 0)
            return error;
        std::lock_guard<std::mutex> lock(m_mutex);
        for (const Entry& e : m_entries)
            if (e.key == key)
                return 0; // another thread stored it meanwhile: the same fact
        m_entries.push_back({ key, value });
        return 0;
    }

    // The shared-memory opt-in: cudaFuncSetAttribute(MaxDynamicSharedMemorySize) *sets* a kernel's limit, so a
    // memo keyed on the exact byte count (issue 32: 67,584 B, then 49,152 B, then 67,584 B again on one kernel)
    // lowered the limit with the second call and skipped the third, whose launch then failed. This memo keeps
    // the largest size granted per `key` (device and kernel; threads and sharedBytes are left 0) and calls
    // `grant(bytes)` only to raise it: `needed` at most what was granted returns 0 at once. `grant` returns 0 on
    // success, else the error code, which is returned and nothing stored. Thread-safe; `grant` runs under the
    // lock (a raise is rare, and two threads must not lower each other's grant).
    template<typename Grant>
    int raiseTo(const KernelKey& key, long long needed, Grant&& grant)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        Entry* entry = nullptr;
        for (Entry& e : m_entries)
            if (e.key == key)
                entry = &e;
        if (entry && entry->value >= needed)
            return 0;
        const int error = static_cast<int>(grant(needed));
        if (error != 0)
            return error;
        if (entry)
            entry->value = needed;
        else
            m_entries.push_back({ key, needed });
        return 0;
    }

    // Forgets everything (after cudaDeviceReset, which also resets every kernel's attributes).
    void clear()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_entries.clear();
    }

    std::size_t size() const
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_entries.size();
    }

private:
    struct Entry
    {
        KernelKey key;
        long long value;
    };
    mutable std::mutex m_mutex;
    std::vector<Entry> m_entries; // a handful of kernels per process: a linear search is enough
};

// The persistent grid for `rows` rows when the device holds `residentBlocks` blocks of the kernel at once (SMs x
// resident blocks per SM): every slot, at most one block per row, at least one block.
inline unsigned persistentGridSize(long long residentBlocks, long long rows)
{
    const long long grid = rows < residentBlocks ? rows : residentBlocks;
    return static_cast<unsigned>(grid < 1 ? 1 : grid);
}

} // namespace kix::cuda::detail
