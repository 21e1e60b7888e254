// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>
#include <QTextStream>

namespace kix {
class BackendRegistry;
}

namespace kix::fleet {

// How a task runs one cell: `kix bench ARGS` in-process (app/commands/bench.h runBench), with the task's registry.
using BenchFunction = int (*)(const QStringList& args, QTextStream& out, QTextStream& err, BackendRegistry* registry);

// `kix fleet task --plan FILE --index I`: what one array task runs on its compute node. Each cell of task I
// runs `kix bench` into DIR/.kix-fleet/staging/JOB_I (a hidden folder loading DIR never reads). Only when every
// cell succeeded are the run files moved into DIR, each written atomically with fleet_job, fleet_task
// ("JOB_I"), fleet_target and fleet_host labels; a failed task moves none, so DIR never holds a partial file,
// and its stderr stays in DIR/.kix-fleet/logs/JOB_I.err. Either way DIR/.kix-fleet/state/JOB_I.json records
// the verdict. `jobId` empty: $SLURM_ARRAY_JOB_ID, else "local". Returns 0, 1 (a cell failed) or 2 (bad plan).
int runTask(
    const QString& planFile, int index, const QString& jobId, QTextStream& out, QTextStream& err, BenchFunction bench);

} // namespace kix::fleet
