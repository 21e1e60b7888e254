// SPDX-License-Identifier: Apache-2.0
// kix report PATH... [--filter TEXT] [--title TEXT] --out FILE.html: one self-contained HTML report to share.
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "ui/report/htmlreport.h"

#include <QApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRegularExpression>

namespace kix::cli {

namespace {

// An argument as a POSIX shell would take it back: bare when it is safe, else in single quotes.
QString shellQuoted(const QString& arg)
{
    static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_./:=@%+,-]+$"));
    if (safe.match(arg).hasMatch())
        return arg;
    QString quoted = arg;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

} // namespace

int reportCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    CommandLine cl(QStringLiteral("report"),
        QStringLiteral("Writes one self-contained HTML file to share: the command that made it, kix's version, every "
                       "input file with its sha256 and run count; the charts `kix summary` would draw and one of "
                       "every other kind with data (inline SVG), the speed-up verdicts with their evidence, the rank "
                       "table of every cohort (the format's strict comparison key), record timelines and standings, "
                       "and the comparability notes (pairs compared with a warning, runs not compared and why, "
                       "grouped load warnings). No script, no external asset, no network: it opens offline in any "
                       "browser and prints. Written atomically: a failure leaves an existing report as it was. Exit 1 "
                       "when an input is refused (the rest is reported) or the file cannot be written."),
        out, err);
    cl.addPaths();
    cl.addFilter();
    const QCommandLineOption outPath(
        QStringLiteral("out"), QStringLiteral("The report, FILE.html (or .htm)."), QStringLiteral("FILE"));
    const QCommandLineOption title(QStringLiteral("title"),
        QStringLiteral("The report's title (default: kix report: N runs)."), QStringLiteral("TEXT"));
    cl.addOption(outPath);
    cl.addOption(title);
    cl.setEpilog(QStringLiteral("Examples:\n"
                                "  kix report resources/runs --out liger-b200.html\n"
                                "  kix report catalog.jsonl.zst --filter '\"NVFP4 group GEMM\"' --out nvfp4.html\n"));
    if (!cl.parse(args))
        return cl.exitCode();
    const QString path = cl.value(outPath);
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (path.isEmpty() || (suffix != QLatin1String("html") && suffix != QLatin1String("htm")))
        return cl.usageError(QStringLiteral("--out FILE.html is required"));
    if (QFileInfo(path).isDir())
        return cl.fail(QStringLiteral("%1: is a directory; the report is one file (e.g. report.html)").arg(path));
    if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
        return cl.fail(QStringLiteral("needs a QApplication to draw charts (QT_QPA_PLATFORM=offscreen without a "
                                      "display)"));

    QElapsedTimer timer;
    timer.start();
    QStringList command { QStringLiteral("kix"), QStringLiteral("report") };
    for (const QString& arg : args)
        command << shellQuoted(arg);
    const LoadResult loaded = cl.load();
    ReportInput input;
    input.loaded = loaded.runs;
    input.runs = cl.filtered(loaded.runs);
    input.diagnostics = loaded.diagnostics;
    input.madeBy = command.join(QLatin1Char(' '));
    input.filter = cl.value(QStringLiteral("filter"));
    input.title = cl.value(title);
    input.generatedAt = QDateTime::currentDateTimeUtc();
    ReportSummary summary;
    QString error;
    if (!writeHtmlReport(input, path, &error, &summary))
        return cl.fail(error);
    out << "wrote " << path << " (" << QFileInfo(path).size() << " bytes; " << summary.runs << " runs, "
        << summary.cohorts << " cohorts, " << summary.pairs << " pairs, " << summary.charts << " charts, "
        << summary.warnings << " warnings) in " << timer.elapsed() << " ms\n";
    return cl.finish();
}

} // namespace kix::cli
