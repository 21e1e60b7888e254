// SPDX-License-Identifier: Apache-2.0
#include "model/chartdata/quantiledata.h"

#include "model/chartdata/distincttext.h"
#include "model/chartdata/distinctworkloads.h"
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

const QString& gpuNameOf(const Run& run)
{
    return run.gpuProduct.isEmpty() ? run.gpuSlug : run.gpuProduct; // gpuDisplayName() without the copy
}

// A run's workload group by the addresses of its kernel, pass and workload slug: runs share interned strings.
struct KeyTexts
{
    const QChar* data[3];
    qsizetype size[3];

    static KeyTexts of(const Run& run)
    {
        return { { run.kernel.constData(), run.pass.constData(), run.workloadSlug.constData() },
            { run.kernel.size(), run.pass.size(), run.workloadSlug.size() } };
    }
    bool operator==(const KeyTexts& o) const
    {
        return std::equal(data, data + 3, o.data) && std::equal(size, size + 3, o.size);
    }
};

size_t qHash(const KeyTexts& k, size_t seed = 0)
{
    return qHashMulti(
        seed, quintptr(k.data[0]), quintptr(k.data[1]), quintptr(k.data[2]), k.size[0], k.size[1], k.size[2]);
}

// Ranks that order as a text does (the same address: no lookup).
template<typename Text>
std::vector<int> ranksOf(const RunList& runs, Text text)
{
    DistinctText distinct;
    for (const RunPtr& run : runs)
        distinct.insert(text(*run));
    QStringList sorted = distinct.values().values();
    std::sort(sorted.begin(), sorted.end());
    QHash<QString, int> rank;
    for (int i = 0; i < sorted.size(); ++i)
        rank.insert(sorted[i], i);
    std::vector<int> out;
    out.reserve(size_t(runs.size()));
    const QString* last = nullptr;
    int lastRank = -1;
    for (const RunPtr& run : runs) {
        const QString& t = text(*run);
        if (!last || !sameText(*last, t)) {
            last = &t;
            lastRank = rank.value(t);
        }
        out.push_back(lastRank);
    }
    return out;
}

// A stable sort by provider, then GPU name: the same order as comparing the texts, with each run's two ranks
// computed once (the comparisons read no run).
void sortByProviderAndGpu(RunList& group)
{
    const std::vector<int> provider = ranksOf(group, [](const Run& r) -> const QString& { return r.provider; });
    const std::vector<int> gpu = ranksOf(group, [](const Run& r) -> const QString& { return gpuNameOf(r); });
    std::vector<int> order(size_t(group.size()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        if (provider[size_t(a)] != provider[size_t(b)])
            return provider[size_t(a)] < provider[size_t(b)];
        return gpu[size_t(a)] < gpu[size_t(b)];
    });
    RunList sorted;
    sorted.reserve(group.size());
    for (int i : order)
        sorted.append(std::move(group[i]));
    group = std::move(sorted);
}

// The numbers n for which `base + " (n)"` is one of `series`.
QSet<int> repeatsNamed(const QStringList& series, const QString& base)
{
    QSet<int> out;
    for (const QString& name : series) {
        if (name.size() <= base.size() + 3 || !name.startsWith(base) || !name.endsWith(QLatin1Char(')'))
            || QStringView(name).mid(base.size(), 2) != QLatin1String(" ("))
            continue;
        const QStringView digits = QStringView(name).mid(base.size() + 2, name.size() - base.size() - 3);
        bool ok = false;
        const int n = digits.toInt(&ok);
        if (ok && QString::number(n) == digits)
            out.insert(n);
    }
    return out;
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
    DistinctText distinct;
    for (const RunPtr& run : runs) {
        if (run->isLatency())
            distinct.insert(run->protocolFamily);
    }
    QStringList families;
    for (const QString& family : distinct.values()) {
        const QString name = family.isEmpty() ? QStringLiteral("(none)") : family;
        if (!families.contains(name))
            families << name;
    }
    if (families.size() < 2)
        return {};
    std::sort(families.begin(), families.end());
    return { QStringLiteral("runs of %1 protocol families side by side (%2): their timings may not be comparable")
                 .arg(families.size())
                 .arg(families.join(QStringLiteral(", "))) };
}

QString selectionTitle(const RunList& runs, const CancelToken& cancel)
{
    DistinctText kernelNames;
    DistinctText passNames;
    DistinctText gpuNames;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        if (cancel.cancelledEvery(i))
            return {}; // superseded: dropped by the caller
        const Run& run = *runs[i];
        kernelNames.insert(run.kernel);
        passNames.insert(run.pass);
        gpuNames.insert(gpuNameOf(run));
    }
    const QSet<QString>& kernels = kernelNames.values();
    const QSet<QString>& passes = passNames.values();
    QSet<QString> gpus;
    for (const QString& gpu : gpuNames.values())
        gpus.insert(shortGpuName(gpu));
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

namespace {

// The latency runs grouped by workload (kernel, pass, workload) in first-seen order; false when superseded.
bool groupQuantileRunsByWorkload(const RunList& latency, QVector<RunList>& groups, const CancelToken& cancel)
{
    // Group first (one hash lookup per run), then order the groups: sorting 100k runs would cost more than the
    // whole chart.
    QHash<WorkloadKey, int> groupOf;
    QHash<KeyTexts, int> groupByTexts; // the same, found by the addresses of the key's texts (no text hashed)
    for (qsizetype i = 0; i < latency.size(); ++i) {
        if (cancel.cancelledEvery(i))
            return false; // superseded: dropped by the caller
        const RunPtr& run = latency[i];
        const KeyTexts texts = KeyTexts::of(*run);
        auto known = groupByTexts.constFind(texts);
        if (known == groupByTexts.constEnd()) {
            const WorkloadKey key = WorkloadKey::of(*run);
            auto it = groupOf.constFind(key);
            if (it == groupOf.constEnd()) {
                it = groupOf.insert(key, int(groups.size()));
                groups.append(RunList());
            }
            known = groupByTexts.insert(texts, *it);
        }
        groups[*known].append(run);
    }
    return true;
}

// The groups' indices by kernel, pass and workload, at most maxGroups (the runs of the rest counted as dropped).
QVector<int> orderQuantileGroups(const QVector<RunList>& groups, int maxGroups, QuantileData& data)
{
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
    return order;
}

// The drawn groups' runs, each group sorted by provider and GPU; false when superseded.
bool drawnQuantileRuns(QVector<RunList>& groups, const QVector<int>& order, RunList& drawn, const CancelToken& cancel)
{
    for (int g : std::as_const(order)) {
        if (cancel.cancelled())
            return false;
        RunList& group = groups[g];
        sortByProviderAndGpu(group);
        drawn += group;
    }
    return true;
}

// One box per run of group g, in the series its provider and GPU name (" (n)" for the n-th run of them); false
// when superseded.
bool addQuantileGroupBoxes(QuantileData& data, const RunList& group, int g, int maxSeries,
    QHash<QString, int>& seriesIndex, std::vector<double>& medians, int& noSpread, const CancelToken& cancel)
{
    QHash<QString, int> occurrences; // provider·GPU -> runs of this workload seen
    // The group is sorted by provider and GPU: the base name ("provider · GPU") is made once per stretch of
    // runs that share them. Once every series is taken, the name " (n)" of a repeated run is only made when
    // an existing series could bear it: a million runs repeat a few workloads thousands of times.
    const Run* stretch = nullptr;
    QString base;
    int* seen = nullptr;
    QSet<int> takenRepeats; // with every series taken: the n of the existing series named base + " (n)"
    for (qsizetype i = 0; i < group.size(); ++i) {
        if (cancel.cancelledEvery(i))
            return false; // superseded: dropped by the caller
        const RunPtr& run = group[i];
        if (!stretch || !sameText(stretch->provider, run->provider)
            || !sameText(gpuNameOf(*stretch), gpuNameOf(*run))) {
            stretch = run.get();
            base = run->provider + QStringLiteral(" · ") + shortGpuName(run->gpuDisplayName());
            seen = &occurrences[base];
            takenRepeats = repeatsNamed(data.series, base);
        }
        const int n = ++*seen;
        if (n > 1 && data.series.size() >= maxSeries && !takenRepeats.contains(n)) {
            ++data.droppedRuns; // a new series, and no room for one
            continue;
        }
        QString seriesName = base;
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
            if (data.series.size() == maxSeries) // from here on no series is added
                takenRepeats = repeatsNamed(data.series, base);
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
    return true;
}

// What is fixed, the runs left out or not drawn, and the runs drawn without a spread.
void addQuantileNotes(QuantileData& data, const LatencyRuns& split, const ParamVariation& variation, int maxGroups,
    int maxSeries, int noMedian, int noSpread)
{
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
}

} // namespace

QuantileData buildQuantileData(const RunList& runs, int maxGroups, int maxSeries, const CancelToken& cancel)
{
    QuantileData data;
    const LatencyRuns split = splitLatencyRuns(runs);
    const RunList& latency = split.latency;
    data.failedRuns = split.failed;
    data.skippedNonLatency = split.otherMetric;
    const int noMedian = split.noMedian;
    int noSpread = 0;
    QVector<RunList> groups;
    if (!groupQuantileRunsByWorkload(latency, groups, cancel))
        return data; // superseded: dropped by the caller
    const QVector<int> order = orderQuantileGroups(groups, maxGroups, data);
    RunList drawn;
    if (!drawnQuantileRuns(groups, order, drawn, cancel))
        return data;

    const WorkloadLabeler labeler(distinctWorkloads(drawn)); // the same variation, read off fewer runs
    const ParamVariation& variation = labeler.variation();
    data.groupTitle = labeler.title();
    QHash<QString, int> seriesIndex;
    std::vector<double> medians;
    for (int g = 0; g < order.size(); ++g) {
        const RunList& group = groups[order[g]];
        data.groups << labeler.label(*group.front());
        if (!addQuantileGroupBoxes(data, group, g, maxSeries, seriesIndex, medians, noSpread, cancel))
            return data; // superseded: dropped by the caller
    }
    data.scale = chooseTimeScale(medians);
    data.title = QStringLiteral("Latency quantiles · ") + selectionTitle(latency, cancel);
    data.warnings = protocolFamilyWarnings(latency);
    addQuantileNotes(data, split, variation, maxGroups, maxSeries, noMedian, noSpread);
    return data;
}

} // namespace kix
