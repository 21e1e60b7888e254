// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

#include <vector>

namespace kix {

// The time unit a chart's axis shows latencies in, chosen from the data so that the typical value reads as
// 1 to 1000 of it.
struct TimeScale
{
    QString unit = QStringLiteral("ns");
    double nsPerUnit = 1;

    double fromNs(double ns) const { return ns / nsPerUnit; }
    double toNs(double value) const { return value * nsPerUnit; }
    // "1.316 ms": 4 significant digits in this scale's unit.
    QString format(double ns) const;
};

// ns below 1 µs, µs below 1 ms, ms above; decided by the median of the finite values (ns).
TimeScale chooseTimeScale(std::vector<double> valuesNs);

} // namespace kix
