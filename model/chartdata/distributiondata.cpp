// SPDX-License-Identifier: Apache-2.0
#include "model/chartdata/distributiondata.h"

#include "model/chartdata/distinctworkloads.h"
#include "model/chartdata/latencyruns.h"
#include "model/chartdata/quantiledata.h"
#include "model/workload.h"

#include <QHash>

#include <algorithm>
#include <cmath>

namespace kix {

namespace {

// An ECDF of more distinct values than this keeps every k-th step (and the last): a million samples draw no better
// than a few thousand steps, and cost a million points.
constexpr size_t maxEcdfPoints = 4096;

// The samples a log axis can show: finite and above 0 (ns), ascending.
std::vector<double> drawableSamples(const std::vector<double>& samples)
{
    std::vector<double> out;
    out.reserve(samples.size());
    for (double v : samples) {
        if (std::isfinite(v) && v > 0)
            out.push_back(v);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Rice's rule on the largest run's count: enough bins to show its shape, few enough that each holds samples.
int chooseBins(size_t largest)
{
    return std::clamp(int(std::ceil(2 * std::cbrt(double(largest)))), 8, 50);
}

std::vector<double> binFractions(const std::vector<double>& sorted, const std::vector<double>& edges)
{
    const size_t bins = edges.size() - 1;
    std::vector<double> counts(bins, 0);
    for (double v : sorted) {
        const auto above = std::upper_bound(edges.begin(), edges.end(), v);
        const size_t bin = std::min<size_t>(bins - 1, size_t(std::max<ptrdiff_t>(0, above - edges.begin() - 1)));
        counts[bin] += 1;
    }
    for (double& c : counts)
        c /= double(sorted.size());
    return counts;
}

void fillEcdf(const std::vector<double>& sorted, DistributionRun& out)
{
    const double n = double(sorted.size());
    for (size_t i = 0; i < sorted.size(); ++i) {
        if (i + 1 < sorted.size() && sorted[i + 1] == sorted[i])
            continue; // the step is at the last of equal values
        out.ecdfX.push_back(sorted[i]);
        out.ecdfY.push_back(double(i + 1) / n);
    }
    if (out.ecdfX.size() <= maxEcdfPoints)
        return;
    const size_t stride = (out.ecdfX.size() + maxEcdfPoints - 1) / maxEcdfPoints;
    size_t kept = 0;
    for (size_t i = 0; i < out.ecdfX.size(); ++i) {
        if (i % stride == 0 || i + 1 == out.ecdfX.size()) {
            out.ecdfX[kept] = out.ecdfX[i];
            out.ecdfY[kept] = out.ecdfY[i];
            ++kept;
        }
    }
    out.ecdfX.resize(kept);
    out.ecdfY.resize(kept);
}

// Legend names as the quantile chart's series: "provider · GPU", " (2)" for a repeat, and the workload where the
// runs span several.
QStringList runNames(const RunList& runs)
{
    const RunList workloads = distinctWorkloads(runs);
    const WorkloadLabeler labeler(workloads);
    QHash<QString, int> seen;
    QStringList names;
    for (const RunPtr& run : runs) {
        QString name = run->provider + QStringLiteral(" · ") + shortGpuName(run->gpuDisplayName());
        if (workloads.size() > 1)
            name += QStringLiteral(" · ") + labeler.label(*run);
        const int n = ++seen[name];
        if (n > 1)
            name += QStringLiteral(" (%1)").arg(n);
        names << name;
    }
    return names;
}

DistributionVerdict judge(const DistributionRun& baseline, const DistributionRun& run,
    const std::vector<double>& baseSamples, const std::vector<double>& runSamples, double alpha)
{
    DistributionVerdict v;
    // Auto, as the comparison's verdicts: the normal approximation with tie and continuity correction, exact only
    // for a sample of at most 8 values without ties.
    v.test = mannWhitneyU(runSamples, baseSamples);
    const double pairs = double(runSamples.size()) * double(baseSamples.size());
    v.effect = v.test.valid ? 1 - v.test.u / pairs : std::numeric_limits<double>::quiet_NaN();
    if (!v.test.valid)
        v.verdict = QStringLiteral("no test");
    else if (v.test.p < alpha)
        v.verdict = v.test.z < 0 ? QStringLiteral("faster") : QStringLiteral("slower");
    else
        v.verdict = QStringLiteral("no significant difference");
    v.line = QStringLiteral("%1 vs %2: %3 (Mann–Whitney p = %4, P(faster) = %5, U = %6, n = %7 / %8)")
                 .arg(run.name, baseline.name, v.verdict)
                 .arg(v.test.p, 0, 'g', 3)
                 .arg(v.effect, 0, 'f', 2)
                 .arg(v.test.u, 0, 'g', 10)
                 .arg(runSamples.size())
                 .arg(baseSamples.size());
    return v;
}

QString unavailableReason(int withSamples, int latency)
{
    if (withSamples > maxDistributionRuns)
        return QStringLiteral("Histogram and ECDF overlay 2 to %1 runs: %2 runs in scope carry raw samples; select "
                              "2 to %1 of them")
            .arg(maxDistributionRuns)
            .arg(withSamples);
    return QStringLiteral("Histogram and ECDF need 2 to %1 runs with raw samples: %2 of the %3 latency runs in scope "
                          "carry them")
        .arg(maxDistributionRuns)
        .arg(withSamples)
        .arg(latency);
}

} // namespace

QString quantileViewName(QuantileView view)
{
    switch (view) {
    case QuantileView::Histogram:
        return QStringLiteral("histogram");
    case QuantileView::Ecdf:
        return QStringLiteral("ecdf");
    case QuantileView::Box:
        break;
    }
    return QStringLiteral("box");
}

QString quantileViewTitle(QuantileView view)
{
    switch (view) {
    case QuantileView::Histogram:
        return QStringLiteral("Histogram");
    case QuantileView::Ecdf:
        return QStringLiteral("ECDF");
    case QuantileView::Box:
        break;
    }
    return QStringLiteral("Box");
}

std::optional<QuantileView> quantileViewFromName(const QString& name)
{
    for (QuantileView view : { QuantileView::Box, QuantileView::Histogram, QuantileView::Ecdf }) {
        if (name.compare(quantileViewName(view), Qt::CaseInsensitive) == 0)
            return view;
    }
    return std::nullopt;
}

std::vector<double> logBinEdges(double lo, double hi, int bins)
{
    if (!(lo > 0) || !(hi >= lo) || bins < 1)
        return {};
    if (lo == hi) // every sample equal: one bin around it
        return { lo / 1.05, hi * 1.05 };
    std::vector<double> edges(size_t(bins) + 1);
    const double a = std::log(lo), b = std::log(hi);
    for (int i = 0; i <= bins; ++i)
        edges[size_t(i)] = std::exp(a + (b - a) * i / bins);
    edges.front() = lo; // exactly: the smallest sample falls in the first bin, the largest in the last
    edges.back() = hi;
    return edges;
}

DistributionData buildDistributionData(const RunList& runs, int bins, double alpha)
{
    DistributionData data;
    data.alpha = alpha;
    const LatencyRuns split = splitLatencyRuns(runs);
    // Which runs carry a sample a log axis can show, before any is copied: a scope of thousands of sampled runs is
    // refused after one look at each.
    RunList chosen;
    for (const RunPtr& run : split.latency) {
        if (std::any_of(run->samples.begin(), run->samples.end(), [](double v) { return std::isfinite(v) && v > 0; }))
            chosen << run;
    }
    if (chosen.size() < 2 || chosen.size() > maxDistributionRuns) {
        data.unavailable = unavailableReason(int(chosen.size()), int(split.latency.size()));
        return data;
    }
    std::vector<std::vector<double>> samples;
    for (const RunPtr& run : std::as_const(chosen))
        samples.push_back(drawableSamples(run->samples));
    double lo = samples.front().front(), hi = samples.front().back();
    size_t largest = 0;
    std::vector<double> medians;
    for (qsizetype i = 0; i < chosen.size(); ++i) {
        lo = std::min(lo, samples[size_t(i)].front());
        hi = std::max(hi, samples[size_t(i)].back());
        largest = std::max(largest, samples[size_t(i)].size());
        medians.push_back(chosen[i]->median);
    }
    data.edges = logBinEdges(lo, hi, lo == hi ? 1 : bins > 0 ? bins : chooseBins(largest));
    const QStringList names = runNames(chosen);
    for (qsizetype i = 0; i < chosen.size(); ++i) {
        DistributionRun r;
        r.run = chosen[i];
        r.name = names[i];
        r.samples = int(samples[size_t(i)].size());
        r.fractions = binFractions(samples[size_t(i)], data.edges);
        fillEcdf(samples[size_t(i)], r);
        data.runs << r;
    }
    for (qsizetype i = 1; i < data.runs.size(); ++i) {
        DistributionVerdict v = judge(data.runs.front(), data.runs[i], samples.front(), samples[size_t(i)], alpha);
        v.run = int(i);
        data.verdicts << v;
    }
    data.scale = chooseTimeScale(medians);
    data.title = QStringLiteral("Latency distribution · ") + selectionTitle(chosen);
    data.warnings = protocolFamilyWarnings(chosen);
    const QString fixed = WorkloadLabeler(distinctWorkloads(chosen)).variation().describeFixed();
    if (!fixed.isEmpty())
        data.notes << QStringLiteral("fixed: ") + fixed;
    const qsizetype without = split.latency.size() - chosen.size();
    if (without > 0)
        data.notes << QStringLiteral("%1 latency run(s) without raw samples not drawn").arg(without);
    for (const QString& note : { split.otherMetricNote(), split.failedNote() }) {
        if (!note.isEmpty())
            data.notes << note;
    }
    if (split.noMedian > 0)
        data.notes << QStringLiteral("%1 run(s) without a median not shown").arg(split.noMedian);
    return data;
}

} // namespace kix
