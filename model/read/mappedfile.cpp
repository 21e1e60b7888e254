// SPDX-License-Identifier: Apache-2.0
#include "model/read/mappedfile.h"

#include <cstdint>

#include <sys/mman.h>
#include <unistd.h>

namespace kix {

namespace {

// The mappings the process's SIGBUS handler answers for (recoverMappedFault); a slot is free while its start is null.
struct Range
{
    std::atomic<char*> begin { nullptr };
    std::atomic<std::size_t> size { 0 };
    std::atomic<bool> hit { false };
};
constexpr int kSlots = 32;
Range g_ranges[kSlots];
std::atomic<bool> g_allowed { false };
std::atomic<std::uintptr_t> g_pageMask { ~std::uintptr_t(4095) };

} // namespace

void allowMappedReads()
{
    g_pageMask.store(~(std::uintptr_t(::sysconf(_SC_PAGESIZE)) - 1), std::memory_order_relaxed);
    g_allowed.store(true, std::memory_order_release);
}

bool recoverMappedFault(void* address) noexcept
{
    char* const at = static_cast<char*>(address);
    for (Range& range : g_ranges) {
        char* const begin = range.begin.load(std::memory_order_acquire);
        const std::size_t size = range.size.load(std::memory_order_relaxed);
        if (!begin || at < begin || at >= begin + size)
            continue;
        const std::uintptr_t mask = g_pageMask.load(std::memory_order_relaxed);
        char* const page = reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(at) & mask);
        const std::size_t rest = std::size_t(begin + size - page);
        // one signal, not one a page: zeros from the faulting page to the mapping's end
        if (::mmap(page, rest, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
            range.hit.store(true, std::memory_order_relaxed);
            return true;
        }
    }
    return false;
}

MappedFile::MappedFile(int fd, std::size_t size)
{
    if (size == 0 || !g_allowed.load(std::memory_order_acquire))
        return;
    for (int i = 0; i < kSlots && m_slot < 0; ++i) {
        char* expected = nullptr;
        // claimed with a placeholder that no fault address falls in (size 0) until the mapping is known
        if (g_ranges[i].begin.compare_exchange_strong(expected, reinterpret_cast<char*>(1)))
            m_slot = i;
    }
    if (m_slot < 0)
        return; // as many mappings as slots: read instead
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    Range& range = g_ranges[m_slot];
    if (map == MAP_FAILED) {
        range.begin.store(nullptr, std::memory_order_release);
        m_slot = -1;
        return;
    }
    m_data = static_cast<char*>(map);
    m_size = size;
    range.hit.store(false, std::memory_order_relaxed);
    // the whole pages: those past the end of the file fault too once it shrinks
    const std::uintptr_t mask = g_pageMask.load(std::memory_order_relaxed);
    range.size.store((size + ~mask) & mask, std::memory_order_relaxed);
    range.begin.store(m_data, std::memory_order_release);
}

MappedFile::~MappedFile()
{
    if (m_slot < 0)
        return;
    // no longer ours before it is unmapped: the address range may be given to another mapping at once
    g_ranges[m_slot].begin.store(nullptr, std::memory_order_release);
    ::munmap(m_data, m_size);
}

bool MappedFile::shrank() const
{
    return m_slot >= 0 && g_ranges[m_slot].hit.load(std::memory_order_relaxed);
}

} // namespace kix
