// SPDX-License-Identifier: Apache-2.0
// The CUDA emulator's runtime and scheduler (cuda_emu.h). One fiber (boost::context fcontext: a few
// instructions per switch, no syscall) per CUDA thread; the threads of a block are resumed in rounds, first to
// last or last to first (setOrder), each running until it waits at a barrier or a shuffle or exits.

#include "kernels/cuda/emulation/cuda_emu.h"

#include <boost/context/detail/fcontext.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
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

struct CUstream_st
{
    bool capturing = false;
    std::vector<std::function<void()>> captured;
};
struct CUevent_st
{
    std::chrono::steady_clock::time_point time {};
    bool recorded = false;
};
struct CUgraph_st
{
    std::vector<std::function<void()>> operations;
};
struct CUgraphExec_st
{
    std::vector<std::function<void()>> operations;
};

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

// ---- the device and the runtime's state ------------------------------------------------------------------------
struct Runtime
{
    std::mutex mutex;
    std::map<const char*, std::size_t> allocations; // base -> bytes
    std::map<const void*, int> dynamicSharedLimit; // cudaFuncAttributeMaxDynamicSharedMemorySize per kernel
    std::map<const void*, std::size_t> staticShared; // staticSharedBytes per kernel, once looked up
    cudaError_t sticky = cudaSuccess;
    cudaError_t last = cudaSuccess;
    Order order = Order::Forward;
    Stats stats;
    DeviceConfig config;
};

Runtime& rt()
{
    static Runtime runtime;
    return runtime;
}

cudaError_t setLast(cudaError_t error)
{
    if (error != cudaSuccess)
        rt().last = error;
    return error;
}

// The sticky error of a faulted kernel, returned by every later call until cudaDeviceReset.
#define KIX_EMU_STICKY()                                                                                               \
    do {                                                                                                               \
        if (rt().sticky != cudaSuccess)                                                                                \
            return rt().sticky;                                                                                        \
    } while (0)

bool isDeviceRange(const void* p, std::size_t bytes)
{
    std::lock_guard<std::mutex> lock(rt().mutex);
    const char* c = static_cast<const char*>(p);
    auto it = rt().allocations.upper_bound(c);
    if (it == rt().allocations.begin())
        return false;
    --it;
    return c >= it->first && c + bytes <= it->first + it->second;
}

void submit(cudaStream_t stream, std::function<void()> operation)
{
    if (stream && stream->capturing)
        stream->captured.push_back(std::move(operation));
    else
        operation();
}

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

} // namespace

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

// ---- static shared memory --------------------------------------------------------------------------------------
namespace {

// `__shared__` is `static` here, so a kernel's static shared arrays are its function-local statics. Their sizes are
// in the symbol table of the executable or library that holds the kernel: a local static of function F is mangled
// "_ZZ" <F's encoding> "E" <name>, an OBJECT symbol in a writable section (.bss, .data; a `static constexpr`
// table is read-only and does not count). Read once per object file, from the file itself (.symtab; .dynsym
// if stripped).
struct ObjectSymbols
{
    bool loaded = false;
    std::uintptr_t bias = 0;
    std::map<std::uintptr_t, std::string> functions; // load address -> mangled name
    std::vector<std::pair<std::string, std::size_t>> statics; // "_ZZ..." writable objects, sorted by name
};

struct FindObject
{
    std::uintptr_t address = 0;
    std::uintptr_t bias = 0;
    std::string path;
    bool found = false;
};

int findObject(dl_phdr_info* info, std::size_t, void* data)
{
    FindObject& f = *static_cast<FindObject*>(data);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& ph = info->dlpi_phdr[i];
        const std::uintptr_t start = info->dlpi_addr + ph.p_vaddr;
        if (ph.p_type == PT_LOAD && f.address >= start && f.address < start + ph.p_memsz) {
            f.bias = info->dlpi_addr;
            f.path = info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name : "/proc/self/exe";
            f.found = true;
            return 1;
        }
    }
    return 0;
}

void readSymbols(ObjectSymbols& object, const std::string& path)
{
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat st
    {
    };
    void* map = fstat(fd, &st) == 0 && st.st_size > 0
        ? mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0)
        : MAP_FAILED;
    close(fd);
    if (map == MAP_FAILED)
        return;
    const auto* base = static_cast<const unsigned char*>(map);
    const std::size_t size = static_cast<std::size_t>(st.st_size);
    const auto* eh = reinterpret_cast<const ElfW(Ehdr)*>(base);
    const bool valid = size >= sizeof(ElfW(Ehdr)) && std::memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 && eh->e_shoff != 0
        && eh->e_shoff + std::size_t(eh->e_shnum) * sizeof(ElfW(Shdr)) <= size;
    if (valid) {
        const auto* sections = reinterpret_cast<const ElfW(Shdr)*>(base + eh->e_shoff);
        const ElfW(Shdr)* table = nullptr;
        for (int i = 0; i < eh->e_shnum; ++i)
            if (sections[i].sh_type == SHT_SYMTAB || (!table && sections[i].sh_type == SHT_DYNSYM))
                table = &sections[i];
        if (table && table->sh_link < eh->e_shnum && table->sh_offset + table->sh_size <= size) {
            const ElfW(Shdr)& strings = sections[table->sh_link];
            const char* names = reinterpret_cast<const char*>(base + strings.sh_offset);
            const auto* symbols = reinterpret_cast<const ElfW(Sym)*>(base + table->sh_offset);
            const std::size_t count = table->sh_size / sizeof(ElfW(Sym));
            for (std::size_t i = 0; i < count; ++i) {
                const ElfW(Sym)& sym = symbols[i];
                if (sym.st_name >= strings.sh_size || sym.st_shndx == SHN_UNDEF || sym.st_shndx >= eh->e_shnum)
                    continue;
                const char* name = names + sym.st_name;
                const int type = ELF64_ST_TYPE(sym.st_info);
                if (type == STT_FUNC && sym.st_value != 0)
                    object.functions.emplace(object.bias + sym.st_value, name);
                else if (type == STT_OBJECT && std::strncmp(name, "_ZZ", 3) == 0
                    && (sections[sym.st_shndx].sh_flags & SHF_WRITE) && !(sections[sym.st_shndx].sh_flags & SHF_TLS))
                    object.statics.emplace_back(name, static_cast<std::size_t>(sym.st_size));
            }
        }
    }
    munmap(map, size);
    std::sort(object.statics.begin(), object.statics.end());
}

std::size_t lookUpStaticShared(const void* kernel)
{
    static std::map<std::string, ObjectSymbols> objects; // under rt().mutex
    FindObject f;
    f.address = reinterpret_cast<std::uintptr_t>(kernel);
    dl_iterate_phdr(findObject, &f);
    if (!f.found)
        return 0;
    ObjectSymbols& object = objects[f.path];
    if (!object.loaded) {
        object.loaded = true;
        object.bias = f.bias;
        readSymbols(object, f.path);
    }
    const auto function = object.functions.find(f.address);
    if (function == object.functions.end())
        return 0;
    const std::string& name = function->second;
    // A C++ name's encoding is the name without "_Z"; an extern "C" name's is its <source-name>.
    const std::string prefix
        = "_ZZ" + (name.compare(0, 2, "_Z") == 0 ? name.substr(2) : std::to_string(name.size()) + name) + "E";
    std::size_t bytes = 0;
    for (auto it
         = std::lower_bound(object.statics.begin(), object.statics.end(), std::make_pair(prefix, std::size_t(0)));
         it != object.statics.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it)
        bytes += it->second;
    return bytes;
}

} // namespace

std::size_t staticSharedBytes(const void* kernel)
{
    std::lock_guard<std::mutex> lock(rt().mutex);
    auto it = rt().staticShared.find(kernel);
    if (it == rt().staticShared.end())
        it = rt().staticShared.emplace(kernel, lookUpStaticShared(kernel)).first;
    return it->second;
}

// ---- configuration ---------------------------------------------------------------------------------------------
DeviceConfig& deviceConfig()
{
    return rt().config;
}
void setOrder(Order order)
{
    rt().order = order;
}
Order order()
{
    return rt().order;
}
Stats stats()
{
    return rt().stats;
}

cudaError_t launch(const void* kernel, dim3 grid, dim3 block, std::size_t sharedBytes, cudaStream_t stream,
    std::function<void()> body, const char* where)
{
    KIX_EMU_STICKY();
    const unsigned long long threads = static_cast<unsigned long long>(block.x) * block.y * block.z;
    if (threads == 0 || threads > 1024 || block.x > 1024 || block.y > 1024 || block.z > 64 || grid.x == 0 || grid.y == 0
        || grid.z == 0 || grid.x > 0x7fffffffu || grid.y > 65535 || grid.z > 65535) {
        std::fprintf(stderr, "cuda emulator: launch at %s: invalid configuration (grid %u,%u,%u, block %u,%u,%u)\n",
            where, grid.x, grid.y, grid.z, block.x, block.y, block.z);
        return setLast(cudaErrorInvalidConfiguration);
    }
    // Static shared memory: at most 48 KiB per block (ptxas refuses more). Dynamic: at most the kernel's
    // cudaFuncAttributeMaxDynamicSharedMemorySize, 48 KiB less the static bytes until it is set; both together at
    // most the opt-in limit (227 KiB).
    const DeviceConfig& c = rt().config;
    const std::size_t statics = staticSharedBytes(kernel);
    if (statics > c.sharedPerBlock) {
        std::fprintf(stderr,
            "cuda emulator: launch at %s: %zu B of static __shared__ memory over the %zu B a block may declare\n",
            where, statics, c.sharedPerBlock);
        return setLast(cudaErrorInvalidValue);
    }
    std::size_t limit = c.sharedPerBlock - statics;
    bool optedIn = false;
    {
        std::lock_guard<std::mutex> lock(rt().mutex);
        auto it = rt().dynamicSharedLimit.find(kernel);
        if (it != rt().dynamicSharedLimit.end()) {
            limit = static_cast<std::size_t>(it->second);
            optedIn = true;
        }
    }
    if (sharedBytes > limit) {
        std::fprintf(stderr,
            "cuda emulator: launch at %s: %zu B of dynamic shared memory over the kernel's limit of %zu B (%s; "
            "%zu B static)\n",
            where, sharedBytes, limit,
            optedIn ? "cudaFuncAttributeMaxDynamicSharedMemorySize" : "48 KiB less the static, without an opt-in",
            statics);
        return setLast(cudaErrorInvalidValue);
    }
    if (statics + sharedBytes > c.sharedPerBlockOptIn) {
        std::fprintf(stderr,
            "cuda emulator: launch at %s: %zu B static + %zu B dynamic shared memory over the %zu B a block may "
            "use\n",
            where, statics, sharedBytes, c.sharedPerBlockOptIn);
        return setLast(cudaErrorInvalidValue);
    }
    auto shared = std::make_shared<std::function<void()>>(std::move(body));
    submit(stream, [=] { execute(kernel, grid, block, sharedBytes, where, shared); });
    return cudaSuccess;
}

} // namespace kix::cuda::emu

using namespace kix::cuda::emu;

// ---- host runtime ----------------------------------------------------------------------------------------------
const char* cudaGetErrorName(cudaError_t error)
{
    switch (error) {
#define KIX_EMU_NAME(e)                                                                                                \
    case e:                                                                                                            \
        return #e;
        KIX_EMU_NAME(cudaSuccess)
        KIX_EMU_NAME(cudaErrorInvalidValue)
        KIX_EMU_NAME(cudaErrorMemoryAllocation)
        KIX_EMU_NAME(cudaErrorInitializationError)
        KIX_EMU_NAME(cudaErrorInvalidConfiguration)
        KIX_EMU_NAME(cudaErrorInvalidDevicePointer)
        KIX_EMU_NAME(cudaErrorInvalidMemcpyDirection)
        KIX_EMU_NAME(cudaErrorInsufficientDriver)
        KIX_EMU_NAME(cudaErrorNoDevice)
        KIX_EMU_NAME(cudaErrorInvalidDevice)
        KIX_EMU_NAME(cudaErrorInvalidResourceHandle)
        KIX_EMU_NAME(cudaErrorIllegalState)
        KIX_EMU_NAME(cudaErrorNotReady)
        KIX_EMU_NAME(cudaErrorIllegalAddress)
        KIX_EMU_NAME(cudaErrorLaunchOutOfResources)
        KIX_EMU_NAME(cudaErrorAssert)
        KIX_EMU_NAME(cudaErrorIllegalInstruction)
        KIX_EMU_NAME(cudaErrorMisalignedAddress)
        KIX_EMU_NAME(cudaErrorLaunchFailure)
        KIX_EMU_NAME(cudaErrorNotSupported)
        KIX_EMU_NAME(cudaErrorStreamCaptureUnsupported)
        KIX_EMU_NAME(cudaErrorUnknown)
#undef KIX_EMU_NAME
    }
    return "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t error)
{
    switch (error) {
    case cudaSuccess:
        return "no error";
    case cudaErrorInvalidValue:
        return "invalid argument";
    case cudaErrorMemoryAllocation:
        return "out of memory";
    case cudaErrorInvalidConfiguration:
        return "invalid configuration argument";
    case cudaErrorIllegalInstruction:
        return "an illegal instruction was encountered (emulated)";
    case cudaErrorMisalignedAddress:
        return "misaligned address (emulated)";
    case cudaErrorLaunchFailure:
        return "unspecified launch failure (emulated)";
    default:
        return "error (CUDA emulator)";
    }
}

cudaError_t cudaGetLastError()
{
    if (rt().sticky != cudaSuccess)
        return rt().sticky;
    const cudaError_t e = rt().last;
    rt().last = cudaSuccess;
    return e;
}

cudaError_t cudaPeekAtLastError()
{
    return rt().sticky != cudaSuccess ? rt().sticky : rt().last;
}

cudaError_t cudaGetDeviceCount(int* count)
{
    if (!count)
        return cudaErrorInvalidValue;
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device)
{
    KIX_EMU_STICKY();
    if (!device)
        return cudaErrorInvalidValue;
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
    KIX_EMU_STICKY();
    return device == 0 ? cudaSuccess : setLast(cudaErrorInvalidDevice);
}

cudaError_t cudaDeviceReset()
{
    std::lock_guard<std::mutex> lock(rt().mutex);
    for (auto& [base, bytes] : rt().allocations) {
        (void)bytes;
        std::free(const_cast<char*>(base));
    }
    rt().allocations.clear();
    rt().dynamicSharedLimit.clear();
    rt().sticky = cudaSuccess;
    rt().last = cudaSuccess;
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize()
{
    KIX_EMU_STICKY();
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device)
{
    KIX_EMU_STICKY();
    if (!prop || device != 0)
        return cudaErrorInvalidValue;
    const DeviceConfig& c = rt().config;
    *prop = cudaDeviceProp {};
    std::snprintf(prop->name, sizeof prop->name, "kix CUDA emulator (H200-like, %d SMs)", c.multiprocessors);
    prop->totalGlobalMem = 141ull << 30;
    prop->sharedMemPerBlock = c.sharedPerBlock;
    prop->sharedMemPerBlockOptin = c.sharedPerBlockOptIn;
    prop->sharedMemPerMultiprocessor = c.sharedPerMultiprocessor;
    prop->regsPerBlock = 65536;
    prop->regsPerMultiprocessor = 65536;
    prop->warpSize = 32;
    prop->maxThreadsPerBlock = 1024;
    prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = 1024;
    prop->maxThreadsDim[2] = 64;
    prop->maxGridSize[0] = 0x7fffffff;
    prop->maxGridSize[1] = prop->maxGridSize[2] = 65535;
    prop->clockRate = 1980000;
    prop->major = 9;
    prop->minor = 0;
    prop->multiProcessorCount = c.multiprocessors;
    prop->memoryClockRate = 2619000;
    prop->memoryBusWidth = 6144;
    prop->l2CacheSize = 50 * 1024 * 1024;
    prop->maxThreadsPerMultiProcessor = c.maxThreadsPerMultiprocessor;
    prop->ECCEnabled = 1;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device)
{
    KIX_EMU_STICKY();
    cudaDeviceProp p;
    if (!value)
        return cudaErrorInvalidValue;
    const cudaError_t e = cudaGetDeviceProperties(&p, device);
    if (e != cudaSuccess)
        return e;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock:
        *value = p.maxThreadsPerBlock;
        break;
    case cudaDevAttrMaxSharedMemoryPerBlock:
        *value = static_cast<int>(p.sharedMemPerBlock);
        break;
    case cudaDevAttrWarpSize:
        *value = 32;
        break;
    case cudaDevAttrClockRate:
        *value = p.clockRate;
        break;
    case cudaDevAttrMultiProcessorCount:
        *value = p.multiProcessorCount;
        break;
    case cudaDevAttrMemoryClockRate:
        *value = p.memoryClockRate;
        break;
    case cudaDevAttrGlobalMemoryBusWidth:
        *value = p.memoryBusWidth;
        break;
    case cudaDevAttrL2CacheSize:
        *value = p.l2CacheSize;
        break;
    case cudaDevAttrMaxThreadsPerMultiProcessor:
        *value = p.maxThreadsPerMultiProcessor;
        break;
    case cudaDevAttrComputeCapabilityMajor:
        *value = p.major;
        break;
    case cudaDevAttrComputeCapabilityMinor:
        *value = p.minor;
        break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
        *value = static_cast<int>(p.sharedMemPerMultiprocessor);
        break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
        *value = static_cast<int>(p.sharedMemPerBlockOptin);
        break;
    default:
        return setLast(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

cudaError_t cudaDeviceGetPCIBusId(char* bus, int length, int device)
{
    KIX_EMU_STICKY();
    if (!bus || length < 1 || device != 0)
        return cudaErrorInvalidValue;
    std::snprintf(bus, static_cast<std::size_t>(length), "emulator");
    return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* version)
{
    if (!version)
        return cudaErrorInvalidValue;
    *version = 13000;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* version)
{
    if (!version)
        return cudaErrorInvalidValue;
    *version = 13000;
    return cudaSuccess;
}

cudaError_t cudaMalloc(void** p, std::size_t bytes)
{
    KIX_EMU_STICKY();
    if (!p)
        return setLast(cudaErrorInvalidValue);
    void* memory = nullptr;
    // Exactly `bytes` (ASan then flags the first byte past it), 256-byte aligned as cudaMalloc's.
    if (posix_memalign(&memory, 256, bytes == 0 ? 1 : bytes) != 0)
        return setLast(cudaErrorMemoryAllocation);
    std::lock_guard<std::mutex> lock(rt().mutex);
    rt().allocations[static_cast<const char*>(memory)] = bytes;
    *p = memory;
    return cudaSuccess;
}

cudaError_t cudaFree(void* p)
{
    KIX_EMU_STICKY();
    if (!p)
        return cudaSuccess;
    std::lock_guard<std::mutex> lock(rt().mutex);
    auto it = rt().allocations.find(static_cast<const char*>(p));
    if (it == rt().allocations.end())
        return setLast(cudaErrorInvalidValue);
    rt().allocations.erase(it);
    std::free(p);
    return cudaSuccess;
}

namespace {

cudaError_t checkCopy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind)
{
    const bool toDevice = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    const bool fromDevice = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if ((bytes > 0 && (!to || !from)) || (toDevice && !isDeviceRange(to, bytes))
        || (fromDevice && !isDeviceRange(from, bytes)))
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

} // namespace

cudaError_t cudaMemcpy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind)
{
    return cudaMemcpyAsync(to, from, bytes, kind, nullptr);
}

cudaError_t cudaMemcpyAsync(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t stream)
{
    KIX_EMU_STICKY();
    const cudaError_t e = checkCopy(to, from, bytes, kind);
    if (e != cudaSuccess)
        return setLast(e);
    if (bytes > 0)
        submit(stream, [=] { std::memmove(to, from, bytes); });
    return cudaSuccess;
}

cudaError_t cudaMemset(void* p, int value, std::size_t bytes)
{
    return cudaMemsetAsync(p, value, bytes, nullptr);
}

cudaError_t cudaMemsetAsync(void* p, int value, std::size_t bytes, cudaStream_t stream)
{
    KIX_EMU_STICKY();
    if (bytes > 0 && !isDeviceRange(p, bytes))
        return setLast(cudaErrorInvalidValue);
    if (bytes > 0)
        submit(stream, [=] { std::memset(p, value, bytes); });
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* stream)
{
    return cudaStreamCreateWithFlags(stream, cudaStreamDefault);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags)
{
    KIX_EMU_STICKY();
    (void)flags;
    if (!stream)
        return cudaErrorInvalidValue;
    *stream = new CUstream_st;
    return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    delete stream;
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    KIX_EMU_STICKY();
    if (stream && stream->capturing)
        return setLast(cudaErrorStreamCaptureUnsupported);
    return cudaSuccess;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode)
{
    KIX_EMU_STICKY();
    (void)mode;
    if (!stream || stream->capturing)
        return setLast(cudaErrorIllegalState);
    stream->capturing = true;
    stream->captured.clear();
    return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph)
{
    if (!stream || !stream->capturing || !graph)
        return cudaErrorIllegalState;
    stream->capturing = false;
    *graph = new CUgraph_st { std::move(stream->captured) };
    stream->captured.clear();
    KIX_EMU_STICKY();
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags)
{
    KIX_EMU_STICKY();
    (void)flags;
    if (!exec || !graph)
        return cudaErrorInvalidValue;
    *exec = new CUgraphExec_st { graph->operations };
    return cudaSuccess;
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream)
{
    KIX_EMU_STICKY();
    if (!exec)
        return cudaErrorInvalidValue;
    for (const auto& operation : exec->operations)
        submit(stream, operation);
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    delete graph;
    return cudaSuccess;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec)
{
    delete exec;
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event)
{
    return cudaEventCreateWithFlags(event, cudaEventDefault);
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags)
{
    KIX_EMU_STICKY();
    (void)flags;
    if (!event)
        return cudaErrorInvalidValue;
    *event = new CUevent_st;
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    delete event;
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    KIX_EMU_STICKY();
    if (!event)
        return cudaErrorInvalidResourceHandle;
    submit(stream, [event] {
        event->time = std::chrono::steady_clock::now();
        event->recorded = true;
    });
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    KIX_EMU_STICKY();
    return event ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end)
{
    KIX_EMU_STICKY();
    if (!ms || !start || !end)
        return cudaErrorInvalidValue;
    if (!start->recorded || !end->recorded)
        return cudaErrorInvalidResourceHandle;
    *ms = std::chrono::duration<float, std::milli>(end->time - start->time).count(); // host time, not the device's
    return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void* kernel, cudaFuncAttribute attr, int value)
{
    KIX_EMU_STICKY();
    if (!kernel)
        return setLast(cudaErrorInvalidValue);
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout)
        return value >= -1 && value <= 100 ? cudaSuccess : setLast(cudaErrorInvalidValue);
    // The dynamic size plus the kernel's static shared memory must fit the opt-in limit.
    if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize || value < 0
        || static_cast<std::size_t>(value) + staticSharedBytes(kernel) > rt().config.sharedPerBlockOptIn)
        return setLast(cudaErrorInvalidValue);
    std::lock_guard<std::mutex> lock(rt().mutex);
    rt().dynamicSharedLimit[kernel] = value; // sets the limit: a smaller value lowers it, as on the device
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int* blocks, const void* kernel, int blockSize, std::size_t dynamicShared)
{
    KIX_EMU_STICKY();
    if (!blocks || !kernel || blockSize < 1 || blockSize > 1024)
        return setLast(cudaErrorInvalidValue);
    const DeviceConfig& c = rt().config;
    const int warps = (blockSize + 31) / 32;
    int n = std::min(c.maxBlocksPerMultiprocessor, c.maxThreadsPerMultiprocessor / (warps * 32));
    // 1 KiB of shared memory per block is the runtime's own reservation (sm_80 and later).
    const std::size_t perBlock = dynamicShared + staticSharedBytes(kernel) + 1024;
    n = std::min(n, static_cast<int>(c.sharedPerMultiprocessor / perBlock));
    *blocks = std::max(n, 0);
    return cudaSuccess;
}
