// SPDX-License-Identifier: Apache-2.0
#pragma once
// One GroupNorm benchmark configuration on one CUDA device, ready to repeat: device tensors (inputs
// generated on the device from the seed), workspaces, the L2 flush buffer, a stream, events and, in graph
// mode, the captured pass. The engine's CUDA backend and kix_cuda_check both drive it. Plain C++;
// every CUDA failure throws CudaError.

#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/cudatiming.h"
#include "kernels/cuda/groupnorm_cuda.h"

#include <cstdint>
#include <memory>
#include <string>

namespace kix::cuda {

enum class BenchPass { Forward, Backward, Full };
enum class BenchOutput { Y, Mean, Rstd, Dx, DWeight, DBias };

struct BenchConfig
{
    GroupNormImpl impl = GroupNormImpl::Fused;
    BenchPass pass = BenchPass::Forward;
    gn::DType dtype = gn::DType::F32;
    GroupNormShape shape;
    std::uint64_t seed = 20260228;
    int device = 0;
    bool graph = false; // replay the pass as a CUDA graph (one launch instead of one per kernel)
    // How flushCaches() empties the L2: do_bench's memset by default, for kix's kernels and torch alike.
    FlushMode flush = FlushMode::Memset;
    // Repetitions between one pair of events in timedRunNs (FlushMode::None: back to back; the sample is
    // their mean). 1 for the flushed policies.
    int launches = 1;
};

class GroupNormBench
{
public:
    explicit GroupNormBench(const BenchConfig& config);
    ~GroupNormBench();
    GroupNormBench(const GroupNormBench&) = delete;
    GroupNormBench& operator=(const GroupNormBench&) = delete;

    // One repetition of the pass (Backward: the backward kernels only; Full: forward then backward),
    // synchronised.
    void run();
    // config().launches repetitions between a pair of events on the benchmark's stream; ns per repetition.
    double timedRunNs();
    // Empties the L2 on the stream (before the start event of the next timedRunNs), as config().flush says.
    void flushCaches();
    // "a read sweep of 120 MiB ... untimed: the L2 is left clean" (what a run records).
    std::string flushDescription() const;
    // Fills every output of the pass with NaN bytes (synchronised), so that an element a kernel forgets shows.
    void poisonOutputs();
    // Elements [offset, offset + count) of an output of the last run, converted to float.
    void readOutput(BenchOutput which, std::int64_t offset, std::int64_t count, float* destination);

    const DeviceSummary& device() const { return m_device; }
    const BenchConfig& config() const { return m_config; }
    // The fused implementation's launch plan for this shape, or "reference kernels".
    std::string plan() const;

private:
    void enqueue(); // the pass's kernels on m_stream
    void enqueueForward();
    void enqueueBackward();

    int m_deviceIndex; // first member: cudaSetDevice runs before the stream and events below are created
    BenchConfig m_config;
    DeviceSummary m_device;
    Stream m_stream;
    EventTimer m_timer;
    std::unique_ptr<L2Flush> m_flush;
    DeviceBuffer m_x, m_dy, m_y, m_dx, m_weight, m_bias, m_mean, m_rstd, m_dweight, m_dbias;
    DeviceBuffer m_forwardWork, m_backwardWork;
    GraphExec m_graph;
};

// "forward", "backward", "full"; parse returns false for anything else.
const char* benchPassName(BenchPass pass);
bool parseBenchPass(const std::string& text, BenchPass& pass);
bool parseDType(const std::string& text, gn::DType& dtype); // "fp32", "bf16", "fp16"

// Bytes a pass must move at least (each input read once per pass, each output written once), as the
// engine's BenchmarkSpec::minimumBytes counts them. Full = Forward + Backward: 5 tensors (x, y; x, dy, dx),
// since the backward must read x again (the forward's registers do not survive the kernel boundary).
std::int64_t minimumBytes(BenchPass pass, gn::DType dtype, const GroupNormShape& shape);

} // namespace kix::cuda
