#include "ui/chartcli.h"

#include "ui/chartexporter.h"
#include "ui/chartfactory.h"
#include "ui/clisupport.h"

#include <QApplication>
#include <QRegularExpression>

namespace kix {

int chartCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Draw a chart of runs to PNG, SVG or PDF."));
    parser.addPositionalArgument(
        QStringLiteral("PATH"), QStringLiteral("Run files or folders."), QStringLiteral("PATH..."));
    const QCommandLineOption kind(
        QStringLiteral("kind"), QStringLiteral("quantiles, sweep or speedup."), QStringLiteral("KIND"));
    const QCommandLineOption outPath(
        QStringLiteral("out"), QStringLiteral("FILE.png, FILE.svg or FILE.pdf."), QStringLiteral("FILE"));
    const QCommandLineOption filter(
        QStringLiteral("filter"), QStringLiteral("Only runs matching every word."), QStringLiteral("TEXT"));
    const QCommandLineOption baseline(QStringLiteral("baseline"),
        QStringLiteral("Speed-up baseline provider(s) or run:<externalId>."), QStringLiteral("PROVIDER"));
    const QCommandLineOption xParam(
        QStringLiteral("x"), QStringLiteral("Sweep: the x parameter."), QStringLiteral("PARAM"));
    const QCommandLineOption log(QStringLiteral("log"), QStringLiteral("Log latency axis (quantiles, sweep)."));
    const QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Size in pixels (default 1200x800)."),
        QStringLiteral("WxH"), QStringLiteral("1200x800"));
    const QCommandLineOption dpi(QStringLiteral("dpi"), QStringLiteral("PNG resolution (default 96)."),
        QStringLiteral("N"), QStringLiteral("96"));
    const QCommandLineOption dark(QStringLiteral("dark"), QStringLiteral("Dark colours."));
    parser.addOptions({ kind, outPath, filter, baseline, xParam, log, size, dpi, dark });
    if (const int code = CliSupport::parse(parser, QStringLiteral("chart"), args, out, err); code >= 0)
        return code;

    const std::optional<ChartKind> chartKind = chartKindFromName(parser.value(kind));
    if (!chartKind) {
        err << "kix chart: --kind must be quantiles, sweep or speedup\n";
        return 2;
    }
    const QString path = parser.value(outPath);
    if (path.isEmpty() || !ChartExporter::formatForPath(path)) {
        err << "kix chart: --out FILE.png, FILE.svg or FILE.pdf is required\n";
        return 2;
    }
    const QRegularExpressionMatch m
        = QRegularExpression(QStringLiteral("^(\\d+)[xX](\\d+)$")).match(parser.value(size));
    const QSize pixels = m.hasMatch() ? QSize(m.captured(1).toInt(), m.captured(2).toInt()) : QSize();
    if (!m.hasMatch() || pixels.width() < 16 || pixels.height() < 16 || pixels.width() > 20000
        || pixels.height() > 20000) {
        err << "kix chart: --size must be WxH, 16 to 20000 pixels a side\n";
        return 2;
    }
    bool dpiOk = false;
    const double dots = parser.value(dpi).toDouble(&dpiOk);
    if (!dpiOk || dots < 24 || dots > 2400) {
        err << "kix chart: --dpi must be between 24 and 2400\n";
        return 2;
    }
    if (!qobject_cast<QApplication*>(QCoreApplication::instance())) {
        err << "kix chart: needs a QApplication (set QT_QPA_PLATFORM=offscreen without a display)\n";
        return 1;
    }

    bool refused = false;
    const RunList runs = CliSupport::loadRuns(parser.positionalArguments(), parser.value(filter), err, &refused);
    ChartOptions options;
    options.logY = parser.isSet(log);
    options.xParam = parser.value(xParam);
    options.dark = parser.isSet(dark);
    QString error;
    if (*chartKind == ChartKind::Speedup
        && !CliSupport::baselineFromOption(parser.value(baseline), runs, &options.baseline, &error)) {
        err << "kix chart: " << error << "\n";
        return 1;
    }
    ChartInfo info;
    std::unique_ptr<QChart> chart = buildChart(*chartKind, runs, options, &info);
    for (const QString& w : std::as_const(info.warnings))
        err << "warning: " << w << "\n";
    for (const QString& n : std::as_const(info.notes))
        err << "note: " << n << "\n";
    if (info.isEmpty) {
        err << "kix chart: nothing to draw from " << runs.size() << " run(s)\n";
        return 1;
    }
    if (!ChartExporter::exportChart(std::move(chart), path, pixels, dots, &error)) {
        err << "kix chart: " << error << "\n";
        return 1;
    }
    out << "wrote " << path << " (" << chartKindName(*chartKind) << ", " << runs.size() << " runs)\n";
    return refused ? 1 : 0;
}

} // namespace kix
