// SPDX-License-Identifier: Apache-2.0
#include "model/chartdata/speedupdata.h"

#include "model/chartdata/distincttext.h"
#include "model/chartdata/distinctworkloads.h"
#include "model/chartdata/notes.h"
#include "model/chartdata/quantiledata.h"
#include "model/chartdata/timescale.h"
#include "model/workload.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <map>

namespace kix {

namespace {

constexpr int maxSummaryLines = 12; // a run baseline against 100k runs differs from each in its own words

bool sameWorkload(const Run& a, const Run& b)
{
    return a.kernel == b.kernel && a.pass == b.pass && compareWorkloads(a, b) == 0;
}

// Categories, sets and bars of the first maxGroups workloads and maxSeries sets; returns the labeler's variation
// summary ("fixed: ...") of the pairs drawn.
QString layOut(SpeedupData& data, int maxGroups, int maxSeries, RunList& paired, const CancelToken& cancel)
{
    const QVector<ComparisonPair>& pairs = data.comparison.pairs;
    // Pairs come sorted by kernel, pass and workload: a category is a stretch of pairs of one workload, and those
    // beyond maxGroups are a tail that is not drawn (no work per pair there: a comparison may hold 100k pairs).
    qsizetype drawn = 0;
    for (int categories = 0; drawn < pairs.size(); ++drawn) {
        if (drawn == 0 || !sameWorkload(*pairs[drawn - 1].run, *pairs[drawn].run)) {
            if (categories == maxGroups)
                break;
            ++categories;
        }
    }
    data.dropped = int(pairs.size() - drawn);
    paired.reserve(drawn);
    for (qsizetype i = 0; i < drawn; ++i)
        paired.append(pairs[i].run);
    const WorkloadLabeler labeler(distinctWorkloads(paired)); // the same variation, read off fewer runs
    const ParamVariation& variation = labeler.variation();
    DistinctText gpuNames;
    for (const RunPtr& run : std::as_const(paired))
        gpuNames.insert(run->gpuDisplayName());
    const QSet<QString>& gpus = gpuNames.values();

    // Sets: provider (·GPU when GPUs vary) (·pass when passes vary). Colour = provider; a provider's further sets
    // get a pattern.
    QHash<QString, int> setIndex;
    QHash<QString, int> variants;
    QHash<qint64, int> barOf; // (set, category) -> index into data.bars
    int category = -1;
    // A set's label is a function of the provider, GPU and pass: pairs in a row that share them share the set.
    const Run* previous = nullptr;
    int previousSet = -1; // -1: beyond maxSeries
    qint64 lastSlot = -1;
    int lastBar = -1;
    for (int i = 0; i < drawn; ++i) {
        if (cancel.cancelledEvery(i))
            return {}; // superseded: dropped by the caller
        const Run& run = *pairs[i].run;
        if (i == 0 || !sameWorkload(*pairs[i - 1].run, run)) {
            ++category;
            data.categories << labeler.label(run);
        }
        if (!previous || !sameText(previous->provider, run.provider)
            || (gpus.size() > 1 && !sameText(previous->gpuDisplayName(), run.gpuDisplayName()))
            || (variation.passVaries && !sameText(previous->pass, run.pass))) {
            QString setLabel = run.provider;
            if (gpus.size() > 1)
                setLabel += QStringLiteral(" · ") + shortGpuName(run.gpuDisplayName());
            if (variation.passVaries)
                setLabel += QStringLiteral(" · ") + run.pass;
            previous = &run;
            auto s = setIndex.constFind(setLabel);
            if (s == setIndex.constEnd() && data.sets.size() < maxSeries) {
                s = setIndex.insert(setLabel, int(data.sets.size()));
                data.sets.append({ setLabel, run.provider, variants[run.provider]++ });
            }
            previousSet = s == setIndex.constEnd() ? -1 : *s;
        }
        if (previousSet < 0) {
            ++data.dropped;
            continue;
        }
        const int set = previousSet;
        const double ratio = pairs[i].ratio;
        // One bar per set and workload: of pairs of both (the same series measured again), the run's best
        // observation takes the bar (the one rule for repeated observations, as Rank); labels and markers of bars
        // never drawn would cost per pair, not per bar.
        const qint64 slot = qint64(set) << 32 | category;
        if (slot != lastSlot) { // pairs in a row of one set and workload share the bar: one lookup
            lastSlot = slot;
            const auto taken = barOf.constFind(slot);
            lastBar = taken == barOf.constEnd() ? -1 : *taken;
        }
        if (lastBar >= 0) {
            if (run.median < pairs[data.bars[lastBar].pair].run->median)
                data.bars[lastBar] = { set, category, i, ratio, pairs[i].verdict };
            ++data.shared;
        } else {
            lastBar = int(data.bars.size());
            barOf.insert(slot, lastBar);
            data.bars.append({ set, category, i, ratio, pairs[i].verdict });
        }
        if (std::isfinite(ratio))
            data.top = std::max(data.top, ratio);
    }
    data.axisLabels = data.categories;
    std::reverse(data.axisLabels.begin(), data.axisLabels.end());
    QStringList& rows = data.axisLabels;
    for (int i = 0; i < rows.size(); ++i) { // a category axis drops a repeated label, shifting every later one
        const QString label = rows[i];
        for (int n = 2; rows.indexOf(rows[i]) < i; ++n)
            rows[i] = label + QStringLiteral(" (%1)").arg(n);
    }
    if (!data.categories.isEmpty())
        data.categoryTitle = labeler.title();
    return variation.describeFixed();
}

} // namespace

QString ratioText(double ratio)
{
    return std::isfinite(ratio) ? QString::number(ratio, 'f', 2) + QStringLiteral("×") : QStringLiteral("–");
}

QString verdictSymbol(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Faster:
        return QStringLiteral("▲");
    case Verdict::Slower:
        return QStringLiteral("◆");
    case Verdict::Same:
        return QStringLiteral("●");
    case Verdict::Ambiguous:
        break;
    }
    return QStringLiteral("□");
}

QStringList summarizePairWarnings(const Comparison& comparison)
{
    std::map<QString, int> counts;
    QStringList order;
    for (const ComparisonPair& p : comparison.pairs) {
        for (const QString& w : p.warnings) {
            if (counts[w]++ == 0)
                order << w;
        }
    }
    QStringList out;
    const int shown = std::min<int>(int(order.size()), maxSummaryLines);
    for (int i = 0; i < shown; ++i)
        out << QStringLiteral("%1 (%2 pair%3)")
                   .arg(order[i])
                   .arg(counts[order[i]])
                   .arg(counts[order[i]] == 1 ? QString() : QStringLiteral("s"));
    if (order.size() > shown)
        out << QStringLiteral("and %1 more distinct warnings: see the pairs").arg(order.size() - shown);
    return out;
}

QStringList summarizePairNotes(const Comparison& comparison)
{
    NoteKindCounter counter; // the pairs' notes, not a list of them all (a million pairs hold several each)
    for (const ComparisonPair& p : comparison.pairs) {
        for (const QString& note : p.notes)
            counter.add(note);
    }
    QStringList out;
    const int total = int(comparison.pairs.size());
    for (const NoteKind& k : counter.kinds())
        out << QStringLiteral("%1: %2 of %3 pairs").arg(k.text).arg(k.count).arg(total);
    return out;
}

namespace {

// Why no pair could be made, and what to select instead (the first note of an empty speed-up).
QString emptyReason(const RunList& runs, const Baseline& baseline)
{
    QSet<QString> providers;
    QSet<QString> workloads;
    int latency = 0;
    for (const RunPtr& run : runs) {
        if (!run->isLatency() || run->failed())
            continue;
        ++latency;
        providers.insert(run->provider);
        workloads.insert(run->kernel + QLatin1Char('\n') + run->pass + QLatin1Char('\n') + run->workloadSlug
            + QLatin1Char('\n') + run->dtype);
    }
    QStringList names = providers.values();
    std::sort(names.begin(), names.end());
    if (latency == 0)
        return QStringLiteral("no latency runs to compare: select latency runs of two providers on one workload");
    if (baseline.isRun()) {
        return QStringLiteral("no other run shares the baseline run's kernel, pass and workload: select runs of that "
                              "workload, or choose another baseline");
    }
    if (providers.size() == 1) {
        return QStringLiteral("the %1 latency run%2 %3 of one provider (%4): select runs of two providers on one "
                              "workload")
            .arg(latency)
            .arg(latency == 1 ? QString() : QStringLiteral("s"))
            .arg(latency == 1 ? QStringLiteral("is") : QStringLiteral("are"))
            .arg(names.front());
    }
    const bool hasBaseline = std::any_of(
        baseline.providers.begin(), baseline.providers.end(), [&](const QString& p) { return providers.contains(p); });
    if (!hasBaseline) {
        return QStringLiteral("no baseline provider (%1) among these runs (%2): choose one of them as the baseline, or "
                              "select runs of %1")
            .arg(baseline.describe(), names.join(QStringLiteral(", ")));
    }
    return QStringLiteral("no workload has runs of both %1 and another provider: select runs of two providers on one "
                          "workload (%2 workloads in scope)")
        .arg(baseline.describe())
        .arg(workloads.size());
}

} // namespace

SpeedupData buildSpeedupData(
    const RunList& runs, const Baseline& baseline, int maxGroups, int maxSeries, const CancelToken& cancel)
{
    SpeedupData data;
    data.baseline = baseline.isEmpty() ? Baseline::defaultFor(runs, cancel) : baseline;
    data.comparison = compareRuns(runs, data.baseline, 0.05, cancel);
    const Comparison& comparison = data.comparison;
    data.title = QStringLiteral("Speed-up vs ") + data.baseline.describe();
    data.warnings = summarizePairWarnings(comparison);
    data.notes = comparison.notes + summarizePairNotes(comparison);
    if (comparison.pairs.isEmpty()) // why, and what to select: the banner shows it beside "Nothing to draw"
        data.notes.prepend(emptyReason(runs, data.baseline));

    RunList paired;
    const QString fixed = layOut(data, maxGroups, maxSeries, paired, cancel);
    data.xTitle
        = QStringLiteral("speed-up (×) = %1 median / run median; above 1× faster")
              .arg(comparison.baseline.isRun() ? QStringLiteral("baseline run") : comparison.baseline.describe());
    data.chartTitle
        = selectionTitle(paired, cancel) + QStringLiteral(" — speed-up vs ") + comparison.baseline.describe();

    QStringList means;
    for (const ProviderSummary& s : comparison.providers)
        means << providerSummaryLine(s);
    QStringList first;
    if (!means.isEmpty())
        first << QStringLiteral("geomean ") + means.join(QStringLiteral(" · "));
    if (!fixed.isEmpty())
        first << QStringLiteral("fixed: ") + fixed;
    if (!first.isEmpty())
        data.subtitles << first.join(QStringLiteral(" — "));
    // How verdicts are decided is in the legend's shapes, each bar's read-out and the table's "Why" column: the
    // title stays two lines so the plot keeps its height.
    if (std::any_of(comparison.pairs.cbegin(), comparison.pairs.cend(),
            [](const ComparisonPair& p) { return p.method == VerdictMethod::NvbenchNoise; }))
        data.subtitles << QStringLiteral("nvbench pairs: headline = mean cold GPU time; same when |%diff| ≤ the "
                                         "smaller relative stdev (nvbench_compare)");
    if (data.dropped > 0)
        data.subtitles << QStringLiteral("%1 pair(s) beyond %2 workloads / %3 sets not drawn")
                              .arg(data.dropped)
                              .arg(maxGroups)
                              .arg(maxSeries);
    if (data.shared > 0)
        data.subtitles << QStringLiteral(
            "%1 pair(s) share a bar with a later pair of the same workload and set: "
            "each bar shows the best observation (as Rank); the pairs table lists them all")
                              .arg(data.shared);
    QSet<QString> seen;
    for (const ComparisonPair& p : comparison.pairs) {
        for (const QString& w : p.warnings) {
            if (!seen.contains(w)) {
                seen.insert(w);
                data.pairWarnings << w;
            }
        }
    }
    return data;
}

QString speedupTooltip(const ComparisonPair& pair)
{
    const Run& r = *pair.run;
    const Run& b = *pair.baseline;
    QString text = QStringLiteral("%1 %2 — %3 than %4\n")
                       .arg(ratioText(pair.ratio), verdictSymbol(pair.verdict),
                           pair.verdict == Verdict::Ambiguous  ? QStringLiteral("ambiguous")
                               : pair.verdict == Verdict::Same ? QStringLiteral("no faster")
                                                               : verdictName(pair.verdict),
                           b.provider);
    text
        += QStringLiteral("%1 · %2 · %3 · %4\n")
               .arg(r.provider, shortGpuName(r.gpuDisplayName()), r.kernel + QLatin1Char(' ') + r.pass, r.workloadSlug);
    // One unit per figure: each run as the run table and Details show it (formatValue).
    text += QStringLiteral("median %1 vs %2 %3").arg(formatValue(r, r.median), b.provider, formatValue(b, b.median));
    if (b.gpuDisplayName() != r.gpuDisplayName())
        text += QStringLiteral(" (on %1)").arg(shortGpuName(b.gpuDisplayName()));
    text += QLatin1Char('\n');
    if (!pair.reason.isEmpty())
        text += QStringLiteral("verdict %1: %2\n").arg(verdictName(pair.verdict), pair.reason);
    for (const QString& w : pair.warnings)
        text += QStringLiteral("⚠ ") + w + QLatin1Char('\n');
    return text.trimmed();
}

QString providerSummaryLine(const ProviderSummary& s)
{
    QString line = QStringLiteral("%1 %2 (%3 pair%4")
                       .arg(s.provider, ratioText(s.geomean))
                       .arg(s.pairs)
                       .arg(s.pairs == 1 ? QString() : QStringLiteral("s"));
    if (s.gpus.size() > 1)
        line += QStringLiteral("; %1 GPUs").arg(s.gpus.size());
    if (s.passes.size() > 1)
        line += QStringLiteral("; %1 passes").arg(s.passes.size());
    return line + QLatin1Char(')');
}

} // namespace kix
