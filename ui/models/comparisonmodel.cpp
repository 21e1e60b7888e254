// SPDX-License-Identifier: Apache-2.0
#include "ui/models/comparisonmodel.h"

#include "model/chartdata/distinctworkloads.h"
#include "model/filter/runtablemodel.h"
#include "model/workload.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/speedupchart.h"

#include <QGuiApplication>

#include <cmath>

namespace kix {

ComparisonModel::ComparisonModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

int ComparisonModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_comparison.pairs.size());
}

int ComparisonModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_comparison.pairs.size())
        return {};
    const ComparisonPair& p = m_comparison.pairs[index.row()];
    const Run& r = *p.run;
    const Run& b = *p.baseline;
    if (role == SortRole) {
        switch (index.column()) {
        case BaselineMedianColumn:
            return b.median;
        case MedianColumn:
            return r.median;
        case SpeedupColumn:
            return p.ratio;
        case PValueColumn:
            return p.pValue;
        case WarningsColumn:
            return int(p.warnings.size());
        case BandwidthColumn:
            return r.achievedGBs();
        case WorkloadColumn: // the comparison's own order: kernel, pass, then workload parameters numerically
            return index.row();
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::ToolTipRole)
        return SpeedupChart::tooltip(p);
    if (role == Qt::ForegroundRole && index.column() == VerdictColumn) {
        const bool dark = ChartStyle::isDark(QGuiApplication::palette());
        return ChartStyle::verdictColor(p.verdict, dark);
    }
    if (role == Qt::ForegroundRole && index.column() == WarningsColumn && !p.warnings.isEmpty())
        return ChartStyle::warningColor(ChartStyle::isDark(QGuiApplication::palette()));
    if (role == Qt::TextAlignmentRole) {
        switch (index.column()) {
        case BaselineMedianColumn:
        case MedianColumn:
        case SpeedupColumn:
        case PValueColumn:
        case BandwidthColumn:
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case WorkloadColumn:
        return m_varying.isEmpty() ? r.workloadSlug : paramsLabel(r, m_varying);
    case ProviderColumn:
        return r.provider;
    case GpuColumn:
        return r.gpuDisplayName();
    case BaselineColumn:
        return QString(b.provider + QStringLiteral(" · ") + b.gpuDisplayName());
    case BaselineMedianColumn:
        return formatValue(b, b.median);
    case MedianColumn:
        return formatValue(r, r.median);
    case SpeedupColumn:
        return std::isfinite(p.ratio) ? QString::number(p.ratio, 'f', 3) + QStringLiteral("×") : QString();
    case VerdictColumn:
        return QString(SpeedupChart::verdictSymbol(p.verdict) + QLatin1Char(' ') + verdictName(p.verdict)
            + (p.noisy ? QStringLiteral(" ⚠ noisy") : QString()));
    case MethodColumn:
        return p.reason.isEmpty() ? verdictMethodName(p.method) : p.reason;
    case BandwidthColumn:
        return formatBandwidth(r);
    case PValueColumn:
        return std::isfinite(p.pValue) ? QString::number(p.pValue, 'g', 3) : QString();
    case WarningsColumn:
        return p.warnings.join(QStringLiteral("; "));
    }
    return {};
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case WorkloadColumn:
        return QStringLiteral("Workload");
    case ProviderColumn:
        return QStringLiteral("Provider");
    case GpuColumn:
        return QStringLiteral("GPU");
    case BaselineColumn:
        return QStringLiteral("Baseline");
    case BaselineMedianColumn:
        return QStringLiteral("Baseline median");
    case MedianColumn:
        return QStringLiteral("Median");
    case SpeedupColumn:
        return QStringLiteral("Speed-up");
    case VerdictColumn:
        return QStringLiteral("Verdict");
    case MethodColumn:
        return QStringLiteral("Why");
    case PValueColumn:
        return QStringLiteral("p");
    case WarningsColumn:
        return QStringLiteral("Warnings");
    case BandwidthColumn:
        return QStringLiteral("GB/s");
    }
    return {};
}

void ComparisonModel::setComparison(const Comparison& comparison)
{
    setComparison(comparison, workloadKeys(comparison));
}

void ComparisonModel::setComparison(const Comparison& comparison, const QStringList& workloadKeys)
{
    beginResetModel();
    m_comparison = comparison;
    m_varying = workloadKeys;
    endResetModel();
}

QStringList ComparisonModel::workloadKeys(const Comparison& comparison)
{
    RunList runs;
    runs.reserve(comparison.pairs.size());
    for (const ComparisonPair& p : comparison.pairs)
        runs.append(p.run);
    const ParamVariation variation = paramVariation(distinctWorkloads(runs)); // that of every run
    QStringList keys = variation.varying;
    if (keys.isEmpty()) // one workload: show its parameters rather than the slug
        for (const KeyValue& kv : variation.fixed)
            keys << kv.key;
    return keys;
}

} // namespace kix
