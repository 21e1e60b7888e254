// SPDX-License-Identifier: Apache-2.0
#include "engine/benchmarkspec.h"

#include <cmath>
#include <limits>

namespace kix {

gn::Shape BenchmarkSpec::shape() const
{
    gn::Shape s;
    s.batch = batch;
    s.channels = channels;
    s.hidden = hidden;
    s.channelsPerGroup = channelsPerGroup;
    s.eps = static_cast<float>(eps);
    return s;
}

QString passName(Pass pass)
{
    switch (pass) {
    case Pass::Forward:
        return QStringLiteral("forward");
    case Pass::Backward:
        return QStringLiteral("backward");
    case Pass::Full:
        return QStringLiteral("full");
    }
    return {};
}

bool parsePass(const QString& text, Pass& pass)
{
    for (const Pass p : { Pass::Forward, Pass::Backward, Pass::Full })
        if (text.compare(passName(p), Qt::CaseInsensitive) == 0) {
            pass = p;
            return true;
        }
    return false;
}

QString dtypeName(DType dtype)
{
    switch (dtype) {
    case DType::F32:
        return QStringLiteral("fp32");
    case DType::BF16:
        return QStringLiteral("bf16");
    case DType::F16:
        return QStringLiteral("fp16");
    }
    return {};
}

bool parseDType(const QString& text, DType& dtype)
{
    for (const DType d : { DType::F32, DType::BF16, DType::F16 })
        if (text.compare(dtypeName(d), Qt::CaseInsensitive) == 0) {
            dtype = d;
            return true;
        }
    return false;
}

QString BenchmarkSpec::workloadSlug() const
{
    return QStringLiteral("batch%1-channels%2-channels_per_group%3-hidden%4-%5")
        .arg(batch)
        .arg(channels)
        .arg(channelsPerGroup)
        .arg(hidden)
        .arg(dtypeName(dtype));
}

QString cacheFlushName(CacheFlush flush)
{
    return flush == CacheFlush::ReadSweep ? QStringLiteral("read_sweep") : QStringLiteral("write");
}

qint64 BenchmarkSpec::minimumBytes() const
{
    const qint64 tensor = elements() * gn::dtypeSize(dtype); // one M x C x H tensor
    const qint64 parameter = channels * qint64(sizeof(float)); // weight, bias, dweight or dbias
    const qint64 statistic = rows() * qint64(sizeof(float)); // mean or rstd
    switch (pass) {
    case Pass::Forward: // read x, weight, bias; write y, mean, rstd
        return 2 * tensor + 2 * parameter + 2 * statistic;
    case Pass::Backward: // read x, dy, weight, mean, rstd; write dx, dweight, dbias
        return 3 * tensor + 3 * parameter + 2 * statistic;
    case Pass::Full: // the forward's, then the backward's (which reads x, mean and rstd again)
        return 5 * tensor + 5 * parameter + 4 * statistic;
    }
    return 0;
}

qint64 BenchmarkSpec::footprintBytes() const
{
    const qint64 tensor = elements() * gn::dtypeSize(dtype);
    const qint64 parameter = channels * qint64(sizeof(float));
    const qint64 statistic = rows() * qint64(sizeof(float));
    const qint64 partials = 2 * batch * channels * qint64(sizeof(float)); // backward's per-(n, c) sums
    switch (pass) {
    case Pass::Forward: // x, y, weight, bias, mean, rstd
        return 2 * tensor + 2 * parameter + 2 * statistic;
    case Pass::Backward: // x, dy, dx, weight, mean, rstd, dweight, dbias, partials
        return 3 * tensor + 3 * parameter + 2 * statistic + partials;
    case Pass::Full:
        return 4 * tensor + 4 * parameter + 2 * statistic + partials;
    }
    return 0;
}

namespace {

QString gib(qint64 bytes)
{
    return QString::number(static_cast<double>(bytes) / double(1 << 30), 'f', 2) + QStringLiteral(" GiB");
}

} // namespace

QString validateSpec(const BenchmarkSpec& spec, const DeviceInfo* device)
{
    if (spec.op != QStringLiteral("group_norm"))
        return QStringLiteral("unknown op '%1' (supported: group_norm)").arg(spec.op);
    const struct
    {
        const char* name;
        qint64 value;
    } sizes[] = { { "batch (M)", spec.batch }, { "channels (C)", spec.channels }, { "hidden (H)", spec.hidden },
        { "channels_per_group", spec.channelsPerGroup } };
    for (const auto& size : sizes)
        if (size.value <= 0)
            return QStringLiteral("%1 must be positive, got %2").arg(QLatin1String(size.name)).arg(size.value);
    if (spec.channels % spec.channelsPerGroup != 0)
        return QStringLiteral("channels (%1) is not divisible by channels_per_group (%2)")
            .arg(spec.channels)
            .arg(spec.channelsPerGroup);
    // Sizes whose byte counts would overflow 64 bits are certainly too large for any device.
    const qint64 limit = std::numeric_limits<qint64>::max() / 64;
    if (spec.batch > limit / spec.channels || spec.batch * spec.channels > limit / spec.hidden)
        return QStringLiteral("shape %1 x %2 x %3 is too large").arg(spec.batch).arg(spec.channels).arg(spec.hidden);
    if (spec.rowLength() > std::numeric_limits<int>::max())
        return QStringLiteral("a group of %1 elements is too large (at most %2)")
            .arg(spec.rowLength())
            .arg(std::numeric_limits<int>::max());
    if (!(spec.eps > 0) || !std::isfinite(spec.eps))
        return QStringLiteral("eps must be a positive number, got %1").arg(spec.eps);
    const TimingSettings& t = spec.timing;
    if (!(t.warmupMs >= 0) || !std::isfinite(t.warmupMs))
        return QStringLiteral("warm-up time must be zero or more ms, got %1").arg(t.warmupMs);
    if (!(t.repMs > 0) || !std::isfinite(t.repMs))
        return QStringLiteral("repetition time must be more than 0 ms, got %1").arg(t.repMs);
    if (t.noiseStop && (!(t.noiseTarget > 0) || !(t.maxMs >= t.repMs)))
        return QStringLiteral(
            "noise-based stop needs a positive target and a time cap of at least the repetition time");
    if (t.minSamples < 1 || t.maxSamples < t.minSamples)
        return QStringLiteral("sample limits must satisfy 1 <= minimum (%1) <= maximum (%2)")
            .arg(t.minSamples)
            .arg(t.maxSamples);
    if (device) {
        if (!spec.device.isEmpty() && spec.device != device->id)
            return QStringLiteral("spec is for device %1, not %2").arg(spec.device, device->id);
        if (t.cudaGraph && device->backend != QStringLiteral("cuda"))
            return QStringLiteral("CUDA-graph replay needs a CUDA device, not %1").arg(device->id);
        if (device->memoryBytes > 0 && spec.footprintBytes() > device->memoryBytes)
            return QStringLiteral("the tensors of %1 (%2) do not fit in the memory of %3 (%4)")
                .arg(spec.workloadSlug(), gib(spec.footprintBytes()), device->id, gib(device->memoryBytes));
    }
    return {};
}

} // namespace kix
