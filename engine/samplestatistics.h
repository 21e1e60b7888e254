// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <limits>
#include <vector>

namespace kix {

// Summary of a set of timing samples (ns). The quantiles are model/statistics.h's sortedQuantile, the one the
// explorer uses on the same samples.
struct SampleStatistics
{
    int count = 0;
    double median = std::numeric_limits<double>::quiet_NaN();
    double p20 = std::numeric_limits<double>::quiet_NaN();
    double p80 = std::numeric_limits<double>::quiet_NaN();
    double min = std::numeric_limits<double>::quiet_NaN();
    double max = std::numeric_limits<double>::quiet_NaN();
    double mean = std::numeric_limits<double>::quiet_NaN();
    double stddev = std::numeric_limits<double>::quiet_NaN(); // sample standard deviation (n - 1); 0 for one sample
    // Standard error of the mean over the mean: what the noise-based stop compares with its target.
    double relativeStandardError = std::numeric_limits<double>::quiet_NaN();
};

SampleStatistics computeStatistics(std::vector<double> samples);

// Relative standard error of the mean, stddev / sqrt(n) / mean; infinity with fewer than two samples.
double relativeStandardError(const std::vector<double>& samples);

} // namespace kix
