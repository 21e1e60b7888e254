// SPDX-License-Identifier: Apache-2.0
#include "model/chartdata/timescale.h"

#include "model/run.h"

#include <algorithm>
#include <cmath>

namespace kix {

QString TimeScale::format(double ns, int digits) const
{
    if (!std::isfinite(ns))
        return QStringLiteral("–");
    return QString::number(fromNs(ns), 'g', digits) + QLatin1Char(' ') + unit;
}

TimeScale chooseTimeScale(std::vector<double> valuesNs)
{
    valuesNs.erase(
        std::remove_if(valuesNs.begin(), valuesNs.end(), [](double v) { return !std::isfinite(v); }), valuesNs.end());
    TimeScale scale;
    if (valuesNs.empty())
        return scale;
    auto middle = valuesNs.begin() + std::ptrdiff_t(valuesNs.size() / 2);
    std::nth_element(valuesNs.begin(), middle, valuesNs.end());
    const double typical = std::abs(*middle);
    if (typical >= 1e6) {
        scale.unit = QStringLiteral("ms");
        scale.nsPerUnit = 1e6;
    } else if (typical >= 1e3) {
        scale.unit = QStringLiteral("µs");
        scale.nsPerUnit = 1e3;
    }
    return scale;
}

TimeScale runTimeScale(const Run& run, double valueNs)
{
    return chooseTimeScale({ std::isfinite(run.median) ? run.median : valueNs });
}

namespace {

// ns per unit for a headline in a time unit that is not a latency (a leaderboard's score in seconds); 0 otherwise.
double nsPerTimeUnit(const QString& unit)
{
    static const struct
    {
        const char* unit;
        double ns;
    } times[] = { { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 }, { "µs", 1e3 }, { "ns", 1 } };
    for (const auto& t : times) {
        if (unit == QString::fromUtf8(t.unit))
            return t.ns;
    }
    return 0;
}

} // namespace

QString figureUnit(const Run& run)
{
    if (run.isLatency())
        return runTimeScale(run, run.median).unit;
    if (const double ns = nsPerTimeUnit(run.unit); ns > 0 && std::isfinite(run.median))
        return chooseTimeScale({ run.median * ns }).unit;
    return run.unit;
}

QString formatValue(const Run& run, double value)
{
    if (std::isnan(value))
        return {};
    if (run.isLatency())
        return runTimeScale(run, value).format(value, 6);
    // A score in seconds (a leaderboard's geomean time) reads as a time too: "10.0487 µs", not "1.00487e-05 s".
    if (const double ns = nsPerTimeUnit(run.unit); ns > 0) {
        const double headline = std::isfinite(run.median) ? run.median : value;
        return chooseTimeScale({ headline * ns }).format(value * ns, 6);
    }
    return QString::number(value, 'g', 6) + (run.unit.isEmpty() ? QString() : QLatin1Char(' ') + run.unit);
}

} // namespace kix
