// SPDX-License-Identifier: Apache-2.0
#include "engine/samplestatistics.h"

#include "model/statistics.h"

#include <algorithm>
#include <cmath>

namespace kix {

namespace {

// Mean and sample standard deviation in one pass (Welford), stable for large n.
void meanAndStddev(const std::vector<double>& samples, double& mean, double& stddev)
{
    double m = 0;
    double squares = 0;
    std::size_t n = 0;
    for (const double v : samples) {
        ++n;
        const double delta = v - m;
        m += delta / static_cast<double>(n);
        squares += delta * (v - m);
    }
    mean = n > 0 ? m : std::numeric_limits<double>::quiet_NaN();
    stddev = n > 1 ? std::sqrt(squares / static_cast<double>(n - 1)) : (n == 1 ? 0.0 : mean);
}

} // namespace

double relativeStandardError(const std::vector<double>& samples)
{
    if (samples.size() < 2)
        return std::numeric_limits<double>::infinity();
    double mean = 0;
    double stddev = 0;
    meanAndStddev(samples, mean, stddev);
    if (mean <= 0)
        return std::numeric_limits<double>::infinity();
    return stddev / std::sqrt(static_cast<double>(samples.size())) / mean;
}

SampleStatistics computeStatistics(std::vector<double> samples)
{
    SampleStatistics s;
    s.count = static_cast<int>(samples.size());
    if (samples.empty())
        return s;
    meanAndStddev(samples, s.mean, s.stddev);
    s.relativeStandardError = relativeStandardError(samples);
    std::sort(samples.begin(), samples.end());
    s.min = samples.front();
    s.max = samples.back();
    s.median = sortedQuantile(samples, 0.5);
    s.p20 = sortedQuantile(samples, 0.2);
    s.p80 = sortedQuantile(samples, 0.8);
    return s;
}

} // namespace kix
