// SPDX-License-Identifier: Apache-2.0
#include "engine/cpubackend.h"

#include "engine/alignedbuffer.h"
#include "engine/cpupreparedbenchmark.h"
#include "kernels/threadpool.h"
#include "kix/config.h"
#include "model/format/utf8.h"

#include <QSysInfo>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

namespace kix {
namespace {

constexpr qint64 kMiB = qint64(1) << 20;

} // namespace

CpuBackend::CpuBackend(ThreadPool* pool)
    : m_pool(pool ? *pool : ThreadPool::shared())
    , m_cpu(describeCpu())
{
    // The cache the buffers are sized by: at most 16 MiB a logical CPU. A virtual machine can report its host's
    // whole L3 (512 MB to a 2-CPU cloud machine), which no core of it reaches; no CPU has more than about 12 MB of
    // L3 a core. The sized buffers are written on every repetition (the flush) and by the copy measurement.
    const qint64 reported = m_cpu.lastLevelCacheBytes > 0 ? m_cpu.lastLevelCacheBytes : 32 * kMiB;
    const qint64 cache = std::min(reported, 16 * kMiB * std::max(1, m_cpu.logicalCpus));
    m_flushBytes = std::max(2 * cache, 8 * kMiB);
    m_copyBytes = std::min(std::max(8 * cache, 64 * kMiB), 1024 * kMiB); // the first run waits for it
    if (m_cpu.memoryBytes > 0)
        m_copyBytes = std::min(m_copyBytes, m_cpu.memoryBytes / 8);
}

QString CpuBackend::name() const
{
    return QStringLiteral("cpu");
}

QVector<DeviceInfo> CpuBackend::devices()
{
    DeviceInfo d;
    d.backend = name();
    d.id = QStringLiteral("cpu");
    d.name = m_cpu.model;
    d.slug = cpuSlug(m_cpu.model);
    d.vendor = m_cpu.vendor;
    d.architecture = m_cpu.architecture;
    d.memoryBytes = m_cpu.memoryBytes;
    d.computeUnits = m_pool.size();
    d.cacheBytes = m_cpu.lastLevelCacheBytes;
    return { d };
}

QStringList CpuBackend::implementations() const
{
    return { QStringLiteral("kix-cpu") };
}

nlohmann::json CpuBackend::implementationInfo(const QString& implementation) const
{
    return {
        { "name", utf8(implementation) },
        { "backend", "cpu" },
        { "kixVersion", KIX_VERSION },
        { "compiler", utf8(compilerDescription()) },
        { "buildFlags", utf8(kernelBuildFlags()) },
        { "threads", m_pool.size() },
        { "algorithm",
            "one (n, g) row per task on a std::thread pool; two-pass fp32 variance in 16 lanes with float64 chunk "
            "sums; centred affine; backward from per-row sums of w*dy and w*dy*xhat; dweight/dbias from per-(n, c) "
            "partials summed over n in a fixed order" },
    };
}

nlohmann::json CpuBackend::environment(const DeviceInfo& device)
{
    return {
        { "hardware",
            {
                { "vendor", utf8(device.vendor) },
                { "product", utf8(device.name) },
                { "architecture", utf8(device.architecture) },
                { "cores", device.computeUnits },
                { "memoryBytes", device.memoryBytes },
                { "lastLevelCacheBytes", device.cacheBytes },
            } },
        { "software",
            {
                { "compiler", utf8(compilerDescription()) },
                { "buildType", utf8(buildType()) },
                { "buildFlags", utf8(kernelBuildFlags()) },
                { "os", utf8(QSysInfo::prettyProductName()) },
                { "osKernel", utf8(QSysInfo::kernelType() + QLatin1Char(' ') + QSysInfo::kernelVersion()) },
            } },
    };
}

QString CpuBackend::timerName() const
{
    return QStringLiteral("steady_clock");
}

double CpuBackend::measureCopyBandwidth(const DeviceInfo&)
{
    const auto size = static_cast<std::size_t>(std::max<qint64>(m_copyBytes, kMiB));
    AlignedBuffer source(size);
    AlignedBuffer destination(size);
    const auto count = static_cast<std::int64_t>(size);
    // One contiguous slice per thread, as the kernels use every core. The first pass places the pages.
    const std::int64_t slice = (count + m_pool.size() - 1) / m_pool.size();
    auto copy = [&] {
        m_pool.parallelFor(
            count,
            [&](std::int64_t begin, std::int64_t end) {
                std::memcpy(destination.data() + begin, source.data() + begin, static_cast<std::size_t>(end - begin));
            },
            slice);
    };
    m_pool.parallelFor(
        count,
        [&](std::int64_t begin, std::int64_t end) { std::memset(source.data() + begin, 1, std::size_t(end - begin)); },
        slice);
    copy();
    constexpr int kRepetitions = 7;
    std::vector<double> seconds;
    for (int i = 0; i < kRepetitions; ++i) {
        const auto start = std::chrono::steady_clock::now();
        copy();
        seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(seconds.begin(), seconds.end());
    const double median = seconds[seconds.size() / 2];
    return 2.0 * static_cast<double>(size) / median / 1e9; // read + written
}

std::unique_ptr<PreparedBenchmark> CpuBackend::prepare(const BenchmarkSpec& spec, const DeviceInfo&)
{
    const QString impl = spec.implementation.isEmpty() ? implementations().front() : spec.implementation;
    if (!implementations().contains(impl))
        throw BackendError("the CPU backend has no implementation '" + impl.toStdString() + "'");
    return std::make_unique<CpuPreparedBenchmark>(spec, m_pool, m_flushBytes);
}

} // namespace kix
