// SPDX-License-Identifier: Apache-2.0
#include "kernels/cuda/cudatiming.h"

#include "kernels/cuda/cudaflush.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <vector>

namespace kix::cuda {

int deviceCount(std::string* error)
{
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
        (void)cudaGetLastError();
        if (error)
            *error = errorText(status);
        return 0;
    }
    if (count == 0 && error)
        *error = errorText(cudaErrorNoDevice);
    return count;
}

std::string cudaVersionText(int version)
{
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

DeviceSummary queryDevice(int index)
{
    DeviceSummary d;
    d.index = index;
    cudaDeviceProp prop {};
    KIX_CUDA_CHECK(cudaGetDeviceProperties(&prop, index));
    d.name = prop.name;
    d.major = prop.major;
    d.minor = prop.minor;
    d.architecture = "sm_" + std::to_string(prop.major * 10 + prop.minor);
    d.memoryBytes = static_cast<std::int64_t>(prop.totalGlobalMem);
    d.multiprocessors = prop.multiProcessorCount;
    d.l2Bytes = prop.l2CacheSize;
    d.eccEnabled = prop.ECCEnabled != 0;
    KIX_CUDA_CHECK(cudaDeviceGetAttribute(&d.maxSmClockKHz, cudaDevAttrClockRate, index));
    KIX_CUDA_CHECK(cudaDeviceGetAttribute(&d.memoryClockKHz, cudaDevAttrMemoryClockRate, index));
    KIX_CUDA_CHECK(cudaDeviceGetAttribute(&d.memoryBusBits, cudaDevAttrGlobalMemoryBusWidth, index));
    KIX_CUDA_CHECK(cudaDriverGetVersion(&d.driverVersion));
    KIX_CUDA_CHECK(cudaRuntimeGetVersion(&d.runtimeVersion));
    char bus[32] = {};
    KIX_CUDA_CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, index));
    d.pciBusId = bus;
    return d;
}

namespace {

// The few NVML entry points used, declared by hand (no nvml.h needed at build time).
using NvmlReturn = int; // nvmlReturn_t; 0 is NVML_SUCCESS
using NvmlDevice = void*; // nvmlDevice_t
constexpr int kNvmlClockSm = 1; // NVML_CLOCK_SM
constexpr int kNvmlClockMem = 2; // NVML_CLOCK_MEM

struct Nvml
{
    bool loaded = false;
    std::string note;
    NvmlReturn (*init)() = nullptr;
    NvmlReturn (*handleByBusId)(const char*, NvmlDevice*) = nullptr;
    NvmlReturn (*clockInfo)(NvmlDevice, int, unsigned*) = nullptr;
    NvmlReturn (*maxClockInfo)(NvmlDevice, int, unsigned*) = nullptr;
    NvmlReturn (*reasons)(NvmlDevice, unsigned long long*) = nullptr;
    NvmlReturn (*driverVersion)(char*, unsigned) = nullptr;
};

template<typename F>
bool resolve(void* library, const char* name, F& function)
{
    function = reinterpret_cast<F>(dlsym(library, name));
    return function != nullptr;
}

const Nvml& nvml()
{
    static Nvml n;
    static std::once_flag once;
    std::call_once(once, [] {
        void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL); // kept open for the process
        if (!library) {
            n.note = "NVML not available (libnvidia-ml.so.1 not found)";
            return;
        }
        bool ok = resolve(library, "nvmlInit_v2", n.init)
            && resolve(library, "nvmlDeviceGetHandleByPciBusId_v2", n.handleByBusId)
            && resolve(library, "nvmlDeviceGetClockInfo", n.clockInfo)
            && resolve(library, "nvmlDeviceGetMaxClockInfo", n.maxClockInfo)
            && resolve(library, "nvmlSystemGetDriverVersion", n.driverVersion);
        // Renamed in newer drivers; either reports the same bits.
        if (ok && !resolve(library, "nvmlDeviceGetCurrentClocksEventReasons", n.reasons))
            resolve(library, "nvmlDeviceGetCurrentClocksThrottleReasons", n.reasons);
        if (!ok) {
            n.note = "NVML found but lacks the expected entry points";
            return;
        }
        const NvmlReturn status = n.init();
        if (status != 0) {
            n.note = "nvmlInit_v2 failed with NVML error " + std::to_string(status);
            return;
        }
        n.loaded = true;
    });
    return n;
}

} // namespace

ClockSample sampleClocks(const std::string& pciBusId)
{
    ClockSample s;
    const Nvml& n = nvml();
    if (!n.loaded) {
        s.note = n.note;
        return s;
    }
    NvmlDevice device = nullptr;
    if (n.handleByBusId(pciBusId.c_str(), &device) != 0) {
        s.note = "NVML does not know the device at " + pciBusId;
        return s;
    }
    if (n.clockInfo(device, kNvmlClockSm, &s.smMHz) != 0 || n.clockInfo(device, kNvmlClockMem, &s.memoryMHz) != 0) {
        s.note = "nvmlDeviceGetClockInfo failed";
        return s;
    }
    (void)n.maxClockInfo(device, kNvmlClockSm, &s.maxSmMHz);
    if (n.reasons)
        (void)n.reasons(device, &s.reasons);
    s.valid = true;
    return s;
}

std::string nvmlDriverVersion()
{
    const Nvml& n = nvml();
    char text[96] = {};
    if (!n.loaded || n.driverVersion(text, sizeof text) != 0)
        return {};
    return text;
}

std::string throttleWarning(const ClockSample& before, const ClockSample& after)
{
    constexpr unsigned long long kIdle = 0x1;
    // SW power cap 0x4, HW slowdown 0x8, SW thermal 0x20, HW thermal 0x40, HW power brake 0x80.
    constexpr unsigned long long kBadReasons = 0x4 | 0x8 | 0x20 | 0x40 | 0x80;
    std::string warning;
    for (const ClockSample* s : { &before, &after }) {
        if (!s->valid)
            continue;
        const char* when = s == &before ? "before" : "after";
        // 64-bit products: no overflow whatever NVML returns.
        if (!(s->reasons & kIdle) && s->maxSmMHz > 0 && 4ULL * s->smMHz < 3ULL * s->maxSmMHz)
            warning += std::string(warning.empty() ? "" : "; ") + "SM clock " + std::to_string(s->smMHz) + " MHz "
                + when + " the repetitions, below 75% of its maximum " + std::to_string(s->maxSmMHz) + " MHz";
        if (s->reasons & kBadReasons)
            warning += std::string(warning.empty() ? "" : "; ") + "clock event reasons 0x" +
                [](unsigned long long v) {
                    char b[32];
                    std::snprintf(b, sizeof b, "%llx", v);
                    return std::string(b);
                }(s->reasons)
                + " (power or thermal slowdown) " + when + " the repetitions";
    }
    return warning;
}

const char* flushModeName(FlushMode mode)
{
    switch (mode) {
    case FlushMode::Memset:
        return "memset";
    case FlushMode::ReadSweep:
        return "read";
    case FlushMode::None:
        return "none";
    }
    return "";
}

bool parseFlushMode(const std::string& text, FlushMode& mode)
{
    for (FlushMode m : { FlushMode::Memset, FlushMode::ReadSweep, FlushMode::None })
        if (text == flushModeName(m)) {
            mode = m;
            return true;
        }
    return false;
}

std::string flushDescription(FlushMode mode, std::size_t bytes, int launches)
{
    const std::string size = std::to_string(bytes >> 20) + " MiB";
    switch (mode) {
    case FlushMode::Memset:
        return "cudaMemsetAsync over " + size
            + " (at least twice the L2) before every repetition, untimed (do_bench's flush): the L2 is left dirty";
    case FlushMode::ReadSweep:
        return "a read sweep of " + size
            + " (a zeroed buffer of at least twice the L2) through L2 before every repetition, untimed: the L2 is "
              "left clean";
    case FlushMode::None:
        return "no flush: " + std::to_string(launches)
            + " repetitions back to back between one pair of events, the sample is their mean";
    }
    return "";
}

L2Flush::L2Flush(std::int64_t l2Bytes, FlushMode mode)
    : m_mode(mode)
    , m_buffer(mode == FlushMode::None
              ? 0
              : static_cast<std::size_t>(std::max<std::int64_t>(2 * l2Bytes, std::int64_t(64) << 20)) / 16 * 16)
    , m_sink(sizeof(unsigned))
{
    if (mode == FlushMode::None)
        return;
    // Zeroed once, synchronously: the sweep reads zeros (so it never stores), and no flush overlaps it.
    KIX_CUDA_CHECK(cudaMemset(m_buffer.get(), 0, m_buffer.bytes()));
    int device = 0, sms = 0;
    KIX_CUDA_CHECK(cudaGetDevice(&device));
    KIX_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    m_blocks = std::max(1, sms) * 8; // 2048 threads per SM, each with several 16-byte loads in flight
}

void L2Flush::flush(cudaStream_t stream)
{
    if (m_mode == FlushMode::Memset)
        KIX_CUDA_CHECK(cudaMemsetAsync(m_buffer.get(), 0, m_buffer.bytes(), stream));
    else if (m_mode == FlushMode::ReadSweep)
        KIX_CUDA_CHECK(launchReadSweep(m_buffer.get(), m_buffer.bytes(), m_sink.as<unsigned>(), m_blocks, stream));
}

void EventTimer::start(cudaStream_t stream)
{
    KIX_CUDA_CHECK(cudaEventRecord(m_start.get(), stream));
}

double EventTimer::stopNs(cudaStream_t stream)
{
    KIX_CUDA_CHECK(cudaEventRecord(m_stop.get(), stream));
    KIX_CUDA_CHECK(cudaEventSynchronize(m_stop.get()));
    float ms = 0;
    KIX_CUDA_CHECK(cudaEventElapsedTime(&ms, m_start.get(), m_stop.get()));
    return static_cast<double>(ms) * 1e6;
}

double measureCopyBandwidthGBs(const DeviceSummary& device, std::size_t bytes, int repetitions, FlushMode mode)
{
    KIX_CUDA_CHECK(cudaSetDevice(device.index));
    if (bytes == 0)
        bytes = std::min<std::size_t>(std::size_t(1) << 30, static_cast<std::size_t>(device.memoryBytes / 8));
    repetitions = std::max(repetitions, 1);
    Stream stream;
    DeviceBuffer source(bytes), destination(bytes);
    L2Flush flusher(device.l2Bytes, mode);
    KIX_CUDA_CHECK(cudaMemsetAsync(source.get(), 1, bytes, stream.get()));
    EventTimer timer;
    std::vector<double> ns;
    const int launches = mode == FlushMode::None ? 10 : 1;
    for (int i = 0; i <= repetitions; ++i) { // the first copy warms up and is not kept
        flusher.flush(stream.get());
        timer.start(stream.get());
        for (int k = 0; k < launches; ++k)
            KIX_CUDA_CHECK(
                cudaMemcpyAsync(destination.get(), source.get(), bytes, cudaMemcpyDeviceToDevice, stream.get()));
        const double t = timer.stopNs(stream.get()) / launches;
        if (i > 0)
            ns.push_back(t);
    }
    std::sort(ns.begin(), ns.end());
    const double median = ns.size() % 2 ? ns[ns.size() / 2] : 0.5 * (ns[ns.size() / 2 - 1] + ns[ns.size() / 2]);
    return 2.0 * static_cast<double>(bytes) / median; // bytes per ns = GB/s
}

} // namespace kix::cuda
