// SPDX-License-Identifier: Apache-2.0
#include "engine/fleet/fleetsubmit.h"

#include "engine/fleet/fleetslurm.h"
#include "model/write/runwriter.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

namespace kix::fleet {

SubmitResult submitJobs(const QVector<ArrayJob>& jobs, SubmitOptions options)
{
    SubmitResult result;
    auto refuse = [&](const QString& message) {
        result.error = message;
        result.refused = true;
        return result;
    };
    if (jobs.isEmpty())
        return refuse(QStringLiteral("nothing to submit"));
    if (findTool(QStringLiteral("sbatch")).isEmpty())
        return refuse(runTool(QStringLiteral("sbatch"), {}).error);
    const QFileInfo kix(options.kixBinary);
    if (!kix.isFile() || !kix.isExecutable())
        return refuse(QStringLiteral("%1: not an executable kix (give the compute nodes' path with --kix PATH)")
                          .arg(options.kixBinary));
    options.kixBinary = kix.absoluteFilePath();
    if (options.resultsDir.contains(QLatin1Char('\n')) || options.resultsDir.contains(QLatin1Char('%')))
        return refuse(
            QStringLiteral("%1: the results folder's name may not hold a newline or '%'").arg(options.resultsDir));
    options.resultsDir = QDir(options.resultsDir).absolutePath();

    // Every folder the tasks write to, and a probe write, before anything reaches the scheduler.
    for (const QString& dir : { options.resultsDir, logsDir(options.resultsDir), plansDir(options.resultsDir),
             stagingDir(options.resultsDir), stateDir(options.resultsDir) })
        if (!QDir().mkpath(dir))
            return refuse(
                QStringLiteral("results folder %1 cannot be written: cannot create %2").arg(options.resultsDir, dir));
    QString error;
    const QString probe = options.resultsDir + QStringLiteral("/.kix-fleet-write-test");
    if (!writeFileAtomically(probe, "kix\n", &error))
        return refuse(QStringLiteral("results folder %1 cannot be written: %2").arg(options.resultsDir, error));
    QFile::remove(probe);

    const QString stamp = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
    for (int j = 0; j < jobs.size(); ++j) {
        const ArrayJob& job = jobs[j];
        const QString base = plansDir(options.resultsDir) + QStringLiteral("/%1-%2").arg(stamp).arg(j);
        options.planFile = base + QStringLiteral(".json");
        const QString script = base + QStringLiteral(".sh");
        if (!writeFileAtomically(options.planFile,
                QByteArray::fromStdString(planDocument(job, options.resultsDir).dump(2)) + '\n', &error)
            || !writeFileAtomically(script, batchScript(job, options).toUtf8(), &error)) {
            result.error = QStringLiteral("results folder %1 cannot be written: %2").arg(options.resultsDir, error);
            result.refused = result.submitted.isEmpty();
            return result;
        }
        QFile::setPermissions(script, QFile::permissions(script) | QFile::ExeOwner | QFile::ReadOwner);
        const ToolResult sbatch = runTool(QStringLiteral("sbatch"), sbatchArguments(job, options, script), 60000);
        if (!sbatch.ok()) {
            result.error = sbatch.error;
            return result;
        }
        JobRecord record;
        record.jobId = parseSbatchJobId(sbatch.out);
        if (record.jobId.isEmpty()) {
            result.error = QStringLiteral("sbatch printed no job id: %1").arg(sbatch.out.trimmed());
            return result;
        }
        record.resultsDir = options.resultsDir;
        record.target = job.target.name();
        record.planFile = options.planFile;
        record.submittedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
        record.tasks = job.tasks.size();
        if (!saveRecord(record, &error)) {
            result.error
                = QStringLiteral("job %1 submitted, but its record could not be written: %2").arg(record.jobId, error);
            return result;
        }
        result.submitted << record;
    }
    return result;
}

} // namespace kix::fleet
