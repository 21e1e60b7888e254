#include "model/run.h"

#include <QCryptographicHash>
#include <QStringBuilder>

namespace kix {

QString Run::param(const QString& key) const
{
    for (const WorkloadParam& p : workload) {
        if (p.key == key)
            return p.value;
    }
    return {};
}

double Run::paramNumber(const QString& key) const
{
    for (const WorkloadParam& p : workload) {
        if (p.key == key)
            return p.number;
    }
    return std::numeric_limits<double>::quiet_NaN();
}

double Run::statistic(const QString& name) const
{
    if (name == QLatin1String("median"))
        return median;
    if (name == QLatin1String("p20"))
        return p20;
    if (name == QLatin1String("p80"))
        return p80;
    for (const Measurement& m : statistics) {
        if (m.statistic == name)
            return m.value;
    }
    return std::numeric_limits<double>::quiet_NaN();
}

double Run::spread() const
{
    if (!(median > 0) || std::isnan(p20) || std::isnan(p80))
        return std::numeric_limits<double>::quiet_NaN();
    return (p80 - p20) / median;
}

double Run::measurementValue(const QString& metric) const
{
    for (const Measurement& m : measurements) {
        if (m.metric == metric)
            return m.value;
    }
    return std::numeric_limits<double>::quiet_NaN();
}

double Run::bandwidthFraction() const
{
    const double recorded = measurementValue(QStringLiteral("bandwidth_fraction"));
    if (std::isfinite(recorded))
        return recorded;
    const double copy = measurementValue(QStringLiteral("copy_bandwidth"));
    return copy > 0 ? achievedGBs() / copy : std::numeric_limits<double>::quiet_NaN();
}

QString Run::identityKey() const
{
    return externalId % QLatin1Char('|') % protocolDigest % QLatin1Char('|') % workloadDigest % QLatin1Char('|')
        % environmentDigest % QLatin1Char('|') % implementationDigest;
}

QByteArray Run::identityHash() const
{
    return identity.isEmpty() ? QCryptographicHash::hash(identityKey().toUtf8(), QCryptographicHash::Md5) : identity;
}

void Run::finalize()
{
    // The externalId already holds kernel, pass, provider, GPU slug, workload and timestamp.
    const QLatin1Char sep(' ');
    QString text = externalId % sep % gpuProduct % sep % gpuArchitecture % sep % status % sep % source % sep % file;
    if (externalId.isEmpty())
        text += sep % kernel % sep % pass % sep % provider % sep % gpuSlug % sep % workloadSlug;
    if (!isLatency())
        text += QStringLiteral(" memory");
    for (const KeyValue& label : labels)
        text += sep % label.key % QLatin1Char('=') % label.value;
    searchText = text.toLower().toUtf8();
    identity = QByteArray(); // hash what the fields say now, not a stale value
    identity = identityHash();
}

} // namespace kix
