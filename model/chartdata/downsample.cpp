// SPDX-License-Identifier: Apache-2.0
#include "model/chartdata/downsample.h"

#include <algorithm>
#include <numeric>

namespace kix {

QVector<int> minMaxDownsample(const QVector<double>& values, int maxPoints, const QVector<int>& keep, int* perBucket)
{
    const int count = int(values.size());
    QVector<int> out;
    if (maxPoints <= 0 || count <= maxPoints) {
        out.resize(count);
        std::iota(out.begin(), out.end(), 0);
        if (perBucket)
            *perBucket = 1;
        return out;
    }
    // Two points a bucket: ceil(count / (maxPoints / 2)) runs in each.
    const int buckets = std::max(1, maxPoints / 2);
    const int size = (count + buckets - 1) / buckets;
    if (perBucket)
        *perBucket = size;
    out.reserve(2 * buckets + 2 + keep.size());
    for (int start = 0; start < count; start += size) {
        const int end = std::min(count, start + size);
        int lo = start;
        int hi = start;
        for (int i = start + 1; i < end; ++i) {
            if (values[i] < values[lo]) // NaN never wins: comparisons with it are false
                lo = i;
            if (values[i] > values[hi])
                hi = i;
        }
        out << std::min(lo, hi);
        if (hi != lo)
            out << std::max(lo, hi);
    }
    for (int i : keep) {
        if (i >= 0 && i < count)
            out << i;
    }
    out << 0 << count - 1; // the line spans its whole time
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

} // namespace kix
