// SPDX-License-Identifier: Apache-2.0
#include "model/compare/toolcomparison.h"

#include "model/compare/comparability.h"
#include "model/statistics.h"

#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace kix {

namespace {

const QString kNvbench = QStringLiteral("nvbench_cold");
const QString kGbench = QStringLiteral("gbench");

double measurementOf(const Run& run, const QString& metric)
{
    for (const Measurement& m : run.measurements) {
        if (m.metric == metric)
            return m.value;
    }
    return std::nan("");
}

QString pairKey(const Run& run)
{
    return run.kernel + QLatin1Char('\n') + run.workloadSlug + QLatin1Char('\n') + run.gpuDisplayName();
}

// Runs of the reference and candidate with equal keys, in the candidate's order (as both tools print them).
template<class F>
void forEachMatch(const RunList& reference, const RunList& candidate, ToolComparison& c, F&& f)
{
    QHash<QString, RunPtr> byKey;
    for (const RunPtr& r : reference)
        byKey.insert(pairKey(*r), r);
    int unmatched = 0;
    for (const RunPtr& run : candidate) {
        const RunPtr ref = byKey.take(pairKey(*run));
        if (!ref) {
            ++unmatched;
            continue;
        }
        f(ref, run);
    }
    if (unmatched > 0)
        c.notes << QStringLiteral("%1 run(s) of the candidate have no counterpart in the reference").arg(unmatched);
    if (!byKey.isEmpty())
        c.notes << QStringLiteral("%1 run(s) of the reference have no counterpart in the candidate").arg(byKey.size());
}

bool timed(const Run& run)
{
    return std::isfinite(run.median) && (run.status.isEmpty() || run.status == QLatin1String("passed"));
}

double change(double oldValue, double newValue)
{
    if (oldValue == 0 && newValue == 0)
        return 0;
    if (oldValue == 0)
        return (newValue - oldValue) / ((oldValue + newValue) / 2);
    return (newValue - oldValue) / std::abs(oldValue);
}

double meanOf(const Run& run)
{
    const double mean = run.statistic(QStringLiteral("mean"));
    return std::isfinite(mean) ? mean : run.median;
}

} // namespace

QString nvbenchStatus(double referenceTime, double candidateTime, double referenceNoise, double candidateNoise)
{
    // The smaller of the two noises; one side's when only one records it.
    double noise = std::nan("");
    if (std::isfinite(referenceNoise) && std::isfinite(candidateNoise))
        noise = std::min(referenceNoise, candidateNoise);
    else
        noise = std::isfinite(referenceNoise) ? referenceNoise : candidateNoise;
    if (!(noise > 0))
        return QStringLiteral("unknown");
    const double diff = candidateTime - referenceTime;
    if (std::abs(diff / referenceTime) <= noise)
        return QStringLiteral("same");
    return diff < 0 ? QStringLiteral("faster") : QStringLiteral("slower");
}

double relativeNoise(const Run& run)
{
    return measurementOf(run, QStringLiteral("latency_noise"));
}

ToolComparison compareNvbench(const RunList& reference, const RunList& candidate)
{
    ToolComparison c;
    c.family = kNvbench;
    int skipped = 0;
    forEachMatch(reference, candidate, c, [&](const RunPtr& ref, const RunPtr& cmp) {
        if (!timed(*ref) || !timed(*cmp)) {
            ++skipped;
            return;
        }
        FamilyPair p;
        p.reference = ref;
        p.candidate = cmp;
        p.name = ref->title;
        p.referenceTime = ref->median;
        p.candidateTime = cmp->median;
        p.referenceNoise = relativeNoise(*ref);
        p.candidateNoise = relativeNoise(*cmp);
        p.diff = p.candidateTime - p.referenceTime;
        p.fracDiff = p.diff / p.referenceTime;
        p.status = nvbenchStatus(p.referenceTime, p.candidateTime, p.referenceNoise, p.candidateNoise);
        p.warnings = assessComparability(*ref, *cmp).warnings;
        c.pairs.append(p);
    });
    if (skipped > 0)
        c.notes << QStringLiteral("%1 pair(s) not compared: a state was skipped or has no time").arg(skipped);
    return c;
}

ToolComparison compareGbench(const RunList& reference, const RunList& candidate, double alpha)
{
    ToolComparison c;
    c.family = kGbench;
    c.alpha = alpha;
    int skipped = 0;
    bool fewRepetitions = false;
    forEachMatch(reference, candidate, c, [&](const RunPtr& ref, const RunPtr& cmp) {
        if (!timed(*ref) || !timed(*cmp)) {
            ++skipped;
            return;
        }
        FamilyPair p;
        p.reference = ref;
        p.candidate = cmp;
        p.name = ref->title;
        p.referenceTime = meanOf(*ref);
        p.candidateTime = meanOf(*cmp);
        p.timeChange = change(p.referenceTime, p.candidateTime);
        p.referenceCpu = measurementOf(*ref, QStringLiteral("cpu_time"));
        p.candidateCpu = measurementOf(*cmp, QStringLiteral("cpu_time"));
        p.cpuChange = change(p.referenceCpu, p.candidateCpu);
        p.referenceRepetitions = std::max<int>(1, static_cast<int>(ref->samples.size()));
        p.candidateRepetitions = std::max<int>(1, static_cast<int>(cmp->samples.size()));
        // compare.py's rule: a U test only when every side has at least two repetitions of each time.
        const std::size_t fewest
            = std::min({ ref->samples.size(), cmp->samples.size(), ref->cpuSamples.size(), cmp->cpuSamples.size() });
        if (fewest >= 2) {
            p.timePValue = mannWhitneyU(ref->samples, cmp->samples).p;
            p.cpuPValue = mannWhitneyU(ref->cpuSamples, cmp->cpuSamples).p;
            fewRepetitions = fewRepetitions || fewest < 9;
        }
        p.warnings = assessComparability(*ref, *cmp).warnings;
        c.pairs.append(p);
    });
    if (skipped > 0)
        c.notes << QStringLiteral("%1 pair(s) not compared: a run failed, was skipped or has no time").arg(skipped);
    if (fewRepetitions)
        c.notes << QStringLiteral("fewer than 9 repetitions on a side: the U test is unreliable (as compare.py warns)");
    return c;
}

int referenceFileIndex(const QString& first, const QString& second)
{
    auto namesReference = [](const QString& file) {
        static const QRegularExpression separators(QStringLiteral("[^A-Za-z0-9]+"));
        const QStringList words = QFileInfo(file).completeBaseName().toLower().split(separators, Qt::SkipEmptyParts);
        return std::any_of(words.begin(), words.end(), [](const QString& w) {
            return w == QLatin1String("ref") || w == QLatin1String("reference") || w == QLatin1String("base")
                || w == QLatin1String("baseline");
        });
    };
    return namesReference(second) && !namesReference(first) ? 1 : 0;
}

namespace {

// The two files of `runs` in the order given, when they are all of one family with its own comparison.
bool familyFiles(const RunList& runs, QStringList& files, QString& family)
{
    for (const RunPtr& run : runs) {
        if (!files.contains(run->file))
            files << run->file;
        if (family.isEmpty())
            family = run->protocolFamily;
        if (run->protocolFamily != family || files.size() > 2 || (family != kNvbench && family != kGbench))
            return false; // (at the first run of any other family: Liger's million rows are not read)
    }
    if (files.size() != 2)
        return false;
    if (referenceFileIndex(files[0], files[1]) == 1)
        files.swapItemsAt(0, 1);
    return true;
}

} // namespace

QString toolReferenceProvider(const RunList& runs)
{
    QStringList files;
    QString family;
    if (!familyFiles(runs, files, family))
        return {};
    for (const RunPtr& run : runs) {
        if (run->file == files[0] && run->isLatency())
            return run->provider;
    }
    return {};
}

std::optional<ToolComparison> compareFamilyFiles(const RunList& runs, double alpha)
{
    QStringList files;
    QString family;
    if (!familyFiles(runs, files, family))
        return std::nullopt;
    RunList reference, candidate;
    for (const RunPtr& run : runs)
        (run->file == files[0] ? reference : candidate).append(run);
    ToolComparison c
        = family == kNvbench ? compareNvbench(reference, candidate) : compareGbench(reference, candidate, alpha);
    c.referenceFile = files[0];
    c.candidateFile = files[1];
    return c;
}

} // namespace kix
