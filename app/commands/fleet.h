// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace kix::cli {

// Exit codes of `kix fleet` (app/commands/fleet.cpp): the common ones, and 3 from `status` while tasks are still
// pending or running.
enum FleetExit { FleetOk = 0, FleetFailure = 1, FleetUsage = 2, FleetUnfinished = 3 };

} // namespace kix::cli
