// SPDX-License-Identifier: Apache-2.0
// kix records PATH... [--filter TEXT] [--format table|csv|json]: each cohort's record timeline and the standings.
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "model/compare/records.h"

namespace kix::cli {

int recordsCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    CommandLine cl(QStringLiteral("records"),
        QStringLiteral("The record ledger of every cohort of comparable runs (the format's strict comparison key, as "
                       "kix rank makes them): each passed run that was better (lower) than every earlier run of its "
                       "cohort, in the order observed, with its date, holder (authors, else project, else "
                       "implementation), value and margin over the record it took; then the standings: records "
                       "held now and set ever, per holder. The same ledger as the format's catalog export "
                       "(record_events, ranking-v1): where the input is such an export, kix's ledger is compared with "
                       "it and every "
                       "disagreement is printed (and a warning on stderr). Exit 1 when an input is refused or nothing "
                       "holds a record."),
        out, err);
    cl.addPaths();
    cl.addFilter();
    cl.addFormats({ QStringLiteral("table"), QStringLiteral("csv"), QStringLiteral("json") });
    if (!cl.parse(args))
        return cl.exitCode();
    const RunList runs = cl.loadRuns();
    const Records records = recordTimelines(runs);
    cl.print(records, recordsToJson, recordsToCsv, recordsToTable);
    if (records.exportDisagreeing > 0) // whatever the format: a disagreement is never left to a column
        err << "warning: kix's record ledger disagrees with the export's record_events in " << records.exportDisagreeing
            << " of " << records.exportCompared << " compared cohort(s) (the table lists how)\n";
    if (records.timelines.isEmpty())
        return cl.fail(
            QStringLiteral("no record among %1 run(s): no cohort has a passed run with a value").arg(runs.size()));
    return cl.finish();
}

} // namespace kix::cli
