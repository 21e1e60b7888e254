// SPDX-License-Identifier: Apache-2.0
// kix rank PATH... [--filter TEXT] [--format table|csv|json] [--alpha A] [--scope strict|family]
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "model/compare/rank.h"
#include "model/compare/rankreport.h"

namespace kix::cli {

int rankCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    CommandLine cl(QStringLiteral("rank"),
        QStringLiteral(
            "Ranks implementations, best first (lower is better), within each cohort of comparable runs: the same "
            "operation, workload, protocol, environment, correctness spec and metric: the format's strict comparison "
            "key, where a run links its workload document; else (a run without one, or --scope family) the same "
            "kernel and pass, workload (parameters and dtype), GPU, protocol family and headline metric "
            "(statistic and unit), labelled as such; never across cohorts. With --scope family, runs of different "
            "protocol versions or environments rank together and each entry names how it differs from the best. Each "
            "implementation shows its best value, the median "
            "and count of its observations (repeated observations are summarised, not ranked against each other), "
            "its ratio to the best, and whether it is distinguishable from the best: Mann-Whitney U where both "
            "carry samples, else p20-p80 bands, else value ± std, else \"no noise recorded\". Failed runs are "
            "listed under their cohort, unranked. kix's own engine runs rank beside Liger's runs of the same "
            "workload and GPU (both use the do_bench protocol). Exit 1 when an input is refused (the rest is "
            "ranked) or when nothing can be ranked."),
        out, err);
    cl.addPaths();
    cl.addFilter();
    cl.addFormats({ QStringLiteral("table"), QStringLiteral("csv"), QStringLiteral("json") });
    cl.addAlpha();
    const QCommandLineOption scopeOption(QStringLiteral("scope"),
        QStringLiteral("strict (the format's comparison key, the default) or family (wider: across protocol "
                       "versions and environments, every difference named)."),
        QStringLiteral("SCOPE"), QStringLiteral("strict"));
    cl.addOption(scopeOption);
    if (!cl.parse(args))
        return cl.exitCode();
    const QString scopeName = cl.value(scopeOption);
    if (scopeName != QLatin1String("strict") && scopeName != QLatin1String("family"))
        return cl.usageError(QStringLiteral("--scope is strict or family, not \"%1\"").arg(scopeName));
    const CohortScope scope = scopeName == QLatin1String("family") ? CohortScope::Family : CohortScope::Strict;

    const RunList runs = cl.loadRuns();
    const Ranking ranking = rankRuns(runs, cl.alpha(), scope);
    cl.print(ranking, rankingToJson, rankingToCsv, rankingToTable);
    if (ranking.largestCohort() < 0)
        return cl.fail(QStringLiteral("nothing to rank among %1 run(s)").arg(runs.size()));
    return cl.finish();
}

} // namespace kix::cli
