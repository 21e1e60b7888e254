// SPDX-License-Identifier: Apache-2.0
#pragma once
// Memory for the few large buffers a command fills once and writes out (a table of 100k rows: ~30 MB), asked of
// the kernel in 2 MiB pages where it grants them (transparent huge pages, "madvise" mode): each 4 KiB page touched
// for the first time is a page fault, and on a virtual machine a fault can cost ten microseconds, more than filling
// the page (docs/benchmarks.md). Smaller blocks come from the ordinary heap.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

namespace kix {

// At least `bytes` of zeroed memory aligned to 2 MiB; throws std::bad_alloc when the kernel refuses. Free with
// releaseLargePages(p, bytes).
void* allocateLargePages(std::size_t bytes);
void releaseLargePages(void* p, std::size_t bytes);

// An allocator for std::vector: blocks of kLargeBlock bytes or more from allocateLargePages, others from the heap.
template<typename T>
struct LargePageAllocator
{
    using value_type = T;
    static constexpr std::size_t kLargeBlock = std::size_t(4) << 20;

    LargePageAllocator() = default;
    template<typename U>
    LargePageAllocator(const LargePageAllocator<U>&) noexcept
    {
    }

    T* allocate(std::size_t n)
    {
        const std::size_t bytes = n * sizeof(T);
        if (bytes >= kLargeBlock)
            return static_cast<T*>(allocateLargePages(bytes));
        return std::allocator<T>().allocate(n);
    }
    void deallocate(T* p, std::size_t n) noexcept
    {
        const std::size_t bytes = n * sizeof(T);
        if (bytes >= kLargeBlock)
            releaseLargePages(p, bytes);
        else
            std::allocator<T>().deallocate(p, n);
    }

    template<typename U>
    bool operator==(const LargePageAllocator<U>&) const noexcept
    {
        return true;
    }
    template<typename U>
    bool operator!=(const LargePageAllocator<U>&) const noexcept
    {
        return false;
    }
};

} // namespace kix
