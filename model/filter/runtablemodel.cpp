// SPDX-License-Identifier: Apache-2.0
#include "model/filter/runtablemodel.h"

#include "model/workload.h"

#include <QLocale>

namespace kix {

RunTableModel::RunTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

int RunTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_runs.size();
}

int RunTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString RunTableModel::columnName(int column)
{
    switch (column) {
    case KernelColumn:
        return QStringLiteral("Kernel");
    case PassColumn:
        return QStringLiteral("Pass");
    case ProviderColumn:
        return QStringLiteral("Provider");
    case GpuColumn:
        return QStringLiteral("GPU");
    case WorkloadColumn:
        return QStringLiteral("Workload");
    case DtypeColumn:
        return QStringLiteral("Dtype");
    case MedianColumn: // a run's headline: a median, nvbench's mean, a leaderboard's geomean score, peak memory
        return QStringLiteral("Headline");
    case P20Column:
        return QStringLiteral("p20");
    case P80Column:
        return QStringLiteral("p80");
    case SpreadColumn:
        return QStringLiteral("Spread");
    case ObservedAtColumn:
        return QStringLiteral("Observed");
    case StatusColumn:
        return QStringLiteral("Status");
    case SourceColumn:
        return QStringLiteral("Source");
    case FileColumn:
        return QStringLiteral("File");
    case BandwidthColumn:
        return QStringLiteral("GB/s");
    case AuthorColumn:
        return QStringLiteral("Author");
    }
    return {};
}

QString formatSpread(const Run& run)
{
    const double s = run.spread();
    if (std::isnan(s))
        return {};
    return QString::number(s * 100, 'f', s < 0.1 ? 2 : 1) + QLatin1Char('%')
        + (run.isNoisy() ? QStringLiteral(" ⚠ noisy") : QString());
}

QString formatBandwidth(const Run& run)
{
    const double gbs = run.achievedGBs();
    if (!std::isfinite(gbs))
        return {};
    QString text = QString::number(gbs, 'f', gbs >= 100 ? 0 : 1) + QStringLiteral(" GB/s");
    const double fraction = run.bandwidthFraction();
    if (std::isfinite(fraction))
        text += QStringLiteral(" · %1% of copy").arg(fraction * 100, 0, 'f', 0);
    return text;
}

void RunTableModel::setWorkloadKeys(const QStringList& keys)
{
    if (keys == m_workloadKeys)
        return;
    m_workloadKeys = keys;
    if (!m_runs.isEmpty())
        emit dataChanged(index(0, WorkloadColumn), index(int(m_runs.size()) - 1, WorkloadColumn));
}

QVariant RunTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_runs.size() || index.column() >= ColumnCount)
        return {};
    const Run& run = *m_runs.at(index.row());
    const int column = index.column();
    if (role == RunRole)
        return QVariant::fromValue(m_runs.at(index.row()));
    if (role == Qt::TextAlignmentRole) {
        if (column == MedianColumn || column == P20Column || column == P80Column || column == SpreadColumn
            || column == BandwidthColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (role == Qt::ToolTipRole) {
        if (column == FileColumn)
            return QString(run.file + run.pointer);
        if (column == KernelColumn && !run.links().operationTitle.isEmpty())
            return run.kernel;
        if (column == ProviderColumn && !run.links().implementationTitle.isEmpty())
            return run.links().implementationTitle;
        if (column == WorkloadColumn) // the slug; a suite's title ("suite of 4 cases") where it has no slug
            return run.workloadSlug.isEmpty() ? run.links().workloadTitle : run.workloadSlug;
        if (column == SpreadColumn && !std::isnan(run.spread()))
            return QStringLiteral("(p80 − p20) / median = %1%2")
                .arg(run.spread() * 100, 0, 'f', 2)
                .arg(run.isNoisy() ? QStringLiteral("%: above %1%, too noisy to trust a verdict")
                                         .arg(Run::noisySpread * 100, 0, 'f', 0)
                                   : QStringLiteral("%"));
        if (column == BandwidthColumn && std::isfinite(run.achievedGBs()))
            return QStringLiteral("achieved %1 GB/s; copy bandwidth measured in the same session: %2 GB/s")
                .arg(run.achievedGBs(), 0, 'f', 1)
                .arg(run.measurementValue(QStringLiteral("copy_bandwidth")), 0, 'f', 1);
        if (column == MedianColumn) { // the exact headline, its statistic: "10000 ns (mean)", "2048 MB (memory median)"
            const QString value = QString::number(run.median, run.isLatency() ? 'f' : 'g', run.isLatency() ? 0 : 12);
            return QString((run.unit.isEmpty() ? value : value + QLatin1Char(' ') + run.unit) + QStringLiteral(" (")
                + (run.isLatency() ? QString() : run.metricName() + QLatin1Char(' ')) + run.headlineStatistic
                + QLatin1Char(')'));
        }
        if (column == P20Column || column == P80Column)
            return QStringLiteral("%1 %2")
                .arg(run.statistic(column == P20Column ? QStringLiteral("p20") : QStringLiteral("p80")), 0, 'f', 0)
                .arg(run.unit);
        return {};
    }
    if (role == SortRole) {
        switch (column) {
        case MedianColumn:
            return run.median;
        case P20Column:
            return run.p20;
        case P80Column:
            return run.p80;
        case SpreadColumn:
            return run.spread();
        case ObservedAtColumn:
            return run.observedAt;
        case BandwidthColumn:
            return run.achievedGBs();
        default:
            break;
        }
        return displayText(run, column, m_workloadKeys); // text: the proxy compares it case-insensitively
    }
    if (role != Qt::DisplayRole)
        return {};
    return displayText(run, column, m_workloadKeys);
}

QString RunTableModel::displayText(const Run& run, int column, const QStringList& workloadKeys)
{
    switch (column) {
    case KernelColumn: // the operation's title where it has one (its slug on hover)
        return run.links().operationTitle.isEmpty() ? run.kernel : run.links().operationTitle;
    case PassColumn:
        return run.pass;
    case ProviderColumn:
        return run.provider;
    case AuthorColumn:
        return run.authorText();
    case GpuColumn:
        return run.gpuDisplayName();
    case WorkloadColumn: // a workload without a slug (a leaderboard's suite) shows its title: "suite of 4 cases"
        if (run.workloadSlug.isEmpty())
            return run.links().workloadTitle;
        return workloadKeys.isEmpty() ? run.workloadSlug : paramsLabel(run, workloadKeys);
    case DtypeColumn:
        return run.dtype;
    case MedianColumn: // a headline that is not a median (nvbench's mean) says so
        return run.headlineStatistic == QLatin1String("median")
            ? formatValue(run, run.median)
            : formatValue(run, run.median) + QStringLiteral(" (") + run.headlineStatistic + QLatin1Char(')');
    case P20Column:
        return formatValue(run, run.p20);
    case P80Column:
        return formatValue(run, run.p80);
    case SpreadColumn:
        return formatSpread(run);
    case BandwidthColumn:
        return formatBandwidth(run);
    case ObservedAtColumn:
        return run.observedAt.isValid() ? run.observedAt.toString(Qt::ISODate) : QString();
    case StatusColumn:
        return run.status;
    case SourceColumn:
        return run.source;
    case FileColumn:
        return run.file;
    }
    return {};
}

QVariant RunTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return columnName(section);
    if (role == Qt::ToolTipRole && section == SpreadColumn)
        return QStringLiteral("(p80 − p20) / median");
    if (role == Qt::ToolTipRole && section == MedianColumn)
        return QStringLiteral("Each run's headline figure: its median latency, or the statistic its source reports "
                              "(nvbench's mean, a leaderboard's geomean score, peak memory), named when it is not "
                              "a median. Sorting groups the runs by metric first.");
    return {};
}

void RunTableModel::setRuns(const RunList& runs)
{
    beginResetModel();
    m_runs.clear();
    m_rowByKey.clear();
    m_runs.reserve(runs.size());
    for (const RunPtr& run : runs) {
        const RunIdentity key = run->identityHash();
        if (m_rowByKey.contains(key))
            continue;
        m_rowByKey.insert(key, m_runs.size());
        m_runs.append(run);
    }
    endResetModel();
}

int RunTableModel::appendRuns(const RunList& runs)
{
    // One hash lookup per run: the key is taken (with the row it will have) as it is found new.
    RunList fresh;
    fresh.reserve(runs.size());
    int row = int(m_runs.size());
    for (const RunPtr& run : runs) {
        const qsizetype known = m_rowByKey.size();
        int& slot = m_rowByKey[run->identityHash()];
        if (m_rowByKey.size() == known)
            continue; // a duplicate of a row, or of a run earlier in this batch
        slot = row++;
        fresh.append(run);
    }
    if (!fresh.isEmpty()) {
        beginInsertRows({}, m_runs.size(), m_runs.size() + fresh.size() - 1);
        m_runs.append(fresh);
        endInsertRows();
    }
    return runs.size() - fresh.size();
}

void RunTableModel::reserve(qsizetype rows)
{
    if (rows > m_runs.capacity())
        m_runs.reserve(rows);
    if (rows > m_rowByKey.capacity())
        m_rowByKey.reserve(rows);
}

void RunTableModel::clear()
{
    setRuns({});
}

RunPtr RunTableModel::runAt(int row) const
{
    return row >= 0 && row < m_runs.size() ? m_runs.at(row) : RunPtr();
}

} // namespace kix
