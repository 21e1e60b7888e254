// SPDX-License-Identifier: Apache-2.0
#include "engine/fleet/fleetplan.h"

#include "engine/benchmarkrequest.h"
#include "engine/benchmarkspec.h"

#include <QDir>
#include <QFile>
#include <QHash>

#include <nlohmann/json.hpp>

namespace kix::fleet {
namespace {

bool positive(const QString& text, qint64& value)
{
    bool ok = false;
    value = text.trimmed().toLongLong(&ok);
    return ok && value > 0;
}

QStringList trimmedList(const QStringList& values)
{
    QStringList out;
    for (const QString& v : values)
        for (const QString& part : v.split(QLatin1Char(','), Qt::SkipEmptyParts))
            if (!part.trimmed().isEmpty())
                out << part.trimmed();
    return out;
}

Cell makeCell(const BenchmarkSpec& spec, const QString& device, const QStringList& timingArgs)
{
    Cell cell;
    cell.benchArgs = { QStringLiteral("--device"), device, QStringLiteral("--pass"), passName(spec.pass),
        QStringLiteral("--shape"), QStringLiteral("%1,%2,%3").arg(spec.batch).arg(spec.channels).arg(spec.hidden),
        QStringLiteral("--channels-per-group"), QString::number(spec.channelsPerGroup), QStringLiteral("--dtype"),
        dtypeName(spec.dtype) };
    if (!spec.implementation.isEmpty())
        cell.benchArgs << QStringLiteral("--impl") << spec.implementation;
    cell.benchArgs << timingArgs;
    cell.label = QStringLiteral("%1 %2 %3")
                     .arg(passName(spec.pass), spec.workloadSlug(),
                         spec.implementation.isEmpty() ? QStringLiteral("default") : spec.implementation);
    return cell;
}

} // namespace

QString Target::name() const
{
    if (partition.isEmpty())
        return gres.isEmpty() ? QStringLiteral("default") : gres;
    return QStringLiteral("partition=") + partition + (gres.isEmpty() ? QString() : QLatin1Char(',') + gres);
}

bool parseTarget(const QString& text, Target& target, QString* error)
{
    target = {};
    for (const QString& raw : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString part = raw.trimmed();
        if (part.startsWith(QLatin1String("partition=")))
            target.partition = part.mid(10);
        else if (part.startsWith(QLatin1String("gres=")))
            target.gres = part.mid(5);
        else if (!part.contains(QLatin1Char('=')))
            target.gres = part;
        else
            target.partition = QStringLiteral("\n"); // refused below
    }
    const QString allowed = QStringLiteral("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:");
    auto clean = [&](const QString& s) {
        for (const QChar c : s)
            if (!allowed.contains(c))
                return false;
        return true;
    };
    if ((target.partition.isEmpty() && target.gres.isEmpty()) || !clean(target.partition) || !clean(target.gres)
        || target.gres.startsWith(QLatin1String("gpu:"))) {
        if (error)
            *error = QStringLiteral("target '%1': expected TYPE:N (a GPU type for --gres, e.g. h100:1), "
                                    "partition=NAME, or partition=NAME,gres=TYPE:N")
                         .arg(text);
        return false;
    }
    return true;
}

QStringList matrixOptionNames()
{
    return { QStringLiteral("device"), QStringLiteral("pass"), QStringLiteral("shape"),
        QStringLiteral("channels-per-group"), QStringLiteral("sweep"), QStringLiteral("dtype"), QStringLiteral("impl"),
        QStringLiteral("warmup-ms"), QStringLiteral("rep-ms"), QStringLiteral("max-ms"), QStringLiteral("noise-stop"),
        QStringLiteral("cuda-graph"), QStringLiteral("target"), QStringLiteral("chunk") };
}

bool matrixFileArgs(const QString& path, QStringList& args, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot open: %2").arg(path, file.errorString());
        return false;
    }
    const nlohmann::json doc = nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        *error = QStringLiteral("%1: not a JSON object of matrix options").arg(path);
        return false;
    }
    const QStringList names = matrixOptionNames();
    for (auto it = doc.begin(); it != doc.end(); ++it) {
        const QString key = QString::fromStdString(it.key());
        if (!names.contains(key)) {
            *error = QStringLiteral("%1: /%2: unknown matrix option (known: %3)").arg(path, key, names.join(", "));
            return false;
        }
        const QString option = QStringLiteral("--") + key;
        auto scalar = [&](const nlohmann::json& v, QString& text) {
            if (v.is_string())
                text = QString::fromStdString(v.get<std::string>());
            else if (v.is_number_integer())
                text = QString::number(v.get<qint64>());
            else if (v.is_number())
                text = QString::number(v.get<double>());
            else
                return false;
            return true;
        };
        const nlohmann::json& value = it.value();
        if (value.is_boolean()) {
            if (value.get<bool>())
                args << option;
            continue;
        }
        const nlohmann::json list = value.is_array() ? value : nlohmann::json::array({ value });
        QStringList texts;
        for (const nlohmann::json& v : list) {
            QString text;
            if (!scalar(v, text)) {
                *error = QStringLiteral("%1: /%2: expected a string, a number or a list of them").arg(path, key);
                return false;
            }
            texts << text;
        }
        // A list is repeated options for the axes and targets, one comma-separated value for everything else.
        if (key == QLatin1String("sweep") || key == QLatin1String("target")) {
            for (const QString& t : texts)
                args << option << t;
        } else {
            args << option << texts.join(QLatin1Char(','));
        }
    }
    return true;
}

bool expandCells(const Matrix& matrix, QVector<Cell>& cells, QString* error)
{
    cells.clear();
    BenchmarkSpec base;
    const QStringList dims = matrix.shape.split(QLatin1Char(','));
    if (dims.size() != 3 || !positive(dims[0], base.batch) || !positive(dims[1], base.channels)
        || !positive(dims[2], base.hidden)) {
        *error = QStringLiteral("--shape expects M,C,H, positive integers (got '%1')").arg(matrix.shape);
        return false;
    }
    if (!positive(matrix.channelsPerGroup, base.channelsPerGroup)) {
        *error
            = QStringLiteral("--channels-per-group expects a positive integer (got '%1')").arg(matrix.channelsPerGroup);
        return false;
    }
    QList<Pass> passes;
    for (const QString& p : trimmedList(matrix.passes)) {
        Pass value;
        if (!parsePass(p, value)) {
            *error = QStringLiteral("unknown pass '%1' (expected forward, backward or full)").arg(p);
            return false;
        }
        passes << value;
    }
    QList<DType> dtypes;
    for (const QString& d : trimmedList(matrix.dtypes)) {
        DType value;
        if (!parseDType(d, value)) {
            *error = QStringLiteral("unknown dtype '%1' (expected fp32, bf16 or fp16)").arg(d);
            return false;
        }
        dtypes << value;
    }
    // The one request grammar (engine/benchmarkrequest.h), so that a fleet expands exactly as `kix bench` does.
    BenchmarkRequest request;
    request.base = base;
    request.passes = passes;
    request.dtypes = dtypes;
    request.implementations = trimmedList(matrix.implementations);
    for (const QString& s : matrix.sweeps) {
        SweepAxis axis;
        QString why;
        if (!parseSweepAxis(s, axis, why)) {
            *error = why;
            return false;
        }
        request.sweeps << axis;
    }
    if (passes.isEmpty() || dtypes.isEmpty())
        return true; // no cells: refused by planJobs as zero tasks
    const QString device = matrix.device.trimmed().isEmpty() ? QStringLiteral("auto") : matrix.device.trimmed();
    for (const BenchmarkSpec& spec : expandRequest(request)) {
        if (spec.channels % spec.channelsPerGroup != 0) {
            *error = QStringLiteral("%1: channels %2 is not a multiple of channels_per_group %3")
                         .arg(spec.workloadSlug())
                         .arg(spec.channels)
                         .arg(spec.channelsPerGroup);
            cells.clear();
            return false;
        }
        cells << makeCell(spec, device, matrix.timingArgs);
    }
    return true;
}

QVector<Cell> cellsFromSpecs(const QVector<BenchmarkSpec>& specs)
{
    QVector<Cell> cells;
    for (const BenchmarkSpec& spec : specs) {
        QStringList timing = { QStringLiteral("--warmup-ms"), QString::number(spec.timing.warmupMs),
            QStringLiteral("--rep-ms"), QString::number(spec.timing.repMs) };
        if (spec.timing.noiseStop)
            timing << QStringLiteral("--noise-stop") << QStringLiteral("--max-ms")
                   << QString::number(spec.timing.maxMs);
        if (spec.timing.cudaGraph)
            timing << QStringLiteral("--cuda-graph");
        // The panel resolved the device on this machine; a compute node picks its own the same way.
        const QString device = spec.device.startsWith(QLatin1String("cuda")) ? QStringLiteral("cuda") : spec.device;
        cells << makeCell(spec, device, timing);
    }
    return cells;
}

bool planJobs(const QVector<Cell>& cells, const QVector<Target>& targets, int chunk, int maxTasks,
    QVector<ArrayJob>& jobs, QString* error)
{
    jobs.clear();
    if (chunk < 1) {
        *error = QStringLiteral("--chunk must be at least 1 (got %1)").arg(chunk);
        return false;
    }
    const QVector<Target> all = targets.isEmpty() ? QVector<Target> { Target {} } : targets;
    const qint64 perTarget = (cells.size() + chunk - 1) / chunk;
    const qint64 total = perTarget * all.size();
    if (total == 0) {
        *error = QStringLiteral("the matrix expands to no tasks (%1 cells, %2 targets); nothing submitted")
                     .arg(cells.size())
                     .arg(all.size());
        return false;
    }
    if (total > maxTasks) {
        *error = QStringLiteral("the matrix expands to %1 tasks (%2 cells in chunks of %3 × %4 targets), more than "
                                "the limit of %5; raise --chunk or --max-tasks; nothing submitted")
                     .arg(total)
                     .arg(cells.size())
                     .arg(chunk)
                     .arg(all.size())
                     .arg(maxTasks);
        return false;
    }
    for (const Target& target : all) {
        ArrayJob job;
        job.target = target;
        for (int i = 0; i < cells.size(); i += chunk)
            job.tasks << cells.mid(i, chunk);
        jobs << job;
    }
    return true;
}

int taskCount(const QVector<ArrayJob>& jobs)
{
    int n = 0;
    for (const ArrayJob& j : jobs)
        n += j.tasks.size();
    return n;
}

nlohmann::json planDocument(const ArrayJob& job, const QString& resultsDir)
{
    nlohmann::json tasks = nlohmann::json::array();
    for (const QVector<Cell>& task : job.tasks) {
        nlohmann::json cells = nlohmann::json::array();
        for (const Cell& cell : task) {
            nlohmann::json args = nlohmann::json::array();
            for (const QString& a : cell.benchArgs)
                args.push_back(a.toStdString());
            cells.push_back({ { "label", cell.label.toStdString() }, { "args", args } });
        }
        tasks.push_back(cells);
    }
    return { { "version", 1 }, { "results", resultsDir.toStdString() }, { "target", job.target.name().toStdString() },
        { "tasks", tasks } };
}

QString shellQuote(const QString& text)
{
    QString quoted = text;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QString batchScript(const ArrayJob& job, const SubmitOptions& options)
{
    return QStringLiteral("#!/bin/sh\n"
                          "# kix fleet: target %1, %2 tasks; each runs its chunk of the matrix with kix bench into a\n"
                          "# private staging folder and moves the finished run files into %3 atomically.\n"
                          "exec %4 fleet task --plan %5 --index \"${SLURM_ARRAY_TASK_ID:?not an array task}\"\n")
        .arg(job.target.name())
        .arg(job.tasks.size())
        .arg(options.resultsDir, shellQuote(options.kixBinary), shellQuote(options.planFile));
}

QStringList sbatchArguments(const ArrayJob& job, const SubmitOptions& options, const QString& scriptPath)
{
    const QString logs = logsDir(options.resultsDir);
    QStringList args = { QStringLiteral("--parsable"), QStringLiteral("--job-name=") + options.jobName,
        QStringLiteral("--array=0-%1").arg(job.tasks.size() - 1)
            + (options.throttle > 0 ? QStringLiteral("%") + QString::number(options.throttle) : QString()),
        QStringLiteral("--output=") + logs + "/%A_%a.out", QStringLiteral("--error=") + logs + "/%A_%a.err" };
    if (!options.time.isEmpty())
        args << QStringLiteral("--time=") + options.time;
    if (!options.account.isEmpty())
        args << QStringLiteral("--account=") + options.account;
    const QString partition = job.target.partition.isEmpty() ? options.partition : job.target.partition;
    if (!partition.isEmpty())
        args << QStringLiteral("--partition=") + partition;
    if (!job.target.gres.isEmpty())
        args << QStringLiteral("--gres=gpu:") + job.target.gres;
    args << options.extra << scriptPath;
    return args;
}

QString fleetDir(const QString& resultsDir)
{
    return QDir(resultsDir).filePath(QStringLiteral(".kix-fleet"));
}
QString logsDir(const QString& resultsDir)
{
    return fleetDir(resultsDir) + QStringLiteral("/logs");
}
QString plansDir(const QString& resultsDir)
{
    return fleetDir(resultsDir) + QStringLiteral("/plans");
}
QString stagingDir(const QString& resultsDir)
{
    return fleetDir(resultsDir) + QStringLiteral("/staging");
}
QString stateDir(const QString& resultsDir)
{
    return fleetDir(resultsDir) + QStringLiteral("/state");
}

} // namespace kix::fleet
