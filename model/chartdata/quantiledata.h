// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/chartdata/timescale.h"
#include "model/jobs/canceltoken.h"
#include "model/run.h"

#include <QStringList>
#include <QVector>

namespace kix {

// What the quantile chart draws: one box per latency run (p20-p80, median, whiskers to min/max where the run has
// them), grouped by workload (the categories) and labelled by provider and GPU (the series).
struct QuantileBox
{
    int group = 0; // index into QuantileData::groups
    int series = 0; // index into QuantileData::series
    RunPtr run;
    double min = 0; // ns; equal to p20 when the run has no minimum
    double p20 = 0;
    double median = 0;
    double p80 = 0;
    double max = 0; // ns; equal to p80 when the run has no maximum
    bool hasExtremes = false;
};

struct QuantileData
{
    TimeScale scale;
    QString title;
    QStringList groups; // category labels: what varies among the workloads ("2048", "backward · 2048")
    QString groupTitle; // what the labels are ("channels", "pass · channels")
    QStringList series; // "liger · B200"; a repeated run of the same provider and GPU gets " (2)"
    QVector<QuantileBox> boxes;
    int skippedNonLatency = 0;
    int failedRuns = 0; // runs with a failure status: never charted as times
    int droppedRuns = 0; // beyond maxGroups / maxSeries, or without a median
    QStringList notes; // for the reader: what was left out and why
    QStringList warnings; // comparability: protocol families that differ

    bool isEmpty() const { return boxes.isEmpty(); }
};

// Limits keep a chart of 100k selected runs readable and fast; what they drop is said in notes.
QuantileData buildQuantileData(
    const RunList& runs, int maxGroups = 40, int maxSeries = 16, const CancelToken& cancel = CancelToken());

// A warning when latency runs of several protocol families are drawn side by side.
QStringList protocolFamilyWarnings(const RunList& runs);

// A GPU's name for chart labels: without the vendor ("NVIDIA H100 80GB HBM3" -> "H100 80GB HBM3").
QString shortGpuName(const QString& gpu);

// "group_norm · backward · B200", or "3 kernels · forward · 2 GPUs" when they vary; used in every chart title.
QString selectionTitle(const RunList& runs, const CancelToken& cancel = CancelToken());

} // namespace kix
