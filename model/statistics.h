// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <limits>
#include <vector>

namespace kix {

// The two-sided Mann-Whitney U test of kix, used by every path that computes a p-value (the general comparison,
// Google Benchmark's compare in its own terms, the history's change detection), as
// scipy.stats.mannwhitneyu(a, b, alternative="two-sided", method=...):
//  - Exact: the exact distribution of U (no ties assumed), p = 2 * P(U >= max(U1, U2)), at most 1;
//  - Asymptotic: the normal approximation with tie and continuity correction;
//  - Auto (scipy's default, what Google Benchmark's compare.py calls): exact when a sample has at most 8 values
//    and there are no ties, else asymptotic.
enum class MannWhitneyMethod { Auto, Exact, Asymptotic };

// `u` is the statistic of `a`: small when a's values tend to be smaller; `z` its normal score (negative when a's
// values tend to be smaller), whichever method gave `p`.
struct MannWhitneyResult
{
    bool valid = false; // false when a sample is empty
    bool exact = false; // p from the exact distribution
    double u = std::numeric_limits<double>::quiet_NaN();
    double z = std::numeric_limits<double>::quiet_NaN();
    double p = std::numeric_limits<double>::quiet_NaN();
};
MannWhitneyResult mannWhitneyU(
    const std::vector<double>& a, const std::vector<double>& b, MannWhitneyMethod method = MannWhitneyMethod::Auto);

// The one quantile of kix (the engine's statistics, the explorer's boxes and overlaps): quantile q of ascending
// `sorted`, at position q * (n - 1) with linear interpolation between the neighbouring values (numpy's default,
// what triton.testing.do_bench reports). q is clamped to [0, 1]; NaN when empty.
double sortedQuantile(const std::vector<double>& sorted, double q);

} // namespace kix
