// SPDX-License-Identifier: Apache-2.0
#pragma once
// The window's optional panels, installed from one place (app/main.cpp, and tests that need them): each panel is a
// widget of its own that knows nothing of MainWindow; this file wires it to the window.

#include <Qt>

namespace kix {

class BenchmarkPanel;
class BenchmarkRunner;
class FleetPanel;
class FolderFollower;
class MainWindow;
class RegressionsPanel;
class WorkloadPanel;

// Adds the Benchmark panel (with its own runner) to the window's right dock area and View menu, its runs wired to
// addRuns and its issues to the Issues panel. The window takes `runner` (tests pass one with their own backends).
BenchmarkPanel* installBenchmarkPanel(MainWindow& window);
BenchmarkPanel* installBenchmarkPanel(MainWindow& window, BenchmarkRunner* runner);

// Adds the Fleet panel (right dock area, View menu) beside the Benchmark panel; `follower` follows a job's folder.
FleetPanel* installFleetPanel(MainWindow& window, BenchmarkPanel* benchmark, FolderFollower* follower);

// Adds the "Regressions" dock, fed with every loaded run; a click selects the series' runs in the run table and
// shows the History chart.
RegressionsPanel* installRegressionsPanel(MainWindow& window);

// Adds the "My workload" dock (View > My workload): a request resolved among the runs the table shows; a
// double-click selects a case's runs in the run table.
WorkloadPanel* installWorkloadPanel(MainWindow& window);

struct InstalledPanels
{
    RegressionsPanel* regressions = nullptr;
    WorkloadPanel* workload = nullptr;
    BenchmarkPanel* benchmark = nullptr;
    FolderFollower* follower = nullptr;
    FleetPanel* fleet = nullptr;
};

// Every panel above and the folder follower, as `kix` opens its window.
InstalledPanels installPanels(MainWindow& window);

} // namespace kix
