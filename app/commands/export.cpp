// kix export PATH... --out FILE [--filter TEXT]: the loaded runs, as loaded, in one file.
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "model/write/runwriter.h"

namespace kix::cli {

int exportCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    CommandLine cl(QStringLiteral("export"),
        QStringLiteral("Writes every loaded run, as loaded, to one file (.json, .jsonl or .csv by its extension); "
                       "the file is replaced atomically. Refused inputs are named and left out."),
        out, err);
    cl.addPaths(QStringLiteral("Files or folders (searched recursively)."));
    cl.addOption({ QStringLiteral("out"), QStringLiteral("The file to write (.json, .jsonl or .csv)."),
        QStringLiteral("FILE") });
    cl.addFilter();
    if (!cl.parse(args))
        return cl.exitCode();
    const QString target = cl.value(QStringLiteral("out"));
    if (target.isEmpty())
        return cl.usageError(QStringLiteral("--out FILE is required"));
    const auto format = exportFormatForPath(target);
    if (!format)
        return cl.usageError(QStringLiteral("%1: unknown extension (use .json, .jsonl or .csv)").arg(target));
    const RunList runs = cl.loadRuns();
    QString error;
    if (!writeRuns(runs, target, *format, &error))
        return cl.fail(error);
    out << "wrote " << runs.size() << " runs to " << target << "\n";
    return cl.finish();
}

} // namespace kix::cli
