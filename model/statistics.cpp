// SPDX-License-Identifier: Apache-2.0
#include "model/statistics.h"

#include <algorithm>
#include <cmath>

namespace kix {

namespace {

// Number of ways to arrange m values of one sample among m + n so that its U statistic is k, for every k: the
// coefficients of the Gaussian binomial [m+n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i).
std::vector<long double> exactUCounts(int m, int n)
{
    std::vector<long double> c(static_cast<std::size_t>(m * n + 1), 0.0L);
    c[0] = 1;
    for (int i = 1; i <= m; ++i) {
        const int up = n + i;
        for (int k = m * n; k >= up; --k) // multiply by (1 - q^up)
            c[static_cast<std::size_t>(k)] -= c[static_cast<std::size_t>(k - up)];
        for (int k = i; k <= m * n; ++k) // divide by (1 - q^i)
            c[static_cast<std::size_t>(k)] += c[static_cast<std::size_t>(k - i)];
    }
    return c;
}

// 2 * P(U >= max(u1, m * n - u1)) under the exact null distribution (no ties), at most 1.
double exactTwoSidedP(double u1, int m, int n)
{
    const int small = std::min(m, n), large = std::max(m, n); // the distribution is symmetric in m and n
    const double u = std::max(u1, double(m) * double(n) - u1);
    const std::vector<long double> counts = exactUCounts(small, large);
    long double total = 0, tail = 0;
    for (std::size_t k = 0; k < counts.size(); ++k) {
        total += counts[k];
        if (double(k) >= u)
            tail += counts[k];
    }
    return std::min(1.0, static_cast<double>(2 * tail / total));
}

} // namespace

MannWhitneyResult mannWhitneyU(const std::vector<double>& a, const std::vector<double>& b, MannWhitneyMethod method)
{
    MannWhitneyResult result;
    const double n1 = double(a.size());
    const double n2 = double(b.size());
    if (a.empty() || b.empty())
        return result;

    struct Value
    {
        double value;
        bool fromA;
    };
    std::vector<Value> all;
    all.reserve(a.size() + b.size());
    for (double v : a)
        all.push_back({ v, true });
    for (double v : b)
        all.push_back({ v, false });
    std::sort(all.begin(), all.end(), [](const Value& x, const Value& y) { return x.value < y.value; });

    // Average ranks over ties; collect the tie term sum(t^3 - t).
    double rankSumA = 0;
    double tieTerm = 0;
    for (size_t i = 0; i < all.size();) {
        size_t j = i + 1;
        while (j < all.size() && all[j].value == all[i].value)
            ++j;
        const double t = double(j - i);
        const double rank = (double(i) + 1 + double(j)) / 2; // ranks are 1-based: i+1 .. j
        for (size_t k = i; k < j; ++k) {
            if (all[k].fromA)
                rankSumA += rank;
        }
        tieTerm += t * t * t - t;
        i = j;
    }
    const double n = n1 + n2;
    const double u1 = rankSumA - n1 * (n1 + 1) / 2;
    const double mean = n1 * n2 / 2;
    const double variance = n1 * n2 / 12 * ((n + 1) - tieTerm / (n * (n - 1)));
    result.valid = true;
    result.u = u1;
    const bool ties = tieTerm > 0;
    const bool exact = method == MannWhitneyMethod::Exact
        || (method == MannWhitneyMethod::Auto && !ties && std::min(a.size(), b.size()) <= 8);
    if (!(variance > 0)) { // every value tied: no evidence of a difference
        result.z = 0;
        result.p = 1;
        return result;
    }
    const double sd = std::sqrt(variance);
    const double distance = std::max(0.0, std::abs(u1 - mean) - 0.5); // continuity correction
    result.z = (u1 < mean ? -distance : distance) / sd;
    if (exact) {
        result.exact = true;
        result.p = exactTwoSidedP(u1, int(a.size()), int(b.size()));
    } else {
        result.p = std::min(1.0, std::erfc(distance / sd / std::sqrt(2.0)));
    }
    return result;
}

double sortedQuantile(const std::vector<double>& sorted, double q)
{
    if (sorted.empty())
        return std::numeric_limits<double>::quiet_NaN();
    q = std::isnan(q) ? 0.5 : std::clamp(q, 0.0, 1.0);
    const double position = q * double(sorted.size() - 1);
    const auto below = size_t(std::floor(position));
    const size_t above = std::min(below + 1, sorted.size() - 1);
    const double fraction = position - double(below);
    return sorted[below] + (sorted[above] - sorted[below]) * fraction;
}

} // namespace kix
