// SPDX-License-Identifier: Apache-2.0
#include "model/chartdata/sweep.h"

#include "model/chartdata/distinctworkloads.h"
#include "model/chartdata/latencyruns.h"
#include "model/chartdata/quantiledata.h"
#include "model/workload.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <map>

namespace kix {

namespace {

const WorkloadParam* findParam(const Run& run, const QString& key)
{
    for (const WorkloadParam& p : run.workload) {
        if (p.key == key)
            return &p;
    }
    return nullptr;
}

// Numeric varying parameters, most distinct values first (ties keep the slug's order).
QStringList sweepCandidates(const RunList& runs, const QStringList& varying)
{
    struct Candidate
    {
        QString key;
        int distinct;
    };
    QVector<Candidate> candidates;
    for (const QString& key : varying) {
        QSet<double> values;
        bool numeric = true;
        for (const RunPtr& run : runs) {
            const WorkloadParam* p = findParam(*run, key);
            if (!p)
                continue;
            if (std::isnan(p->number)) {
                numeric = false;
                break;
            }
            values.insert(p->number);
        }
        if (numeric && values.size() >= 2)
            candidates.append({ key, int(values.size()) });
    }
    std::stable_sort(candidates.begin(), candidates.end(),
        [](const Candidate& a, const Candidate& b) { return a.distinct > b.distinct; });
    QStringList keys;
    for (const Candidate& c : std::as_const(candidates))
        keys << c.key;
    return keys;
}

// The x parameter (the preferred one when it is a candidate) and the others that vary, one line each; false when
// no numeric parameter varies.
bool chooseSweepAxis(SweepData& data, const RunList& latency, const ParamVariation& variation,
    const QString& preferredX, const CancelToken& cancel)
{
    data.candidates = sweepCandidates(latency, variation.varying);
    data.fixed = variation.fixed;
    data.fixedDescription = variation.describeFixed();
    data.title = QStringLiteral("Latency sweep · ") + selectionTitle(latency, cancel);
    data.warnings = protocolFamilyWarnings(latency);
    if (data.candidates.isEmpty()) {
        data.notes << (latency.isEmpty()
                ? QStringLiteral("no latency runs selected")
                : QStringLiteral("no numeric workload parameter varies among the selected runs"));
        return false;
    }
    data.xParam = data.candidates.contains(preferredX) ? preferredX : data.candidates.front();
    for (const QString& key : variation.varying) {
        if (key != data.xParam)
            data.splitBy << key;
    }
    data.title += QStringLiteral(" · latency vs ") + data.xParam;
    return true;
}

// Points keyed by x inside each series.
using SweepSeriesPoints = std::vector<std::map<double, SweepPoint>>;

// Adds a run's point to its series (-1: a series beyond maxSeries, not drawn); of repeated points at one x, the
// newest stays.
void addSweepPoint(SweepData& data, SweepSeriesPoints& points, int series, const RunPtr& run, const WorkloadParam* xp)
{
    if (series < 0) {
        ++data.droppedRuns;
        return;
    }
    SweepPoint point;
    point.x = xp->number;
    point.median = run->median;
    point.p20 = std::isfinite(run->p20) ? run->p20 : run->median;
    point.p80 = std::isfinite(run->p80) ? run->p80 : run->median;
    point.run = run;
    auto& seriesPoints = points[size_t(series)];
    auto existing = seriesPoints.find(point.x);
    if (existing != seriesPoints.end()) {
        ++data.duplicates;
        if (run->observedAt <= existing->second.run->observedAt)
            return;
    }
    seriesPoints[point.x] = point;
    if (point.x <= 0)
        data.logXPossible = false;
}

// Whether two runs name the same series (provider, GPU, what varies, the split-by parameters).
bool sameSweepSeries(const ParamVariation& variation, const QStringList& splitBy, const Run& a, const Run& b)
{
    if (!sameText(a.provider, b.provider) || !sameText(a.gpuDisplayName(), b.gpuDisplayName())
        || (variation.passVaries && !sameText(a.pass, b.pass))
        || (variation.kernelVaries && !sameText(a.kernel, b.kernel))
        || (variation.dtypeVaries && !sameText(a.dtype, b.dtype)))
        return false;
    for (const QString& key : splitBy) {
        const WorkloadParam* pa = findParam(a, key);
        const WorkloadParam* pb = findParam(b, key);
        if (!pa != !pb || (pa && !sameText(pa->value, pb->value)))
            return false;
    }
    return true;
}

// "huggingface · H100 · batch=8": what names a run's series.
QString sweepSeriesLabel(const Run& run, const ParamVariation& variation, const QStringList& splitBy)
{
    QStringList labelParts { run.provider, shortGpuName(run.gpuDisplayName()) };
    if (variation.passVaries)
        labelParts << run.pass; // else the title names it
    if (variation.kernelVaries)
        labelParts.prepend(run.kernel);
    if (variation.dtypeVaries)
        labelParts << run.dtype;
    for (const QString& key : splitBy) {
        const WorkloadParam* p = findParam(run, key);
        labelParts << key + QLatin1Char('=') + (p ? p->value : QStringLiteral("(none)"));
    }
    return labelParts.join(QStringLiteral(" · "));
}

// Each run's point in its series (at most maxSeries); false when the build was superseded.
bool collectSweepPoints(SweepData& data, SweepSeriesPoints& points, int& missingX, const RunList& latency,
    const ParamVariation& variation, int maxSeries, const CancelToken& cancel)
{
    // series key -> index
    QHash<QString, int> seriesIndex;
    // A series' label is a function of what it names: runs in a row that name the same get the previous run's
    // series without building the label again (a million runs, a few series).
    const Run* previous = nullptr;
    int previousSeries = -1;
    for (qsizetype i = 0; i < latency.size(); ++i) {
        if (cancel.cancelledEvery(i))
            return false; // superseded: dropped by the caller
        const RunPtr& run = latency[i];
        const WorkloadParam* xp = findParam(*run, data.xParam);
        if (!xp || std::isnan(xp->number)) {
            ++missingX;
            continue;
        }
        if (previous && sameSweepSeries(variation, data.splitBy, *previous, *run)) {
            addSweepPoint(data, points, previousSeries, run, xp);
            continue;
        }
        const QString label = sweepSeriesLabel(*run, variation, data.splitBy);
        auto it = seriesIndex.constFind(label);
        previous = run.get();
        previousSeries = -1;
        if (it == seriesIndex.constEnd()) {
            if (data.series.size() >= maxSeries) {
                ++data.droppedRuns;
                continue;
            }
            it = seriesIndex.insert(label, int(data.series.size()));
            SweepSeries s;
            s.label = label;
            s.provider = run->provider;
            s.gpu = run->gpuDisplayName();
            s.pass = run->pass;
            data.series.append(s);
            points.emplace_back();
        }
        previousSeries = *it;
        addSweepPoint(data, points, *it, run, xp);
    }
    return true;
}

// The series' points in x order, the time scale of their medians, the series by provider, GPU and label.
void finishSweepSeries(SweepData& data, const SweepSeriesPoints& points)
{
    std::vector<double> medians;
    for (int i = 0; i < data.series.size(); ++i) {
        for (const auto& [x, point] : points[size_t(i)]) {
            data.series[i].points.append(point);
            medians.push_back(point.median);
        }
    }
    data.scale = chooseTimeScale(medians);
    std::stable_sort(data.series.begin(), data.series.end(), [](const SweepSeries& a, const SweepSeries& b) {
        if (a.provider != b.provider)
            return a.provider < b.provider;
        if (a.gpu != b.gpu)
            return a.gpu < b.gpu;
        return a.label < b.label;
    });
}

// What is fixed, what else varies, and the runs not drawn.
void addSweepNotes(SweepData& data, int missingX, int maxSeries)
{
    if (!data.fixedDescription.isEmpty())
        data.notes << QStringLiteral("fixed: ") + data.fixedDescription;
    if (!data.splitBy.isEmpty())
        data.notes << QStringLiteral("also varying, one line each: ") + data.splitBy.join(QStringLiteral(", "));
    if (data.candidates.size() > 1) {
        QStringList others = data.candidates;
        others.removeAll(data.xParam);
        data.notes << QStringLiteral("x can also be: ") + others.join(QStringLiteral(", "));
    }
    if (missingX > 0)
        data.notes << QStringLiteral("%1 run(s) without a numeric %2 not shown").arg(missingX).arg(data.xParam);
    if (data.duplicates > 0)
        data.notes << QStringLiteral("%1 repeated run(s) at the same %2: the newest is drawn")
                          .arg(data.duplicates)
                          .arg(data.xParam);
    if (data.droppedRuns > 0)
        data.notes << QStringLiteral("%1 run(s) not shown (beyond %2 lines, or without a median)")
                          .arg(data.droppedRuns)
                          .arg(maxSeries);
}

} // namespace

SweepData buildSweep(const RunList& runs, const QString& preferredX, int maxSeries, const CancelToken& cancel)
{
    SweepData data;
    const LatencyRuns split = splitLatencyRuns(runs);
    const RunList& latency = split.latency;
    data.failedRuns = split.failed;
    data.skippedNonLatency = split.otherMetric;
    data.droppedRuns = split.noMedian;
    for (const QString& note : { split.otherMetricNote(), split.failedNote() }) {
        if (!note.isEmpty())
            data.notes << note;
    }

    const ParamVariation variation = paramVariation(distinctWorkloads(latency)); // that of every run
    if (!chooseSweepAxis(data, latency, variation, preferredX, cancel))
        return data;

    SweepSeriesPoints points;
    int missingX = 0;
    data.logXPossible = true;
    if (!collectSweepPoints(data, points, missingX, latency, variation, maxSeries, cancel))
        return data; // superseded: dropped by the caller
    finishSweepSeries(data, points);
    addSweepNotes(data, missingX, maxSeries);
    return data;
}

} // namespace kix
