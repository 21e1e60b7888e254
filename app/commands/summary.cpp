// SPDX-License-Identifier: Apache-2.0
// kix summary PATH... [--chart FILE]: what kix prints instead of a window when there is no display.
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "model/compare/comparison.h"
#include "model/write/runwriter.h"
#include "ui/charts/chartexporter.h"
#include "ui/charts/chartfactory.h"

#include <QApplication>
#include <QMap>

#include <cmath>

namespace kix::cli {

namespace {

// One line per kernel, pass, GPU and provider that pairs with the default baseline (huggingface, then torch):
// the geometric mean of baseline median / median and how the verdicts fell (`kix compare` has every pair).
void printVerdicts(const RunList& runs, QTextStream& out)
{
    const Comparison comparison = compareRuns(runs, Baseline::defaultFor(runs));
    if (comparison.pairs.isEmpty())
        return;
    struct Group
    {
        double logSum = 0;
        int logCount = 0;
        int counts[4] = {}; // by Verdict
    };
    QMap<QString, Group> groups;
    QMap<QString, QString> baselines;
    for (const ComparisonPair& pair : comparison.pairs) {
        const Run& run = *pair.run;
        const QString key = run.kernel + QLatin1Char(' ') + run.pass + QStringLiteral(" on ") + run.gpuDisplayName()
            + QStringLiteral(": ") + run.provider;
        Group& g = groups[key];
        ++g.counts[int(pair.verdict)];
        if (std::isfinite(pair.ratio) && pair.ratio > 0) {
            g.logSum += std::log(pair.ratio);
            ++g.logCount;
        }
        baselines[key] = pair.baseline->provider;
    }
    out << "\nSpeed-up against " << comparison.baseline.describe()
        << " (geometric mean of baseline median / median; kix compare PATH for every pair):\n";
    int shown = 0;
    for (auto it = groups.cbegin(); it != groups.cend(); ++it) {
        if (++shown > 20) {
            out << "… and " << (groups.size() - 20) << " more\n";
            break;
        }
        const Group& g = it.value();
        const int pairs = g.counts[0] + g.counts[1] + g.counts[2] + g.counts[3];
        out << "  " << it.key() << " ";
        if (g.logCount > 0) {
            const double mean = std::exp(g.logSum / g.logCount);
            out << QString::number(mean, 'f', 2) << "× " << (mean >= 1 ? "faster" : "slower") << " than ";
        } else {
            out << "vs ";
        }
        out << baselines.value(it.key()) << " over " << pairs << (pairs == 1 ? " workload" : " workloads") << " ("
            << g.counts[int(Verdict::Faster)] << " faster, " << g.counts[int(Verdict::Slower)] << " slower, "
            << g.counts[int(Verdict::Same)] << " same, " << g.counts[int(Verdict::Ambiguous)] << " ambiguous)\n";
    }
}

} // namespace

int summaryCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    CommandLine cl(QStringLiteral("summary"),
        QStringLiteral("Prints how many runs were loaded, a count per kernel, pass and GPU, the first 40 runs and, "
                       "where providers pair with a baseline, the speed-up verdicts; with --chart, also draws the "
                       "chart the window opens on (the speed-up, Rank or the quantile chart). `kix PATH...` prints "
                       "this when there is no display."),
        out, err);
    cl.addPaths(QStringLiteral("Files or folders (searched recursively)."));
    cl.addFilter();
    cl.addOption({ QStringLiteral("chart"),
        QStringLiteral("Also write the window's first chart of these runs (.png, .svg or .pdf)."),
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
    printVerdicts(runs, out);

    if (!chartPath.isEmpty()) {
        if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
            return cl.fail(QStringLiteral("--chart needs a QApplication"));
        // The window's first view of these runs, or the speed-up where it compares with a framework baseline; the
        // overview is a table, so the quantile chart stands in for it.
        ChartKind kind = firstViewKind(runs);
        if (kind == ChartKind::Quantiles && speedupIsFirstView(runs))
            kind = ChartKind::Speedup;
        if (kind == ChartKind::Overview)
            kind = ChartKind::Quantiles;
        ChartInfo info;
        std::unique_ptr<QChart> chart = buildChart(kind, runs, ChartOptions {}, &info);
        if (info.isEmpty && kind != ChartKind::Quantiles) {
            kind = ChartKind::Quantiles;
            chart = buildChart(kind, runs, ChartOptions {}, &info);
        }
        const QString name = kind == ChartKind::Speedup ? QStringLiteral("speed-up")
            : kind == ChartKind::Quantiles              ? QStringLiteral("quantile")
                                                        : chartKindName(kind);
        QString error;
        if (info.isEmpty)
            cl.fail(QStringLiteral("no %1 chart: nothing to draw from %2 run(s)").arg(name).arg(runs.size()));
        else if (!ChartExporter::exportChart(std::move(chart), chartPath, QSize(1200, 800), 96, &error))
            return cl.fail(error);
        else
            out << "\nThe " << name << " chart of these runs is in " << chartPath << "\n";
    }
    return cl.finish();
}

} // namespace kix::cli
