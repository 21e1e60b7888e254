#pragma once
// Backends for the engine tests: the real CPU backend with a small copy and flush (fast under the
// sanitizers), and variants that fail on purpose.

#include "engine/backendregistry.h"
#include "engine/cpubackend.h"

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
