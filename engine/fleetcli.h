#pragma once

#include <QStringList>
#include <QTextStream>

namespace kix {

// Exit codes of `kix fleet`: 0 ok, 1 a Slurm command failed or a task failed, 2 a usage error or a plan refused
// before anything was submitted, 3 `status` found tasks still pending or running.
enum FleetExit { FleetOk = 0, FleetFailure = 1, FleetUsage = 2, FleetUnfinished = 3 };

// `kix fleet plan|submit|status|cancel|task ...`; `args` are the arguments after "fleet".
int runFleetCommand(const QStringList& args, QTextStream& out, QTextStream& err);

} // namespace kix
