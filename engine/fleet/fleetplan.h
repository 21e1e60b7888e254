// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

#include <nlohmann/json_fwd.hpp>

namespace kix {

struct BenchmarkSpec;

namespace fleet {

// Where one Slurm array job runs: a partition, a GPU type for --gres, or both. Every task of an array gets the
// same resources, so kix submits one array job per target.
struct Target
{
    QString partition; // empty: the --partition given to submit, else the cluster's default
    QString gres; // "h100:1" -> --gres=gpu:h100:1; empty: no GPU requested
    QString name() const; // "h100:1", "partition=debug", "partition=gpu,h100:1" or "default"
};

// Parses "h100:1", "gres=h100:1", "partition=debug" or "partition=gpu,gres=h100:1"; false and *error otherwise.
bool parseTarget(const QString& text, Target& target, QString* error);

// One benchmark cell of the matrix: the `kix bench` arguments that run exactly it (no --out).
struct Cell
{
    QStringList benchArgs;
    QString label; // "forward batch128-channels2048-channels_per_group4-hidden512-fp32 default"
};

// A matrix in `kix bench`'s grammar, plus targets and how many cells one task runs.
struct Matrix
{
    QString device = QStringLiteral("auto");
    QStringList passes { QStringLiteral("forward"), QStringLiteral("backward"), QStringLiteral("full") };
    QString shape = QStringLiteral("128,2048,512");
    QString channelsPerGroup = QStringLiteral("4");
    QStringList sweeps; // KEY=VALUES, each one an axis
    QStringList dtypes { QStringLiteral("fp32") };
    QStringList implementations; // empty: the device's default
    QStringList timingArgs; // --warmup-ms, --rep-ms, --noise-stop, --max-ms, --cuda-graph as given
    QVector<Target> targets; // empty: one default target
    int chunk = 1; // cells per task
};

// The matrix options, as `kix fleet plan|submit` and a --matrix file take them.
QStringList matrixOptionNames();
// A --matrix JSON file ({"pass": "forward,backward", "sweep": ["channels=32,64,...,2048"], "target": ["h100:1"],
// "chunk": 4, ...}: option names as keys) as command-line arguments; false and *error (naming the file) otherwise.
bool matrixFileArgs(const QString& path, QStringList& args, QString* error);

// Every cell, in `kix bench` order (pass, shape in sweep order, dtype, implementation); false and *error when a
// value is malformed (unknown pass or dtype, bad shape, bad sweep).
bool expandCells(const Matrix& matrix, QVector<Cell>& cells, QString* error);
// The cells of the Benchmark panel's expanded specs.
QVector<Cell> cellsFromSpecs(const QVector<BenchmarkSpec>& specs);

// One array job: a target and its tasks, each a chunk of cells.
struct ArrayJob
{
    Target target;
    QVector<QVector<Cell>> tasks;
};

constexpr int kDefaultMaxTasks = 1000; // Slurm's default MaxArraySize is 1001 (indices 0..1000)

// targets × chunks of `cells`. Refused (false, *error) when that is zero tasks or more than maxTasks in all.
bool planJobs(const QVector<Cell>& cells, const QVector<Target>& targets, int chunk, int maxTasks,
    QVector<ArrayJob>& jobs, QString* error);
int taskCount(const QVector<ArrayJob>& jobs);

// The plan file one array job's tasks read: {"version": 1, "results": DIR, "target": NAME, "tasks": [[args...]...]}.
nlohmann::json planDocument(const ArrayJob& job, const QString& resultsDir);

// How a submission is made.
struct SubmitOptions
{
    QString resultsDir; // absolute
    QString kixBinary; // absolute path of the kix the tasks run (must exist on the compute nodes)
    QString planFile; // absolute
    QString time; // --time, empty: the partition's default
    QString account;
    QString partition; // used when the target names none
    QString jobName = QStringLiteral("kix-fleet");
    int throttle = 0; // > 0: at most this many tasks of an array at once (--array=0-N%throttle)
    QStringList extra; // passed to sbatch as they are
};

// The shell script sbatch runs for every task: it runs `kix fleet task` for its array index.
QString batchScript(const ArrayJob& job, const SubmitOptions& options);
// sbatch's arguments, script path last: --parsable --array=0-N, --output/--error into the logs folder, --time,
// --account, --partition, --gres, the extra options.
QStringList sbatchArguments(const ArrayJob& job, const SubmitOptions& options, const QString& scriptPath);

// The fleet's own folders inside a results folder (hidden, so that loading the folder never sees them).
QString fleetDir(const QString& resultsDir); // DIR/.kix-fleet
QString logsDir(const QString& resultsDir); // DIR/.kix-fleet/logs: %A_%a.out and %A_%a.err of every task
QString plansDir(const QString& resultsDir);
QString stagingDir(const QString& resultsDir);
QString stateDir(const QString& resultsDir);

// POSIX shell quoting: 'it'\''s'.
QString shellQuote(const QString& text);

} // namespace fleet
} // namespace kix
