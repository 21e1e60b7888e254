// SPDX-License-Identifier: Apache-2.0
#include "model/chartdata/distinctworkloads.h"

#include "model/workload.h"

#include <QSet>

#include <array>

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
    // The workloads met last, compared field by field (texts the runs share compare by address) before any text
    // is made: runs in a row, or cycling through a few workloads, skip the hashing.
    std::array<const Run*, 16> recent {};
    size_t next = 0;
    for (const RunPtr& run : runs) {
        bool known = false; // the newest first: runs in a row of one workload find it at once
        for (size_t k = 1; k <= recent.size() && !known; ++k) {
            const Run* r = recent[(next + recent.size() - k) % recent.size()];
            if (!r)
                break;
            known = sameWorkloadText(*r, *run);
        }
        if (known)
            continue;
        recent[next] = run.get();
        next = (next + 1) % recent.size();
        const QString text = workloadText(*run);
        if (seen.contains(text))
            continue;
        seen.insert(text);
        out << run;
    }
    return out;
}

} // namespace kix
