// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

#include <vector>

namespace kix {

struct Run;

// The time unit a chart's axis shows latencies in, chosen from the data so that the typical value reads as
// 1 to 1000 of it.
struct TimeScale
{
    QString unit = QStringLiteral("ns");
    double nsPerUnit = 1;

    double fromNs(double ns) const { return ns / nsPerUnit; }
    double toNs(double value) const { return value * nsPerUnit; }
    // "1.316 ms": `digits` significant digits in this scale's unit.
    QString format(double ns, int digits = 4) const;
};

// ns below 1 µs, µs below 1 ms, ms above; decided by the median of the finite values (ns).
TimeScale chooseTimeScale(std::vector<double> valuesNs);

// One unit per figure: the unit a run's latencies read in wherever kix shows a figure of that run (the run table,
// a chart's read-out, Details), chosen by the run's headline so that its p20, p80, min and max read in the same
// unit as its headline. A run without a finite headline: the value's own scale.
TimeScale runTimeScale(const Run& run, double valueNs);
// A figure of `run` as the table, the read-out and Details show it: latency in runTimeScale() and other metrics in
// the run's own unit, both with 6 significant digits ("425.856 µs", "1.31587 ms", "2048 MB"); empty for NaN.
QString formatValue(const Run& run, double value);
// The unit formatValue reads the run's headline in ("µs" for a latency of 950000 ns or a score of 9.5e-4 s).
QString figureUnit(const Run& run);

} // namespace kix
