#pragma once

#include "engine/backend.h"

#include <QMutex>

#include <memory>

namespace kix::cuda {
class GroupNormBench;
struct ClockSample;
} // namespace kix::cuda

namespace kix {

// One spec on one CUDA device (kix::cuda::GroupNormBench behind the engine's interface).
class CudaPreparedBenchmark : public PreparedBenchmark
{
public:
    CudaPreparedBenchmark(const BenchmarkSpec& spec, int device, bool graphReplay);
    ~CudaPreparedBenchmark() override;

    void run() override;
    double timedRun() override;
    void flushCaches() override;
    void readOutput(Output which, qint64 offset, qint64 count, float* destination) override;

    // The SM clock read through NVML at the first timed repetition and now, and a warning when it looks
    // throttled: {"before": {...}, "after": {...}, "warning": "..."}; for the run document.
    nlohmann::json clockReport();
    // The fused kernels' launch plan for this shape.
    QString plan() const;

private:
    std::unique_ptr<cuda::GroupNormBench> m_bench;
    std::unique_ptr<cuda::ClockSample> m_before;
};

// The CUDA backend: one DeviceInfo per CUDA device, the kix-fused and kix-reference GroupNorm kernels
// (kernels/cuda), CUDA-event timing, an L2 flush (memset of twice the L2) before every timed repetition,
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
    QString unavailableReason();

    // Replays each repetition as one CUDA graph launch instead of one launch per kernel. Default: on when
    // the environment variable KIX_CUDA_GRAPH is 1. Recorded in implementationInfo ("launch").
    void setGraphReplay(bool on) { m_graphReplay = on; }
    bool graphReplay() const { return m_graphReplay; }

private:
    void discover();

    QMutex m_mutex; // discovery runs once, from whichever thread asks first
    bool m_discovered = false;
    QVector<DeviceInfo> m_devices;
    QString m_unavailable;
    bool m_graphReplay = false;
};

} // namespace kix
