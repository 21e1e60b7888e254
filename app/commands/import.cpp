// SPDX-License-Identifier: Apache-2.0
// kix import FILE... --out DIR|FILE.jsonl: any format kix reads (nvbench, Google Benchmark and pytest-benchmark
// JSON, Liger-Kernel's benchmark CSV, kernelindex files) written as kernelindex runs. import-liger is an alias.
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "model/write/importwriter.h"

namespace kix::cli {

namespace {

int importAs(const QString& name, const QStringList& args, QTextStream& out, QTextStream& err)
{
    CommandLine cl(name,
        QStringLiteral("Turns other tools' results into kernelindex runs: a folder of .json files (one per run), or "
                       "one .jsonl file. Reads nvbench JSON, Google Benchmark JSON, pytest-benchmark JSON and "
                       "Liger-Kernel's all_benchmark_data.csv, recognised by content, and kernelindex files. Inputs "
                       "and entries that are refused are named; the others are written."),
        out, err);
    cl.addPaths(QStringLiteral("Result files or folders."));
    cl.addOption(
        { QStringLiteral("out"), QStringLiteral("A folder, or a .jsonl file."), QStringLiteral("DIR|FILE.jsonl") });
    if (!cl.parse(args))
        return cl.exitCode();
    const QString target = cl.value(QStringLiteral("out"));
    if (target.isEmpty())
        return cl.usageError(QStringLiteral("--out DIR|FILE.jsonl is required"));
    // Through the loader, so that exactly what kix would load is written.
    const LoadResult loaded = cl.load();
    QString error;
    if (!writeImportedRuns(loaded.runs, target, &error))
        return cl.fail(error);
    out << "imported " << loaded.runs.size() << " runs from " << loaded.files << " files into " << target << "\n";
    return cl.finish();
}

} // namespace

int importCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    return importAs(QStringLiteral("import"), args, out, err);
}

int importLigerCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    return importAs(QStringLiteral("import-liger"), args, out, err);
}

} // namespace kix::cli
