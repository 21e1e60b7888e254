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

// How the L2 is emptied before a timed repetition.
enum class FlushMode {
    // Read a zeroed buffer of twice the L2 through L2 (a kernel): the previous repetition's dirty lines are
    // written back during the flush, and the L2 is left holding clean lines, so the timed kernel pays for
    // no write-back it did not cause. The default.
    ReadSweep,
    // cudaMemsetAsync over the buffer (kix's flush before issue 11, and do_bench's): it leaves up to a
    // whole L2 of dirty lines that the timed kernel then writes back. Kept as a control.
    Memset,
};
const char* flushModeName(FlushMode mode); // "read", "memset"
bool parseFlushMode(const std::string& text, FlushMode& mode);
// What a run records about its flush: "read sweep of 120 MiB (2 x L2) through L2, untimed".
std::string flushDescription(FlushMode mode, std::size_t bytes);

// Empties the L2 with a buffer twice its size (at least 64 MiB) so that the next kernel reads from DRAM.
class L2Flush
{
public:
    explicit L2Flush(std::int64_t l2Bytes, FlushMode mode = FlushMode::ReadSweep);
    void flush(cudaStream_t stream); // enqueued; outside any timed window
    std::size_t bytes() const { return m_buffer.bytes(); }
    FlushMode mode() const { return m_mode; }
    std::string description() const { return flushDescription(m_mode, bytes()); }

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
// L2 flush of `mode` (the kernels' flush, so that the reference and the kernels are timed alike). Allocates
// and frees its buffers; runs on the device `device.index`.
double measureCopyBandwidthGBs(
    const DeviceSummary& device, std::size_t bytes = 0, int repetitions = 10, FlushMode mode = FlushMode::ReadSweep);

} // namespace kix::cuda
