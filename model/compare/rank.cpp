// SPDX-License-Identifier: Apache-2.0
#include "model/compare/rank.h"

#include "model/chartdata/timescale.h"
#include "model/compare/rankcohorts.h"
#include "model/statistics.h"
#include "model/workload.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <array>
#include <cmath>

namespace kix {

namespace {

QString gpuKeyOf(const Run& run)
{
    return run.gpuSlug.isEmpty() ? run.gpuProduct.toLower() : run.gpuSlug;
}

} // namespace

using namespace ranking;

QString rankProtocolFamily(const Run& run)
{
    if (run.protocolFamily != QLatin1String("kix_engine"))
        return run.protocolFamily;
    if (run.protocolNotes.contains(QLatin1String("CUDA graph")))
        return QStringLiteral("kix_engine_cuda_graph");
    return QStringLiteral("liger_kernel_bench");
}

CohortKey CohortKey::of(const Run& run)
{
    CohortKey k = familyOf(run);
    if (!run.links().comparisonKey.isEmpty()) {
        k.strict = run.links().comparisonKey.toString();
        k.digests
            = QStringList { run.workloadDigest, run.protocolDigest, run.environmentDigest }.join(QLatin1Char('\x1f'));
        k.missing.clear();
        k.widened = false;
    }
    return k;
}

CohortKey CohortKey::familyOf(const Run& run)
{
    CohortKey k;
    k.kernel = run.kernel;
    k.pass = run.pass;
    k.workload = run.workloadSlug;
    k.workloadTitle = run.links().workloadTitle;
    k.dtype = run.dtype;
    k.gpu = gpuKeyOf(run);
    k.gpuName = run.gpuDisplayName();
    k.protocol = rankProtocolFamily(run);
    k.metric = run.metricName();
    k.statistic = run.headlineStatistic;
    k.unit = run.unit;
    k.missing = run.strictKeyMissing();
    k.widened = !run.links().comparisonKey.isEmpty();
    return k;
}

QStringList strictKeyDifferences(const Run& best, const Run& run)
{
    // QString, not auto: with QStringBuilder, auto would return a builder over the destroyed mid()
    auto shortDigest
        = [](const QString& d) -> QString { return d.mid(d.indexOf(QLatin1Char(':')) + 1, 12) + QChar(0x2026); };
    auto differ = [&](const char* what, const QString& a, const QString& b) -> QString {
        return QStringLiteral("%1 %2 vs %3").arg(QLatin1String(what), shortDigest(a), shortDigest(b));
    };
    QStringList out;
    if (best.operationDigest != run.operationDigest)
        out << differ("operation", run.operationDigest, best.operationDigest);
    if (best.workloadDigest != run.workloadDigest)
        out << differ("workload", run.workloadDigest, best.workloadDigest);
    if (best.protocolDigest != run.protocolDigest) {
        QString text = differ("protocol", run.protocolDigest, best.protocolDigest);
        if (run.links().protocolName != best.links().protocolName)
            text += QStringLiteral(": %1 vs %2").arg(run.links().protocolName, best.links().protocolName);
        out << text;
    }
    if (best.environmentDigest != run.environmentDigest) {
        QStringList software; // the software versions that differ, where the environments say
        for (const KeyValue& kv : run.software) {
            const auto other = std::find_if(
                best.software.cbegin(), best.software.cend(), [&kv](const KeyValue& o) { return o.key == kv.key; });
            if (other == best.software.cend() || other->value != kv.value)
                software << QStringLiteral("%1 %2 vs %3")
                                .arg(kv.key, kv.value,
                                    other == best.software.cend() ? QStringLiteral("(none)") : other->value);
        }
        QString text = differ("environment", run.environmentDigest, best.environmentDigest);
        if (!software.isEmpty())
            text += QStringLiteral(": ") + software.join(QStringLiteral(", "));
        out << text;
    }
    if (best.links().comparisonKey != run.links().comparisonKey && out.isEmpty())
        out << QStringLiteral("correctness or metric");
    return out;
}

QString CohortKey::scopeText() const
{
    if (isStrict())
        return QStringLiteral("strict key %1…").arg(QStringView(strict).mid(strict.indexOf(QLatin1Char(':')) + 1, 12));
    if (widened)
        return QStringLiteral("family-level key, widened by request: each entry names how it differs from the best");
    return QStringLiteral("family-level key (no %1)").arg(missing.join(QStringLiteral(", ")));
}

QString CohortKey::id() const
{
    if (isStrict())
        return QStringLiteral("strict\x1f") + strict;
    return QStringList { kernel, pass, workload, dtype, gpu, protocol, metric, statistic, unit }.join(
        QLatin1Char('\x1f'));
}

QString CohortKey::describe() const
{
    QString operation = kernel.isEmpty() ? QStringLiteral("(no kernel)") : kernel;
    if (!pass.isEmpty())
        operation += QLatin1Char(' ') + pass;
    QString work = !workload.isEmpty() ? workload
        : !workloadTitle.isEmpty()     ? workloadTitle
                                       : QStringLiteral("(no workload)");
    if (!dtype.isEmpty() && !work.contains(dtype))
        work += QLatin1Char(' ') + dtype;
    return QStringLiteral("%1 · %2 · %3 · %4 · %5 %6 (%7)")
        .arg(operation, work, gpuName.isEmpty() ? QStringLiteral("(no GPU)") : gpuName,
            protocol.isEmpty() ? QStringLiteral("(no protocol family)") : protocol, metric, statistic, unit);
}

QString distinguishableName(Distinguishable d)
{
    switch (d) {
    case Distinguishable::Best:
        return QStringLiteral("best");
    case Distinguishable::Yes:
        return QStringLiteral("yes");
    case Distinguishable::No:
        return QStringLiteral("no");
    case Distinguishable::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

int RankCohort::runCount() const
{
    int n = int(failed.size() + unranked.size());
    for (const RankEntry& e : entries)
        n += e.count;
    return n;
}

QStringList RankCohort::protocolFamilies() const
{
    QStringList out;
    const QString* last = nullptr; // runs in a row of one family: no search of the list
    auto add = [&out, &last](const Run& run) {
        if (last && sameText(*last, run.protocolFamily))
            return;
        last = &run.protocolFamily;
        if (!out.contains(run.protocolFamily))
            out << run.protocolFamily;
    };
    for (const RankEntry& e : entries) {
        for (const RunPtr& r : e.runs)
            add(*r);
    }
    for (const UnrankedRun& u : failed)
        add(*u.run);
    std::sort(out.begin(), out.end());
    return out;
}

int Ranking::largestCohort() const
{
    int best = -1;
    for (int i = 0; i < cohorts.size(); ++i) {
        if (cohorts[i].entries.isEmpty())
            continue;
        if (best < 0 || cohorts[i].entries.size() > cohorts[best].entries.size()
            || (cohorts[i].entries.size() == cohorts[best].entries.size()
                && cohorts[i].runCount() > cohorts[best].runCount()))
            best = i;
    }
    return best;
}

int Ranking::cohortOf(const RunPtr& run) const
{
    for (int i = 0; i < cohorts.size(); ++i) {
        for (const RankEntry& e : cohorts[i].entries) {
            if (e.runs.contains(run))
                return i;
        }
        for (const UnrankedRun& u : cohorts[i].failed) {
            if (u.run == run)
                return i;
        }
    }
    return -1;
}

int Ranking::findCohort(const QString& id) const
{
    for (int i = 0; i < cohorts.size(); ++i) {
        if (cohorts[i].key.id() == id)
            return i;
    }
    return -1;
}

Ranking rankRuns(const RunList& runs, double alpha, CohortScope scope, const CancelToken& cancel)
{
    Ranking ranking;
    ranking.alpha = alpha;
    QHash<QString, int> cohortIndex;
    RunList failedRuns;
    if (!groupRuns(runs, scope, ranking, cohortIndex, failedRuns, cancel))
        return ranking; // superseded: partial, dropped by the caller
    placeFailedRuns(failedRuns, scope, ranking, cohortIndex);

    for (RankCohort& cohort : ranking.cohorts) {
        if (cancel.cancelled())
            return ranking; // superseded: partial, dropped by the caller
        rankCohort(cohort, alpha, scope);
    }
    std::stable_sort(ranking.cohorts.begin(), ranking.cohorts.end(), cohortLess);
    int families = 0;
    for (const RankCohort& c : std::as_const(ranking.cohorts)) {
        if (cancel.cancelled())
            return ranking;
        families += c.protocolFamilies().size() > 1 ? 1 : 0;
    }
    if (families > 0)
        ranking.notes << QStringLiteral(
            "%1 cohort(s) rank kix engine runs with liger_kernel_bench runs: both time with the do_bench protocol")
                             .arg(families);
    return ranking;
}

QString observationRuleText()
{
    return QStringLiteral("repeated observations: each implementation is its best observation (the lowest value); "
                          "ratios are best / best");
}

QString rankingPolicyText()
{
    return QStringLiteral(
        "ranks follow the format's ranking-v1: dense, equal values share a rank (no run here declares "
        "a confidence interval, so none ties by overlap; leaderboard scores keep the upstream "
        "order); failed runs are listed, never ranked; \"vs best\" is kix's own test and names it "
        "(Mann–Whitney on raw samples, else the p20–p80 bands, else value ± std)");
}

QString formatRankValue(double value, const QString& unit)
{
    if (!std::isfinite(value))
        return QStringLiteral("–");
    if (unit == QLatin1String("ns"))
        return chooseTimeScale({ value }).format(value);
    return QString::number(value, 'g', 4) + (unit.isEmpty() ? QString() : QLatin1Char(' ') + unit);
}

QString rankRatioText(double ratio)
{
    return std::isfinite(ratio) ? QString::number(ratio, 'f', 2) + QStringLiteral("×") : QStringLiteral("–");
}

} // namespace kix
