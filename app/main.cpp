// SPDX-License-Identifier: Apache-2.0
// kix: the desktop explorer for kernelindex benchmark runs, and its headless commands. main only chooses between
// the window and a command (app/commands/).
#include "app/commands/commands.h"
#include "app/processpolicy.h"
#include "ui/display.h"
#include "ui/folderfollower.h"
#include "ui/mainwindow.h"
#include "ui/panelinstall.h"

#include "kix/config.h"

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QTextStream>

#include <cerrno>
#include <cstdio>
#include <memory>

#include <sys/stat.h>
#include <unistd.h>

namespace {

// The runs a new user sees first. A kix built inside its source tree reads the tree's resources/runs; an installed
// kix its share/kix/runs (beside bin/); anything else the runs compiled in. The source path alone is not enough:
// an installed kix must not read a checkout that happens to exist at the path it was built from.
QString bundledRuns()
{
    const QString exe = QFileInfo(QStringLiteral("/proc/self/exe")).canonicalFilePath();
    const QString source = QFileInfo(QStringLiteral(KIX_SOURCE_DIR)).canonicalFilePath();
    const QString sourceRuns = source + QStringLiteral("/resources/runs");
    if (!exe.isEmpty() && !source.isEmpty() && exe.startsWith(source + QLatin1Char('/'))
        && QFileInfo(sourceRuns).isDir())
        return sourceRuns;
    const QString installed = QDir::cleanPath(QFileInfo(exe).absolutePath() + QStringLiteral("/../share/kix/runs"));
    if (!exe.isEmpty() && QFileInfo(installed).isDir())
        return installed;
    return QStringLiteral(":/runs");
}

// Without a session (a CI job, ssh, a container), XDG_RUNTIME_DIR is often unset, and Qt's offscreen platform
// then warns on stderr ("QStandardPaths: XDG_RUNTIME_DIR not set, defaulting to ..."), noise a user cannot act on.
// kix gives it a private folder of its own for the process, as a session would (mode 0700, owned by the user).
void ensureRuntimeDir()
{
    if (qEnvironmentVariableIsSet("XDG_RUNTIME_DIR"))
        return;
    const QByteArray dir = QDir::tempPath().toLocal8Bit() + "/kix-runtime-" + QByteArray::number(uint(getuid()));
    if (mkdir(dir.constData(), 0700) != 0 && errno != EEXIST)
        return;
    struct stat info
    {
    };
    if (lstat(dir.constData(), &info) == 0 && S_ISDIR(info.st_mode) && info.st_uid == getuid()
        && (info.st_mode & 0777) == 0700)
        qputenv("XDG_RUNTIME_DIR", dir);
}

// A command that draws needs a QApplication even headless: without a display, the offscreen platform draws.
int runHeadless(int argc, char** argv, const kix::cli::Command& command, const QStringList& args)
{
    std::unique_ptr<QCoreApplication> app;
    if (command.needsWidgets) {
        if (!kix::hasDisplay()) {
            qputenv("QT_QPA_PLATFORM", "offscreen");
            ensureRuntimeDir();
        }
        app = std::make_unique<QApplication>(argc, argv);
    } else {
        app = std::make_unique<QCoreApplication>(argc, argv);
    }
    QTextStream out(stdout);
    QTextStream err(stderr);
    return kix::cli::runCommand(QLatin1String(command.name), args, out, err);
}

} // namespace

int main(int argc, char** argv)
{
    kix::applyProcessPolicy();
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
        // `kix help COMMAND` is `kix COMMAND --help`.
        if (const kix::cli::Command* command = kix::cli::findCommand(args.value(1));
            command && first == QLatin1String("help"))
            return runHeadless(argc, argv, *command, { QStringLiteral("--help") });
        out << kix::cli::overviewUsage();
        return 0;
    }
    if (const kix::cli::Command* command = kix::cli::findCommand(first))
        return runHeadless(argc, argv, *command, args.mid(1));
    // --follow DIR: open DIR and keep adding the runs that land in it (ui/folderfollower.h).
    QString follow;
    if (const int at = args.indexOf(QStringLiteral("--follow")); at >= 0) {
        follow = args.value(at + 1);
        if (!QFileInfo(follow).isDir()) {
            err << "kix: --follow " << follow << ": not a readable folder\n";
            return 2;
        }
        args.remove(at, 2);
        args.prepend(follow);
    }
    if (args.value(0).startsWith(QLatin1Char('-'))) {
        err << "kix: unknown option " << args.value(0) << "\n\n" << kix::cli::overviewUsage();
        return 2;
    }
    const QStringList paths = args.isEmpty() ? QStringList { bundledRuns() } : args;
    if (!kix::hasDisplay()) {
        // No window to show: the summary, and the chart the window would open on (summary --chart) as a file.
        err << "kix: no display; printing the summary instead of opening the window\n";
        err.flush();
        const QString chart = QDir::current().absoluteFilePath(QStringLiteral("kix-summary.png"));
        return runHeadless(argc, argv, *kix::cli::findCommand(QStringLiteral("summary")),
            paths + QStringList { QStringLiteral("--chart"), chart });
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("kix"));
    QApplication::setOrganizationName(QStringLiteral("kix"));
    QApplication::setApplicationVersion(QStringLiteral(KIX_VERSION));
    kix::MainWindow window;
    kix::FolderFollower* follower = kix::installPanels(window).follower;
    window.show();
    QString followError;
    if (!follow.isEmpty() && !kix::followFolder(window, follower, follow, &followError)) {
        err << "kix: --follow " << followError << "\n";
        return 2;
    }
    window.openPaths(follow.isEmpty() ? paths : paths.mid(1));
    return app.exec();
}
