// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/run.h"
#include "ui/charts/chartoptions.h"

#include <QChart>

#include <memory>

namespace kix {

// Builds the chart of a kind from runs: the same function serves the panel, the export (a fresh chart laid out
// at the asked size) and `kix chart`, so every route shows the same numbers. `info` receives what the chart's
// surroundings show (warnings, notes, choices).
std::unique_ptr<QChart> buildChart(
    ChartKind kind, const RunList& runs, const ChartOptions& options, ChartInfo* info = nullptr);

} // namespace kix
