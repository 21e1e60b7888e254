// SPDX-License-Identifier: Apache-2.0
#include "model/compare/comparison.h"

#include "model/compare/comparisonpairing.h"

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

Baseline Baseline::defaultFor(const RunList& runs, const CancelToken& cancel)
{
    // Two nvbench or Google Benchmark files: the reference file's provider, as the tools compare them.
    if (const QString reference = toolReferenceProvider(runs); !reference.isEmpty())
        return ofProvider(reference);
    DistinctText distinct;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        if (cancel.cancelledEvery(i))
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

Comparison compareRuns(const RunList& runs, const Baseline& baseline, double alpha, const CancelToken& cancel)
{
    using namespace comparisonpairing;
    Comparison result;
    result.baseline = baseline;
    result.alpha = alpha;

    const RunList latency = comparableLatencyRuns(runs, result);
    if (baseline.isRun()) {
        if (!pairWithBaselineRun(latency, baseline, alpha, result))
            return result;
    } else if (!pairWithBaselineProviders(latency, baseline, alpha, result, cancel)) {
        return result; // superseded: partial, dropped by the caller
    }
    if (cancel.cancelled())
        return result;
    sortComparisonPairs(result.pairs);
    sortUnpairedRuns(baseline, result);
    summarize(result);
    return result;
}

} // namespace kix
