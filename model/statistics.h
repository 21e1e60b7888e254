#pragma once

#include <limits>
#include <vector>

namespace kix {

// Two-sided Mann-Whitney U test, normal approximation with tie and continuity correction (as scipy's
// mannwhitneyu(method="asymptotic")). `u` is the statistic of `a`: small when a's values tend to be smaller.
struct MannWhitneyResult
{
    bool valid = false; // false when a sample is empty
    double u = std::numeric_limits<double>::quiet_NaN();
    double z = std::numeric_limits<double>::quiet_NaN();
    double p = std::numeric_limits<double>::quiet_NaN();
};
MannWhitneyResult mannWhitneyU(const std::vector<double>& a, const std::vector<double>& b);

// The one quantile of kix (the engine's statistics, the explorer's boxes and overlaps): quantile q of ascending
// `sorted`, at position q * (n - 1) with linear interpolation between the neighbouring values (numpy's default,
// what triton.testing.do_bench reports). q is clamped to [0, 1]; NaN when empty.
double sortedQuantile(const std::vector<double>& sorted, double q);

} // namespace kix
