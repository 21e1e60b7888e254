#include "model/statistics.h"

#include <algorithm>
#include <cmath>

namespace kix {

MannWhitneyResult mannWhitneyU(const std::vector<double>& a, const std::vector<double>& b)
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
    if (!(variance > 0)) { // every value tied: no evidence of a difference
        result.z = 0;
        result.p = 1;
        return result;
    }
    const double sd = std::sqrt(variance);
    const double distance = std::max(0.0, std::abs(u1 - mean) - 0.5); // continuity correction
    result.z = (u1 < mean ? -distance : distance) / sd;
    result.p = std::min(1.0, std::erfc(distance / sd / std::sqrt(2.0)));
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
