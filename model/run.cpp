// SPDX-License-Identifier: Apache-2.0
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
    if (name == headlineStatistic || (name == QLatin1String("median") && headlineStatistic.isEmpty()))
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
    if (!runDigest.isEmpty())
        return runDigest;
    return externalId % QLatin1Char('|') % protocolDigest % QLatin1Char('|') % workloadDigest % QLatin1Char('|')
        % environmentDigest % QLatin1Char('|') % implementationDigest % QLatin1Char('|') % status % QLatin1Char('|')
        % observedAt.toString(Qt::ISODateWithMs) % QLatin1Char('|') % QString::number(median, 'g', 17)
        % QLatin1Char('|') % metricName();
}

QString Run::metricName() const
{
    switch (metric) {
    case Metric::Latency:
        return QStringLiteral("latency");
    case Metric::Memory:
        return QStringLiteral("memory");
    case Metric::Other:
        break;
    }
    return headlineMetric;
}

bool Run::isFailureStatus(const QString& s)
{
    static const char* const failures[] = { "incorrect_shape", "incorrect_dtype", "incorrect_numerical",
        "compile_error", "runtime_error", "timeout", "resource_exceeded", "invalid_reference", "policy_violation",
        "suspected_reward_hack", "incomplete_evidence", "revoked", "failed" };
    for (const char* f : failures) {
        if (s == QLatin1String(f))
            return true;
    }
    return false;
}

bool Run::failed() const
{
    return isFailureStatus(status);
}

QString Run::describe(DigestCheck check)
{
    switch (check) {
    case DigestCheck::NotCarried:
        return QStringLiteral("not carried: the document names it by digest only");
    case DigestCheck::Verified:
        return QStringLiteral("verified");
    case DigestCheck::Mismatch:
        return QStringLiteral("does not match: the resource was changed after the run was written");
    case DigestCheck::VerifiedKix010:
        return QStringLiteral("matches kix 0.1.0's own digest, not the format's (sha256 of JCS of "
                              "{apiVersion, kind, spec})");
    }
    return {};
}

QByteArray Run::identityHash() const
{
    return identity.isEmpty() ? QCryptographicHash::hash(identityKey().toUtf8(), QCryptographicHash::Md5) : identity;
}

namespace {

// Appends the lower-case UTF-8 of s: ASCII directly, anything else through QString::toLower.
void appendLower(QByteArray& out, const QString& s)
{
    const char16_t* p = reinterpret_cast<const char16_t*>(s.constData());
    const qsizetype n = s.size();
    for (qsizetype i = 0; i < n; ++i) {
        if (p[i] >= 0x80) {
            out += s.toLower().toUtf8();
            return;
        }
    }
    const qsizetype at = out.size();
    out.resize(at + n);
    char* o = out.data() + at;
    for (qsizetype i = 0; i < n; ++i) {
        const char c = static_cast<char>(p[i]);
        o[i] = c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c;
    }
}

} // namespace

void Run::finalize()
{
    // The externalId already holds kernel, pass, provider, GPU slug, workload and timestamp.
    QByteArray text;
    text.reserve(externalId.size() + gpuProduct.size() + file.size() + 64 + 32 * labels.size());
    auto add = [&](const QString& s) {
        if (!text.isEmpty())
            text += ' ';
        appendLower(text, s);
    };
    for (const QString* s : { &externalId, &gpuProduct, &gpuArchitecture, &status, &source, &file })
        add(*s);
    // The names shown in the table and Details, whatever the externalId says: a run whose kernel, implementation
    // or workload come from its linked resources (not a Liger slug) is found by them too.
    for (const QString* s : { &kernel, &pass, &provider, &gpuSlug, &workloadSlug, &name, &title, &benchmark })
        if (!s->isEmpty() && !externalId.contains(*s, Qt::CaseInsensitive))
            add(*s);
    if (!isLatency()) {
        text += ' ';
        appendLower(text, metricName());
    }
    if (failed())
        text += " failed";
    for (const KeyValue& label : labels) {
        add(label.key);
        text += '=';
        appendLower(text, label.value);
    }
    text.squeeze();
    searchText = text;
    identity = QByteArray(); // hash what the fields say now, not a stale value
    identity = identityHash();
}

} // namespace kix
