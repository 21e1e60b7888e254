// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/backend.h"
#include "engine/cpuinfo.h"

namespace kix {

class ThreadPool;

// The CPU backend: one device (the host), the kix-cpu GroupNorm kernels on every core, steady_clock
// timing, and a cache flush that writes a buffer twice the size of the last-level cache.
class CpuBackend : public Backend
{
public:
    // pool: the threads the kernels run on (ThreadPool::shared() when null).
    explicit CpuBackend(ThreadPool* pool = nullptr);

    QString name() const override;
    QVector<DeviceInfo> devices() override;
    QStringList implementations() const override;
    nlohmann::json implementationInfo(const QString& implementation) const override;
    nlohmann::json environment(const DeviceInfo& device) override;
    QString timerName() const override;
    double measureCopyBandwidth(const DeviceInfo& device) override;
    std::unique_ptr<PreparedBenchmark> prepare(const BenchmarkSpec& spec, const DeviceInfo& device) override;

    // Bytes copied by measureCopyBandwidth() (default: 8 x the last-level cache, at least 64 MiB, at most 1 GiB
    // and an eighth of memory; the cache taken as at most 16 MiB a logical CPU). Tests make it small.
    void setCopyBytes(qint64 bytes) { m_copyBytes = bytes; }
    // Bytes written by every cache flush (default: 2 x the last-level cache, at least 8 MiB; the cache taken as at
    // most 16 MiB a logical CPU).
    void setFlushBytes(qint64 bytes) { m_flushBytes = bytes; }

private:
    ThreadPool& m_pool;
    CpuDescription m_cpu;
    qint64 m_copyBytes = 0;
    qint64 m_flushBytes = 0;
};

} // namespace kix
