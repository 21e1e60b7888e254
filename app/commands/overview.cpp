// SPDX-License-Identifier: Apache-2.0
// kix overview PATH... [--filter TEXT] [--format table|csv|json]
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "model/chartdata/overviewdata.h"
#include "model/chartdata/overviewreport.h"

namespace kix::cli {

int overviewCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    CommandLine cl(QStringLiteral("overview"),
        QStringLiteral("Counts the runs per kernel (operation) and GPU, as the window's Overview does: runs, "
                       "distinct implementations and failed runs for each kernel on each GPU, with totals counted "
                       "from the runs (an implementation measured on two GPUs counts once in its kernel's total). "
                       "CSV and JSON give each cell's filter clause, the --filter TEXT that selects exactly its "
                       "runs. Exit 1 when an input is refused (the rest is counted) or when there is no run."),
        out, err);
    cl.addPaths();
    cl.addFilter();
    cl.addFormats({ QStringLiteral("table"), QStringLiteral("csv"), QStringLiteral("json") });
    if (!cl.parse(args))
        return cl.exitCode();
    const RunList runs = cl.loadRuns();
    const OverviewData data = buildOverview(runs);
    cl.print(data, overviewToJson, overviewToCsv, overviewToTable);
    if (data.isEmpty())
        return cl.fail(QStringLiteral("no runs to count"));
    return cl.finish();
}

} // namespace kix::cli
