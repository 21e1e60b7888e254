// SPDX-License-Identifier: Apache-2.0
// The CUDA emulator's kernel launch (cuda_emu.h): the device's knobs, a kernel's static shared memory read from the
// symbol table, and the limits a launch is checked against before it is submitted to its stream.

#include "kernels/cuda/emulation/cuda_emu.h"
#include "kernels/cuda/emulation/cuda_emu_internal.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kix::cuda::emu {

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
