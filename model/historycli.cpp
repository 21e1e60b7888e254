#include "model/historycli.h"

#include "model/history.h"
#include "model/historyreport.h"
#include "model/runfilter.h"
#include "model/runloader.h"

#include <QCommandLineParser>

namespace kix {

int historyCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Every series (kernel, pass, provider, GPU, workload, metric, protocol family) over time, and "
                       "its changes, largest first: regressions, improvements and lone outliers. A change counts when "
                       "the step between levels exceeds the threshold and the noise says it is real (see README)."));
    parser.addPositionalArgument(
        QStringLiteral("PATH"), QStringLiteral("Run files or folders (Liger CSVs too)."), QStringLiteral("PATH..."));
    const QCommandLineOption help({ QStringLiteral("h"), QStringLiteral("help") }, QStringLiteral("Show this help."));
    const QCommandLineOption filter(
        QStringLiteral("filter"), QStringLiteral("Only runs matching every word."), QStringLiteral("TEXT"));
    const QCommandLineOption threshold(QStringLiteral("threshold"),
        QStringLiteral("The smallest step that counts, in percent (default 5)."), QStringLiteral("PCT"),
        QStringLiteral("5"));
    const QCommandLineOption since(QStringLiteral("since"),
        QStringLiteral("Only changes from this date (YYYY-MM-DD, UTC) or the first run with this label on."),
        QStringLiteral("DATE|LABEL"));
    const QCommandLineOption format(QStringLiteral("format"), QStringLiteral("table (default), csv or json."),
        QStringLiteral("FORMAT"), QStringLiteral("table"));
    const QCommandLineOption failOn(QStringLiteral("fail-on"),
        QStringLiteral("regression: exit 1 when a regression above the threshold is found."), QStringLiteral("KIND"));
    parser.addOptions({ help, filter, threshold, since, format, failOn });
    if (!parser.parse(QStringList { QStringLiteral("kix history") } + args)) {
        err << "kix history: " << parser.errorText() << "\n";
        return 2;
    }
    if (parser.isSet(help)) {
        out << parser.helpText();
        return 0;
    }
    if (parser.positionalArguments().isEmpty()) {
        err << "kix history: no PATH given\n";
        return 2;
    }
    const QString fmt = parser.value(format);
    if (fmt != QLatin1String("table") && fmt != QLatin1String("csv") && fmt != QLatin1String("json")) {
        err << "kix history: --format must be table, csv or json\n";
        return 2;
    }
    bool ok = false;
    QString pct = parser.value(threshold).trimmed();
    if (pct.endsWith(QLatin1Char('%')))
        pct.chop(1);
    const double percent = pct.toDouble(&ok);
    if (!ok || !(percent > 0 && percent < 1000)) {
        err << "kix history: --threshold must be a percentage above 0 (e.g. 5)\n";
        return 2;
    }
    if (parser.isSet(failOn) && parser.value(failOn) != QLatin1String("regression")) {
        err << "kix history: --fail-on takes regression\n";
        return 2;
    }

    const LoadResult loaded = loadPaths(parser.positionalArguments());
    for (const Diagnostic& d : loaded.diagnostics)
        err << d.toString() << "\n";
    const bool refused = loaded.refusedFiles > 0 || loaded.files == 0;
    if (loaded.files == 0)
        err << "kix history: no run files found in " << parser.positionalArguments().join(QStringLiteral(", ")) << "\n";
    RunFilter runFilter;
    runFilter.setText(parser.value(filter));
    const RunList runs = runFilter.apply(loaded.runs);

    HistoryOptions options;
    options.detection.threshold = percent / 100;
    if (parser.isSet(since)) {
        QString error;
        if (!resolveSince(parser.value(since), runs, &options.since, &error)) {
            err << "kix history: " << error << "\n";
            return 2;
        }
    }
    const History history = buildHistory(runs, options);
    if (fmt == QLatin1String("json"))
        out << QString::fromUtf8(historyToJson(history, options.detection.threshold));
    else if (fmt == QLatin1String("csv"))
        out << QString::fromUtf8(historyToCsv(history));
    else
        out << QString::fromUtf8(historyToTable(history, options.detection.threshold));
    out.flush();
    if (fmt != QLatin1String("table")) { // the table says these itself
        for (const RunPtr& run : history.unplaceable)
            err << "unplaceable: " << (run->externalId.isEmpty() ? run->name : run->externalId) << " ("
                << run->file + run->pointer << "): no usable observedAt\n";
        for (const QString& note : history.notes)
            err << "note: " << note << "\n";
    }
    const int regressions = history.count(ChangeKind::Regression);
    if (parser.value(failOn) == QLatin1String("regression") && regressions > 0) {
        err << "kix history: " << regressions << " regression(s) above " << percent << " %\n";
        return 1;
    }
    return refused ? 1 : 0;
}

} // namespace kix
