// SPDX-License-Identifier: Apache-2.0
#include "model/compare/comparability.h"

#include "model/workload.h"

namespace kix {

namespace {

QStringView shortDigest(const QString& digest)
{
    const qsizetype colon = digest.indexOf(QLatin1Char(':'));
    return QStringView(digest).mid(colon + 1, 12);
}

QString orNone(const QString& s)
{
    return s.isEmpty() ? QStringLiteral("(none)") : s;
}

QString difference(const QString& what, const QString& baseline, const QString& run)
{
    return QStringLiteral("different %1: %2 (baseline) vs %3").arg(what, orNone(baseline), orNone(run));
}

QString paramValue(const Run& run, const QString& key)
{
    for (const WorkloadParam& p : run.workload) {
        if (p.key == key)
            return p.value;
    }
    return {};
}

bool sameWorkload(const Run& b, const Run& r)
{
    if (b.workload.size() != r.workload.size())
        return false;
    for (qsizetype i = 0; i < b.workload.size(); ++i) {
        if (!sameText(b.workload[i].key, r.workload[i].key) || !sameText(b.workload[i].value, r.workload[i].value))
            return false;
    }
    return !b.workload.isEmpty() || sameText(b.workloadSlug, r.workloadSlug);
}

QString workloadDifference(const Run& b, const Run& r)
{
    if (sameWorkload(b, r)) // the common case, without building lists
        return {};
    QStringList keys;
    for (const WorkloadParam& p : b.workload)
        keys << p.key;
    for (const WorkloadParam& p : r.workload) {
        if (!keys.contains(p.key))
            keys << p.key;
    }
    QStringList parts;
    for (const QString& key : std::as_const(keys)) {
        const QString bv = paramValue(b, key);
        const QString rv = paramValue(r, key);
        if (bv != rv)
            parts << QStringLiteral("%1 %2 vs %3").arg(key, orNone(bv), orNone(rv));
    }
    if (parts.isEmpty() && b.workload.isEmpty() && r.workload.isEmpty() && b.workloadSlug != r.workloadSlug)
        parts << QStringLiteral("%1 vs %2").arg(orNone(b.workloadSlug), orNone(r.workloadSlug));
    return parts.join(QStringLiteral("; "));
}

// "same workload digest (b199535cdbfa…)". A comparison of a million runs against a few baselines makes the same
// note a million times: the last one made per digest kind is kept (with its digest, so that the digest's
// characters stay where they are and the same address is the same digest) and shared.
QString sameDigestNote(int kind, QLatin1String name, const QString& digest)
{
    struct Made
    {
        QString digest;
        QString note;
    };
    thread_local Made made[4];
    Made& m = made[kind];
    if (m.digest.isNull() || m.digest.constData() != digest.constData() || m.digest.size() != digest.size()) {
        m.note
            = QStringLiteral("same ") + name + QStringLiteral(" digest (") + shortDigest(digest) + QStringLiteral("…)");
        m.digest = digest;
    }
    return m.note;
}

} // namespace

Comparability assessComparability(const Run& b, const Run& r)
{
    Comparability c;
    if (!sameText(b.kernel, r.kernel))
        c.warnings << difference(QStringLiteral("kernel"), b.kernel, r.kernel);
    if (!sameText(b.gpuDisplayName(), r.gpuDisplayName()))
        c.warnings << difference(QStringLiteral("GPU"), b.gpuDisplayName(), r.gpuDisplayName());
    const QString workload = workloadDifference(b, r);
    if (!workload.isEmpty())
        c.warnings << QStringLiteral("different workload: ") + workload;
    if (!sameText(b.pass, r.pass))
        c.warnings << difference(QStringLiteral("pass"), b.pass, r.pass);
    if (!sameText(b.dtype, r.dtype))
        c.warnings << difference(QStringLiteral("dtype"), b.dtype, r.dtype);
    if (!sameText(b.protocolFamily, r.protocolFamily))
        c.warnings << difference(QStringLiteral("protocol family"), b.protocolFamily, r.protocolFamily);
    if (!sameText(b.metricName(), r.metricName()) || !sameText(b.unit, r.unit))
        c.warnings << difference(QStringLiteral("metric"), b.metricName() + QLatin1Char(' ') + b.unit,
            r.metricName() + QLatin1Char(' ') + r.unit);
    if (!b.links().comparisonKey.isEmpty() && !r.links().comparisonKey.isEmpty()
        && b.links().comparisonKey != r.links().comparisonKey) {
        QStringList parts; // the parts of the strict key a reader can see differ
        if (b.operationDigest != r.operationDigest)
            parts << QStringLiteral("operation");
        if (b.workloadDigest != r.workloadDigest)
            parts << QStringLiteral("workload");
        if (b.protocolDigest != r.protocolDigest)
            parts << QStringLiteral("protocol");
        if (b.environmentDigest != r.environmentDigest)
            parts << QStringLiteral("environment");
        if (b.metricName() != r.metricName() || b.headlineStatistic != r.headlineStatistic || b.unit != r.unit)
            parts << QStringLiteral("metric");
        if (parts.isEmpty())
            parts << QStringLiteral("correctness");
        c.warnings << QStringLiteral("not comparable as the format defines it: the strict comparison keys differ "
                                     "(%1)")
                          .arg(parts.join(QStringLiteral(", ")));
    } else if (b.links().comparisonKey.isEmpty() != r.links().comparisonKey.isEmpty()) {
        c.notes << QStringLiteral("only %1 has the format's strict comparison key: compared at the family level")
                       .arg(b.links().comparisonKey.isEmpty() ? QStringLiteral("the run")
                                                              : QStringLiteral("the baseline"));
    }
    if (b.failed() || r.failed())
        c.warnings << QStringLiteral("a failed run (%1) is evidence, not a time to compare")
                          .arg(b.failed() ? b.status : r.status);

    struct Digest
    {
        QLatin1String name;
        const QString& baseline;
        const QString& run;
        DigestCheck baselineCheck;
        DigestCheck runCheck;
    };
    const Digest digests[] = {
        { QLatin1String("protocol"), b.protocolDigest, r.protocolDigest, b.protocolCheck, r.protocolCheck },
        { QLatin1String("workload"), b.workloadDigest, r.workloadDigest, b.workloadCheck, r.workloadCheck },
        { QLatin1String("environment"), b.environmentDigest, r.environmentDigest, b.environmentCheck,
            r.environmentCheck },
        { QLatin1String("implementation"), b.implementationDigest, r.implementationDigest, b.implementationCheck,
            r.implementationCheck },
    };
    bool unknownImplementation = false;
    for (const Digest& d : digests) {
        const QLatin1String name = d.name;
        if (d.baseline.isEmpty() || d.run.isEmpty())
            continue;
        // A digest that does not match the resource carried beside it says nothing: unknown, never equal.
        if (d.baselineCheck == DigestCheck::Mismatch || d.runCheck == DigestCheck::Mismatch) {
            const QString whose = d.baselineCheck == DigestCheck::Mismatch && d.runCheck == DigestCheck::Mismatch
                ? QStringLiteral("both runs")
                : d.baselineCheck == DigestCheck::Mismatch ? QStringLiteral("the baseline")
                                                           : QStringLiteral("the run");
            c.warnings
                << QStringLiteral("%1 unknown: the %1 that %2 carries does not match its digest").arg(name, whose);
            unknownImplementation = unknownImplementation || name == QLatin1String("implementation");
            continue;
        }
        if (sameText(d.baseline, d.run)) {
            c.notes << sameDigestNote(int(&d - digests), name, d.baseline);
            continue;
        }
        if (name == QLatin1String("workload") && workload.isEmpty() && b.dtype == r.dtype && b.kernel == r.kernel)
            c.warnings << QStringLiteral("different workload digests although the workload reads the same: a "
                                         "setting outside the workload name differs");
        else if (name == QLatin1String("protocol") && b.protocolFamily == r.protocolFamily && b.pass == r.pass)
            c.notes << QStringLiteral("different protocol digests within the family %1").arg(orNone(r.protocolFamily));
        else if (name == QLatin1String("environment") && b.gpuDisplayName() == r.gpuDisplayName())
            c.notes << QStringLiteral("different environment digests on the same GPU model (host or software differ)");
    }
    if (!unknownImplementation && !b.implementationDigest.isEmpty() && b.implementationDigest == r.implementationDigest
        && b.provider != r.provider)
        c.notes << QStringLiteral("the providers differ but the implementation digest is the same");
    return c;
}

} // namespace kix
