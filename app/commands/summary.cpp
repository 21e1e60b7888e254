// SPDX-License-Identifier: Apache-2.0
// kix summary PATH... [--chart FILE]: what kix prints instead of a window when there is no display.
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "model/write/runwriter.h"
#include "ui/charts/chartexporter.h"
#include "ui/charts/chartfactory.h"

#include <QApplication>
#include <QMap>

namespace kix::cli {

int summaryCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    CommandLine cl(QStringLiteral("summary"),
        QStringLiteral("Prints how many runs were loaded, a count per kernel, pass and GPU, and the first 40 runs; "
                       "with --chart, also draws their quantile chart. `kix PATH...` prints this when there is no "
                       "display."),
        out, err);
    cl.addPaths(QStringLiteral("Files or folders (searched recursively)."));
    cl.addFilter();
    cl.addOption({ QStringLiteral("chart"), QStringLiteral("Also write the quantile chart (.png, .svg or .pdf)."),
        QStringLiteral("FILE") });
    if (!cl.parse(args))
        return cl.exitCode();
    const QString chartPath = cl.value(QStringLiteral("chart"));
    if (cl.isSet(QStringLiteral("chart")) && !ChartExporter::formatForPath(chartPath))
        return cl.usageError(QStringLiteral("--chart FILE.png, FILE.svg or FILE.pdf"));
    const LoadResult result = cl.load();
    const RunList runs = cl.filtered(result.runs);
    out << "kix: " << runs.size() << " runs from " << result.files << " files";
    if (result.duplicates > 0)
        out << " (" << result.duplicates << " duplicates kept once)";
    out << "\n";
    QMap<QString, int> groups;
    for (const RunPtr& run : runs)
        ++groups[run->kernel + QLatin1Char(' ') + run->pass + QStringLiteral(" on ") + run->gpuDisplayName()];
    for (auto it = groups.cbegin(); it != groups.cend(); ++it)
        out << "  " << it.value() << " × " << it.key() << "\n";
    out << "\n";
    QVector<QStringList> rows;
    const int shown = std::min<int>(runs.size(), 40);
    for (int i = 0; i < shown; ++i)
        rows.append(listRow(*runs[i]));
    printTable(listColumns(), rows, out);
    if (shown < runs.size())
        out << "… and " << (runs.size() - shown) << " more (kix list PATH for all)\n";

    if (!chartPath.isEmpty()) {
        if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
            return cl.fail(QStringLiteral("--chart needs a QApplication"));
        ChartInfo info;
        std::unique_ptr<QChart> chart = buildChart(ChartKind::Quantiles, runs, ChartOptions {}, &info);
        QString error;
        if (info.isEmpty)
            cl.fail(QStringLiteral("no quantile chart: nothing to draw from %1 run(s)").arg(runs.size()));
        else if (!ChartExporter::exportChart(std::move(chart), chartPath, QSize(1200, 800), 96, &error))
            return cl.fail(error);
        else
            out << "\nThe quantile chart of these runs is in " << chartPath << "\n";
    }
    return cl.finish();
}

} // namespace kix::cli
