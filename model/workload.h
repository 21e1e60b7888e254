// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/run.h"

#include <QHashFunctions>
#include <QString>
#include <QStringList>
#include <QVector>

namespace kix {

// Equality that first checks for the same string data: the loader interns repeated strings, so equal kernel,
// provider and parameter names usually share it, and sorting 100k runs compares them millions of times.
inline bool sameText(const QString& a, const QString& b)
{
    return (a.constData() == b.constData() && a.size() == b.size()) || a == b;
}

// What makes runs measurements of the same thing across providers and GPUs: kernel, pass and workload slug (which
// names the dtype). The comparison pairs runs by it and the quantile chart groups them by it.
struct WorkloadKey
{
    QString kernel;
    QString pass;
    QString workload;

    static WorkloadKey of(const Run& run) { return { run.kernel, run.pass, run.workloadSlug }; }
    bool operator==(const WorkloadKey& o) const
    {
        return sameText(workload, o.workload) && sameText(pass, o.pass) && sameText(kernel, o.kernel);
    }
    bool operator!=(const WorkloadKey& o) const { return !(*this == o); }
};

inline size_t qHash(const WorkloadKey& key, size_t seed = 0)
{
    return qHashMulti(seed, key.kernel, key.pass, key.workload);
}

// Orders runs by workload: parameter by parameter, numbers numerically ("channels64" before "channels512"),
// then dtype (< 0, 0, > 0).
int compareWorkloads(const Run& a, const Run& b);

// Which workload parameters (and the dtype) vary among a set of runs, and the values of those that do not.
// A key that some runs lack varies.
struct ParamVariation
{
    QStringList varying; // in first-seen order
    QVector<KeyValue> fixed; // in first-seen order
    bool dtypeVaries = false;
    QString dtype; // the one dtype when it does not vary
    bool kernelVaries = false;
    bool passVaries = false;

    // "batch=128, hidden=512, dtype=fp32"
    QString describeFixed() const;
};
ParamVariation paramVariation(const RunList& runs);

// Labels for runs grouped by workload that show only what varies: "2048" when channels alone varies (the axis
// title says "channels"), "channels=2048 hidden=512" when both do, with the kernel, pass (forward and backward as
// fwd and bwd) and dtype in front when those vary ("bwd · 2048").
class WorkloadLabeler
{
public:
    explicit WorkloadLabeler(const RunList& runs);
    QString label(const Run& run) const;
    QString title() const; // "channels", "pass · channels", "workload" when nothing varies
    const ParamVariation& variation() const { return m_variation; }

private:
    ParamVariation m_variation;
};

// "channels=2048 hidden=512" for the given keys; the run's workload slug when no key is given or none is set.
QString paramsLabel(const Run& run, const QStringList& keys);

} // namespace kix
