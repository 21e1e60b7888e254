// SPDX-License-Identifier: Apache-2.0
#include "model/chartdata/quantiledata.h"

#include "model/chartdata/latencyruns.h"
#include "model/statistics.h"
#include "model/workload.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace kix {

namespace {

QString describeVarying(const QSet<QString>& values, const QString& what)
{
    if (values.size() == 1)
        return *values.begin();
    return QStringLiteral("%1 %2").arg(values.size()).arg(what);
}

void fillQuantiles(const Run& run, QuantileBox& box)
{
    box.median = run.median;
    box.p20 = run.p20;
    box.p80 = run.p80;
    box.min = run.statistic(QStringLiteral("min"));
    box.max = run.statistic(QStringLiteral("max"));
    if (!run.samples.empty()
        && (!std::isfinite(box.p20) || !std::isfinite(box.p80) || !std::isfinite(box.min) || !std::isfinite(box.max))) {
        std::vector<double> s = run.samples;
        std::sort(s.begin(), s.end());
        if (!std::isfinite(box.p20))
            box.p20 = sortedQuantile(s, 0.2);
        if (!std::isfinite(box.p80))
            box.p80 = sortedQuantile(s, 0.8);
        if (!std::isfinite(box.min))
            box.min = s.front();
        if (!std::isfinite(box.max))
            box.max = s.back();
    }
    if (!std::isfinite(box.p20))
        box.p20 = box.median;
    if (!std::isfinite(box.p80))
        box.p80 = box.median;
    box.hasExtremes = std::isfinite(box.min) && std::isfinite(box.max);
    if (!box.hasExtremes) {
        box.min = box.p20;
        box.max = box.p80;
    }
}

} // namespace

QString shortGpuName(const QString& gpu)
{
    for (const QLatin1String vendor : { QLatin1String("NVIDIA "), QLatin1String("AMD "), QLatin1String("Intel ") }) {
        if (gpu.startsWith(vendor) && gpu.size() > vendor.size())
            return gpu.mid(vendor.size());
    }
    return gpu;
}

QStringList protocolFamilyWarnings(const RunList& runs)
{
    QStringList families;
    for (const RunPtr& run : runs) {
        const QString family = run->protocolFamily.isEmpty() ? QStringLiteral("(none)") : run->protocolFamily;
        if (run->isLatency() && !families.contains(family))
            families << family;
    }
    if (families.size() < 2)
        return {};
    std::sort(families.begin(), families.end());
    return { QStringLiteral("runs of %1 protocol families side by side (%2): their timings may not be comparable")
                 .arg(families.size())
                 .arg(families.join(QStringLiteral(", "))) };
}

QString selectionTitle(const RunList& runs)
{
    QSet<QString> kernels;
    QSet<QString> passes;
    QSet<QString> gpus;
    for (const RunPtr& run : runs) {
        kernels.insert(run->kernel);
        passes.insert(run->pass);
        gpus.insert(shortGpuName(run->gpuDisplayName()));
    }
    if (kernels.isEmpty())
        return {};
    QStringList parts; // an empty part (runs without a pass) leaves no empty "· ·"
    for (const QString& part : { describeVarying(kernels, QStringLiteral("kernels")),
             describeVarying(passes, QStringLiteral("passes")), describeVarying(gpus, QStringLiteral("GPUs")) }) {
        if (!part.trimmed().isEmpty())
            parts << part;
    }
    return parts.join(QStringLiteral(" · "));
}

QuantileData buildQuantileData(const RunList& runs, int maxGroups, int maxSeries)
{
    QuantileData data;
    const LatencyRuns split = splitLatencyRuns(runs);
    const RunList& latency = split.latency;
    data.failedRuns = split.failed;
    data.skippedNonLatency = split.otherMetric;
    const int noMedian = split.noMedian;
    int noSpread = 0;
    // Group first (one hash lookup per run), then order the groups: sorting 100k runs would cost more than the
    // whole chart.
    QHash<WorkloadKey, int> groupOf;
    QVector<RunList> groups;
    for (const RunPtr& run : std::as_const(latency)) {
        const WorkloadKey key = WorkloadKey::of(*run);
        auto it = groupOf.constFind(key);
        if (it == groupOf.constEnd()) {
            it = groupOf.insert(key, int(groups.size()));
            groups.append(RunList());
        }
        groups[*it].append(run);
    }
    QVector<int> order(groups.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&groups](int x, int y) {
        const Run& a = *groups[x].front();
        const Run& b = *groups[y].front();
        if (a.kernel != b.kernel)
            return a.kernel < b.kernel;
        if (a.pass != b.pass)
            return a.pass < b.pass;
        return compareWorkloads(a, b) < 0;
    });
    if (order.size() > maxGroups) {
        for (qsizetype i = maxGroups; i < order.size(); ++i)
            data.droppedRuns += int(groups[order[i]].size());
        order.resize(maxGroups);
    }
    RunList drawn;
    for (int g : std::as_const(order)) {
        RunList& group = groups[g];
        std::stable_sort(group.begin(), group.end(), [](const RunPtr& a, const RunPtr& b) {
            if (a->provider != b->provider)
                return a->provider < b->provider;
            return a->gpuDisplayName() < b->gpuDisplayName();
        });
        drawn += group;
    }

    const WorkloadLabeler labeler(drawn);
    const ParamVariation& variation = labeler.variation();
    data.groupTitle = labeler.title();
    QHash<QString, int> seriesIndex;
    std::vector<double> medians;
    for (int g = 0; g < order.size(); ++g) {
        const RunList& group = groups[order[g]];
        data.groups << labeler.label(*group.front());
        QHash<QString, int> occurrences; // provider·GPU -> runs of this workload seen
        for (const RunPtr& run : group) {
            QString seriesName = run->provider + QStringLiteral(" · ") + shortGpuName(run->gpuDisplayName());
            const int n = ++occurrences[seriesName];
            if (n > 1)
                seriesName += QStringLiteral(" (%1)").arg(n);
            auto s = seriesIndex.constFind(seriesName);
            if (s == seriesIndex.constEnd()) {
                if (data.series.size() >= maxSeries) {
                    ++data.droppedRuns;
                    continue;
                }
                s = seriesIndex.insert(seriesName, int(data.series.size()));
                data.series << seriesName;
            }
            QuantileBox box;
            box.group = g;
            box.series = *s;
            box.run = run;
            fillQuantiles(*run, box);
            if (!std::isfinite(run->p20) && run->samples.empty())
                ++noSpread;
            data.boxes.append(box);
            medians.push_back(box.median);
        }
    }
    data.scale = chooseTimeScale(medians);
    data.title = QStringLiteral("Latency quantiles · ") + selectionTitle(latency);
    data.warnings = protocolFamilyWarnings(latency);
    const QString fixed = variation.describeFixed();
    if (!fixed.isEmpty())
        data.notes << QStringLiteral("fixed: ") + fixed;
    for (const QString& note : { split.otherMetricNote(), split.failedNote() }) {
        if (!note.isEmpty())
            data.notes << note;
    }
    if (data.droppedRuns > 0)
        data.notes << QStringLiteral("%1 run(s) beyond %2 workloads or %3 provider/GPU series not shown; narrow the "
                                     "filter")
                          .arg(data.droppedRuns)
                          .arg(maxGroups)
                          .arg(maxSeries);
    if (noMedian > 0) {
        data.droppedRuns += noMedian;
        data.notes << QStringLiteral("%1 run(s) without a median not shown").arg(noMedian);
    }
    if (noSpread > 0)
        data.notes << QStringLiteral("%1 run(s) have no p20/p80: drawn as a line at the median").arg(noSpread);
    return data;
}

} // namespace kix
