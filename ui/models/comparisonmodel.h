// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/compare/comparison.h"

#include <QAbstractTableModel>

namespace kix {

// The pairs of a speed-up comparison, one row each, beside the chart: the speed-up and verdict (with a noise flag),
// the workload by what varies ("channels=2048"), both medians, how the verdict was decided, and every warning.
class ComparisonModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        WorkloadColumn,
        ProviderColumn,
        GpuColumn,
        BaselineColumn,
        BaselineMedianColumn,
        MedianColumn,
        SpeedupColumn,
        VerdictColumn,
        MethodColumn,
        PValueColumn,
        WarningsColumn,
        BandwidthColumn, // the run's achieved GB/s and fraction of copy bandwidth, where recorded
        ColumnCount
    };
    enum Roles { SortRole = Qt::UserRole + 1 };

    explicit ComparisonModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setComparison(const Comparison& comparison); // reads every pair: workloadKeys(comparison)
    // The same with the Workload column's keys already found (off the GUI thread for many pairs).
    void setComparison(const Comparison& comparison, const QStringList& workloadKeys);
    // The workload parameters that vary among the pairs, else (one workload) all of its parameters.
    static QStringList workloadKeys(const Comparison& comparison);
    const Comparison& comparison() const { return m_comparison; }

private:
    Comparison m_comparison;
    QStringList m_varying; // the workload parameters that vary among the pairs: the Workload column shows them
};

} // namespace kix
