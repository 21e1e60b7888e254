// kix import-liger CSV --out DIR|FILE.jsonl: Liger-Kernel's benchmark CSV as kernelindex runs.
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "model/documentparser.h"
#include "model/runwriter.h"

#include <QDir>
#include <QFile>

#include <nlohmann/json.hpp>

namespace kix::cli {

int importLigerCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    CommandLine cl(QStringLiteral("import-liger"),
        QStringLiteral("Turns a Liger-Kernel all_benchmark_data.csv into kernelindex runs: a folder of .json files "
                       "(one per run), or one .jsonl file. Rows that are refused are named; the others are "
                       "written."),
        out, err);
    cl.addPositional(QStringLiteral("CSV"), QStringLiteral("The Liger benchmark CSV."));
    cl.addOption(
        { QStringLiteral("out"), QStringLiteral("A folder, or a .jsonl file."), QStringLiteral("DIR|FILE.jsonl") });
    if (!cl.parse(args))
        return cl.exitCode();
    const QString target = cl.value(QStringLiteral("out"));
    if (cl.positional().size() != 1)
        return cl.usageError(QStringLiteral("needs exactly one CSV"));
    if (target.isEmpty())
        return cl.usageError(QStringLiteral("--out DIR|FILE.jsonl is required"));
    const QString csv = cl.positional().first();
    QFile f(csv);
    if (!f.open(QIODevice::ReadOnly)) {
        cl.report({ makeError(csv, {}, QStringLiteral("cannot open: %1").arg(f.errorString())) });
        return ExitFailure;
    }
    // Through the model, so that exactly what kix would load is written.
    const ParseResult parsed = parseBytes(f.readAll(), csv);
    cl.report(parsed.diagnostics);
    QString error;
    if (target.endsWith(QLatin1String(".jsonl"), Qt::CaseInsensitive)) {
        if (!writeRuns(parsed.runs, target, ExportFormat::JsonLines, &error))
            return cl.fail(error);
    } else {
        if (!QDir().mkpath(target))
            return cl.fail(QStringLiteral("%1: cannot create the folder").arg(target));
        for (const RunPtr& run : parsed.runs) {
            QString name = run->externalId;
            name.replace(QLatin1Char('/'), QLatin1Char('_'));
            const QByteArray doc = QByteArray::fromStdString(nlohmann::json::parse(run->raw).dump(2)) + '\n';
            if (!writeFileAtomically(QDir(target).filePath(name + QStringLiteral(".json")), doc, &error))
                return cl.fail(error);
        }
    }
    out << "imported " << parsed.runs.size() << " runs from " << csv << " into " << target << "\n";
    return cl.finish();
}

} // namespace kix::cli
