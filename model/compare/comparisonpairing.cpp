// SPDX-License-Identifier: Apache-2.0
// compareRuns()'s steps: the runs compared, each run's baseline (a chosen run, or the baseline providers' run of
// the same workload and GPU), the order of the unpaired runs and the summary.
#include "model/compare/comparisonpairing.h"

#include "model/chartdata/distincttext.h"
#include "model/compare/pairorder.h"
#include "model/workload.h"
#include <QHash>
#include <QSet>
#include <algorithm>
#include <cmath>
#include <map>

namespace kix::comparisonpairing {

QString gpuKey(const Run& run)
{
    return run.gpuSlug.isEmpty() ? run.gpuProduct.toLower() : run.gpuSlug;
}

// Among candidate baseline runs: the same protocol family first, then the best observation (the lowest value: the
// one rule for repeated observations, observationRuleText() in rank.h), then the newest, then a stable order.
RunPtr bestBaseline(const RunList& candidates, const Run& run)
{
    RunPtr best;
    for (const RunPtr& c : candidates) {
        if (!best) {
            best = c;
            continue;
        }
        const bool cFamily = c->protocolFamily == run.protocolFamily;
        const bool bFamily = best->protocolFamily == run.protocolFamily;
        if (cFamily != bFamily) {
            if (cFamily)
                best = c;
            continue;
        }
        if (c->median != best->median && !(std::isnan(c->median) && std::isnan(best->median))) {
            if (c->median < best->median || std::isnan(best->median))
                best = c;
            continue;
        }
        if (c->observedAt != best->observedAt) {
            if (c->observedAt > best->observedAt)
                best = c;
            continue;
        }
        if (c->externalId < best->externalId)
            best = c;
    }
    return best;
}

ComparisonPair makePair(const RunPtr& baseline, const RunPtr& run, double alpha)
{
    ComparisonPair pair;
    pair.baseline = baseline;
    pair.run = run;
    const Comparability c = assessComparability(*baseline, *run);
    pair.warnings = c.warnings;
    pair.notes = c.notes;
    decideVerdict(*baseline, *run, alpha, pair);
    return pair;
}

void summarize(Comparison& comparison)
{
    struct Accumulator
    {
        ProviderSummary summary;
        DistinctText gpus; // the runs' own strings, alive meanwhile
        DistinctText passes;
        double logSum = 0;
        int logCount = 0;
    };
    std::map<QString, Accumulator> byProvider;
    const QString* lastProvider = nullptr;
    Accumulator* last = nullptr; // std::map: stays where it is while others are added
    for (const ComparisonPair& pair : std::as_const(comparison.pairs)) {
        if (!lastProvider || !sameText(*lastProvider, pair.run->provider)) {
            lastProvider = &pair.run->provider;
            last = &byProvider[pair.run->provider];
        }
        Accumulator& acc = *last;
        ProviderSummary& s = acc.summary;
        ++s.pairs;
        switch (pair.verdict) {
        case Verdict::Faster:
            ++s.faster;
            break;
        case Verdict::Slower:
            ++s.slower;
            break;
        case Verdict::Same:
            ++s.same;
            break;
        case Verdict::Ambiguous:
            ++s.ambiguous;
            break;
        }
        if (!pair.warnings.isEmpty())
            ++s.warned;
        acc.gpus.insert(pair.run->gpuDisplayName());
        acc.passes.insert(pair.run->pass);
        if (std::isfinite(pair.ratio) && pair.ratio > 0) {
            acc.logSum += std::log(pair.ratio);
            ++acc.logCount;
        }
    }
    for (auto& [provider, acc] : byProvider) {
        ProviderSummary& summary = acc.summary;
        summary.provider = provider;
        if (acc.logCount > 0)
            summary.geomean = std::exp(acc.logSum / acc.logCount);
        summary.gpus = acc.gpus.values().values();
        summary.passes = acc.passes.values().values();
        std::sort(summary.gpus.begin(), summary.gpus.end());
        std::sort(summary.passes.begin(), summary.passes.end());
        comparison.providers.append(summary);
    }
}

// Runs that can be compared (passed latency runs), with notes on the failed and non-latency ones left out.
RunList comparableLatencyRuns(const RunList& runs, Comparison& result)
{
    RunList latency;
    latency.reserve(runs.size());
    QStringList otherMetrics; // of the runs left out: "memory", "score", ...
    int failed = 0;
    for (const RunPtr& run : runs) {
        if (run->failed())
            ++failed;
        else if (run->isLatency())
            latency.append(run);
        else {
            ++result.skippedNonLatency;
            if (!otherMetrics.contains(run->metricName()))
                otherMetrics << run->metricName();
        }
    }
    if (failed > 0)
        result.notes
            << QStringLiteral("%1 failed run(s) left out: a failed run is evidence, not a time to compare").arg(failed);
    if (result.skippedNonLatency > 0)
        result.notes << QStringLiteral("%1 non-latency run(s) (%2) left out: speed-ups compare latency only")
                            .arg(result.skippedNonLatency)
                            .arg(otherMetrics.join(QStringLiteral(", ")));
    return latency;
}

// Every run paired with the one baseline run (other than the baseline's own identity); false when that run is
// not a passed latency run.
bool pairWithBaselineRun(const RunList& latency, const Baseline& baseline, double alpha, Comparison& result)
{
    if (!baseline.run->isLatency() || baseline.run->failed()) {
        result.notes << QStringLiteral("the baseline run is not a passed latency run: nothing to compare");
        return false;
    }
    const QString baseKey = baseline.run->identityKey();
    for (const RunPtr& run : std::as_const(latency)) {
        if (run == baseline.run || run->identityKey() == baseKey)
            continue;
        result.pairs.append(makePair(baseline.run, run, alpha));
    }
    result.baselineRuns = 1;
    return true;
}

// One GPU's runs of one workload (the strict group).
struct ComparisonStrictGroup
{
    QString gpu;
    RunList runs;
};

// Loose group: kernel, pass and workload; strict group: the same on one GPU. Struct keys and small lists:
// no string is built per run.
QVector<QVector<ComparisonStrictGroup>> groupByWorkloadAndGpu(const RunList& latency)
{
    QHash<WorkloadKey, int> looseIndex;
    QVector<QVector<ComparisonStrictGroup>> loose;
    for (const RunPtr& run : std::as_const(latency)) {
        const WorkloadKey key = WorkloadKey::of(*run);
        auto it = looseIndex.constFind(key);
        if (it == looseIndex.constEnd()) {
            it = looseIndex.insert(key, int(loose.size()));
            loose.append(QVector<ComparisonStrictGroup>());
        }
        QVector<ComparisonStrictGroup>& gpus = loose[*it];
        const QString gpu = gpuKey(*run);
        auto g
            = std::find_if(gpus.begin(), gpus.end(), [&gpu](const ComparisonStrictGroup& x) { return x.gpu == gpu; });
        if (g == gpus.end())
            g = gpus.insert(gpus.end(), ComparisonStrictGroup { gpu, {} });
        g->runs.append(run);
    }
    return loose;
}

// The baseline provider's runs of this GPU's group, or (when it has none) of the whole workload; `chosen` is the
// provider found, `crossGpu` whether its runs came from other GPUs.
RunList baselineCandidatesOf(const QVector<ComparisonStrictGroup>& gpus, const RunList& group,
    const QStringList& providers, QString& chosen, bool& crossGpu)
{
    RunList candidates;
    for (const QString& provider : providers) {
        for (const RunPtr& run : group) {
            if (run->provider == provider)
                candidates.append(run);
        }
        if (!candidates.isEmpty()) {
            chosen = provider;
            break;
        }
    }
    crossGpu = false;
    if (candidates.isEmpty()) {
        for (const QString& provider : providers) {
            for (const ComparisonStrictGroup& other : gpus) {
                for (const RunPtr& run : other.runs) {
                    if (run->provider == provider)
                        candidates.append(run);
                }
            }
            if (!candidates.isEmpty()) {
                chosen = provider;
                crossGpu = true;
                break;
            }
        }
    }
    return candidates;
}

// The baseline a run gets depends on its protocol family alone (bestBaseline): chosen once per
// family, not once per run among every candidate (a year of nightly runs: thousands of each).
struct FamilyBaseline
{
    QString family;
    RunPtr base;
    QString newestNote; // "N huggingface runs for this workload: ...", empty when only one
};

FamilyBaseline familyBaselineFor(const RunList& candidates, const Run& run, const QString& chosen)
{
    FamilyBaseline c { run.protocolFamily, bestBaseline(candidates, run), {} };
    int sameGpu = 0;
    const QString baseGpu = gpuKey(*c.base);
    for (const RunPtr& other : std::as_const(candidates))
        sameGpu += gpuKey(*other) == baseGpu ? 1 : 0;
    if (sameGpu > 1)
        c.newestNote = QStringLiteral("%1 %2 runs for this workload: compared with its best observation")
                           .arg(sameGpu)
                           .arg(chosen);
    return c;
}

// Pairs one strict group's runs with their baselines; false when the build was superseded (partial result).
bool pairStrictGroup(const QVector<ComparisonStrictGroup>& gpus, const ComparisonStrictGroup& strict,
    const Baseline& baseline, double alpha, QSet<const Run*>& usedBaselines, Comparison& result,
    const CancelToken& cancel)
{
    const RunList& group = strict.runs;
    QString chosen;
    bool crossGpu = false;
    const RunList candidates = baselineCandidatesOf(gpus, group, baseline.providers, chosen, crossGpu);
    QVector<FamilyBaseline> byFamily;
    const QString crossNote
        = crossGpu ? QStringLiteral("no %1 run on this GPU: compared with one on another GPU").arg(chosen) : QString();
    for (qsizetype i = 0; i < group.size(); ++i) {
        if (cancel.cancelledEvery(i, 1024))
            return false; // superseded: partial, dropped by the caller
        const RunPtr& run = group[i];
        if (!chosen.isEmpty() && run->provider == chosen)
            continue; // a baseline run itself
        if (candidates.isEmpty()) {
            result.unpaired.append(run);
            continue;
        }
        auto known = std::find_if(byFamily.cbegin(), byFamily.cend(),
            [&run](const FamilyBaseline& c) { return c.family == run->protocolFamily; });
        if (known == byFamily.cend()) {
            byFamily.append(familyBaselineFor(candidates, *run, chosen));
            known = byFamily.cend() - 1;
        }
        const RunPtr& base = known->base;
        usedBaselines.insert(base.get());
        ComparisonPair pair = makePair(base, run, alpha);
        if (crossGpu)
            pair.notes << crossNote;
        if (!known->newestNote.isEmpty())
            pair.notes << known->newestNote;
        result.pairs.append(std::move(pair));
    }
    return true;
}

// Every run paired with the best run of the baseline providers for its workload; false when superseded.
bool pairWithBaselineProviders(
    const RunList& latency, const Baseline& baseline, double alpha, Comparison& result, const CancelToken& cancel)
{
    const QVector<QVector<ComparisonStrictGroup>> loose = groupByWorkloadAndGpu(latency);
    result.pairs.reserve(latency.size());
    QSet<const Run*> usedBaselines;
    for (const QVector<ComparisonStrictGroup>& gpus : std::as_const(loose)) {
        for (const ComparisonStrictGroup& strict : gpus) {
            if (!pairStrictGroup(gpus, strict, baseline, alpha, usedBaselines, result, cancel))
                return false;
        }
    }
    result.baselineRuns = usedBaselines.size();
    return true;
}

// The unpaired runs by kernel, workload and provider, with a note counting them.
void sortUnpairedRuns(const Baseline& baseline, Comparison& result)
{
    std::sort(result.unpaired.begin(), result.unpaired.end(), [](const RunPtr& a, const RunPtr& b) {
        if (a->kernel != b->kernel)
            return a->kernel < b->kernel;
        if (int c = compareWorkloads(*a, *b); c != 0)
            return c < 0;
        return a->provider < b->provider;
    });
    if (!result.unpaired.isEmpty())
        result.notes << QStringLiteral("%1 run(s) have no %2 run of the same kernel, pass and workload")
                            .arg(result.unpaired.size())
                            .arg(baseline.describe());
}

} // namespace kix::comparisonpairing
