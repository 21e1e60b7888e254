// kix: the desktop explorer for kernelindex benchmark runs, and its headless CLI.
#include "app/benchcommand.h"
#include "app/cli.h"
#include "ui/benchmarkpanel.h"
#include "ui/chartcli.h"
#include "ui/comparecli.h"
#include "ui/display.h"
#include "ui/mainwindow.h"

#include "kix/config.h"

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTextStream>

#include <cstdio>
#include <functional>
#include <map>

namespace {

using Command = std::function<int(const QStringList&, QTextStream&, QTextStream&)>;

const std::map<QString, std::pair<Command, const char*>>& commands()
{
    static const std::map<QString, std::pair<Command, const char*>> table = {
        { QStringLiteral("validate"), { kix::validateCommand, "check files: one line per problem" } },
        { QStringLiteral("list"), { kix::listCommand, "a row per run (table, csv or json)" } },
        { QStringLiteral("export"), { kix::exportCommand, "write loaded runs to .json, .jsonl or .csv" } },
        { QStringLiteral("import"),
            { kix::importCommand, "nvbench, Google Benchmark, pytest-benchmark JSON or Liger CSV to runs" } },
        { QStringLiteral("import-liger"), { kix::importLigerCommand, "alias of import (Liger-Kernel benchmark CSV)" } },
        { QStringLiteral("compare"), { kix::compareCommand, "speed-ups against a baseline, verdicts and warnings" } },
        { QStringLiteral("chart"), { kix::chartCommand, "a quantile, sweep or speed-up chart as PNG, SVG or PDF" } },
        { QStringLiteral("bench"), { kix::benchCommand, "GroupNorm benchmarks on this machine (CUDA or CPU)" } },
        { QStringLiteral("summary"),
            { [](const QStringList& a, QTextStream& o, QTextStream& e) { return kix::summaryCommand(a, o, e); },
                "the headless summary kix prints without a display" } },
    };
    return table;
}

QString usage()
{
    QString text
        = QStringLiteral("Usage: kix [PATH...]            open the explorer on PATHs (default: the bundled runs)\n"
                         "       kix COMMAND [ARGS...]     run a headless command\n\nCommands:\n");
    for (const auto& [name, entry] : commands())
        text += QStringLiteral("  %1 %2\n").arg(name, -14).arg(QLatin1String(entry.second));
    text += QStringLiteral("\n  kix COMMAND --help  for a command's options\n  kix --version\n");
    return text;
}

// The runs a new user sees first: the bundled folder in the source tree, else those compiled in.
QString bundledRuns()
{
    const QString source = QStringLiteral(KIX_SOURCE_DIR "/resources/runs");
    return QFileInfo(source).isDir() ? source : QStringLiteral(":/runs");
}

} // namespace

int main(int argc, char** argv)
{
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args.append(QString::fromLocal8Bit(argv[i]));
    QTextStream out(stdout);
    QTextStream err(stderr);

    const QString first = args.value(0);
    if (first == QLatin1String("--version") || first == QLatin1String("-v")) {
        out << "kix " << KIX_VERSION << (KIX_HAVE_CUDA ? " (CUDA backend built)" : " (CPU backend only)") << "\n";
        return 0;
    }
    if (first == QLatin1String("--help") || first == QLatin1String("-h") || first == QLatin1String("help")) {
        out << usage();
        return 0;
    }
    // Qt Charts needs a GUI application even headless: without a display, the offscreen platform draws.
    const bool display = kix::hasDisplay();
    const auto command = commands().find(first);
    if (command != commands().end()) {
        if (first == QLatin1String("chart")) {
            if (!display)
                qputenv("QT_QPA_PLATFORM", "offscreen");
            QApplication app(argc, argv);
            return command->second.first(args.mid(1), out, err);
        }
        QCoreApplication app(argc, argv);
        return command->second.first(args.mid(1), out, err);
    }
    if (first.startsWith(QLatin1Char('-'))) {
        err << "kix: unknown option " << first << "\n\n" << usage();
        return 2;
    }
    const QStringList paths = args.isEmpty() ? QStringList { bundledRuns() } : args;
    if (!display) {
        // No window to show: the headless summary, and the quantile chart of the same runs as a file.
        qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        const int status = kix::summaryCommand(paths, out, err);
        const QString chart = QDir::current().absoluteFilePath(QStringLiteral("kix-summary.png"));
        QStringList chartArgs = paths;
        chartArgs << QStringLiteral("--kind") << QStringLiteral("quantiles") << QStringLiteral("--out") << chart;
        QString chartOut;
        QTextStream chartStream(&chartOut);
        if (kix::chartCommand(chartArgs, chartStream, err) == 0)
            out << "\nNo display: the quantile chart of these runs is in " << chart << "\n";
        return status;
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("kix"));
    QApplication::setOrganizationName(QStringLiteral("kix"));
    QApplication::setApplicationVersion(QStringLiteral(KIX_VERSION));
    kix::MainWindow window;
    kix::installBenchmarkPanel(window);
    window.show();
    window.openPaths(paths);
    return app.exec();
}
