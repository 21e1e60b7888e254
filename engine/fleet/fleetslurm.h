// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMap>
#include <QString>
#include <QStringList>

namespace kix::fleet {

// What kix tells the user about one task of an array job.
enum class TaskState { Pending, Running, Done, Failed, Cancelled, Unknown };
QString stateName(TaskState state); // "pending", "running", "done", "failed", "cancelled", "unknown"
// A Slurm job state as squeue (%T) or sacct (State) print it: PENDING, RUNNING, COMPLETED, FAILED, TIMEOUT,
// "CANCELLED by 0", OUT_OF_MEMORY, NODE_FAIL, ...
TaskState stateFromSlurm(const QString& slurmState);
bool isFinished(TaskState state);

// One array task in the scheduler's words.
struct SlurmTask
{
    QString state; // as printed
    QString extra; // squeue: the reason; sacct: the exit code "1:0"
};

// Parses `squeue -h -r -t all -j JOB -o %i|%T|%r` or `sacct -n -P -X -j JOB -o JobID,State,ExitCode` output:
// the lines of array job `jobId`, "JOB_7" or a pending range "JOB_[0-3,5%2]", by array index. Lines of other
// jobs, steps ("JOB_7.batch") and malformed lines are skipped.
QMap<int, SlurmTask> parseArrayTasks(const QString& text, const QString& jobId);

// `sbatch --parsable` prints "JOBID" or "JOBID;CLUSTER"; empty when the output holds no job id.
QString parseSbatchJobId(const QString& output);

// A Slurm command run to completion.
struct ToolResult
{
    bool ran = false; // found, started and finished in time
    int exitCode = -1;
    QString out;
    QString err;
    QString error; // why it did not run, or what it said when it failed, for the user
    bool ok() const { return ran && exitCode == 0; }
};

// Finds `name` (sbatch, squeue, sacct, scancel) in $KIX_SLURM_BIN, else on PATH; empty when missing.
QString findTool(const QString& name);
// Runs a Slurm command with a timeout (ms). A missing command, one that cannot start, times out or exits
// non-zero gives `error`: "sbatch: exit code 1: sbatch: error: invalid partition specified: gpu".
ToolResult runTool(const QString& name, const QStringList& args, int timeoutMs = 60000);

} // namespace kix::fleet
