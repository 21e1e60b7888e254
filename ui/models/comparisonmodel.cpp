// SPDX-License-Identifier: Apache-2.0
#include "ui/models/comparisonmodel.h"

#include "model/chartdata/distinctworkloads.h"
#include "model/filter/runtablemodel.h"
#include "model/jobs/pools.h"
#include "model/workload.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/speedupchart.h"

#include <QGuiApplication>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace kix {

namespace {

bool isNumeric(int column)
{
    switch (column) {
    case ComparisonModel::BaselineMedianColumn:
    case ComparisonModel::MedianColumn:
    case ComparisonModel::SpeedupColumn:
    case ComparisonModel::PValueColumn:
    case ComparisonModel::WarningsColumn:
    case ComparisonModel::BandwidthColumn:
        return true;
    default:
        return false;
    }
}

// SortRole of a numeric column (isNumeric).
double numericKey(const ComparisonPair& p, int column)
{
    switch (column) {
    case ComparisonModel::BaselineMedianColumn:
        return p.baseline->median;
    case ComparisonModel::MedianColumn:
        return p.run->median;
    case ComparisonModel::SpeedupColumn:
        return p.ratio;
    case ComparisonModel::PValueColumn:
        return p.pValue;
    case ComparisonModel::WarningsColumn:
        return double(p.warnings.size());
    case ComparisonModel::BandwidthColumn:
        return p.run->achievedGBs();
    default:
        return std::numeric_limits<double>::quiet_NaN();
    }
}

} // namespace

ComparisonModel::ComparisonModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

// m_sorts cancels a sort in flight: it stops soon (its copy of the pairs is freed there).
ComparisonModel::~ComparisonModel() = default;

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
    const ComparisonPair& p = m_comparison.pairs[pairIndex(index.row())];
    if (role == SortRole) {
        if (index.column() == WarningsColumn)
            return int(p.warnings.size());
        if (isNumeric(index.column()))
            return numericKey(p, index.column());
        if (index.column() == WorkloadColumn) // the comparison's own order: kernel, pass, then workload parameters
            return pairIndex(index.row());
        return displayText(p, index.column(), m_varying);
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
        if (isNumeric(index.column()) && index.column() != WarningsColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    return displayText(p, index.column(), m_varying);
}

QString ComparisonModel::displayText(const ComparisonPair& p, int column, const QStringList& workloadKeys)
{
    const Run& r = *p.run;
    const Run& b = *p.baseline;
    switch (column) {
    case WorkloadColumn:
        return workloadKeys.isEmpty() ? r.workloadSlug : paramsLabel(r, workloadKeys);
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
    supersede();
    m_comparison = comparison;
    m_varying = workloadKeys;
    m_order.clear(); // the comparison's order until its own sort lands
    const bool async = m_sortColumn >= 0 && m_comparison.pairs.size() >= m_asyncThreshold;
    if (m_sortColumn >= 0 && !async)
        m_order = sortedOrder(m_comparison, m_varying, m_sortColumn, m_sortOrder);
    endResetModel();
    if (async)
        startSort();
}

void ComparisonModel::sort(int column, Qt::SortOrder order)
{
    m_sortColumn = column >= 0 && column < ColumnCount ? column : -1;
    m_sortOrder = order;
    supersede();
    if (m_sortColumn < 0)
        applyOrder({}); // the comparison's order
    else if (m_comparison.pairs.size() < m_asyncThreshold)
        applyOrder(sortedOrder(m_comparison, m_varying, m_sortColumn, m_sortOrder));
    else
        startSort();
}

void ComparisonModel::supersede()
{
    m_sorts.cancel(); // the sort in flight frees itself once its job ends; its result is dropped
    m_sortPending = false;
}

void ComparisonModel::startSort()
{
    m_sortPending = true;
    m_sorts.run(
        workerPool(),
        [pairs = m_comparison, keys = m_varying, column = m_sortColumn, order = m_sortOrder](
            const CancelToken& cancel) {
            SortResult result;
            if (cancel.cancelled())
                return result;
            result.order = sortedOrder(pairs, keys, column, order, [&cancel] { return cancel.cancelled(); });
            result.rowOf.resize(result.order.size());
            for (size_t row = 0; row < result.order.size(); ++row)
                result.rowOf[size_t(result.order[row])] = int(row);
            return result;
        },
        [this](SortResult&& result) {
            m_sortPending = false;
            applyOrder(std::move(result.order), std::move(result.rowOf));
        });
}

void ComparisonModel::applyOrder(std::vector<int> order, std::vector<int> rowOf)
{
    if (!order.empty() && rowOf.size() != order.size()) {
        rowOf.assign(order.size(), 0);
        for (size_t row = 0; row < order.size(); ++row)
            rowOf[size_t(order[row])] = int(row);
    }
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    // The selection and the current row follow their pairs: few indexes, whatever the number of rows.
    const QModelIndexList before = persistentIndexList();
    QModelIndexList after;
    after.reserve(before.size());
    for (const QModelIndex& index : before) {
        const int pair = pairIndex(index.row());
        after << createIndex(rowOf.empty() ? pair : rowOf[size_t(pair)], index.column());
    }
    m_order = std::move(order);
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
    emit sorted();
}

std::vector<int> ComparisonModel::sortedOrder(const Comparison& comparison, const QStringList& workloadKeys, int column,
    Qt::SortOrder order, const std::function<bool()>& cancelled)
{
    const QVector<ComparisonPair>& pairs = comparison.pairs;
    const size_t n = size_t(pairs.size());
    std::vector<int> rows(n);
    std::iota(rows.begin(), rows.end(), 0);
    const bool ascending = order == Qt::AscendingOrder;
    auto stop = [&cancelled](size_t i) { return cancelled && i % 4096 == 0 && cancelled(); };
    if (column == WorkloadColumn) { // the comparison's order
        if (!ascending)
            std::reverse(rows.begin(), rows.end());
    } else if (isNumeric(column)) {
        std::vector<double> key(n);
        for (size_t i = 0; i < n; ++i) {
            if (stop(i))
                return {};
            key[i] = numericKey(pairs[qsizetype(i)], column);
        }
        std::stable_sort(rows.begin(), rows.end(), [&key, ascending](int a, int b) {
            const double x = key[size_t(a)], y = key[size_t(b)];
            if (std::isnan(x) || std::isnan(y))
                return !std::isnan(x) && std::isnan(y); // a missing value last
            return ascending ? x < y : y < x;
        });
    } else if (column >= 0 && column < ColumnCount) {
        std::vector<QString> key(n);
        for (size_t i = 0; i < n; ++i) {
            if (stop(i))
                return {};
            key[i] = displayText(pairs[qsizetype(i)], column, workloadKeys);
        }
        if (cancelled && cancelled())
            return {};
        std::stable_sort(rows.begin(), rows.end(), [&key, ascending](int a, int b) {
            const int c = QString::compare(key[size_t(a)], key[size_t(b)], Qt::CaseSensitive);
            return ascending ? c < 0 : c > 0;
        });
    }
    if (cancelled && cancelled())
        return {};
    return rows;
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
