// SPDX-License-Identifier: Apache-2.0
#include "app/commands/commands.h"
#include "model/filter/runfilter.h"

#include "app/commands/commandline.h"

namespace kix::cli {

// The command registry. To add `kix NAME`:
//   1. write app/commands/NAME.cpp with `int nameCommand(const QStringList& args, QTextStream& out,
//      QTextStream& err)`, built on CommandLine (commandline.h) so that --help, usage errors, loading, --filter,
//      --format and the exit codes follow the common policy;
//   2. declare it in commands.h and add the file to app/CMakeLists.txt (target kix_cli);
//   3. add one entry below. `kix --help` lists it, main dispatches to it, and tests/app/tst_commands.cpp checks
//      that its --help prints on stdout with exit 0 and that an unknown option is a usage error (exit 2).
const std::vector<Command>& commands()
{
    static const std::vector<Command> table = {
        { "validate", "check files: one line per problem", validateCommand },
        { "list", "a row per run (table, csv or json)", listCommand },
        { "export", "write loaded runs to .json, .jsonl or .csv", exportCommand },
        { "import", "nvbench, Google Benchmark, pytest-benchmark JSON or Liger CSV as runs", importCommand },
        { "import-liger", "alias of import (Liger-Kernel benchmark CSV)", importLigerCommand },
        { "summary", "the headless summary kix prints without a display", summaryCommand, true },
        { "compare", "speed-ups against a baseline, verdicts and warnings", compareCommand },
        { "diff", "2 to 8 runs field by field: material, measurement and cosmetic differences", diffCommand },
        { "rank", "implementations best first within each cohort of comparable runs", rankCommand },
        { "records", "each cohort's record timeline (who held the best result, from when) and standings",
            recordsCommand },
        { "report", "one self-contained HTML report to share: charts, verdicts, rank, records, notes", reportCommand,
            true },
        { "resolve", "the measured cases nearest a workload: exact, else nearest below and above, mismatches named",
            resolveCommand },
        { "overview", "runs per kernel and GPU, with each cell's filter clause", overviewCommand },
        { "chart", "a quantile, sweep, speed-up, history or rank chart as PNG, SVG or PDF", chartCommand, true },
        { "history", "every series over time: regressions, improvements, outliers", historyCommand },
        { "bench", "GroupNorm benchmarks on this machine (CUDA or CPU)", benchCommand },
        { "fleet", "benchmark matrices on a Slurm cluster: plan, submit, status, cancel", fleetCommand },
    };
    return table;
}

const Command* findCommand(const QString& name)
{
    for (const Command& command : commands())
        if (name == QLatin1String(command.name))
            return &command;
    return nullptr;
}

int runCommand(const QString& name, const QStringList& args, QTextStream& out, QTextStream& err)
{
    const Command* command = findCommand(name);
    if (!command) {
        err << "kix: unknown command \"" << name << "\"\n\n" << overviewUsage();
        err.flush();
        return ExitUsage;
    }
    const int code = command->run(args, out, err);
    out.flush();
    err.flush();
    return code;
}

QString overviewUsage()
{
    QString text
        = QStringLiteral("Usage: kix [PATH...]            open the explorer on PATHs (default: the bundled runs)\n"
                         "       kix --follow DIR [PATH...]  open DIR and add every run that lands in it\n"
                         "       kix COMMAND [ARGS...]     run a headless command\n\nCommands:\n");
    for (const Command& command : commands())
        text += QStringLiteral("  %1 %2\n").arg(QLatin1String(command.name), -14).arg(QLatin1String(command.summary));
    text += QStringLiteral("\n  kix COMMAND --help  for a command's options\n  kix --version\n\n"
                           "Exit codes: 0 done (warnings alone included); 1 an input refused (the rest is still "
                           "processed) or the\nwork failed; 2 a usage error.\n");
    text += QStringLiteral("\n--filter TEXT (every command that reads runs) and the window's filter box:\n")
        + filterGrammarHelp() + QLatin1Char('\n');
    return text;
}

} // namespace kix::cli
