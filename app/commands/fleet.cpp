// SPDX-License-Identifier: Apache-2.0
#include "app/commands/fleet.h"

#include "app/commands/bench.h"
#include "app/commands/commands.h"
#include "engine/fleet/fleetjobs.h"
#include "engine/fleet/fleetplan.h"
#include "engine/fleet/fleetslurm.h"
#include "engine/fleet/fleetsubmit.h"
#include "engine/fleet/fleettask.h"

#include "model/write/runwriter.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QThread>

#include <nlohmann/json.hpp>

namespace kix::cli {
namespace {

using namespace kix::fleet;

QString usage()
{
    return QStringLiteral(
        "Usage: kix fleet [options] plan|submit|status|cancel ...   (--help: this text)\n"
        "       kix fleet plan   [MATRIX] [--max-tasks N] [--write DIR]\n"
        "       kix fleet submit [MATRIX] --results DIR [--time T] [--account A] [--partition P]\n"
        "                        [--job-name NAME] [--kix PATH] [--max-tasks N] [--throttle N] [-- SBATCH-OPTION...]\n"
        "       kix fleet status [JOBID...] [--results DIR] [--wait] [--timeout S] [--interval S]\n"
        "       kix fleet cancel JOBID [--results DIR]\n"
        "MATRIX: --matrix FILE (JSON, option names as keys) and/or kix bench's options --device, --pass, --shape,\n"
        "--channels-per-group, --sweep KEY=V1,V2,..., --dtype, --impl, --warmup-ms, --rep-ms, --max-ms,\n"
        "--noise-stop, --cuda-graph; plus --target TYPE:N|partition=NAME[,gres=TYPE:N] (repeat it: one array job\n"
        "per target) and --chunk N (cells per task, default 1). Tasks = targets x ceil(cells / chunk), at most\n"
        "--max-tasks (default 1000). Each task runs kix bench on its compute node; its run files land in DIR\n"
        "atomically, labelled fleet_job, fleet_task, fleet_target, fleet_host; logs in DIR/.kix-fleet/logs.\n");
}

struct Parsed
{
    QCommandLineParser parser;
    QStringList positional;
};

void addMatrixOptions(QCommandLineParser& parser)
{
    for (const QString& name : matrixOptionNames()) {
        if (name == QLatin1String("noise-stop") || name == QLatin1String("cuda-graph"))
            parser.addOption(QCommandLineOption(name));
        else
            parser.addOption(QCommandLineOption(name, QString(), QStringLiteral("VALUE")));
    }
    parser.addOption(QCommandLineOption(QStringLiteral("matrix"), QString(), QStringLiteral("FILE")));
    parser.addOption(QCommandLineOption(QStringLiteral("max-tasks"), QString(), QStringLiteral("N")));
}

// The matrix the options describe (a --matrix file first, the command line's options after it and winning).
bool matrixFrom(
    const QStringList& args, QCommandLineParser& parser, QStringList& extra, QVector<ArrayJob>& jobs, QString& error)
{
    QStringList all = args;
    const int file = args.indexOf(QStringLiteral("--matrix"));
    if (file >= 0 && file + 1 < args.size()) {
        QStringList fileArgs;
        if (!matrixFileArgs(args[file + 1], fileArgs, &error))
            return false;
        all = fileArgs + args;
    }
    if (!parser.parse(QStringList { QStringLiteral("kix-fleet") } + all)) {
        error = parser.errorText();
        return false;
    }
    extra = parser.positionalArguments();
    Matrix m;
    auto value = [&](const char* name, QString& target) {
        if (parser.isSet(QString::fromLatin1(name)))
            target = parser.value(QString::fromLatin1(name));
    };
    value("device", m.device);
    value("shape", m.shape);
    value("channels-per-group", m.channelsPerGroup);
    if (parser.isSet(QStringLiteral("pass")))
        m.passes = QStringList { parser.value(QStringLiteral("pass")) };
    if (parser.isSet(QStringLiteral("dtype")))
        m.dtypes = QStringList { parser.value(QStringLiteral("dtype")) };
    if (parser.isSet(QStringLiteral("impl")))
        m.implementations = QStringList { parser.value(QStringLiteral("impl")) };
    m.sweeps = parser.values(QStringLiteral("sweep"));
    for (const char* timing : { "warmup-ms", "rep-ms", "max-ms" })
        if (parser.isSet(QString::fromLatin1(timing)))
            m.timingArgs << QStringLiteral("--") + QString::fromLatin1(timing)
                         << parser.value(QString::fromLatin1(timing));
    for (const char* flag : { "noise-stop", "cuda-graph" })
        if (parser.isSet(QString::fromLatin1(flag)))
            m.timingArgs << QStringLiteral("--") + QString::fromLatin1(flag);
    for (const QString& t : parser.values(QStringLiteral("target"))) {
        Target target;
        if (!parseTarget(t, target, &error))
            return false;
        m.targets << target;
    }
    bool ok = true;
    if (parser.isSet(QStringLiteral("chunk")))
        m.chunk = parser.value(QStringLiteral("chunk")).toInt(&ok);
    if (!ok) {
        error = QStringLiteral("--chunk expects a positive integer");
        return false;
    }
    int maxTasks = kDefaultMaxTasks;
    if (parser.isSet(QStringLiteral("max-tasks")))
        maxTasks = parser.value(QStringLiteral("max-tasks")).toInt(&ok);
    if (!ok || maxTasks < 1) {
        error = QStringLiteral("--max-tasks expects a positive integer");
        return false;
    }
    QVector<Cell> cells;
    return expandCells(m, cells, &error) && planJobs(cells, m.targets, m.chunk, maxTasks, jobs, &error);
}

int planCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    QCommandLineParser parser;
    addMatrixOptions(parser);
    parser.addOption(QCommandLineOption(QStringLiteral("write"), QString(), QStringLiteral("DIR")));
    QStringList extra;
    QVector<ArrayJob> jobs;
    QString error;
    if (!matrixFrom(args, parser, extra, jobs, error)) {
        err << "kix fleet plan: " << error << '\n';
        return FleetUsage;
    }
    if (!extra.isEmpty()) {
        err << "kix fleet plan: unexpected argument '" << extra.first() << "'\n";
        return FleetUsage;
    }
    for (const ArrayJob& job : jobs) {
        out << "array job for target " << job.target.name() << ": " << job.tasks.size() << " tasks\n";
        for (int t = 0; t < job.tasks.size(); ++t)
            for (const Cell& cell : job.tasks[t])
                out << "  task " << t << "  " << cell.label << '\n';
    }
    out << taskCount(jobs) << " tasks in " << jobs.size() << " array job(s)\n";
    // --write DIR: the plan files alone, for another scheduler (a Kubernetes Indexed Job runs `kix fleet task`).
    if (parser.isSet(QStringLiteral("write"))) {
        const QString results = QDir(parser.value(QStringLiteral("write"))).absolutePath();
        if (!QDir().mkpath(plansDir(results)) || !QDir().mkpath(logsDir(results))) {
            err << "kix fleet plan: results folder " << results << " cannot be written\n";
            return FleetFailure;
        }
        for (int j = 0; j < jobs.size(); ++j) {
            const QString path = plansDir(results) + QStringLiteral("/plan-%1.json").arg(j);
            if (!writeFileAtomically(
                    path, QByteArray::fromStdString(planDocument(jobs[j], results).dump(2)) + '\n', &error)) {
                err << "kix fleet plan: " << error << '\n';
                return FleetFailure;
            }
            out << "plan for target " << jobs[j].target.name() << " (" << jobs[j].tasks.size() << " tasks): " << path
                << '\n';
        }
    }
    return FleetOk;
}

int submitCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    QCommandLineParser parser;
    addMatrixOptions(parser);
    for (const char* name : { "results", "time", "account", "partition", "job-name", "kix", "throttle" })
        parser.addOption(QCommandLineOption(QString::fromLatin1(name), QString(), QStringLiteral("VALUE")));
    QStringList extra;
    QVector<ArrayJob> jobs;
    QString error;
    if (!matrixFrom(args, parser, extra, jobs, error)) {
        err << "kix fleet submit: " << error << '\n';
        return FleetUsage;
    }
    if (parser.value(QStringLiteral("results")).isEmpty()) {
        err << "kix fleet submit: --results DIR is required (a folder every compute node can write)\n";
        return FleetUsage;
    }
    SubmitOptions options;
    options.resultsDir = parser.value(QStringLiteral("results"));
    options.kixBinary = parser.isSet(QStringLiteral("kix")) ? parser.value(QStringLiteral("kix"))
                                                            : QCoreApplication::applicationFilePath();
    options.time = parser.value(QStringLiteral("time"));
    options.account = parser.value(QStringLiteral("account"));
    options.partition = parser.value(QStringLiteral("partition"));
    if (parser.isSet(QStringLiteral("job-name")))
        options.jobName = parser.value(QStringLiteral("job-name"));
    if (!extra.isEmpty() && !args.contains(QStringLiteral("--"))) {
        err << "kix fleet submit: unexpected argument '" << extra.first() << "' (sbatch options go after --)\n";
        return FleetUsage;
    }
    options.extra = extra;
    if (parser.isSet(QStringLiteral("throttle"))) {
        bool ok = false;
        options.throttle = parser.value(QStringLiteral("throttle")).toInt(&ok);
        if (!ok || options.throttle < 1) {
            err << "kix fleet submit: --throttle expects a positive integer\n";
            return FleetUsage;
        }
    }
    const SubmitResult result = submitJobs(jobs, options);
    for (const JobRecord& r : result.submitted)
        out << "submitted job " << r.jobId << ": target " << r.target << ", " << r.tasks << " tasks, results "
            << r.resultsDir << '\n';
    if (!result.error.isEmpty()) {
        err << "kix fleet submit: " << result.error << '\n';
        return result.refused ? FleetUsage : FleetFailure;
    }
    return FleetOk;
}

void printStatus(const JobStatus& status, QTextStream& out)
{
    const JobRecord& r = status.record;
    out << "job " << r.jobId << "  target " << r.target << "  results " << r.resultsDir << '\n';
    out << "  " << status.summary() << '\n';
    for (const TaskStatus& t : status.tasks) {
        out << "  " << QStringLiteral("%1_%2").arg(r.jobId).arg(t.index).leftJustified(12) << ' '
            << stateName(t.state).leftJustified(9) << ' ' << QString::number(t.runs).rightJustified(4) << " runs";
        if (!t.detail.isEmpty())
            out << "  " << t.detail;
        if (t.state == TaskState::Failed || t.state == TaskState::Cancelled)
            out << "  (stderr: " << t.errLog << ')';
        out << '\n';
    }
    for (const QString& note : status.notes)
        out << "  note: " << note << '\n';
}

int statusCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    QCommandLineParser parser;
    parser.addOption(QCommandLineOption(QStringLiteral("results"), QString(), QStringLiteral("DIR")));
    parser.addOption(QCommandLineOption(QStringLiteral("wait")));
    parser.addOption(
        QCommandLineOption(QStringLiteral("timeout"), QString(), QStringLiteral("S"), QStringLiteral("3600")));
    parser.addOption(
        QCommandLineOption(QStringLiteral("interval"), QString(), QStringLiteral("S"), QStringLiteral("5")));
    if (!parser.parse(QStringList { QStringLiteral("kix-fleet-status") } + args)) {
        err << "kix fleet status: " << parser.errorText() << '\n';
        return FleetUsage;
    }
    QVector<JobRecord> records;
    if (parser.positionalArguments().isEmpty()) {
        records = knownJobs();
        if (records.isEmpty())
            out << "no jobs submitted from here (" << registryDir() << ")\n";
    }
    for (const QString& id : parser.positionalArguments()) {
        JobRecord record;
        QString error;
        if (!loadRecord(id.section(QLatin1Char('_'), 0, 0), parser.value(QStringLiteral("results")), record, &error)) {
            err << "kix fleet status: " << error << '\n';
            return FleetUsage;
        }
        records << record;
    }
    const double interval = std::max(0.2, parser.value(QStringLiteral("interval")).toDouble());
    QDeadlineTimer deadline(qint64(parser.value(QStringLiteral("timeout")).toDouble() * 1000));
    QVector<JobStatus> statuses;
    QString last;
    for (;;) {
        statuses.clear();
        bool finished = true;
        QStringList summaries;
        for (const JobRecord& r : records) {
            statuses << queryStatus(r);
            finished = finished && statuses.last().finished();
            summaries << r.jobId + QStringLiteral(": ") + statuses.last().summary();
        }
        if (!parser.isSet(QStringLiteral("wait")) || finished || deadline.hasExpired())
            break;
        if (summaries.join(QStringLiteral("; ")) != last) {
            last = summaries.join(QStringLiteral("; "));
            err << "kix fleet status: " << last << '\n';
            err.flush();
        }
        QThread::msleep(static_cast<unsigned long>(interval * 1000));
    }
    int code = FleetOk;
    for (const JobStatus& s : statuses) {
        printStatus(s, out);
        if (!s.finished())
            code = std::max<int>(code, FleetUnfinished);
        else if (s.count(TaskState::Done) != s.tasks.size() && code == FleetOk)
            code = FleetFailure;
    }
    return code == FleetUnfinished && parser.positionalArguments().isEmpty() ? FleetOk : code;
}

int cancelCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    QCommandLineParser parser;
    parser.addOption(QCommandLineOption(QStringLiteral("results"), QString(), QStringLiteral("DIR")));
    if (!parser.parse(QStringList { QStringLiteral("kix-fleet-cancel") } + args)
        || parser.positionalArguments().size() != 1) {
        err << "kix fleet cancel: expects one JOBID\n";
        return FleetUsage;
    }
    const QString id = parser.positionalArguments().first();
    bool numeric = false;
    id.section(QLatin1Char('_'), 0, 0).toLongLong(&numeric);
    if (!numeric) {
        err << "kix fleet cancel: '" << id << "' is not a Slurm job id\n";
        return FleetUsage;
    }
    const ToolResult r = runTool(QStringLiteral("scancel"), { id }, 60000);
    if (!r.ok()) {
        err << "kix fleet cancel: " << r.error << '\n';
        return FleetFailure;
    }
    out << "cancelled job " << id << '\n';
    return FleetOk;
}

int taskCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    QCommandLineParser parser;
    parser.addOption(QCommandLineOption(QStringLiteral("plan"), QString(), QStringLiteral("FILE")));
    parser.addOption(QCommandLineOption(QStringLiteral("index"), QString(), QStringLiteral("I")));
    parser.addOption(QCommandLineOption(QStringLiteral("job"), QString(), QStringLiteral("ID")));
    bool ok = false;
    if (!parser.parse(QStringList { QStringLiteral("kix-fleet-task") } + args)
        || parser.value(QStringLiteral("plan")).isEmpty() || (parser.value(QStringLiteral("index")).toInt(&ok), !ok)) {
        err << "kix fleet task: expects --plan FILE --index I (run by the sbatch script kix fleet submit writes)\n";
        return FleetUsage;
    }
    return runTask(parser.value(QStringLiteral("plan")), parser.value(QStringLiteral("index")).toInt(),
        parser.value(QStringLiteral("job")), out, err, &runBench);
}

} // namespace

int fleetCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    const QString sub = args.value(0);
    const QStringList rest = args.mid(1);
    int code = FleetUsage;
    const int separator = rest.indexOf(QStringLiteral("--"));
    const QStringList own = separator < 0 ? rest : rest.mid(0, separator);
    if (sub == QLatin1String("--help") || sub == QLatin1String("-h") || own.contains(QStringLiteral("--help"))
        || own.contains(QStringLiteral("-h"))) {
        out << usage();
        code = FleetOk;
    } else if (sub == QLatin1String("plan"))
        code = planCommand(rest, out, err);
    else if (sub == QLatin1String("submit"))
        code = submitCommand(rest, out, err);
    else if (sub == QLatin1String("status"))
        code = statusCommand(rest, out, err);
    else if (sub == QLatin1String("cancel"))
        code = cancelCommand(rest, out, err);
    else if (sub == QLatin1String("task"))
        code = taskCommand(rest, out, err);
    else if (sub == QLatin1String("--help") || sub == QLatin1String("-h") || sub == QLatin1String("help")) {
        out << usage();
        code = FleetOk;
    } else {
        err << (sub.isEmpty() ? QStringLiteral("kix fleet: which command? (plan, submit, status or cancel)\n\n")
                              : QStringLiteral("kix fleet: unknown command '%1'\n\n").arg(sub))
            << usage();
    }
    out.flush();
    err.flush();
    return code;
}

} // namespace kix::cli
