// SPDX-License-Identifier: Apache-2.0
#include "engine/fleet/fleettask.h"

#include "engine/backendregistry.h"
#include "engine/cpubackend.h"
#include "engine/fleet/fleetjobs.h"
#include "engine/fleet/fleetplan.h"
#include "model/write/runwriter.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSysInfo>

#include <nlohmann/json.hpp>

namespace kix::fleet {
namespace {

struct PlanTask
{
    QString results;
    QString target;
    QVector<QStringList> cells;
    QStringList labels;
};

bool readPlan(const QString& path, int index, PlanTask& task, QString& error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        error = QStringLiteral("%1: cannot open: %2").arg(path, file.errorString());
        return false;
    }
    const nlohmann::json doc = nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
    const auto str = [&](const char* key) {
        const auto it = doc.find(key);
        return it != doc.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
    };
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("tasks") || !doc["tasks"].is_array()
        || str("results").isEmpty()) {
        error = QStringLiteral("%1: not a kix fleet plan").arg(path);
        return false;
    }
    const nlohmann::json& tasks = doc["tasks"];
    if (index < 0 || index >= int(tasks.size()) || !tasks[size_t(index)].is_array()) {
        error = QStringLiteral("%1: no task %2 (the plan has %3)").arg(path).arg(index).arg(tasks.size());
        return false;
    }
    task.results = str("results");
    task.target = str("target");
    for (const nlohmann::json& cell : tasks[size_t(index)]) {
        QStringList args;
        if (cell.is_object() && cell.contains("args") && cell["args"].is_array())
            for (const nlohmann::json& a : cell["args"])
                if (a.is_string())
                    args << QString::fromStdString(a.get<std::string>());
        if (args.isEmpty()) {
            error = QStringLiteral("%1: /tasks/%2: a cell without arguments").arg(path).arg(index);
            return false;
        }
        task.cells << args;
        task.labels << QString::fromStdString(cell.value("label", std::string()));
    }
    return true;
}

} // namespace

int runTask(const QString& planFile, int index, const QString& givenJobId, QTextStream& out, QTextStream& err,
    BenchFunction bench)
{
    PlanTask task;
    QString error;
    if (!readPlan(planFile, index, task, error)) {
        err << "kix fleet task: " << error << '\n';
        return 2;
    }
    QString jobId = givenJobId;
    if (jobId.isEmpty())
        jobId = qEnvironmentVariable("SLURM_ARRAY_JOB_ID", qEnvironmentVariable("SLURM_JOB_ID"));
    if (jobId.isEmpty())
        jobId = QStringLiteral("local");
    const QString taskId = QStringLiteral("%1_%2").arg(jobId).arg(index);
    QDir staging(stagingDir(task.results) + '/' + taskId);
    staging.removeRecursively(); // a requeued task starts clean
    auto finish = [&](bool done, int code, const QString& message, const QStringList& runs) {
        staging.removeRecursively();
        TaskMarker marker;
        marker.done = done;
        marker.exitCode = code;
        marker.message = message;
        marker.runs = runs;
        QString why;
        if (!writeMarker(task.results, jobId, index, marker, &why))
            err << "kix fleet task: " << why << '\n';
        if (!done)
            err << "kix fleet task " << taskId << ": failed: " << message << '\n';
        err.flush();
        return done ? 0 : 1;
    };
    if (!QDir().mkpath(staging.path()))
        return finish(false, 1, QStringLiteral("%1: cannot create the staging folder").arg(staging.path()), {});

    // One registry for every cell: the devices are looked up once per task. KIX_FLEET_CPU_BUFFER_MIB shrinks the
    // CPU backend's copy-bandwidth and cache-flush buffers (sized from the last-level cache, hundreds of MB on a
    // server): for tests and smoke runs on small machines, never for figures that matter.
    BackendRegistry registry;
    if (const int mib = qEnvironmentVariableIntValue("KIX_FLEET_CPU_BUFFER_MIB"); mib > 0)
        if (auto* cpu = dynamic_cast<CpuBackend*>(registry.backend(QStringLiteral("cpu")))) {
            cpu->setCopyBytes(qint64(mib) << 20);
            cpu->setFlushBytes(qint64(mib) << 20);
        }
    for (int c = 0; c < task.cells.size(); ++c) {
        out << "kix fleet task " << taskId << ": cell " << (c + 1) << "/" << task.cells.size() << ": "
            << task.labels.value(c) << '\n';
        out.flush();
        const int code
            = bench(task.cells[c] + QStringList { QStringLiteral("--out"), staging.path() }, out, err, &registry);
        if (code != 0)
            return finish(false, code,
                QStringLiteral("kix bench %1 exited with %2").arg(task.cells[c].join(QLatin1Char(' '))).arg(code), {});
    }

    // Every cell passed: label each run and move it into the results folder, one atomic write per file.
    QStringList moved;
    const QString host = QSysInfo::machineHostName();
    for (const QFileInfo& staged : staging.entryInfoList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name)) {
        QFile file(staged.filePath());
        nlohmann::json doc;
        if (file.open(QIODevice::ReadOnly))
            doc = nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
        if (!doc.is_object() || !doc.contains("run") || !doc["run"].is_object())
            return finish(
                false, 1, QStringLiteral("%1: kix bench wrote no run document").arg(staged.filePath()), moved);
        nlohmann::json& labels = doc["run"]["metadata"]["labels"];
        labels["fleet_job"] = jobId.toStdString();
        labels["fleet_task"] = taskId.toStdString();
        labels["fleet_target"] = task.target.toStdString();
        labels["fleet_host"] = host.toStdString();
        const QString target
            = QDir(task.results)
                  .filePath(staged.completeBaseName() + QLatin1Char('-') + taskId + QStringLiteral(".json"));
        if (!writeFileAtomically(target, QByteArray::fromStdString(doc.dump(2)) + '\n', &error))
            return finish(false, 1, error, moved);
        moved << QFileInfo(target).fileName();
    }
    if (moved.isEmpty())
        return finish(false, 1, QStringLiteral("kix bench wrote no run files"), moved);
    out << "kix fleet task " << taskId << ": " << moved.size() << " run file(s) in " << task.results << '\n';
    return finish(true, 0, QString(), moved);
}

} // namespace kix::fleet
