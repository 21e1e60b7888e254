// SPDX-License-Identifier: Apache-2.0
#include "model/compare/comparison.h"

#include "model/chartdata/buildcancel.h"
#include "model/chartdata/distincttext.h"
#include "model/compare/pairorder.h"
#include "model/compare/toolcomparison.h"
#include "model/workload.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <map>

namespace kix {

QString verdictName(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Faster:
        return QStringLiteral("faster");
    case Verdict::Slower:
        return QStringLiteral("slower");
    case Verdict::Same:
        return QStringLiteral("same");
    case Verdict::Ambiguous:
        break;
    }
    return QStringLiteral("ambiguous");
}

QString verdictMethodName(VerdictMethod method)
{
    switch (method) {
    case VerdictMethod::MannWhitney:
        return QStringLiteral("mann-whitney");
    case VerdictMethod::Intervals:
        return QStringLiteral("p20-p80");
    case VerdictMethod::NvbenchNoise:
        return QStringLiteral("nvbench-noise");
    case VerdictMethod::NoSpread:
        break;
    }
    return QStringLiteral("no-spread");
}

namespace {

// p20/p80, or the same quantiles of the samples when the run only has those.
bool interval(const Run& run, double& lo, double& hi)
{
    lo = run.p20;
    hi = run.p80;
    if (std::isfinite(lo) && std::isfinite(hi))
        return true;
    if (run.samples.empty())
        return false;
    std::vector<double> s = run.samples;
    std::sort(s.begin(), s.end());
    lo = sortedQuantile(s, 0.2);
    hi = sortedQuantile(s, 0.8);
    return true;
}

} // namespace

Baseline Baseline::ofProviders(const QStringList& providers)
{
    Baseline b;
    b.providers = providers;
    return b;
}

Baseline Baseline::ofRun(RunPtr run)
{
    Baseline b;
    b.run = std::move(run);
    return b;
}

Baseline Baseline::defaultFor(const RunList& runs)
{
    // Two nvbench or Google Benchmark files: the reference file's provider, as the tools compare them.
    if (const QString reference = toolReferenceProvider(runs); !reference.isEmpty())
        return ofProvider(reference);
    DistinctText distinct;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        if (buildCancelledEvery(i))
            return {}; // superseded: dropped by the caller
        if (runs[i]->isLatency())
            distinct.insert(runs[i]->provider);
    }
    return defaultForProviders(distinct.values());
}

Baseline Baseline::defaultForProviders(const QSet<QString>& providers)
{
    QStringList preferred;
    for (const QString& p : { QStringLiteral("huggingface"), QStringLiteral("torch") }) {
        if (providers.contains(p))
            preferred << p;
    }
    if (preferred.isEmpty() && !providers.isEmpty()) {
        QStringList all = providers.values();
        std::sort(all.begin(), all.end());
        preferred << all.front();
    }
    return ofProviders(preferred);
}

QString Baseline::describe() const
{
    if (run)
        return QStringLiteral("run ") + (run->name.isEmpty() ? run->externalId : run->name);
    return providers.join(QStringLiteral(" or "));
}

QString workloadDescription(const Run& run)
{
    return run.kernel + QStringLiteral(" · ") + run.pass + QStringLiteral(" · ") + run.workloadSlug;
}

namespace {

// "huggingface is noisy (p20–p80 spread 34% of the median)", for each noisy run of the pair.
QStringList noiseReasons(const Run& b, const Run& r)
{
    QStringList out;
    for (const Run* run : { &r, &b }) {
        if (run->isNoisy())
            out << QStringLiteral("%1 is noisy (p20–p80 spread %2% of the median)")
                       .arg(run == &b ? QStringLiteral("the baseline ") + run->provider : run->provider)
                       .arg(run->spread() * 100, 0, 'f', 0);
    }
    return out;
}

void decideVerdictCore(const Run& b, const Run& r, double alpha, ComparisonPair& pair);

} // namespace

void decideVerdict(const Run& b, const Run& r, double alpha, ComparisonPair& pair)
{
    decideVerdictCore(b, r, alpha, pair);
    const QStringList noise = noiseReasons(b, r);
    pair.noisy = !noise.isEmpty();
    QString why;
    if (pair.method == VerdictMethod::MannWhitney)
        why = (pair.verdict == Verdict::Same ? QStringLiteral("Mann–Whitney U: no significant difference (p = %1)")
                                             : QStringLiteral("Mann–Whitney U: p = %1"))
                  .arg(pair.pValue, 0, 'g', 3);
    else if (pair.method == VerdictMethod::NoSpread)
        why = QStringLiteral("no p20/p80 spread to decide by");
    else if (pair.verdict == Verdict::Ambiguous)
        why = QStringLiteral("p20–p80 intervals overlap");
    else
        why = QStringLiteral("p20–p80 intervals apart");
    // The first reason, then the noise's: one string per pair, not a list joined (a million pairs).
    pair.reason = noise.isEmpty() ? why : (QStringList { why } + noise).join(QStringLiteral("; "));
    for (const QString& n : noise)
        pair.notes << n;
}

namespace {

void decideVerdictCore(const Run& b, const Run& r, double alpha, ComparisonPair& pair)
{
    pair.ratio = (std::isfinite(b.median) && std::isfinite(r.median) && r.median > 0)
        ? b.median / r.median
        : std::numeric_limits<double>::quiet_NaN();
    pair.pValue = std::numeric_limits<double>::quiet_NaN();
    if (!b.samples.empty() && !r.samples.empty()) {
        const MannWhitneyResult mw = mannWhitneyU(r.samples, b.samples);
        pair.method = VerdictMethod::MannWhitney;
        pair.pValue = mw.p;
        if (mw.p < alpha)
            pair.verdict = mw.z < 0 ? Verdict::Faster : Verdict::Slower;
        else
            pair.verdict = Verdict::Same;
        return;
    }
    if (b.protocolFamily == QLatin1String("nvbench_cold") && r.protocolFamily == b.protocolFamily) {
        const QString status = nvbenchStatus(b.median, r.median, relativeNoise(b), relativeNoise(r));
        if (status != QLatin1String("unknown")) {
            pair.method = VerdictMethod::NvbenchNoise;
            pair.verdict = status == QLatin1String("same") ? Verdict::Same
                : status == QLatin1String("faster")        ? Verdict::Faster
                                                           : Verdict::Slower;
            return;
        }
    }
    double blo, bhi, rlo, rhi;
    if (!interval(b, blo, bhi) || !interval(r, rlo, rhi)) {
        pair.method = VerdictMethod::NoSpread;
        pair.verdict = Verdict::Ambiguous;
        pair.notes << QStringLiteral("no p20/p80 spread: the medians alone decide nothing");
        return;
    }
    pair.method = VerdictMethod::Intervals;
    if (rhi < blo)
        pair.verdict = Verdict::Faster;
    else if (rlo > bhi)
        pair.verdict = Verdict::Slower;
    else
        pair.verdict = Verdict::Ambiguous;
    if (b.samples.empty() != r.samples.empty())
        pair.notes << QStringLiteral("only one of the runs carries raw samples");
}

} // namespace

namespace {

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
    const Baseline& baseline, double alpha, QSet<const Run*>& usedBaselines, Comparison& result)
{
    const RunList& group = strict.runs;
    QString chosen;
    bool crossGpu = false;
    const RunList candidates = baselineCandidatesOf(gpus, group, baseline.providers, chosen, crossGpu);
    QVector<FamilyBaseline> byFamily;
    const QString crossNote
        = crossGpu ? QStringLiteral("no %1 run on this GPU: compared with one on another GPU").arg(chosen) : QString();
    for (qsizetype i = 0; i < group.size(); ++i) {
        if (buildCancelledEvery(i, 1024))
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
bool pairWithBaselineProviders(const RunList& latency, const Baseline& baseline, double alpha, Comparison& result)
{
    const QVector<QVector<ComparisonStrictGroup>> loose = groupByWorkloadAndGpu(latency);
    result.pairs.reserve(latency.size());
    QSet<const Run*> usedBaselines;
    for (const QVector<ComparisonStrictGroup>& gpus : std::as_const(loose)) {
        for (const ComparisonStrictGroup& strict : gpus) {
            if (!pairStrictGroup(gpus, strict, baseline, alpha, usedBaselines, result))
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

} // namespace

Comparison compareRuns(const RunList& runs, const Baseline& baseline, double alpha)
{
    Comparison result;
    result.baseline = baseline;
    result.alpha = alpha;

    const RunList latency = comparableLatencyRuns(runs, result);
    if (baseline.isRun()) {
        if (!pairWithBaselineRun(latency, baseline, alpha, result))
            return result;
    } else if (!pairWithBaselineProviders(latency, baseline, alpha, result)) {
        return result; // superseded: partial, dropped by the caller
    }
    if (buildCancelled())
        return result;
    sortComparisonPairs(result.pairs);
    sortUnpairedRuns(baseline, result);
    summarize(result);
    return result;
}

} // namespace kix
