// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/backend.h"

#include <QMutex>

#include <memory>
#include <string>

namespace kix::cuda {
class GroupNormBench;
struct ClockSample;
struct DeviceSummary;
} // namespace kix::cuda

namespace kix {

// What a CUDA run adds to its document (PreparedBenchmark::runDetails): {"clocks": {"before": {...},
// "after": {...}}, "launchPlan": "...", "warning": "..."}, the warning only when the clocks look throttled
// (cuda::throttleWarning). Pure, so that it is tested without a GPU.
nlohmann::json cudaRunDetails(const cuda::ClockSample& before, const cuda::ClockSample& after, const std::string& plan);

// ExecutionEnvironment.spec of a CUDA device: the GPU (name, sm_XX, SMs, memory, L2, peak clocks, bus width,
// ECC) and the software (driver, CUDA driver and runtime versions, nvcc, compiled architectures).
// `nvmlDriver` is NVML's driver version ("580.159.04"), empty when NVML is missing. Pure, tested without a GPU.
nlohmann::json cudaEnvironment(const cuda::DeviceSummary& device, const std::string& nvmlDriver);

// One spec on one CUDA device (kix::cuda::GroupNormBench behind the engine's interface).
class CudaPreparedBenchmark : public PreparedBenchmark
{
public:
    // spec.timing.cudaGraph: capture the pass once and replay it as a CUDA graph.
    CudaPreparedBenchmark(const BenchmarkSpec& spec, int device);
    ~CudaPreparedBenchmark() override;

    void run() override;
    double timedRun() override;
    void flushCaches() override;
    void readOutput(Output which, qint64 offset, qint64 count, float* destination) override;

    // The SM clock read through NVML as measuring began and now (right after the timing loop), a warning
    // when it looks throttled, and the launch plan: cudaRunDetails().
    nlohmann::json runDetails() override;
    // The fused kernels' launch plan for this shape.
    QString plan() const;

private:
    std::unique_ptr<cuda::GroupNormBench> m_bench;
    std::unique_ptr<cuda::ClockSample> m_before;
    bool m_timed = false; // a timed repetition has run (the harness's estimate phase)
    bool m_warmedUp = false; // run() came after a timed repetition: the harness's warm-up
    bool m_beforeAfterWarmUp = false; // m_before was sampled after the warm-up
};

// The CUDA backend: one DeviceInfo per CUDA device, every GroupNorm implementation of kernels/cuda
// (cuda::kAllImpls), CUDA-event timing, an L2 flush before every timed repetition (do_bench's memset of twice the L2
// by default, the read sweep when TimingSettings::cacheFlush asks),
// NVML clock readings (dlopen, optional). Without a driver or device, devices() is empty and
// unavailableReason() names the CUDA error.
class CudaBackend : public Backend
{
public:
    CudaBackend();

    QString name() const override;
    QVector<DeviceInfo> devices() override;
    QStringList implementations() const override;
    nlohmann::json implementationInfo(const QString& implementation) const override;
    nlohmann::json environment(const DeviceInfo& device) override;
    QString timerName() const override;
    double measureCopyBandwidth(const DeviceInfo& device) override;
    std::unique_ptr<PreparedBenchmark> prepare(const BenchmarkSpec& spec, const DeviceInfo& device) override;

    // Why devices() is empty: "cudaErrorNoDevice (no CUDA-capable device is detected)"; empty otherwise.
    QString unavailableReason() const override;

private:
    void discover() const;

    // Discovery runs once, from whichever thread asks first; what it found is a cache, hence mutable.
    mutable QMutex m_mutex;
    mutable bool m_discovered = false;
    mutable QVector<DeviceInfo> m_devices;
    mutable QString m_unavailable;
};

} // namespace kix
