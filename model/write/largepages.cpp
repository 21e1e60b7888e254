// SPDX-License-Identifier: Apache-2.0
#include "model/write/largepages.h"

#include <sys/mman.h>

#include <cstdint>

namespace kix {

namespace {

constexpr std::size_t kHugePage = std::size_t(2) << 20;

std::size_t roundUp(std::size_t bytes)
{
    return (bytes + kHugePage - 1) & ~(kHugePage - 1);
}

} // namespace

void* allocateLargePages(std::size_t bytes)
{
    const std::size_t size = roundUp(bytes);
    // Mapped with a huge page's room to spare, then trimmed to a 2 MiB-aligned range: only aligned 2 MiB ranges can
    // be backed by huge pages.
    void* mapped = ::mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED)
        throw std::bad_alloc();
    const auto base = reinterpret_cast<std::uintptr_t>(mapped);
    const std::uintptr_t aligned = (base + kHugePage - 1) & ~std::uintptr_t(kHugePage - 1);
    if (aligned > base)
        ::munmap(mapped, aligned - base);
    if (const std::size_t tail = base + size + kHugePage - (aligned + size))
        ::munmap(reinterpret_cast<void*>(aligned + size), tail);
    void* p = reinterpret_cast<void*>(aligned);
#ifdef MADV_HUGEPAGE
    ::madvise(p, size, MADV_HUGEPAGE); // advice only: where the kernel has no huge page to give, 4 KiB pages
#endif
    return p;
}

void releaseLargePages(void* p, std::size_t bytes)
{
    ::munmap(p, roundUp(bytes));
}

} // namespace kix
