// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shared by the tests that run kix (the real binary or a command in-process) and that put fake tools (sbatch,
// squeue, ...) on a PATH: one result type, one way to run, one way to write a tool.

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTextStream>

#include <functional>

namespace kixtest {

// What a command printed and its exit status (-1: it did not finish).
struct CommandResult
{
    int code = -1;
    QString out;
    QString err;
};

// A command run in this process: `command(out, err)` returns the exit status.
inline CommandResult runInProcess(const std::function<int(QTextStream& out, QTextStream& err)>& command)
{
    CommandResult r;
    QTextStream o(&r.out), e(&r.err);
    r.code = command(o, e);
    o.flush();
    e.flush();
    return r;
}

// A program run to its end (2 minutes at most). Without `display`, DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM
// are removed, as on a machine with no screen.
inline CommandResult runProgram(
    const QString& program, const QStringList& args, const QString& workingDir = {}, bool display = false)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!display) {
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    }
    p.setProcessEnvironment(env);
    if (!workingDir.isEmpty())
        p.setWorkingDirectory(workingDir);
    p.start(program, args);
    if (!p.waitForFinished(120000))
        return {};
    return { p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError()) };
}

// An executable shell script DIR/NAME with `body` after the #! line; false when it cannot be written.
inline bool writeTool(const QString& dir, const QString& name, const QByteArray& body)
{
    QFile f(dir + QLatin1Char('/') + name);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    f.write("#!/bin/sh\n" + body);
    f.close();
    return f.setPermissions(f.permissions() | QFile::ExeOwner);
}

} // namespace kixtest
