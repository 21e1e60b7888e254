// SPDX-License-Identifier: Apache-2.0
#include "engine/fleet/fleetslurm.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>

namespace kix::fleet {

QString stateName(TaskState state)
{
    switch (state) {
    case TaskState::Pending:
        return QStringLiteral("pending");
    case TaskState::Running:
        return QStringLiteral("running");
    case TaskState::Done:
        return QStringLiteral("done");
    case TaskState::Failed:
        return QStringLiteral("failed");
    case TaskState::Cancelled:
        return QStringLiteral("cancelled");
    case TaskState::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

TaskState stateFromSlurm(const QString& slurmState)
{
    const QString s = slurmState.trimmed().section(QLatin1Char(' '), 0, 0).toUpper();
    static const QStringList pending = { QStringLiteral("PENDING"), QStringLiteral("CONFIGURING"),
        QStringLiteral("REQUEUED"), QStringLiteral("REQUEUE_HOLD"), QStringLiteral("REQUEUE_FED"),
        QStringLiteral("RESV_DEL_HOLD"), QStringLiteral("SPECIAL_EXIT") };
    static const QStringList running = { QStringLiteral("RUNNING"), QStringLiteral("COMPLETING"),
        QStringLiteral("SUSPENDED"), QStringLiteral("STAGE_OUT"), QStringLiteral("SIGNALING"),
        QStringLiteral("RESIZING"), QStringLiteral("STOPPED") };
    static const QStringList failed = { QStringLiteral("FAILED"), QStringLiteral("TIMEOUT"),
        QStringLiteral("OUT_OF_MEMORY"), QStringLiteral("NODE_FAIL"), QStringLiteral("BOOT_FAIL"),
        QStringLiteral("DEADLINE"), QStringLiteral("PREEMPTED"), QStringLiteral("REVOKED") };
    if (pending.contains(s))
        return TaskState::Pending;
    if (running.contains(s))
        return TaskState::Running;
    if (s == QLatin1String("COMPLETED"))
        return TaskState::Done;
    if (s == QLatin1String("CANCELLED"))
        return TaskState::Cancelled;
    if (failed.contains(s))
        return TaskState::Failed;
    return TaskState::Unknown;
}

bool isFinished(TaskState state)
{
    return state == TaskState::Done || state == TaskState::Failed || state == TaskState::Cancelled;
}

QMap<int, SlurmTask> parseArrayTasks(const QString& text, const QString& jobId)
{
    QMap<int, SlurmTask> tasks;
    static const QRegularExpression single(QStringLiteral("^(\\d+)_(\\d+)$"));
    static const QRegularExpression range(QStringLiteral("^(\\d+)_\\[([0-9,\\-]+)(%\\d+)?\\]$"));
    for (const QString& raw : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QStringList fields = raw.trimmed().split(QLatin1Char('|'));
        if (fields.size() < 2)
            continue;
        const SlurmTask task { fields[1].trimmed(), fields.value(2).trimmed() };
        const QString id = fields[0].trimmed();
        if (const auto m = single.match(id); m.hasMatch()) {
            if (m.captured(1) == jobId)
                tasks[m.captured(2).toInt()] = task;
            continue;
        }
        const auto m = range.match(id);
        if (!m.hasMatch() || m.captured(1) != jobId)
            continue;
        for (const QString& part : m.captured(2).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const QStringList ends = part.split(QLatin1Char('-'));
            bool okA = false, okB = false;
            const int a = ends[0].toInt(&okA);
            const int b = ends.size() == 2 ? ends[1].toInt(&okB) : a;
            if (!okA || (ends.size() == 2 && !okB) || ends.size() > 2 || b < a || b - a > 1000000)
                continue;
            for (int i = a; i <= b; ++i)
                tasks[i] = task;
        }
    }
    return tasks;
}

QString parseSbatchJobId(const QString& output)
{
    for (const QString& line : output.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QString id = line.trimmed().section(QLatin1Char(';'), 0, 0);
        bool ok = false;
        id.toLongLong(&ok);
        if (ok)
            return id;
    }
    return {};
}

QString findTool(const QString& name)
{
    const QString dir = qEnvironmentVariable("KIX_SLURM_BIN");
    if (!dir.isEmpty()) {
        const QFileInfo info(QDir(dir).filePath(name));
        return info.isExecutable() ? info.absoluteFilePath() : QString();
    }
    return QStandardPaths::findExecutable(name);
}

ToolResult runTool(const QString& name, const QStringList& args, int timeoutMs)
{
    ToolResult result;
    const QString program = findTool(name);
    if (program.isEmpty()) {
        result.error = QStringLiteral("%1: command not found (%2); kix fleet needs a Slurm client on this machine "
                                      "(scripts/slurm-local.sh start brings up a one-node cluster)")
                           .arg(name,
                               qEnvironmentVariableIsSet("KIX_SLURM_BIN")
                                   ? QStringLiteral("KIX_SLURM_BIN=") + qEnvironmentVariable("KIX_SLURM_BIN")
                                   : QStringLiteral("not on PATH"));
        return result;
    }
    QProcess process;
    process.start(program, args);
    if (!process.waitForStarted(timeoutMs)) {
        result.error = QStringLiteral("%1: cannot start: %2").arg(program, process.errorString());
        return result;
    }
    process.closeWriteChannel();
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(5000);
        result.error = QStringLiteral("%1: no answer within %2 s").arg(name).arg(timeoutMs / 1000);
        return result;
    }
    result.out = QString::fromLocal8Bit(process.readAllStandardOutput());
    result.err = QString::fromLocal8Bit(process.readAllStandardError()).trimmed();
    if (process.exitStatus() != QProcess::NormalExit) {
        result.error = QStringLiteral("%1: crashed: %2").arg(name, result.err);
        return result;
    }
    result.ran = true;
    result.exitCode = process.exitCode();
    if (result.exitCode != 0)
        result.error = QStringLiteral("%1: exit code %2: %3")
                           .arg(name)
                           .arg(result.exitCode)
                           .arg(result.err.isEmpty() ? QStringLiteral("(no message)") : result.err);
    return result;
}

} // namespace kix::fleet
