// SPDX-License-Identifier: Apache-2.0
#include "model/workload.h"

#include <QHash>

#include <cmath>

namespace kix {

namespace {

int compareText(const QString& a, const QString& b)
{
    return sameText(a, b) ? 0 : QString::compare(a, b);
}

int compareParam(const WorkloadParam& a, const WorkloadParam& b)
{
    if (int c = compareText(a.key, b.key); c != 0)
        return c;
    const bool an = !std::isnan(a.number);
    const bool bn = !std::isnan(b.number);
    if (an && bn) {
        if (a.number < b.number)
            return -1;
        if (a.number > b.number)
            return 1;
        return 0;
    }
    if (an != bn)
        return an ? -1 : 1; // numbers before words
    return compareText(a.value, b.value);
}

} // namespace

int compareWorkloads(const Run& a, const Run& b)
{
    const int n = std::min(a.workload.size(), b.workload.size());
    for (int i = 0; i < n; ++i) {
        if (int c = compareParam(a.workload[i], b.workload[i]); c != 0)
            return c;
    }
    if (a.workload.size() != b.workload.size())
        return a.workload.size() < b.workload.size() ? -1 : 1;
    return compareText(a.dtype, b.dtype);
}

QString ParamVariation::describeFixed() const
{
    QStringList parts;
    for (const KeyValue& kv : fixed)
        parts << (kv.value.isEmpty() ? kv.key : kv.key + QLatin1Char('=') + kv.value); // a flag as itself
    if (!dtypeVaries && !dtype.isEmpty())
        parts << QStringLiteral("dtype=") + dtype;
    return parts.join(QStringLiteral(", "));
}

ParamVariation paramVariation(const RunList& runs)
{
    ParamVariation result;
    if (runs.isEmpty())
        return result;

    // key -> (first value, seen in how many runs, varies)
    struct Seen
    {
        QString value;
        int count = 0;
        bool varies = false;
    };
    QHash<QString, Seen> seen;
    QStringList order;
    const Run& first = *runs.front();
    for (const RunPtr& run : runs) {
        for (const WorkloadParam& param : run->workload) {
            auto it = seen.find(param.key);
            if (it == seen.end()) {
                seen.insert(param.key, Seen { param.value, 1, false });
                order << param.key;
            } else {
                ++it->count;
                if (!it->varies && it->value != param.value)
                    it->varies = true;
            }
        }
        if (!result.dtypeVaries && run->dtype != first.dtype)
            result.dtypeVaries = true;
        if (!result.kernelVaries && run->kernel != first.kernel)
            result.kernelVaries = true;
        if (!result.passVaries && run->pass != first.pass)
            result.passVaries = true;
    }
    for (const QString& key : std::as_const(order)) {
        const Seen& s = seen[key];
        if (s.varies || s.count != runs.size())
            result.varying << key;
        else
            result.fixed.append(KeyValue { key, s.value });
    }
    if (!result.dtypeVaries)
        result.dtype = first.dtype;
    return result;
}

WorkloadLabeler::WorkloadLabeler(const RunList& runs)
    : m_variation(paramVariation(runs))
{
}

QString WorkloadLabeler::label(const Run& run) const
{
    QStringList parts;
    if (m_variation.kernelVaries)
        parts << run.kernel;
    if (m_variation.passVaries) // short: a chart's category holds about eight characters
        parts << (run.pass == QLatin1String("forward")  ? QStringLiteral("fwd")
                : run.pass == QLatin1String("backward") ? QStringLiteral("bwd")
                                                        : run.pass);
    if (m_variation.varying.size() == 1)
        parts << run.param(m_variation.varying.front());
    else if (m_variation.varying.size() > 1)
        parts << paramsLabel(run, m_variation.varying);
    if (m_variation.dtypeVaries)
        parts << run.dtype;
    if (parts.isEmpty())
        return run.workloadSlug;
    return parts.join(QStringLiteral(" · "));
}

QString WorkloadLabeler::title() const
{
    QStringList parts;
    if (m_variation.kernelVaries)
        parts << QStringLiteral("kernel");
    if (m_variation.passVaries)
        parts << QStringLiteral("pass");
    if (!m_variation.varying.isEmpty())
        parts << m_variation.varying.join(QLatin1Char(' '));
    if (m_variation.dtypeVaries)
        parts << QStringLiteral("dtype");
    return parts.isEmpty() ? QStringLiteral("workload") : parts.join(QStringLiteral(" · "));
}

QString paramsLabel(const Run& run, const QStringList& keys)
{
    QStringList parts;
    for (const QString& key : keys) {
        for (const WorkloadParam& param : run.workload) {
            if (param.key == key) {
                // a bare word of the slug (a flag such as "causal", Liger's "sweep_dimT") reads as itself
                parts << (param.value.isEmpty() ? key : key + QLatin1Char('=') + param.value);
                break;
            }
        }
    }
    if (parts.isEmpty())
        return run.workloadSlug;
    return parts.join(QLatin1Char(' '));
}

} // namespace kix
