// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/chartoptions.h"

namespace kix {

QString chartKindName(ChartKind kind)
{
    switch (kind) {
    case ChartKind::Quantiles:
        return QStringLiteral("quantiles");
    case ChartKind::Sweep:
        return QStringLiteral("sweep");
    case ChartKind::Speedup:
        return QStringLiteral("speedup");
    case ChartKind::History:
        return QStringLiteral("history");
    case ChartKind::Overview:
        return QStringLiteral("overview");
    case ChartKind::Records:
        return QStringLiteral("records");
    case ChartKind::Compare:
        return QStringLiteral("compare");
    case ChartKind::Rank:
        break;
    }
    return QStringLiteral("rank");
}

QString chartKindTitle(ChartKind kind)
{
    switch (kind) {
    case ChartKind::Quantiles:
        return QStringLiteral("Quantiles");
    case ChartKind::Sweep:
        return QStringLiteral("Sweep");
    case ChartKind::Speedup:
        return QStringLiteral("Speed-up");
    case ChartKind::History:
        return QStringLiteral("History");
    case ChartKind::Overview:
        return QStringLiteral("Overview");
    case ChartKind::Records:
        return QStringLiteral("Records");
    case ChartKind::Compare:
        return QStringLiteral("Compare");
    case ChartKind::Rank:
        break;
    }
    return QStringLiteral("Rank");
}

std::optional<ChartKind> chartKindFromName(const QString& name)
{
    for (ChartKind kind : { ChartKind::Quantiles, ChartKind::Sweep, ChartKind::Speedup, ChartKind::History,
             ChartKind::Rank, ChartKind::Records }) {
        if (name.compare(chartKindName(kind), Qt::CaseInsensitive) == 0)
            return kind;
    }
    if (name.compare(QLatin1String("speed-up"), Qt::CaseInsensitive) == 0)
        return ChartKind::Speedup;
    return std::nullopt;
}

} // namespace kix
