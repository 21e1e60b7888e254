// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/chartdata/timescale.h"
#include "model/jobs/canceltoken.h"
#include "model/run.h"

#include <QStringList>
#include <QVector>

namespace kix {

struct SweepPoint
{
    double x = 0;
    double median = 0; // ns
    double p20 = 0; // ns; the median when the run has no p20
    double p80 = 0; // ns
    RunPtr run;
};

// One line: a (provider, GPU, pass), split further by anything else that varies among the runs (kernel, dtype,
// workload parameters other than x) so that no line mixes them.
struct SweepSeries
{
    QString label; // "liger · B200" (plus the pass when passes vary, and " · hidden=1024" for a further split)
    QString provider;
    QString gpu;
    QString pass;
    QVector<SweepPoint> points; // ascending x
};

struct SweepData
{
    QStringList candidates; // numeric workload parameters that vary, most distinct values first
    QString xParam; // the one on the x axis; empty when nothing varies
    QStringList splitBy; // other varying parameters the series are split by
    QVector<KeyValue> fixed; // parameters with one value among the runs
    QString fixedDescription; // "batch=128, hidden=512, dtype=fp32"
    TimeScale scale;
    bool logXPossible = false; // every x > 0
    QString title;
    QVector<SweepSeries> series;
    int skippedNonLatency = 0;
    int failedRuns = 0; // runs with a failure status: never charted as times
    int duplicates = 0; // runs at an x the series already had (the newest is kept)
    int droppedRuns = 0;
    QStringList notes;
    QStringList warnings; // comparability: protocol families that differ

    bool isEmpty() const { return series.isEmpty(); }
};

// The x parameter: `preferredX` when it is a candidate, else the candidate with the most distinct values.
SweepData buildSweep(
    const RunList& runs, const QString& preferredX = {}, int maxSeries = 32, const CancelToken& cancel = CancelToken());

} // namespace kix
