// SPDX-License-Identifier: Apache-2.0
#include "model/chartdata/timescale.h"

#include <algorithm>
#include <cmath>

namespace kix {

QString TimeScale::format(double ns) const
{
    if (!std::isfinite(ns))
        return QStringLiteral("–");
    return QString::number(fromNs(ns), 'g', 4) + QLatin1Char(' ') + unit;
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

} // namespace kix
