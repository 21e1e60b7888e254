// SPDX-License-Identifier: Apache-2.0
// kix compare PATH... [--filter TEXT] [--baseline PROVIDER] [--format table|csv|json] [--alpha A]
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "model/compare/comparisonreport.h"
#include "model/compare/toolcomparison.h"
#include "model/compare/toolcomparisonreport.h"

namespace kix::cli {

int compareCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    CommandLine cl(QStringLiteral("compare"),
        QStringLiteral(
            "Compares runs with a baseline: baseline median / median per workload, a verdict per pair "
            "(Mann-Whitney U where both runs carry samples, else p20-p80 overlap), the geometric mean "
            "per provider, and every comparability warning. Exit 1 when an input is refused (the rest "
            "is compared), when nothing can be compared or when the baseline names nothing. Two nvbench files, or two "
            "Google Benchmark files, without --baseline are compared as nvbench_compare.py and "
            "compare.py do."),
        out, err);
    cl.addPaths();
    cl.addFilter();
    const QCommandLineOption baseline(QStringLiteral("baseline"),
        QStringLiteral("Baseline provider(s), comma-separated, or run:<externalId>. Default: huggingface, then "
                       "torch."),
        QStringLiteral("PROVIDER"));
    cl.addOption(baseline);
    cl.addFormats({ QStringLiteral("table"), QStringLiteral("csv"), QStringLiteral("json") });
    cl.addAlpha(QStringLiteral("Significance level (default 0.05)."));
    if (!cl.parse(args))
        return cl.exitCode();

    const RunList runs = cl.loadRuns();
    // Two files of nvbench or of Google Benchmark: compared as that tool compares them (model/toolcomparison.h).
    if (const auto family = cl.isSet(baseline) ? std::nullopt : compareFamilyFiles(runs, cl.alpha())) {
        cl.print(*family, toolComparisonToJson, toolComparisonToCsv, toolComparisonToTable);
        if (family->pairs.isEmpty())
            return cl.fail(QStringLiteral("nothing to compare between %1 and %2")
                               .arg(family->referenceFile, family->candidateFile));
        return cl.finish();
    }
    Baseline base;
    QString error;
    if (!baselineFromOption(cl.value(baseline), runs, &base, &error))
        return cl.fail(error);
    const Comparison comparison = compareRuns(runs, base, cl.alpha());
    cl.print(comparison, comparisonToJson, comparisonToCsv, comparisonToTable);
    if (comparison.pairs.isEmpty())
        return cl.fail(QStringLiteral("nothing to compare among %1 run(s)").arg(runs.size()));
    return cl.finish();
}

} // namespace kix::cli
