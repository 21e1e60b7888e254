// SPDX-License-Identifier: Apache-2.0
#include "model/read/mappedfile.h"

#include <cstdint>
#include <mutex>

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

namespace kix {

namespace {

// The mappings the SIGBUS handler answers for; a slot is free while its start is null.
struct Range
{
    std::atomic<char*> begin { nullptr };
    std::atomic<std::size_t> size { 0 };
    std::atomic<bool> hit { false };
};
constexpr int kSlots = 32;
Range g_ranges[kSlots];
struct sigaction g_previous
{
};
std::uintptr_t g_pageMask = ~std::uintptr_t(4095);

// A fault in one of our mappings: zero pages from the faulting one to the mapping's end (one signal, not one a
// page), and the read goes on. Any other SIGBUS goes to the handler there was before.
void onSigbus(int signal, siginfo_t* info, void* context)
{
    char* const at = static_cast<char*>(info->si_addr);
    for (Range& range : g_ranges) {
        char* const begin = range.begin.load(std::memory_order_acquire);
        const std::size_t size = range.size.load(std::memory_order_relaxed);
        if (!begin || at < begin || at >= begin + size)
            continue;
        char* const page = reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(at) & g_pageMask);
        const std::size_t rest = std::size_t(begin + size - page);
        if (::mmap(page, rest, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
            range.hit.store(true, std::memory_order_relaxed);
            return;
        }
    }
    if (g_previous.sa_flags & SA_SIGINFO) {
        if (g_previous.sa_sigaction) {
            g_previous.sa_sigaction(signal, info, context);
            return;
        }
    } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
        g_previous.sa_handler(signal);
        return;
    }
    // no handler before: the default action, when the faulting access runs again
    struct sigaction fallback
    {
    };
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    ::sigaction(SIGBUS, &fallback, nullptr);
}

bool installHandler()
{
    static std::once_flag once;
    static bool installed = false;
    std::call_once(once, []() {
        g_pageMask = ~(std::uintptr_t(::sysconf(_SC_PAGESIZE)) - 1);
        struct sigaction action
        {
        };
        action.sa_sigaction = onSigbus;
        action.sa_flags = SA_SIGINFO;
        sigemptyset(&action.sa_mask);
        installed = ::sigaction(SIGBUS, &action, &g_previous) == 0;
    });
    return installed;
}

} // namespace

MappedFile::MappedFile(int fd, std::size_t size)
{
    if (size == 0 || !installHandler())
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
    range.size.store((size + ~g_pageMask) & g_pageMask, std::memory_order_relaxed);
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
