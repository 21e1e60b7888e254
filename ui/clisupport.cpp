#include "ui/clisupport.h"

#include "model/runfilter.h"
#include "model/runloader.h"

#include <QSet>

namespace kix {

int CliSupport::parse(
    QCommandLineParser& parser, const QString& command, const QStringList& args, QTextStream& out, QTextStream& err)
{
    const QCommandLineOption help({ QStringLiteral("h"), QStringLiteral("help") }, QStringLiteral("Show this help."));
    parser.addOption(help);
    if (!parser.parse(QStringList { QStringLiteral("kix ") + command } + args)) {
        err << "kix " << command << ": " << parser.errorText() << "\n";
        return 2;
    }
    if (parser.isSet(help)) {
        out << parser.helpText();
        return 0;
    }
    if (parser.positionalArguments().isEmpty()) {
        err << "kix " << command << ": no PATH given\n";
        return 2;
    }
    return -1;
}

RunList CliSupport::loadRuns(const QStringList& paths, const QString& filterText, QTextStream& err, bool* refused)
{
    const LoadResult result = loadPaths(paths);
    for (const Diagnostic& d : result.diagnostics)
        err << d.toString() << "\n";
    if (refused)
        *refused = result.refusedFiles > 0 || result.files == 0;
    if (result.files == 0)
        err << "kix: no run files found in " << paths.join(QStringLiteral(", ")) << "\n";
    RunFilter filter;
    filter.setText(filterText);
    return filter.apply(result.runs);
}

bool CliSupport::baselineFromOption(const QString& value, const RunList& runs, Baseline* baseline, QString* error)
{
    if (value.isEmpty()) {
        *baseline = Baseline::defaultFor(runs);
        return true;
    }
    if (value.startsWith(QLatin1String("run:"))) {
        const QString id = value.mid(4);
        for (const RunPtr& run : runs) {
            if (run->externalId == id || run->name == id) {
                *baseline = Baseline::ofRun(run);
                return true;
            }
        }
        *error = QStringLiteral("--baseline %1: no such run among the %2 selected").arg(value).arg(runs.size());
        return false;
    }
    QSet<QString> present;
    for (const RunPtr& run : runs)
        present.insert(run->provider);
    const QStringList providers = value.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& p : providers) {
        if (present.contains(p)) {
            *baseline = Baseline::ofProviders(providers);
            return true;
        }
    }
    QStringList known = present.values();
    std::sort(known.begin(), known.end());
    *error = QStringLiteral("--baseline %1: no runs of that provider among the %2 selected (providers: %3)")
                 .arg(value)
                 .arg(runs.size())
                 .arg(known.join(QStringLiteral(", ")));
    return false;
}

} // namespace kix
