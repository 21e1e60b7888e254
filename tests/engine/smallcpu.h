// SPDX-License-Identifier: Apache-2.0
#pragma once
// Backends for the engine tests: the real CPU backend with a small copy and flush (fast under the
// sanitizers), and variants that fail on purpose.

#include "engine/backendregistry.h"
#include "engine/cpubackend.h"
#include "engine/timingharness.h"

#include <functional>
#include <memory>
#include <vector>

namespace kix::test {

inline std::unique_ptr<CpuBackend> smallCpuBackend()
{
    auto backend = std::make_unique<CpuBackend>();
    backend->setCopyBytes(2 << 20);
    backend->setFlushBytes(256 << 10);
    return backend;
}

inline std::unique_ptr<BackendRegistry> smallCpuRegistry(std::unique_ptr<Backend> backend = smallCpuBackend())
{
    std::vector<std::unique_ptr<Backend>> backends;
    backends.push_back(std::move(backend));
    return std::make_unique<BackendRegistry>(std::move(backends));
}

// Spoils y and dx on their way back, so the correctness check fails.
class WrongOutputs : public PreparedBenchmark
{
public:
    explicit WrongOutputs(std::unique_ptr<PreparedBenchmark> inner)
        : m_inner(std::move(inner))
    {
    }
    void run() override { m_inner->run(); }
    double timedRun() override { return m_inner->timedRun(); }
    void flushCaches() override { m_inner->flushCaches(); }
    void readOutput(Output which, qint64 offset, qint64 count, float* destination) override
    {
        m_inner->readOutput(which, offset, count, destination);
        if (which == Output::Y || which == Output::Dx)
            for (qint64 i = 0; i < count; ++i)
                destination[i] *= 1.5f;
    }

private:
    std::unique_ptr<PreparedBenchmark> m_inner;
};

class WrongCpuBackend : public CpuBackend
{
public:
    WrongCpuBackend()
    {
        setCopyBytes(2 << 20);
        setFlushBytes(256 << 10);
    }
    std::unique_ptr<PreparedBenchmark> prepare(const BenchmarkSpec& spec, const DeviceInfo& device) override
    {
        return std::make_unique<WrongOutputs>(CpuBackend::prepare(spec, device));
    }
};

class ThrowingCpuBackend : public CpuBackend
{
public:
    ThrowingCpuBackend() { setCopyBytes(2 << 20); }
    std::unique_ptr<PreparedBenchmark> prepare(const BenchmarkSpec&, const DeviceInfo&) override
    {
        throw BackendError("cudaMalloc(&x, 536870912) failed: out of memory (simulated)");
    }
};

// Reports run details the way the CUDA backend reports its clocks: a warning, and how many timed repetitions
// had run when the session asked (it must ask after the timing loop, not before).
class Detailed : public PreparedBenchmark
{
public:
    explicit Detailed(std::unique_ptr<PreparedBenchmark> inner)
        : m_inner(std::move(inner))
    {
    }
    void run() override { m_inner->run(); }
    double timedRun() override
    {
        ++m_timed;
        return m_inner->timedRun();
    }
    void flushCaches() override { m_inner->flushCaches(); }
    void readOutput(Output which, qint64 offset, qint64 count, float* destination) override
    {
        m_inner->readOutput(which, offset, count, destination);
    }
    nlohmann::json runDetails() override
    {
        return { { "timedBeforeDetails", m_timed },
            { "warning", "SM clock 900 MHz after the repetitions (simulated)" } };
    }

private:
    std::unique_ptr<PreparedBenchmark> m_inner;
    int m_timed = 0;
};

class DetailedCpuBackend : public CpuBackend
{
public:
    DetailedCpuBackend()
    {
        setCopyBytes(2 << 20);
        setFlushBytes(256 << 10);
    }
    std::unique_ptr<PreparedBenchmark> prepare(const BenchmarkSpec& spec, const DeviceInfo& device) override
    {
        return std::make_unique<Detailed>(CpuBackend::prepare(spec, device));
    }
};

// The CPU backend under the name "cuda" (device "cuda:0"): CUDA-only options such as --cuda-graph go through
// the CLI, the session and the document without a GPU. Remembers the last spec it prepared.
class CpuAsCudaBackend : public CpuBackend
{
public:
    CpuAsCudaBackend()
    {
        setCopyBytes(2 << 20);
        setFlushBytes(256 << 10);
    }
    QString name() const override { return QStringLiteral("cuda"); }
    QVector<DeviceInfo> devices() override
    {
        QVector<DeviceInfo> found = CpuBackend::devices();
        for (DeviceInfo& d : found) {
            d.backend = name();
            d.id = QStringLiteral("cuda:0");
        }
        return found;
    }
    std::unique_ptr<PreparedBenchmark> prepare(const BenchmarkSpec& spec, const DeviceInfo& device) override
    {
        lastSpec = spec;
        return CpuBackend::prepare(spec, device);
    }
    BenchmarkSpec lastSpec;
};

// A GPU backend on a machine where it finds no device, and says why (or not, when `reason` is empty).
class NoDeviceBackend : public Backend
{
public:
    explicit NoDeviceBackend(QString reason)
        : m_reason(std::move(reason))
    {
    }
    QString name() const override { return QStringLiteral("cuda"); }
    QVector<DeviceInfo> devices() override { return {}; }
    QString unavailableReason() const override { return m_reason; }
    QStringList implementations() const override { return { QStringLiteral("kix-fused") }; }
    nlohmann::json implementationInfo(const QString&) const override { return nlohmann::json::object(); }
    nlohmann::json environment(const DeviceInfo&) override { return nlohmann::json::object(); }
    QString timerName() const override { return QStringLiteral("cuda_events"); }
    double measureCopyBandwidth(const DeviceInfo&) override { throw BackendError("no device"); }
    std::unique_ptr<PreparedBenchmark> prepare(const BenchmarkSpec&, const DeviceInfo&) override
    {
        throw BackendError("no device");
    }

private:
    QString m_reason;
};

// Calls `trigger` (a cancel, in the tests) once, at one stage of the first spec it prepares: "correctness" (the
// check reads the outputs), "warm-up" (the first untimed repetition after the check), "timing" (the first kept
// repetition, after the estimate) or "writing" (the run is measured and its document is about to be built and
// written).
class StagedCpuBackend : public CpuBackend
{
public:
    StagedCpuBackend(QString stage, std::function<void()> trigger)
        : m_stage(std::move(stage))
        , m_trigger(std::move(trigger))
    {
        setCopyBytes(2 << 20);
        setFlushBytes(256 << 10);
    }
    std::unique_ptr<PreparedBenchmark> prepare(const BenchmarkSpec& spec, const DeviceInfo& device) override
    {
        auto inner = CpuBackend::prepare(spec, device);
        if (m_fired)
            return inner;
        return std::make_unique<Staged>(std::move(inner), *this);
    }
    bool fired() const { return m_fired; }

private:
    class Staged : public PreparedBenchmark
    {
    public:
        Staged(std::unique_ptr<PreparedBenchmark> inner, StagedCpuBackend& owner)
            : m_inner(std::move(inner))
            , m_owner(owner)
        {
        }
        void run() override
        {
            if (++m_runs == 2)
                m_owner.fire(QStringLiteral("warm-up"));
            m_inner->run();
        }
        double timedRun() override
        {
            if (++m_timed == kEstimateRepetitions + 1)
                m_owner.fire(QStringLiteral("timing"));
            return m_inner->timedRun();
        }
        void flushCaches() override { m_inner->flushCaches(); }
        void readOutput(Output which, qint64 offset, qint64 count, float* destination) override
        {
            m_owner.fire(QStringLiteral("correctness"));
            m_inner->readOutput(which, offset, count, destination);
        }
        nlohmann::json runDetails() override
        {
            m_owner.fire(QStringLiteral("writing"));
            return m_inner->runDetails();
        }

    private:
        std::unique_ptr<PreparedBenchmark> m_inner;
        StagedCpuBackend& m_owner;
        int m_runs = 0;
        int m_timed = 0;
    };
    void fire(const QString& stage)
    {
        if (stage == m_stage && !m_fired) {
            m_fired = true;
            m_trigger();
        }
    }

    QString m_stage;
    std::function<void()> m_trigger;
    bool m_fired = false;
};

// A spec that runs in well under a millisecond per repetition.
inline BenchmarkSpec tinySpec(Pass pass = Pass::Forward, DType dtype = DType::F32)
{
    BenchmarkSpec spec;
    spec.pass = pass;
    spec.dtype = dtype;
    spec.batch = 2;
    spec.channels = 8;
    spec.hidden = 16;
    spec.channelsPerGroup = 2;
    spec.device = QStringLiteral("cpu");
    spec.timing.warmupMs = 0.2;
    spec.timing.repMs = 0.5;
    spec.timing.maxSamples = 200;
    return spec;
}

} // namespace kix::test
