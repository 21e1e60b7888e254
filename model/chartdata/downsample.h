// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QVector>

namespace kix {

// Which points of a long line to draw: at most about `maxPoints`, so that a chart of a million runs hands its
// drawing library thousands of points, not millions. The points are cut into consecutive buckets of equal size
// (`perBucket` runs each, the last one shorter); each bucket keeps its lowest and its highest value (a step or a
// spike stays visible), and every index in `keep` (change points, the current run) is kept whatever its bucket.
// Returns the kept indices, ascending, without duplicates; every index 0..values.size()-1 when the line is short
// enough (values.size() <= maxPoints, or maxPoints <= 0). `perBucket` receives the bucket size (1: not capped).
QVector<int> minMaxDownsample(const QVector<double>& values, int maxPoints, const QVector<int>& keep, int* perBucket);

} // namespace kix
