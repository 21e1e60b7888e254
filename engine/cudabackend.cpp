// SPDX-License-Identifier: Apache-2.0
#include "engine/cudabackend.h"

#include "kernels/cuda/cudatiming.h"
#include "kernels/cuda/groupnorm_bench.h"
#include "kix/config.h"
#include "model/format/utf8.h"

#include <QMutexLocker>
#include <QRegularExpression>

namespace kix {
namespace {

// Runs a kernels/cuda call and turns its CudaError into the engine's BackendError (same message: the
// call, its file and line, and the CUDA error).
template<typename F>
auto rethrow(F&& f) -> decltype(f())
{
    try {
        return f();
    } catch (const cuda::CudaError& e) {
        throw BackendError(e.what());
    }
}

cuda::BenchOutput benchOutput(Output which)
{
    switch (which) {
    case Output::Y:
        return cuda::BenchOutput::Y;
    case Output::Mean:
        return cuda::BenchOutput::Mean;
    case Output::Rstd:
        return cuda::BenchOutput::Rstd;
    case Output::Dx:
        return cuda::BenchOutput::Dx;
    case Output::DWeight:
        return cuda::BenchOutput::DWeight;
    case Output::DBias:
        return cuda::BenchOutput::DBias;
    }
    return cuda::BenchOutput::Y;
}

nlohmann::json clockJson(const cuda::ClockSample& c)
{
    if (!c.valid)
        return { { "available", false }, { "note", c.note } };
    return { { "available", true }, { "smMHz", c.smMHz }, { "memoryMHz", c.memoryMHz }, { "maxSmMHz", c.maxSmMHz },
        { "clockEventReasons", c.reasons } };
}

} // namespace

nlohmann::json cudaRunDetails(const cuda::ClockSample& before, const cuda::ClockSample& after, const std::string& plan)
{
    nlohmann::json details = {
        { "clocks", { { "before", clockJson(before) }, { "after", clockJson(after) } } },
        { "launchPlan", plan },
    };
    const std::string warning = cuda::throttleWarning(before, after);
    if (!warning.empty())
        details["warning"] = warning;
    return details;
}

nlohmann::json cudaEnvironment(const cuda::DeviceSummary& d, const std::string& nvmlDriver)
{
    return {
        { "hardware",
            {
                { "vendor", "nvidia" },
                { "product", d.name },
                { "architecture", d.architecture },
                { "multiprocessors", d.multiprocessors },
                { "memoryBytes", d.memoryBytes },
                { "l2CacheBytes", d.l2Bytes },
                { "maxSmClockMHz", d.maxSmClockKHz / 1000 },
                { "memoryClockMHz", d.memoryClockKHz / 1000 },
                { "memoryBusBits", d.memoryBusBits },
                { "eccEnabled", d.eccEnabled },
            } },
        { "software",
            {
                // Without NVML the driver's own version is unknown; its CUDA version is the best there is.
                { "driver", nvmlDriver.empty() ? cuda::cudaVersionText(d.driverVersion) : nvmlDriver },
                { "cudaDriver", cuda::cudaVersionText(d.driverVersion) },
                { "cudaRuntime", cuda::cudaVersionText(d.runtimeVersion) },
                { "nvcc", cuda::nvccVersion() },
                { "cudaArchitectures", cuda::compiledArchitectures() },
            } },
    };
}

CudaPreparedBenchmark::CudaPreparedBenchmark(const BenchmarkSpec& spec, int device)
{
    cuda::BenchConfig config;
    if (!cuda::implFromName(utf8(spec.implementation).c_str(), config.impl))
        throw BackendError("the CUDA backend has no implementation '" + utf8(spec.implementation) + "'");
    config.pass = spec.pass == Pass::Forward ? cuda::BenchPass::Forward
        : spec.pass == Pass::Backward        ? cuda::BenchPass::Backward
                                             : cuda::BenchPass::Full;
    config.dtype = spec.dtype;
    config.shape = spec.shape();
    config.seed = spec.seed;
    config.device = device;
    config.graph = spec.timing.cudaGraph;
    // One flush policy for every implementation in a comparison: do_bench's write (a memset) unless the spec
    // asks for the read sweep.
    config.flush
        = spec.timing.cacheFlush == CacheFlush::ReadSweep ? cuda::FlushMode::ReadSweep : cuda::FlushMode::Memset;
    m_bench = rethrow([&] { return std::make_unique<cuda::GroupNormBench>(config); });
}

CudaPreparedBenchmark::~CudaPreparedBenchmark() = default;

void CudaPreparedBenchmark::run()
{
    m_warmedUp = m_warmedUp || m_timed;
    rethrow([&] { m_bench->run(); });
}

double CudaPreparedBenchmark::timedRun()
{
    // The clocks as measuring begins: at the first timed repetition after the warm-up. The estimate phase
    // before it follows the host-side correctness check, during which the GPU idles and clocks down, so its
    // sample only stands in when there is no warm-up.
    if (!m_before || (m_warmedUp && !m_beforeAfterWarmUp)) {
        m_before = std::make_unique<cuda::ClockSample>(cuda::sampleClocks(m_bench->device().pciBusId));
        m_beforeAfterWarmUp = m_warmedUp;
    }
    m_timed = true;
    return rethrow([&] { return m_bench->timedRunNs(); });
}

void CudaPreparedBenchmark::flushCaches()
{
    rethrow([&] { m_bench->flushCaches(); });
}

void CudaPreparedBenchmark::readOutput(Output which, qint64 offset, qint64 count, float* destination)
{
    rethrow([&] { m_bench->readOutput(benchOutput(which), offset, count, destination); });
}

nlohmann::json CudaPreparedBenchmark::runDetails()
{
    const cuda::ClockSample after = cuda::sampleClocks(m_bench->device().pciBusId);
    nlohmann::json details = cudaRunDetails(m_before ? *m_before : after, after, m_bench->plan());
    details["cacheFlush"] = m_bench->flushDescription(); // the protocol's generic words, made precise
    details["cacheFlushPolicy"] = cuda::flushModeName(m_bench->config().flush); // "memset" or "read"
    return details;
}

QString CudaPreparedBenchmark::plan() const
{
    return QString::fromStdString(m_bench->plan());
}

CudaBackend::CudaBackend() = default;

QString CudaBackend::name() const
{
    return QStringLiteral("cuda");
}

void CudaBackend::discover() const
{
    QMutexLocker lock(&m_mutex);
    if (m_discovered)
        return;
    m_discovered = true;
    std::string error;
    const int count = cuda::deviceCount(&error);
    if (count == 0) {
        m_unavailable = QString::fromStdString(error);
        return;
    }
    for (int i = 0; i < count; ++i) {
        try {
            const cuda::DeviceSummary d = cuda::queryDevice(i);
            DeviceInfo info;
            info.backend = name();
            info.id = QStringLiteral("cuda:%1").arg(i);
            info.index = i;
            info.name = QString::fromStdString(d.name);
            // "NVIDIA H200" -> "nvidia-h200", the GPU slug of externalIds.
            info.slug
                = info.name.toLower().replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
            info.slug = info.slug.remove(QRegularExpression(QStringLiteral("^-+|-+$")));
            info.vendor = QStringLiteral("nvidia");
            info.architecture = QString::fromStdString(d.architecture);
            info.memoryBytes = d.memoryBytes;
            info.computeUnits = d.multiprocessors;
            info.cacheBytes = d.l2Bytes;
            m_devices.push_back(info);
        } catch (const cuda::CudaError& e) { // a device that cannot be queried is left out, and said why
            m_unavailable = QString::fromUtf8(e.what());
        }
    }
}

QVector<DeviceInfo> CudaBackend::devices()
{
    discover();
    return m_devices;
}

QString CudaBackend::unavailableReason() const
{
    discover();
    return m_devices.isEmpty() ? m_unavailable : QString();
}

QStringList CudaBackend::implementations() const
{
    // Every implementation kernels/cuda has, kix-fused (the default) first: `kix bench --impl` and the
    // Benchmark panel list what this returns.
    QStringList names;
    for (cuda::GroupNormImpl impl : cuda::kAllImpls)
        names << QString::fromLatin1(cuda::implName(impl));
    return names;
}

nlohmann::json CudaBackend::implementationInfo(const QString& implementation) const
{
    cuda::GroupNormImpl impl = cuda::kAllImpls[0]; // an empty name is the default, as in prepare()
    if (!implementation.isEmpty() && !cuda::implFromName(utf8(implementation).c_str(), impl))
        throw BackendError("the CUDA backend has no implementation '" + utf8(implementation) + "'");
    return {
        { "name", cuda::implName(impl) },
        { "backend", "cuda" },
        { "kixVersion", KIX_VERSION },
        { "nvcc", cuda::nvccVersion() },
        { "cudaArchitectures", cuda::compiledArchitectures() },
        { "algorithm", cuda::implAlgorithm(impl) },
        { "launchPolicy", cuda::implLaunchPolicy(impl) },
    };
}

nlohmann::json CudaBackend::environment(const DeviceInfo& device)
{
    return cudaEnvironment(rethrow([&] { return cuda::queryDevice(device.index); }), cuda::nvmlDriverVersion());
}

QString CudaBackend::timerName() const
{
    return QStringLiteral("cuda_events");
}

double CudaBackend::measureCopyBandwidth(const DeviceInfo& device)
{
    return rethrow([&] { return cuda::measureCopyBandwidthGBs(cuda::queryDevice(device.index)); });
}

std::unique_ptr<PreparedBenchmark> CudaBackend::prepare(const BenchmarkSpec& spec, const DeviceInfo& device)
{
    const QString impl = spec.implementation.isEmpty() ? implementations().front() : spec.implementation;
    BenchmarkSpec resolved = spec;
    resolved.implementation = impl;
    return std::make_unique<CudaPreparedBenchmark>(resolved, device.index);
}

} // namespace kix
