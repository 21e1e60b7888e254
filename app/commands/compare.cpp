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
    const QCommandLineOption alpha(QStringLiteral("alpha"), QStringLiteral("Significance level (default 0.05)."),
        QStringLiteral("A"), QStringLiteral("0.05"));
    cl.addOption(baseline);
    cl.addFormats({ QStringLiteral("table"), QStringLiteral("csv"), QStringLiteral("json") });
    cl.addOption(alpha);
    if (!cl.parse(args))
        return cl.exitCode();
    bool alphaOk = false;
    const double a = cl.value(alpha).toDouble(&alphaOk);
    if (!alphaOk || !(a > 0 && a < 1))
        return cl.usageError(QStringLiteral("--alpha must be a number between 0 and 1"));

    const RunList runs = cl.loadRuns();
    // Two files of nvbench or of Google Benchmark: compared as that tool compares them (model/toolcomparison.h).
    if (const auto family = cl.isSet(baseline) ? std::nullopt : compareFamilyFiles(runs, a)) {
        out << QString::fromUtf8(cl.format() == QLatin1String("json") ? toolComparisonToJson(*family)
                : cl.format() == QLatin1String("csv")                 ? toolComparisonToCsv(*family)
                                                                      : toolComparisonToTable(*family));
        out.flush();
        if (family->pairs.isEmpty())
            return cl.fail(QStringLiteral("nothing to compare between %1 and %2")
                               .arg(family->referenceFile, family->candidateFile));
        return cl.finish();
    }
    Baseline base;
    QString error;
    if (!baselineFromOption(cl.value(baseline), runs, &base, &error))
        return cl.fail(error);
    const Comparison comparison = compareRuns(runs, base, a);
    if (cl.format() == QLatin1String("json"))
        out << QString::fromUtf8(comparisonToJson(comparison));
    else if (cl.format() == QLatin1String("csv"))
        out << QString::fromUtf8(comparisonToCsv(comparison));
    else
        out << QString::fromUtf8(comparisonToTable(comparison));
    out.flush();
    if (comparison.pairs.isEmpty())
        return cl.fail(QStringLiteral("nothing to compare among %1 run(s)").arg(runs.size()));
    return cl.finish();
}

} // namespace kix::cli
