#include "ui/comparecli.h"

#include "model/comparisonreport.h"
#include "model/familycomparison.h"
#include "ui/clisupport.h"

namespace kix {

int compareCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Compare runs with a baseline: baseline median / median per workload, a verdict per pair "
        "(Mann-Whitney U where both runs carry samples, else p20-p80 overlap), the geometric mean "
        "per provider, and every comparability warning. Two nvbench files, or two Google Benchmark files, are "
        "compared as nvbench_compare.py and compare.py do."));
    parser.addPositionalArgument(
        QStringLiteral("PATH"), QStringLiteral("Run files or folders."), QStringLiteral("PATH..."));
    const QCommandLineOption filter(
        QStringLiteral("filter"), QStringLiteral("Only runs matching every word."), QStringLiteral("TEXT"));
    const QCommandLineOption baseline(QStringLiteral("baseline"),
        QStringLiteral("Baseline provider(s), comma-separated, or run:<externalId>. Default: huggingface, then "
                       "torch."),
        QStringLiteral("PROVIDER"));
    const QCommandLineOption format(QStringLiteral("format"), QStringLiteral("table (default), csv or json."),
        QStringLiteral("FORMAT"), QStringLiteral("table"));
    const QCommandLineOption alpha(QStringLiteral("alpha"), QStringLiteral("Significance level (default 0.05)."),
        QStringLiteral("A"), QStringLiteral("0.05"));
    parser.addOptions({ filter, baseline, format, alpha });
    if (const int code = CliSupport::parse(parser, QStringLiteral("compare"), args, out, err); code >= 0)
        return code;

    const QString fmt = parser.value(format);
    if (fmt != QLatin1String("table") && fmt != QLatin1String("csv") && fmt != QLatin1String("json")) {
        err << "kix compare: --format must be table, csv or json\n";
        return 2;
    }
    bool alphaOk = false;
    const double a = parser.value(alpha).toDouble(&alphaOk);
    if (!alphaOk || !(a > 0 && a < 1)) {
        err << "kix compare: --alpha must be a number between 0 and 1\n";
        return 2;
    }

    bool refused = false;
    const RunList runs = CliSupport::loadRuns(parser.positionalArguments(), parser.value(filter), err, &refused);
    // Two files of nvbench or of Google Benchmark: compared as that tool compares them (model/familycomparison.h).
    if (const auto family = parser.isSet(baseline) ? std::nullopt : compareFamilyFiles(runs, a)) {
        out << QString::fromUtf8(fmt == QLatin1String("json") ? familyComparisonToJson(*family)
                : fmt == QLatin1String("csv")                 ? familyComparisonToCsv(*family)
                                                              : familyComparisonToTable(*family));
        out.flush();
        return family->pairs.isEmpty() || refused ? 1 : 0;
    }
    Baseline base;
    QString error;
    if (!CliSupport::baselineFromOption(parser.value(baseline), runs, &base, &error)) {
        err << "kix compare: " << error << "\n";
        return 1;
    }
    const Comparison comparison = compareRuns(runs, base, a);
    if (fmt == QLatin1String("json"))
        out << QString::fromUtf8(comparisonToJson(comparison));
    else if (fmt == QLatin1String("csv"))
        out << QString::fromUtf8(comparisonToCsv(comparison));
    else
        out << QString::fromUtf8(comparisonToTable(comparison));
    out.flush();
    if (comparison.pairs.isEmpty()) {
        err << "kix compare: nothing to compare among " << runs.size() << " run(s)\n";
        return 1;
    }
    return refused ? 1 : 0;
}

} // namespace kix
