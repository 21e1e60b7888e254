// SPDX-License-Identifier: Apache-2.0
// The CUDA emulator's scheduler and device side (cuda_emu.h). One fiber (boost::context fcontext: a few
// instructions per switch, no syscall) per CUDA thread; the threads of a block are resumed in rounds, first to
// last or last to first (setOrder), each running until it waits at a barrier or a shuffle or exits.

#include "kernels/cuda/emulation/cuda_emu.h"
#include "kernels/cuda/emulation/cuda_emu_internal.h"

#include <boost/context/detail/fcontext.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define KIX_EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KIX_EMU_ASAN 1
#endif
#endif
#if defined(KIX_EMU_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace ctx = boost::context::detail;

namespace kix::cuda::emu {

struct Warp
{
    int alive = 0;
    int arrived = 0;
    unsigned aliveMask = 0;
    unsigned long long generation = 0;
    std::uint64_t slots[2][32] = {};
};

enum class FiberState { Ready, WarpWait, BlockWait, Done, Faulted };

struct Fiber
{
    Thread thread;
    ctx::fcontext_t context = nullptr;
    FiberState state = FiberState::Ready;
    unsigned long long waitGeneration = 0;
    int parity = 0; // which of the warp's two exchange buffers the next shuffle uses
    char* stack = nullptr; // lowest usable address
    std::size_t stackSize = 0;
    void* fakeStack = nullptr; // ASan's fake stack of this fiber while it is switched out
};

struct Block
{
    dim3 index;
    dim3 dim;
    dim3 grid;
    const char* where = "";
    const std::function<void()>* body = nullptr;
    unsigned char* dynamic = nullptr;
    std::vector<Warp> warps;
    int alive = 0;
    int arrived = 0;
    unsigned long long generation = 0;
    cudaError_t fault = cudaSuccess;
};

namespace {

// ---- per-OS-thread execution state -----------------------------------------------------------------------------
thread_local Fiber* t_fiber = nullptr;
thread_local Block* t_block = nullptr;
thread_local ctx::fcontext_t t_scheduler = nullptr;
#if defined(KIX_EMU_ASAN)
thread_local const void* t_schedulerStack = nullptr;
thread_local std::size_t t_schedulerStackSize = 0;
thread_local void* t_schedulerFake = nullptr;
#endif

#if defined(KIX_EMU_ASAN)
constexpr std::size_t kStackSize = 512 * 1024; // instrumented frames are several times larger
#else
constexpr std::size_t kStackSize = 128 * 1024;
#endif

// mmap'd stacks with a PROT_NONE page below each (an overflow faults instead of corrupting a neighbour), kept for
// the next block. `dirty`: abandoned by a faulted kernel, so ASan may still hold its frames' redzones.
struct Stack
{
    char* base = nullptr; // the guard page
    bool dirty = false;
};

class StackPool
{
public:
    ~StackPool()
    {
        for (Stack& s : m_stacks)
            munmap(s.base, kStackSize + page());
    }
    Stack& at(std::size_t i)
    {
        while (m_stacks.size() <= i) {
            void* p = mmap(nullptr, kStackSize + page(), PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (p == MAP_FAILED) {
                std::fprintf(stderr, "cuda emulator: cannot map a fiber stack\n");
                std::abort();
            }
            mprotect(p, page(), PROT_NONE);
            m_stacks.push_back({ static_cast<char*>(p), false });
        }
        return m_stacks[i];
    }
    static std::size_t page() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }

private:
    std::vector<Stack> m_stacks;
};
thread_local StackPool t_stacks;

// ---- fibers ----------------------------------------------------------------------------------------------------
// Back to the scheduler; returns when the scheduler resumes this fiber (never, once it is Done or Faulted).
void suspend()
{
    [[maybe_unused]] Fiber* f = t_fiber;
#if defined(KIX_EMU_ASAN)
    const bool finished = f->state == FiberState::Done || f->state == FiberState::Faulted;
    __sanitizer_start_switch_fiber(finished ? nullptr : &f->fakeStack, t_schedulerStack, t_schedulerStackSize);
#endif
    const ctx::transfer_t back = ctx::jump_fcontext(t_scheduler, nullptr);
    t_scheduler = back.fctx;
#if defined(KIX_EMU_ASAN)
    __sanitizer_finish_switch_fiber(f->fakeStack, &t_schedulerStack, &t_schedulerStackSize);
#endif
}

void resume(Fiber* f)
{
    t_fiber = f;
#if defined(KIX_EMU_ASAN)
    __sanitizer_start_switch_fiber(&t_schedulerFake, f->stack, f->stackSize);
#endif
    const ctx::transfer_t back = ctx::jump_fcontext(f->context, f);
    f->context = back.fctx;
#if defined(KIX_EMU_ASAN)
    __sanitizer_finish_switch_fiber(t_schedulerFake, nullptr, nullptr);
#endif
    t_fiber = nullptr;
}

void exitThread()
{
    Fiber* f = t_fiber;
    Block& b = *t_block;
    Warp& w = b.warps[static_cast<std::size_t>(f->thread.warp)];
    if (w.arrived > 0)
        fault(cudaErrorIllegalInstruction,
            "a lane exited while the rest of its warp waits for it in a shuffle or "
            "__syncwarp");
    f->state = FiberState::Done;
    --w.alive;
    w.aliveMask &= ~(1u << f->thread.lane);
    --b.alive;
    if (b.arrived > 0 && b.arrived == b.alive) { // exited threads no longer count at __syncthreads (sm_70+)
        b.arrived = 0;
        ++b.generation;
    }
    suspend();
}

void entry(ctx::transfer_t from)
{
    t_scheduler = from.fctx;
#if defined(KIX_EMU_ASAN)
    __sanitizer_finish_switch_fiber(nullptr, &t_schedulerStack, &t_schedulerStackSize);
#endif
    (*t_block->body)();
    exitThread();
}

const char* stateText(FiberState s)
{
    switch (s) {
    case FiberState::Ready:
        return "running";
    case FiberState::WarpWait:
        return "in a shuffle/__syncwarp";
    case FiberState::BlockWait:
        return "at __syncthreads";
    case FiberState::Done:
        return "exited";
    case FiberState::Faulted:
        return "faulted";
    }
    return "?";
}

bool runnable(const Fiber& f, const Block& b)
{
    switch (f.state) {
    case FiberState::Ready:
        return true;
    case FiberState::WarpWait:
        return b.warps[static_cast<std::size_t>(f.thread.warp)].generation != f.waitGeneration;
    case FiberState::BlockWait:
        return b.generation != f.waitGeneration;
    default:
        return false;
    }
}

// Runs every thread of block `b` to its end; false when the block faulted (b.fault says how).
bool runBlock(Block& b, std::vector<Fiber>& fibers, Order order)
{
    const int threads = static_cast<int>(b.dim.x * b.dim.y * b.dim.z);
    const int warps = (threads + 31) / 32;
    b.warps.assign(static_cast<std::size_t>(warps), Warp {});
    b.alive = threads;
    b.arrived = 0;
    b.fault = cudaSuccess;
    fibers.resize(static_cast<std::size_t>(threads));
    for (int i = 0; i < threads; ++i) {
        Fiber& f = fibers[static_cast<std::size_t>(i)];
        f = Fiber {};
        f.thread.linear = i;
        f.thread.index = { i % b.dim.x, (i / b.dim.x) % b.dim.y, i / (b.dim.x * b.dim.y) };
        f.thread.warp = i / 32;
        f.thread.lane = i % 32;
        f.thread.block = &b;
        Warp& w = b.warps[static_cast<std::size_t>(f.thread.warp)];
        ++w.alive;
        w.aliveMask |= 1u << f.thread.lane;
        Stack& s = t_stacks.at(static_cast<std::size_t>(i));
        f.stack = s.base + StackPool::page();
        f.stackSize = kStackSize;
#if defined(KIX_EMU_ASAN)
        if (s.dirty)
            ASAN_UNPOISON_MEMORY_REGION(f.stack, f.stackSize);
#endif
        s.dirty = false;
        f.context = ctx::make_fcontext(f.stack + f.stackSize, f.stackSize, entry);
    }
    t_block = &b;
    int remaining = threads;
    while (remaining > 0 && b.fault == cudaSuccess) {
        bool progress = false;
        remaining = 0;
        for (int k = 0; k < threads && b.fault == cudaSuccess; ++k) {
            Fiber& f = fibers[static_cast<std::size_t>(order == Order::Forward ? k : threads - 1 - k)];
            if (runnable(f, b)) {
                f.state = FiberState::Ready;
                resume(&f);
                progress = true;
            }
            remaining += f.state == FiberState::Done ? 0 : 1;
        }
        if (!progress && remaining > 0 && b.fault == cudaSuccess) {
            std::string states;
            for (const Fiber& f : fibers)
                if (f.state != FiberState::Done && states.size() < 400)
                    states += " t" + std::to_string(f.thread.linear) + " " + stateText(f.state) + ";";
            std::fprintf(stderr,
                "cuda emulator: deadlock in the kernel launched at %s, block (%u,%u,%u): no thread can go on "
                "(a barrier or shuffle that not every thread reaches):%s\n",
                b.where, b.index.x, b.index.y, b.index.z, states.c_str());
            b.fault = cudaErrorLaunchFailure;
        }
    }
    t_block = nullptr;
    if (b.fault != cudaSuccess)
        for (int i = 0; i < threads; ++i)
            if (fibers[static_cast<std::size_t>(i)].state != FiberState::Done)
                t_stacks.at(static_cast<std::size_t>(i)).dirty = true;
    return b.fault == cudaSuccess;
}

} // namespace

// The launch itself (now, or when a captured graph runs).
void execute(const void* kernel, dim3 grid, dim3 block, std::size_t sharedBytes, const char* where,
    const std::shared_ptr<std::function<void()>>& body)
{
    (void)kernel;
    if (rt().sticky != cudaSuccess)
        return;
    const Order order = rt().order;
    ++rt().stats.launches;
    std::unique_ptr<unsigned char[]> dynamic(new unsigned char[sharedBytes]); // exact size: ASan sees overruns
    std::vector<Fiber> fibers;
    Block b;
    b.dim = block;
    b.grid = grid;
    b.where = where;
    b.body = body.get();
    b.dynamic = dynamic.get();
    const unsigned long long blocks = static_cast<unsigned long long>(grid.x) * grid.y * grid.z;
    for (unsigned long long k = 0; k < blocks; ++k) {
        const unsigned long long i = order == Order::Forward ? k : blocks - 1 - k;
        b.index = { static_cast<unsigned>(i % grid.x), static_cast<unsigned>(i / grid.x % grid.y),
            static_cast<unsigned>(i / (static_cast<unsigned long long>(grid.x) * grid.y)) };
        std::memset(dynamic.get(), 0xff, sharedBytes); // what was left there: NaN, not zeros
        ++rt().stats.blocks;
        rt().stats.threads += static_cast<long long>(block.x) * block.y * block.z;
        if (!runBlock(b, fibers, order)) {
            ++rt().stats.faults;
            rt().sticky = b.fault;
            rt().last = b.fault;
            return;
        }
    }
}

// ---- device side -----------------------------------------------------------------------------------------------
Thread* current()
{
    return &t_fiber->thread;
}
const dim3& currentBlockIdx()
{
    return t_block->index;
}
const dim3& currentBlockDim()
{
    return t_block->dim;
}
const dim3& currentGridDim()
{
    return t_block->grid;
}
void* dynamicShared()
{
    return t_block->dynamic;
}

void fault(cudaError_t error, const char* what)
{
    Fiber* f = t_fiber;
    Block& b = *t_block;
    std::fprintf(stderr,
        "cuda emulator: device fault in the kernel launched at %s, block (%u,%u,%u) thread (%u,%u,%u): %s\n", b.where,
        b.index.x, b.index.y, b.index.z, f->thread.index.x, f->thread.index.y, f->thread.index.z, what);
    if (b.fault == cudaSuccess)
        b.fault = error;
    f->state = FiberState::Faulted;
    suspend();
    std::abort(); // never resumed
}

void checkAligned(const void* p, std::size_t alignment, const char* what)
{
    if (reinterpret_cast<std::uintptr_t>(p) % alignment != 0) {
        char text[160];
        std::snprintf(text, sizeof text, "%s of %zu bytes at %p: misaligned address", what, alignment, p);
        fault(cudaErrorMisalignedAddress, text);
    }
}

void syncThreads()
{
    Fiber* f = t_fiber;
    Block& b = *t_block;
    if (++b.arrived == b.alive) {
        b.arrived = 0;
        ++b.generation;
        return; // the last thread to arrive goes on
    }
    f->state = FiberState::BlockWait;
    f->waitGeneration = b.generation;
    suspend();
}

namespace {

Warp& warpBarrier(unsigned mask, const char* what)
{
    Fiber* f = t_fiber;
    Block& b = *t_block;
    Warp& w = b.warps[static_cast<std::size_t>(f->thread.warp)];
    if ((mask & (1u << f->thread.lane)) == 0)
        fault(cudaErrorIllegalInstruction, "a lane not named in its own mask");
    if ((mask & w.aliveMask) != w.aliveMask || (mask & ~w.aliveMask) != 0) {
        char text[200];
        std::snprintf(text, sizeof text,
            "%s with mask 0x%08x while the warp's live lanes are 0x%08x (the emulator requires every live lane, "
            "and a mask naming an exited lane is undefined on the device)",
            what, mask, w.aliveMask);
        fault(cudaErrorIllegalInstruction, text);
    }
    if (++w.arrived == w.alive) {
        w.arrived = 0;
        ++w.generation;
        return w;
    }
    f->state = FiberState::WarpWait;
    f->waitGeneration = w.generation;
    suspend();
    return w;
}

} // namespace

void syncWarp(unsigned mask)
{
    warpBarrier(mask, "__syncwarp");
}

std::uint64_t shuffle(unsigned mask, std::uint64_t value, int source)
{
    Fiber* f = t_fiber;
    Warp& own = t_block->warps[static_cast<std::size_t>(f->thread.warp)];
    const int parity = f->parity;
    f->parity ^= 1;
    // Two buffers used in turn: a lane can write the next shuffle's value only after every lane has passed this
    // barrier, and so has read this shuffle's values.
    own.slots[parity][f->thread.lane] = value;
    // Every live lane wrote its value before the barrier let anyone through (warpBarrier checks the mask); a lane
    // that has exited since is no longer in aliveMask, but its value is still the one it contributed.
    Warp& w = warpBarrier(mask, "a shuffle");
    if (source < 0 || source > 31)
        return value;
    return w.slots[parity][source];
}

} // namespace kix::cuda::emu
