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

// Distinct pair warnings with their counts ("different GPU: ... (3 pairs)"), and the equal-digest statements
// summarized ("same workload digest: 14 of 17 pairs").
QStringList summarizePairWarnings(const Comparison& comparison);
QStringList summarizePairNotes(const Comparison& comparison);

} // namespace kix
