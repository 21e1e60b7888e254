// SPDX-License-Identifier: Apache-2.0
// kix chart PATH... --kind quantiles|sweep|speedup|history|rank|records --out FILE.png|svg|pdf [options]: the window's
// charts as files.
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "ui/charts/chartexporter.h"
#include "ui/charts/chartfactory.h"

#include <QApplication>
#include <QRegularExpression>

namespace kix::cli {

int chartCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    CommandLine cl(QStringLiteral("chart"),
        QStringLiteral("Draws a chart of runs to PNG, SVG or PDF with the same functions as the window. Warnings "
                       "and notes go to stderr. Exit 1 when an input is refused (the rest is drawn) or when there "
                       "is nothing to draw."),
        out, err);
    cl.addPaths();
    const QCommandLineOption kind(QStringLiteral("kind"),
        QStringLiteral("quantiles, sweep, speedup, history, rank or records."), QStringLiteral("KIND"));
    const QCommandLineOption outPath(
        QStringLiteral("out"), QStringLiteral("FILE.png, FILE.svg or FILE.pdf."), QStringLiteral("FILE"));
    const QCommandLineOption baseline(QStringLiteral("baseline"),
        QStringLiteral("Speed-up baseline provider(s) or run:<externalId>."), QStringLiteral("PROVIDER"));
    const QCommandLineOption xParam(QStringLiteral("x"),
        QStringLiteral("Sweep: the x parameter. History: time or label."), QStringLiteral("PARAM"));
    const QCommandLineOption cohort(QStringLiteral("cohort"),
        QStringLiteral("Rank and records: the cohort whose description contains TEXT (as `kix rank` prints it); "
                       "default: the one with the most implementations (records: the most records)."),
        QStringLiteral("TEXT"));
    const QCommandLineOption view(QStringLiteral("view"),
        QStringLiteral("Quantiles: box (default), histogram or ecdf. Histogram and ECDF overlay 2 to 4 runs' raw "
                       "samples on a log time axis with each run's Mann-Whitney verdict against the first."),
        QStringLiteral("VIEW"), QStringLiteral("box"));
    const QCommandLineOption log(QStringLiteral("log"), QStringLiteral("Log latency axis (quantiles, sweep)."));
    const QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Size in pixels (default 1200x800)."),
        QStringLiteral("WxH"), QStringLiteral("1200x800"));
    const QCommandLineOption dpi(QStringLiteral("dpi"), QStringLiteral("PNG resolution (default 96)."),
        QStringLiteral("N"), QStringLiteral("96"));
    const QCommandLineOption dark(QStringLiteral("dark"), QStringLiteral("Dark colours."));
    const QCommandLineOption threshold(QStringLiteral("threshold"),
        QStringLiteral("History: the smallest step that counts, in percent (default 5)."), QStringLiteral("PCT"),
        QStringLiteral("5"));
    for (const QCommandLineOption& option : { kind, outPath })
        cl.addOption(option);
    cl.addFilter();
    for (const QCommandLineOption& option : { baseline, xParam, cohort, view, log, size, dpi, dark, threshold })
        cl.addOption(option);
    if (!cl.parse(args))
        return cl.exitCode();

    const std::optional<ChartKind> chartKind = chartKindFromName(cl.value(kind));
    if (!chartKind)
        return cl.usageError(QStringLiteral("--kind must be quantiles, sweep, speedup, history, rank or records"));
    const std::optional<QuantileView> quantileView = quantileViewFromName(cl.value(view));
    if (!quantileView)
        return cl.usageError(QStringLiteral("--view must be box, histogram or ecdf"));
    const QString path = cl.value(outPath);
    if (path.isEmpty() || !ChartExporter::formatForPath(path))
        return cl.usageError(QStringLiteral("--out FILE.png, FILE.svg or FILE.pdf is required"));
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("^(\\d+)[xX](\\d+)$")).match(cl.value(size));
    const QSize pixels = m.hasMatch() ? QSize(m.captured(1).toInt(), m.captured(2).toInt()) : QSize();
    if (!m.hasMatch() || pixels.width() < 16 || pixels.height() < 16 || pixels.width() > 20000
        || pixels.height() > 20000)
        return cl.usageError(QStringLiteral("--size must be WxH, 16 to 20000 pixels a side"));
    bool dpiOk = false;
    const double dots = cl.value(dpi).toDouble(&dpiOk);
    if (!dpiOk || dots < 24 || dots > 2400)
        return cl.usageError(QStringLiteral("--dpi must be between 24 and 2400"));
    bool thresholdOk = false;
    const double changeThreshold = cl.value(threshold).remove(QLatin1Char('%')).toDouble(&thresholdOk) / 100;
    if (!thresholdOk || !(changeThreshold > 0))
        return cl.usageError(QStringLiteral("--threshold must be a percentage above 0 (e.g. 5)"));
    if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
        return cl.fail(QStringLiteral("needs a QApplication (set QT_QPA_PLATFORM=offscreen without a display)"));

    const RunList runs = cl.loadRuns();
    ChartOptions options;
    options.logY = cl.isSet(log);
    options.quantileView = *quantileView;
    options.xParam = cl.value(xParam);
    options.dark = cl.isSet(dark);
    options.threshold = changeThreshold;
    options.cohort = cl.value(cohort);
    QString error;
    if (*chartKind == ChartKind::Speedup && !baselineFromOption(cl.value(baseline), runs, &options.baseline, &error))
        return cl.fail(error);
    ChartInfo info;
    std::unique_ptr<QChart> chart = buildChart(*chartKind, runs, options, &info);
    for (const QString& w : std::as_const(info.warnings))
        err << "warning: " << w << "\n";
    for (const QString& n : std::as_const(info.notes))
        err << "note: " << n << "\n";
    if (info.isEmpty)
        return cl.fail(QStringLiteral("nothing to draw from %1 run(s)").arg(runs.size()));
    if (!ChartExporter::exportChart(std::move(chart), path, pixels, dots, &error))
        return cl.fail(error);
    out << "wrote " << path << " (" << chartKindName(*chartKind) << ", " << runs.size() << " runs)\n";
    return cl.finish();
}

} // namespace kix::cli
