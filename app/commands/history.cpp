// SPDX-License-Identifier: Apache-2.0
// kix history PATH... [--filter TEXT] [--threshold PCT] [--since DATE|LABEL] [--format table|csv|json]
//                     [--fail-on regression]: every change of every series over time, largest first.
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "model/history/history.h"
#include "model/history/historyreport.h"

namespace kix::cli {

int historyCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    CommandLine cl(QStringLiteral("history"),
        QStringLiteral("Every series (kernel, pass, provider, GPU, workload, metric, protocol family) over time, and "
                       "its changes, largest first: regressions, improvements and lone outliers. A change counts when "
                       "the step between levels exceeds the threshold and the noise says it is real (README: "
                       "History). Exit 1 with --fail-on regression when a regression is found, or when an input is "
                       "refused (the rest is still judged)."),
        out, err);
    cl.addPaths(QStringLiteral("Run files or folders (Liger CSVs too)."));
    cl.addFilter();
    const QCommandLineOption threshold(QStringLiteral("threshold"),
        QStringLiteral("The smallest step that counts, in percent (default 5)."), QStringLiteral("PCT"),
        QStringLiteral("5"));
    const QCommandLineOption since(QStringLiteral("since"),
        QStringLiteral("Only changes from this date (YYYY-MM-DD, UTC) or from the first run with this label on."),
        QStringLiteral("DATE|LABEL"));
    const QCommandLineOption failOn(QStringLiteral("fail-on"),
        QStringLiteral("regression: exit 1 when a regression above the threshold is found."), QStringLiteral("KIND"));
    cl.addOption(threshold);
    cl.addOption(since);
    cl.addFormats({ QStringLiteral("table"), QStringLiteral("csv"), QStringLiteral("json") });
    cl.addOption(failOn);
    if (!cl.parse(args))
        return cl.exitCode();
    bool ok = false;
    QString pct = cl.value(threshold).trimmed();
    if (pct.endsWith(QLatin1Char('%')))
        pct.chop(1);
    const double percent = pct.toDouble(&ok);
    if (!ok || !(percent > 0 && percent < 1000))
        return cl.usageError(QStringLiteral("--threshold must be a percentage above 0 (e.g. 5)"));
    if (cl.isSet(failOn) && cl.value(failOn) != QLatin1String("regression"))
        return cl.usageError(QStringLiteral("--fail-on takes regression"));

    const RunList runs = cl.loadRuns();
    HistoryOptions options;
    options.detection.threshold = percent / 100;
    if (cl.isSet(since)) {
        QString error;
        if (!resolveSince(cl.value(since), runs, &options.since, &error))
            return cl.usageError(error);
    }
    const History history = buildHistory(runs, options);
    if (cl.format() == QLatin1String("json"))
        out << QString::fromUtf8(historyToJson(history, options.detection.threshold));
    else if (cl.format() == QLatin1String("csv"))
        out << QString::fromUtf8(historyToCsv(history));
    else
        out << QString::fromUtf8(historyToTable(history, options.detection.threshold));
    out.flush();
    if (cl.format() != QLatin1String("table")) { // the table says these itself
        for (const RunPtr& run : history.unplaceable)
            err << "unplaceable: " << (run->externalId.isEmpty() ? run->name : run->externalId) << " ("
                << run->file + run->pointer << "): no usable observedAt\n";
        for (const QString& note : history.notes)
            err << "note: " << note << "\n";
    }
    const int regressions = history.count(ChangeKind::Regression);
    if (cl.value(failOn) == QLatin1String("regression") && regressions > 0)
        return cl.finish(cl.fail(QStringLiteral("%1 regression(s) above %2 %").arg(regressions).arg(percent)));
    return cl.finish();
}

} // namespace kix::cli
