// SPDX-License-Identifier: Apache-2.0
#include "model/compare/rankcohorts.h"

#include "model/statistics.h"
#include "model/workload.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace kix::ranking {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// The p20-p80 band a run records, or computes from its samples.
bool band(const Run& run, double& lo, double& hi)
{
    if (std::isfinite(run.p20) && std::isfinite(run.p80)) {
        lo = run.p20;
        hi = run.p80;
        return true;
    }
    if (run.samples.size() >= 2) {
        std::vector<double> sorted = run.samples;
        std::sort(sorted.begin(), sorted.end());
        lo = sortedQuantile(sorted, 0.2);
        hi = sortedQuantile(sorted, 0.8);
        return true;
    }
    return false;
}

double standardDeviation(const Run& run)
{
    for (const char* name : { "std", "stdev", "stddev" }) {
        const double s = run.statistic(QLatin1String(name));
        if (std::isfinite(s))
            return s;
    }
    return nan;
}

// The cohort and implementation of a run by the addresses of the texts their keys are made of: runs share
// interned strings, so most runs find their entry without building and hashing the key's text (CohortKey::id).
// Two addresses hold the same text while the runs are alive: the table lives for one ranking.
constexpr size_t keyTexts = 13;

struct KeyTexts
{
    std::array<const QChar*, keyTexts> data {};
    std::array<qsizetype, keyTexts> size {};
    int metric = 0;
    std::array<char, 71> strict {}; // the run's strict comparison key, when it has one (not interned: its text)

    static KeyTexts of(const Run& run, bool strictKey)
    {
        KeyTexts k;
        // Every field CohortKey::of, implementationName and implementationKeyOf read.
        const QString* texts[keyTexts] = { &run.kernel, &run.pass, &run.workloadSlug, &run.dtype, &run.gpuSlug,
            &run.gpuProduct, &run.protocolFamily, &run.protocolNotes, &run.headlineMetric, &run.headlineStatistic,
            &run.unit, &run.implementationDigest, &run.provider };
        for (size_t i = 0; i < keyTexts; ++i) {
            k.data[i] = texts[i]->constData();
            k.size[i] = texts[i]->size();
        }
        k.metric = int(run.metric);
        char text[71];
        if (strictKey && run.links().comparisonKey.sha256Text(text))
            std::copy(std::begin(text), std::end(text), k.strict.begin());
        return k;
    }
    bool operator==(const KeyTexts& o) const
    {
        return data == o.data && size == o.size && metric == o.metric && strict == o.strict;
    }
};

size_t qHash(const KeyTexts& k, size_t seed = 0)
{
    size_t h = qHashMulti(seed, k.metric, QByteArrayView(k.strict.data(), qsizetype(k.strict.size())));
    for (size_t i = 0; i < keyTexts; ++i)
        h = qHashMulti(h, quintptr(k.data[i]), k.size[i]);
    return h;
}

} // namespace

QString implementationName(const Run& run)
{
    if (!run.links().implementationTitle.isEmpty() || !run.links().authors.isEmpty())
        return run.implementationLabel(); // "brandonin · submission 555004"
    for (const QString* s : { &run.provider, &run.title, &run.name, &run.externalId }) {
        if (!s->isEmpty())
            return *s;
    }
    return QStringLiteral("(unnamed)");
}

QString implementationKeyOf(const Run& run)
{
    return run.implementationDigest.isEmpty() ? QStringLiteral("provider:") + run.provider : run.implementationDigest;
}

void judge(const Run& best, const Run& run, double alpha, RankEntry& entry)
{
    if (best.median == run.median) {
        entry.distinguishable = Distinguishable::No;
        entry.evidence = QStringLiteral("equal values");
        return;
    }
    if (best.samples.size() >= 2 && run.samples.size() >= 2) {
        const MannWhitneyResult mw = mannWhitneyU(run.samples, best.samples);
        if (mw.valid) {
            entry.pValue = mw.p;
            entry.distinguishable = mw.p < alpha ? Distinguishable::Yes : Distinguishable::No;
            entry.evidence = QStringLiteral("Mann–Whitney p = %1 (%2 %3 samples)")
                                 .arg(QString::number(mw.p, 'g', 3))
                                 .arg(run.samples.size())
                                 .arg(best.samples.size());
            return;
        }
    }
    double blo, bhi, rlo, rhi;
    if (band(best, blo, bhi) && band(run, rlo, rhi)) {
        const bool apart = rlo > bhi || rhi < blo;
        entry.distinguishable = apart ? Distinguishable::Yes : Distinguishable::No;
        entry.evidence = apart ? QStringLiteral("p20–p80 bands apart") : QStringLiteral("p20–p80 bands overlap");
        return;
    }
    const double bs = standardDeviation(best);
    const double rs = standardDeviation(run);
    if (std::isfinite(bs) && std::isfinite(rs)) {
        const bool apart = std::abs(run.median - best.median) > bs + rs;
        entry.distinguishable = apart ? Distinguishable::Yes : Distinguishable::No;
        entry.evidence = apart ? QStringLiteral("value ± std apart") : QStringLiteral("value ± std overlap");
        return;
    }
    entry.distinguishable = Distinguishable::Unknown;
    entry.evidence = QStringLiteral("no noise recorded");
}

bool cohortLess(const RankCohort& a, const RankCohort& b)
{
    const CohortKey& x = a.key;
    const CohortKey& y = b.key;
    if (x.kernel != y.kernel)
        return x.kernel < y.kernel;
    if (x.pass != y.pass)
        return x.pass < y.pass;
    if (x.workload != y.workload) {
        const Run* ra = a.entries.isEmpty() ? nullptr : a.entries.front().bestRun.get();
        const Run* rb = b.entries.isEmpty() ? nullptr : b.entries.front().bestRun.get();
        if (ra && rb) {
            if (const int c = compareWorkloads(*ra, *rb); c != 0)
                return c < 0;
        }
        return x.workload < y.workload;
    }
    return x.id() < y.id();
}

QString keyWithoutMetric(const CohortKey& k)
{
    if (k.isStrict())
        return QStringLiteral("strict\x1f") + k.digests;
    return QStringList { k.kernel, k.pass, k.workload, k.dtype, k.gpu, k.protocol }.join(QLatin1Char('\x1f'));
}

CohortKey cohortKeyOf(const Run& run, CohortScope scope)
{
    return scope == CohortScope::Family ? CohortKey::familyOf(run) : CohortKey::of(run);
}

bool groupRuns(const RunList& runs, CohortScope scope, Ranking& ranking, QHash<QString, int>& cohortIndex,
    RunList& failedRuns, const CancelToken& cancel)
{
    QHash<QString, QHash<QString, int>> entryIndex; // cohort id -> implementation key -> entry
    // A passed run with a headline value -> its cohort and entry, by the addresses of its key's texts.
    QHash<KeyTexts, QPair<int, int>> byTexts;
    for (qsizetype r = 0; r < runs.size(); ++r) {
        if (cancel.cancelledEvery(r))
            return false; // superseded: partial, dropped by the caller
        const RunPtr& run = runs[r];
        if (run->failed()) {
            failedRuns << run;
            continue;
        }
        const bool ranked = std::isfinite(run->median);
        const KeyTexts texts = ranked ? KeyTexts::of(*run, scope == CohortScope::Strict) : KeyTexts {};
        if (ranked) {
            const auto known = byTexts.constFind(texts);
            if (known != byTexts.constEnd()) {
                ranking.cohorts[known->first].entries[known->second].runs.append(run);
                continue;
            }
        }
        const CohortKey key = cohortKeyOf(*run, scope);
        const QString id = key.id();
        auto c = cohortIndex.constFind(id);
        if (c == cohortIndex.constEnd()) {
            c = cohortIndex.insert(id, int(ranking.cohorts.size()));
            ranking.cohorts.append(RankCohort { key, {}, {}, {} });
        }
        RankCohort& cohort = ranking.cohorts[*c];
        if (!std::isfinite(run->median)) {
            cohort.unranked.append({ run, implementationName(*run), QStringLiteral("no headline value") });
            continue;
        }
        QHash<QString, int>& entries = entryIndex[id];
        const QString implKey = implementationKeyOf(*run);
        auto e = entries.constFind(implKey);
        if (e == entries.constEnd()) {
            e = entries.insert(implKey, int(cohort.entries.size()));
            RankEntry entry;
            entry.implementation = implementationName(*run);
            entry.implementationKey = implKey;
            cohort.entries.append(entry);
        }
        cohort.entries[*e].runs.append(run);
        byTexts.insert(texts, { *c, *e });
    }
    return true;
}

void placeFailedRuns(const RunList& failedRuns, CohortScope scope, Ranking& ranking, QHash<QString, int>& cohortIndex)
{
    QHash<QString, int> byWorkload;
    for (int i = 0; i < ranking.cohorts.size(); ++i)
        byWorkload.insert(keyWithoutMetric(ranking.cohorts[i].key), i); // the last one; any will do
    for (const RunPtr& run : std::as_const(failedRuns)) {
        const CohortKey key = cohortKeyOf(*run, scope);
        int index = cohortIndex.value(key.id(), -1);
        if (index < 0)
            index = byWorkload.value(keyWithoutMetric(key), -1);
        if (index < 0) {
            index = int(ranking.cohorts.size());
            cohortIndex.insert(key.id(), index);
            byWorkload.insert(keyWithoutMetric(key), index);
            ranking.cohorts.append(RankCohort { key, {}, {}, {} });
        }
        ranking.cohorts[index].failed.append({ run, implementationName(*run), run->status });
    }
}

void rankCohort(RankCohort& cohort, double alpha, CohortScope scope)
{
    // Two implementations that share a name are told apart by their digest.
    QHash<QString, int> names;
    for (const RankEntry& e : std::as_const(cohort.entries))
        ++names[e.implementation];
    for (RankEntry& e : cohort.entries) {
        std::stable_sort(
            e.runs.begin(), e.runs.end(), [](const RunPtr& a, const RunPtr& b) { return a->median < b->median; });
        e.count = int(e.runs.size());
        e.bestRun = e.runs.front();
        e.best = e.bestRun->median;
        std::vector<double> values;
        for (const RunPtr& r : std::as_const(e.runs))
            values.push_back(r->median);
        e.median = sortedQuantile(values, 0.5);
        if (names.value(e.implementation) > 1 && !e.bestRun->implementationDigest.isEmpty())
            e.implementation
                += QStringLiteral(" (%1)").arg(e.bestRun->implementationDigest.section(QLatin1Char(':'), -1).left(12));
    }
    std::stable_sort(cohort.entries.begin(), cohort.entries.end(), [](const RankEntry& a, const RankEntry& b) {
        if (a.best != b.best)
            return a.best < b.best;
        return a.implementation < b.implementation;
    });
    for (int i = 0; i < cohort.entries.size(); ++i) {
        RankEntry& e = cohort.entries[i];
        const RankEntry& top = cohort.entries.front();
        e.rank = i == 0 ? 1 : cohort.entries[i - 1].rank + (e.best == cohort.entries[i - 1].best ? 0 : 1);
        e.ratio = top.best > 0 ? e.best / top.best : (e.best == top.best ? 1.0 : nan);
        if (i == 0) {
            e.distinguishable = Distinguishable::Best;
            e.evidence = QStringLiteral("best");
        } else {
            judge(*top.bestRun, *e.bestRun, alpha, e);
        }
        if (scope == CohortScope::Family) {
            e.differences = strictKeyDifferences(*top.bestRun, *e.bestRun);
            QStringList parts; // "protocol", "environment": named in the label, in full in differences
            for (const QString& d : std::as_const(e.differences))
                parts << d.section(QLatin1Char(' '), 0, 0);
            if (!parts.isEmpty())
                e.implementation += QStringLiteral(" (≠ %1)").arg(parts.join(QStringLiteral(", ")));
        }
    }
}

} // namespace kix::ranking
