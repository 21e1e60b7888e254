// SPDX-License-Identifier: Apache-2.0
#include "engine/fleet/fleetjobs.h"

#include "engine/fleet/fleetplan.h"
#include "model/format/utf8.h"
#include "model/write/runwriter.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QStandardPaths>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace kix::fleet {
namespace {

QString text(const nlohmann::json& doc, const char* key)
{
    const auto it = doc.find(key);
    return it != doc.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

nlohmann::json readJson(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return nullptr;
    nlohmann::json doc = nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
    return doc.is_discarded() || !doc.is_object() ? nlohmann::json() : doc;
}

bool readRecord(const QString& path, JobRecord& record)
{
    const nlohmann::json doc = readJson(path);
    if (!doc.is_object())
        return false;
    record.jobId = text(doc, "job");
    record.resultsDir = text(doc, "results");
    record.target = text(doc, "target");
    record.planFile = text(doc, "plan");
    record.submittedAt = text(doc, "submittedAt");
    const auto tasks = doc.find("tasks");
    record.tasks = tasks != doc.end() && tasks->is_number_integer() ? tasks->get<int>() : 0;
    return !record.jobId.isEmpty() && record.tasks > 0;
}

} // namespace

QString registryDir()
{
    const QString home = qEnvironmentVariable("KIX_FLEET_HOME");
    if (!home.isEmpty())
        return home;
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QStringLiteral("/kix/fleet");
}

bool saveRecord(const JobRecord& record, QString* error)
{
    const nlohmann::json doc = { { "job", utf8(record.jobId) }, { "results", utf8(record.resultsDir) },
        { "target", utf8(record.target) }, { "plan", utf8(record.planFile) },
        { "submittedAt", utf8(record.submittedAt) }, { "tasks", record.tasks } };
    const QByteArray bytes = QByteArray::fromStdString(doc.dump(2)) + '\n';
    const QString beside = fleetDir(record.resultsDir) + QStringLiteral("/jobs");
    if (!QDir().mkpath(beside) || !writeFileAtomically(beside + '/' + record.jobId + ".json", bytes, error)) {
        if (error->isEmpty())
            *error = QStringLiteral("%1: cannot create the folder").arg(beside);
        return false;
    }
    // The user's list is a convenience: a home without room must not fail a submission that happened.
    QString ignored;
    if (QDir().mkpath(registryDir()))
        writeFileAtomically(registryDir() + '/' + record.jobId + ".json", bytes, &ignored);
    return true;
}

bool loadRecord(const QString& jobId, const QString& resultsDir, JobRecord& record, QString* error)
{
    const QString path = resultsDir.isEmpty()
        ? QString(registryDir() + '/' + jobId + ".json")
        : QString(fleetDir(resultsDir) + QStringLiteral("/jobs/") + jobId + ".json");
    if (!readRecord(path, record)) {
        *error = QStringLiteral("job %1: no record at %2 (was it submitted with kix fleet submit%3?)")
                     .arg(jobId, path,
                         resultsDir.isEmpty() ? QStringLiteral(" by this user; try --results DIR") : QString());
        return false;
    }
    return true;
}

QVector<JobRecord> knownJobs()
{
    QVector<JobRecord> jobs;
    const QDir dir(registryDir());
    for (const QString& name : dir.entryList({ QStringLiteral("*.json") }, QDir::Files)) {
        JobRecord record;
        if (readRecord(dir.filePath(name), record))
            jobs << record;
    }
    std::sort(jobs.begin(), jobs.end(),
        [](const JobRecord& a, const JobRecord& b) { return a.jobId.toLongLong() > b.jobId.toLongLong(); });
    return jobs;
}

QString markerPath(const QString& resultsDir, const QString& jobId, int index)
{
    return stateDir(resultsDir) + QStringLiteral("/%1_%2.json").arg(jobId).arg(index);
}

TaskMarker readMarker(const QString& resultsDir, const QString& jobId, int index)
{
    TaskMarker marker;
    const nlohmann::json doc = readJson(markerPath(resultsDir, jobId, index));
    if (!doc.is_object())
        return marker;
    marker.present = true;
    marker.done = text(doc, "state") == QLatin1String("done");
    const auto code = doc.find("exitCode");
    marker.exitCode = code != doc.end() && code->is_number_integer() ? code->get<int>() : 0;
    marker.message = text(doc, "message");
    const auto runs = doc.find("runs");
    if (runs != doc.end() && runs->is_array())
        for (const auto& r : *runs)
            if (r.is_string())
                marker.runs << QString::fromStdString(r.get<std::string>());
    return marker;
}

bool writeMarker(const QString& resultsDir, const QString& jobId, int index, const TaskMarker& marker, QString* error)
{
    nlohmann::json runs = nlohmann::json::array();
    for (const QString& r : marker.runs)
        runs.push_back(utf8(r));
    const nlohmann::json doc = { { "state", marker.done ? "done" : "failed" }, { "exitCode", marker.exitCode },
        { "message", utf8(marker.message) }, { "runs", runs },
        { "at", utf8(QDateTime::currentDateTimeUtc().toString(Qt::ISODate)) } };
    if (!QDir().mkpath(stateDir(resultsDir))) {
        *error = QStringLiteral("%1: cannot create the folder").arg(stateDir(resultsDir));
        return false;
    }
    return writeFileAtomically(
        markerPath(resultsDir, jobId, index), QByteArray::fromStdString(doc.dump(2)) + '\n', error);
}

int JobStatus::count(TaskState state) const
{
    return int(std::count_if(tasks.begin(), tasks.end(), [&](const TaskStatus& t) { return t.state == state; }));
}

bool JobStatus::finished() const
{
    return std::all_of(tasks.begin(), tasks.end(), [](const TaskStatus& t) { return isFinished(t.state); });
}

QString JobStatus::summary() const
{
    QStringList parts;
    for (const TaskState s : { TaskState::Done, TaskState::Running, TaskState::Pending, TaskState::Failed,
             TaskState::Cancelled, TaskState::Unknown })
        if (const int n = count(s); n > 0)
            parts << QStringLiteral("%1 %2").arg(n).arg(stateName(s));
    return QStringLiteral("%1 tasks: %2").arg(tasks.size()).arg(parts.join(QStringLiteral(", ")));
}

JobStatus combineStatus(const JobRecord& record, const QMap<int, SlurmTask>& squeue, const QMap<int, SlurmTask>& sacct)
{
    JobStatus status;
    status.record = record;
    for (int i = 0; i < record.tasks; ++i) {
        TaskStatus t;
        t.index = i;
        t.errLog = logsDir(record.resultsDir) + QStringLiteral("/%1_%2.err").arg(record.jobId).arg(i);
        const TaskMarker marker = readMarker(record.resultsDir, record.jobId, i);
        const auto q = squeue.constFind(i);
        const auto a = sacct.constFind(i);
        const SlurmTask* scheduler = q != squeue.cend() ? &q.value() : a != sacct.cend() ? &a.value() : nullptr;
        if (marker.present) {
            t.state = marker.done ? TaskState::Done : TaskState::Failed;
            t.detail
                = marker.done ? QString() : QStringLiteral("exit code %1: %2").arg(marker.exitCode).arg(marker.message);
            t.runs = marker.runs.size();
        } else if (scheduler) {
            t.state = stateFromSlurm(scheduler->state);
            // Finished by the scheduler without a verdict of its own: killed (time limit, scancel, node lost).
            if (t.state == TaskState::Done)
                t.state = TaskState::Failed;
            const QString extra = scheduler->extra == QLatin1String("None") ? QString() : scheduler->extra;
            t.detail = scheduler->state + (extra.isEmpty() ? QString() : QStringLiteral(" (") + extra + ')');
        }
        status.tasks << t;
    }
    return status;
}

JobStatus queryStatus(const JobRecord& record)
{
    QStringList notes;
    QMap<int, SlurmTask> squeue, sacct;
    const ToolResult q = runTool(QStringLiteral("squeue"),
        { QStringLiteral("-h"), QStringLiteral("-r"), QStringLiteral("-t"), QStringLiteral("all"), QStringLiteral("-j"),
            record.jobId, QStringLiteral("-o"), QStringLiteral("%i|%T|%r") },
        30000);
    if (q.ok())
        squeue = parseArrayTasks(q.out, record.jobId);
    else if (!q.error.contains(QLatin1String("Invalid job id"))) // squeue forgets finished jobs after MinJobAge
        notes << q.error;
    bool needSacct = false;
    for (int i = 0; i < record.tasks; ++i)
        needSacct = needSacct || (!squeue.contains(i) && !readMarker(record.resultsDir, record.jobId, i).present);
    if (needSacct) {
        const ToolResult a = runTool(QStringLiteral("sacct"),
            { QStringLiteral("-n"), QStringLiteral("-P"), QStringLiteral("-X"), QStringLiteral("-j"), record.jobId,
                QStringLiteral("-o"), QStringLiteral("JobID,State,ExitCode") },
            30000);
        if (a.ok())
            sacct = parseArrayTasks(a.out, record.jobId);
        else
            notes << a.error;
    }
    JobStatus status = combineStatus(record, squeue, sacct);
    status.notes = notes;
    return status;
}

} // namespace kix::fleet
