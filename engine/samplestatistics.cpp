#include "engine/samplestatistics.h"

#include <algorithm>
#include <cmath>

namespace kix {

double quantile(const std::vector<double>& sorted, double q)
{
    if (sorted.empty())
        return std::numeric_limits<double>::quiet_NaN();
    q = std::clamp(q, 0.0, 1.0);
    const double position = q * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    const double fraction = position - static_cast<double>(below);
    return sorted[below] + (sorted[above] - sorted[below]) * fraction;
}

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
    s.median = quantile(samples, 0.5);
    s.p20 = quantile(samples, 0.2);
    s.p80 = quantile(samples, 0.8);
    return s;
}

} // namespace kix
