#include "ui/chartoptions.h"

namespace kix {

QString chartKindName(ChartKind kind)
{
    switch (kind) {
    case ChartKind::Quantiles:
        return QStringLiteral("quantiles");
    case ChartKind::Sweep:
        return QStringLiteral("sweep");
    case ChartKind::Speedup:
        break;
    }
    return QStringLiteral("speedup");
}

QString chartKindTitle(ChartKind kind)
{
    switch (kind) {
    case ChartKind::Quantiles:
        return QStringLiteral("Quantiles");
    case ChartKind::Sweep:
        return QStringLiteral("Sweep");
    case ChartKind::Speedup:
        break;
    }
    return QStringLiteral("Speed-up");
}

std::optional<ChartKind> chartKindFromName(const QString& name)
{
    for (ChartKind kind : { ChartKind::Quantiles, ChartKind::Sweep, ChartKind::Speedup }) {
        if (name.compare(chartKindName(kind), Qt::CaseInsensitive) == 0)
            return kind;
    }
    if (name.compare(QLatin1String("speed-up"), Qt::CaseInsensitive) == 0)
        return ChartKind::Speedup;
    return std::nullopt;
}

} // namespace kix
