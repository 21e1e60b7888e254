// SPDX-License-Identifier: Apache-2.0
// The stall probe's parts (bench_stall.cpp): the synthetic runs, the heartbeat, and the actions it drives the
// window through, each timed.
#pragma once

#include "model/run.h"

#include <QElapsedTimer>
#include <QString>
#include <QStringList>
#include <QTextStream>
#include <QVector>

#include <functional>
#include <map>
#include <vector>

class QLineEdit;

namespace kix {
class ChartPanel;
class FacetModel;
class MainWindow;
class RunFilterProxy;
} // namespace kix

namespace stallprobe {

// Synthetic runs with the variety of a large corpus: 300 kernels (group_norm among them), 3 passes, 5 providers,
// 6 GPUs, 3 dtypes, 32 workloads, a year of observation times; 80% latency, 10% memory, 10% score runs; 2% failed.
kix::RunList makeRuns(int count);

// The heartbeat: the longest gap between ticks of a 5 ms timer on the GUI thread, per action.
struct Heartbeat
{
    QElapsedTimer clock;
    qint64 last = 0;
    QString action = QStringLiteral("start");
    std::map<QString, double> worst; // ms
    QStringList order;
    double worstGap = 0;
    QString worstAction;

    void tick();
    void begin(const QString& name);
};

struct Latency
{
    QString action;
    QVector<double> ms;
};

double median(QVector<double> v);

// The actions, driven on the window as a user would, each one's latency recorded and the heartbeat told which
// action is running.
struct Probe
{
    kix::MainWindow& w;
    QTextStream& out;
    Heartbeat& beat;
    int timeoutMs;
    QStringList kinds; // the chart kinds switched to (chartKindName)
    kix::RunFilterProxy* proxy;
    kix::ChartPanel* charts;
    kix::FacetModel* facets;
    QLineEdit* search = nullptr; // the filter box, from the typing on
    std::vector<Latency> latencies {};

    void record(const QString& action, double ms);
    // Runs the event loop until `done` holds (or the timeout); the heartbeat keeps ticking.
    bool waitUntil(const std::function<bool()>& done, int ms);
    void pause(int ms);
    bool tableSettled() const;
    // Settled: the window's coalescing timers have fired (>= 400 ms) and nothing is being rebuilt.
    void settle(const QString& action, QElapsedTimer& since);

    void load(const QString& jsonl, const kix::RunList& runs);
    void chartKinds(const QString& when);
    void typeInFilter(bool typeFilter);
    void facetClick();
    void selectRuns();
    void clearFilter();
    void sortTable();
    void sortPairs();
};

} // namespace stallprobe
