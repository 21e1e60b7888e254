// SPDX-License-Identifier: Apache-2.0
#include "model/chartdata/distinctworkloads.h"

#include "model/workload.h"

#include <QSet>

namespace kix {

namespace {

bool sameWorkloadText(const Run& a, const Run& b)
{
    if (!sameText(a.kernel, b.kernel) || !sameText(a.pass, b.pass) || !sameText(a.dtype, b.dtype)
        || a.workload.size() != b.workload.size())
        return false;
    for (qsizetype i = 0; i < a.workload.size(); ++i) {
        if (!sameText(a.workload[i].key, b.workload[i].key) || !sameText(a.workload[i].value, b.workload[i].value))
            return false;
    }
    return true;
}

QString workloadText(const Run& run)
{
    QString out = run.kernel + QChar(0x1f) + run.pass + QChar(0x1f) + run.dtype;
    for (const WorkloadParam& p : run.workload)
        out += QChar(0x1e) + p.key + QChar(0x1f) + p.value;
    return out;
}

} // namespace

RunList distinctWorkloads(const RunList& runs)
{
    RunList out;
    QSet<QString> seen;
    const Run* previous = nullptr;
    for (const RunPtr& run : runs) {
        if (previous && sameWorkloadText(*previous, *run))
            continue; // the common case: runs in a row of one workload
        previous = run.get();
        const QString text = workloadText(*run);
        if (seen.contains(text))
            continue;
        seen.insert(text);
        out << run;
    }
    return out;
}

} // namespace kix
