// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/alignedbuffer.h"
#include "engine/backend.h"

namespace kix {

class ThreadPool;

// One spec's host tensors and the kix-cpu kernels that run on them.
class CpuPreparedBenchmark : public PreparedBenchmark
{
public:
    // Allocates the pass's tensors, fills the inputs from spec.seed (in parallel, which also places the
    // pages), and for the backward pass runs the forward once for mean and rstd.
    CpuPreparedBenchmark(const BenchmarkSpec& spec, ThreadPool& pool, qint64 flushBytes);

    void run() override;
    double timedRun() override;
    void flushCaches() override;
    void readOutput(Output which, qint64 offset, qint64 count, float* destination) override;

private:
    void runForward(void* y);
    void runBackward();
    void fillInput(AlignedBuffer& buffer, int tensor);
    void zero(AlignedBuffer& buffer);

    BenchmarkSpec m_spec;
    ThreadPool& m_pool;
    AlignedBuffer m_x, m_y, m_dy, m_dx; // storage dtype; m_y only for forward and full
    AlignedBuffer m_weight, m_bias, m_mean, m_rstd, m_dweight, m_dbias, m_workspace; // fp32
    AlignedBuffer m_flush; // written before every timed repetition
    unsigned m_flushRound = 0;
};

} // namespace kix
