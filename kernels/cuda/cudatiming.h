// SPDX-License-Identifier: Apache-2.0
#pragma once
// Host-side CUDA measurement helpers shared by the engine's CUDA backend and kix_cuda_check: what the
// device is, its clocks through NVML (loaded with dlopen, optional), the L2 flush, event timing and the
// device copy bandwidth. Plain C++ (no Qt, no device code); every CUDA call is checked (throws CudaError).

#include "kernels/cuda/cuda_check.h"

#include <cstdint>
#include <string>

namespace kix::cuda {

// Number of CUDA devices; 0 with `error` set ("cudaErrorNoDevice (no CUDA-capable device is detected)",
// "cudaErrorInsufficientDriver (...)") when the runtime finds none or no driver. Never throws.
int deviceCount(std::string* error = nullptr);

struct DeviceSummary
{
    int index = 0;
    std::string name; // "NVIDIA H200"
    std::string architecture; // "sm_90"
    int major = 0;
    int minor = 0;
    std::int64_t memoryBytes = 0;
    int multiprocessors = 0;
    std::int64_t l2Bytes = 0;
    int maxSmClockKHz = 0; // peak, as the runtime reports it
    int memoryClockKHz = 0; // peak
    int memoryBusBits = 0;
    bool eccEnabled = false; // ECC on DRAM costs bandwidth on boards where it can be switched
    int driverVersion = 0; // 13000 = 13.0
    int runtimeVersion = 0;
    std::string pciBusId; // "0000:3B:00.0", also how NVML finds the same device
};

DeviceSummary queryDevice(int index);

// "13.0" from 13000.
std::string cudaVersionText(int version);

// SM and memory clocks read through NVML (libnvidia-ml.so.1 via dlopen). Absent library or failing
// calls leave `valid` false and `note` saying why; nothing throws.
struct ClockSample
{
    bool valid = false;
    unsigned smMHz = 0;
    unsigned memoryMHz = 0;
    unsigned maxSmMHz = 0; // the board's maximum SM clock
    unsigned long long reasons = 0; // NVML clock event (throttle) reason bits; 0 or 1 (idle) is benign
    std::string note;
};
ClockSample sampleClocks(const std::string& pciBusId);
// NVML's driver version string ("580.159.04"), or empty.
std::string nvmlDriverVersion();

// Warning text when the clocks during a measurement look throttled: the SM clock below 75% of the
// maximum (nvbench's threshold) before or after, or a thermal/power reason bit; empty when fine. A sample
// taken while NVML reports the GPU idle (reason bit 0x1) is not judged by its clock: an idle GPU clocks
// down on purpose. Invalid samples (no NVML) are skipped.
std::string throttleWarning(const ClockSample& before, const ClockSample& after);

// How the L2 is emptied before a timed repetition: one policy for every implementation in a comparison
// (kix's kernels, the copy-bandwidth reference and torch alike), recorded in every run.
enum class FlushMode {
    // cudaMemsetAsync over a buffer of at least twice the L2 (do_bench's `cache.zero_()`, which the seed's
    // torch figures used): the L2 is left holding dirty lines, so the timed kernel pays for writing back
    // what the flush left, as torch's kernels do under do_bench. The default.
    Memset,
    // Read a zeroed buffer of twice the L2 through L2 (a kernel): the previous repetition's dirty lines are
    // written back during the flush and the timed kernel meets a clean L2. An option; faster than Memset
    // by the write-back the timed kernel no longer pays, so never compared with Memset runs unmarked.
    ReadSweep,
    // No flush: `launches` repetitions back to back between one pair of events, the sample is their mean.
    // Each repetition meets the L2 its predecessor left (dirty outputs, some inputs): a lower bound.
    None,
};
const char* flushModeName(FlushMode mode); // "memset", "read", "none"
bool parseFlushMode(const std::string& text, FlushMode& mode);
// What a run records about its flush: "cudaMemsetAsync over 120 MiB (at least twice the L2) before every
// repetition, untimed: ...". `launches`: repetitions per event pair (FlushMode::None), 1 otherwise.
std::string flushDescription(FlushMode mode, std::size_t bytes, int launches = 1);

// Empties the L2 with a buffer twice its size (at least 64 MiB) so that the next kernel reads from DRAM.
// FlushMode::None allocates nothing and flush() does nothing.
class L2Flush
{
public:
    explicit L2Flush(std::int64_t l2Bytes, FlushMode mode = FlushMode::Memset);
    void flush(cudaStream_t stream); // enqueued; outside any timed window
    std::size_t bytes() const { return m_buffer.bytes(); }
    FlushMode mode() const { return m_mode; }
    std::string description(int launches = 1) const { return flushDescription(m_mode, bytes(), launches); }

private:
    FlushMode m_mode;
    DeviceBuffer m_buffer;
    DeviceBuffer m_sink; // where the read sweep would store, were the buffer not zero
    int m_blocks = 0;
};

// A pair of events around work on one stream; stop() waits for the stop event and returns ns.
class EventTimer
{
public:
    void start(cudaStream_t stream);
    double stopNs(cudaStream_t stream);

private:
    Event m_start;
    Event m_stop;
};

// Device-to-device copy bandwidth, GB/s (1e9 B/s) counting bytes read plus bytes written: the median of
// `repetitions` copies of `bytes` (default: 1 GiB, or an eighth of the memory when smaller), each after an
// L2 flush of `mode` (the kernels' flush, so that the reference and the kernels are timed alike; with
// FlushMode::None the copies run back to back, ten per event pair). Allocates
// and frees its buffers; runs on the device `device.index`.
double measureCopyBandwidthGBs(
    const DeviceSummary& device, std::size_t bytes = 0, int repetitions = 10, FlushMode mode = FlushMode::Memset);

} // namespace kix::cuda
