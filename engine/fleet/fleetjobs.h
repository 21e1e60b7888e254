// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/fleet/fleetslurm.h"

#include <QString>
#include <QVector>

namespace kix::fleet {

// A submitted array job, as kix remembers it: in DIR/.kix-fleet/jobs/JOBID.json beside the results, and in the
// user's own list ($KIX_FLEET_HOME, else ~/.local/share/kix/fleet) so that `kix fleet status JOBID` and the Fleet
// panel find it without being told the folder.
struct JobRecord
{
    QString jobId;
    QString resultsDir;
    QString target;
    QString planFile;
    QString submittedAt; // ISO 8601, UTC
    int tasks = 0;
};

QString registryDir();
// Writes the record to both places (atomically); false and *error when the results folder's copy fails.
bool saveRecord(const JobRecord& record, QString* error);
// The record of `jobId`: from resultsDir when given, else from the user's list. False and *error otherwise.
bool loadRecord(const QString& jobId, const QString& resultsDir, JobRecord& record, QString* error);
// Every job in the user's list, newest first.
QVector<JobRecord> knownJobs();

// What a task wrote about itself when it ended (DIR/.kix-fleet/state/JOB_INDEX.json).
struct TaskMarker
{
    bool present = false;
    bool done = false;
    int exitCode = 0;
    QString message;
    QStringList runs; // the run files it moved into the results folder
};
QString markerPath(const QString& resultsDir, const QString& jobId, int index);
TaskMarker readMarker(const QString& resultsDir, const QString& jobId, int index);
bool writeMarker(const QString& resultsDir, const QString& jobId, int index, const TaskMarker& marker, QString* error);

struct TaskStatus
{
    int index = 0;
    TaskState state = TaskState::Unknown;
    QString detail; // the scheduler's reason or exit code, or the task's own message
    QString errLog; // DIR/.kix-fleet/logs/JOB_INDEX.err
    int runs = 0;
};

struct JobStatus
{
    JobRecord record;
    QVector<TaskStatus> tasks;
    QStringList notes; // what could not be asked (sacct without accounting, ...)
    int count(TaskState state) const;
    bool finished() const; // every task done, failed or cancelled
    QString summary() const; // "4 tasks: 2 done, 1 running, 1 pending"
};

// Pure: one state per task from the task's own marker (its verdict wins), else squeue, else sacct.
JobStatus combineStatus(const JobRecord& record, const QMap<int, SlurmTask>& squeue, const QMap<int, SlurmTask>& sacct);
// Asks squeue and sacct (each optional: their failures become notes) and reads the markers.
JobStatus queryStatus(const JobRecord& record);

} // namespace kix::fleet
