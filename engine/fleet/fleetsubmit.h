// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/fleet/fleetjobs.h"
#include "engine/fleet/fleetplan.h"

namespace kix::fleet {

struct SubmitResult
{
    QVector<JobRecord> submitted; // one per array job sbatch accepted
    QString error; // empty when every array job was submitted
    bool refused = false; // refused before sbatch ran (no sbatch, results folder not writable, bad --kix)
};

// Checks that sbatch exists, that the kix binary exists and that the results folder can be created and written
// (so a typo fails here, not in every task an hour later), then writes each array job's plan and script under
// DIR/.kix-fleet/plans and submits it with sbatch. Stops at the first sbatch failure, whose message and exit code
// are in `error`. Blocking (sbatch is given 60 s).
SubmitResult submitJobs(const QVector<ArrayJob>& jobs, SubmitOptions options);

} // namespace kix::fleet
