// SPDX-License-Identifier: Apache-2.0
// kix export PATH... --out FILE [--filter TEXT]: the loaded runs, as loaded, in one file.
// kix export PATH... --bundle FILE: a submission bundle of the format.
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "model/write/bundlewriter.h"
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
    cl.addOption({ QStringLiteral("bundle"),
        QStringLiteral("Write a submission bundle of the format instead (JSON; .yaml writes the same text, which is "
                       "YAML): the runs with their protocols and environments, and the workloads, operations, "
                       "implementations and projects they link to when known. Runs that are not v1alpha1 are "
                       "left out and named."),
        QStringLiteral("FILE") });
    cl.addFilter();
    if (!cl.parse(args))
        return cl.exitCode();
    const QString bundle = cl.value(QStringLiteral("bundle"));
    const QString target = cl.value(QStringLiteral("out"));
    if (!bundle.isEmpty() && !target.isEmpty())
        return cl.usageError(QStringLiteral("give --out FILE or --bundle FILE, not both"));
    if (!bundle.isEmpty()) {
        const RunList runs = cl.loadRuns();
        BundleResult written;
        QString error;
        if (!writeBundle(runs, bundle, &written, &error))
            return cl.fail(error);
        for (const QString& left : written.leftOut)
            cl.refuse(QStringLiteral("left out of the bundle: ") + left);
        out << "wrote " << written.runs << " runs to the bundle " << bundle << "\n";
        return cl.finish();
    }
    if (target.isEmpty())
        return cl.usageError(QStringLiteral("--out FILE (or --bundle FILE) is required"));
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
