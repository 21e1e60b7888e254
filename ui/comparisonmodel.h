#pragma once

#include "model/comparison.h"

#include <QAbstractTableModel>

namespace kix {

// The pairs of a speed-up comparison, one row each, beside the chart: both medians, the speed-up, the verdict and
// how it was decided, and every warning.
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
        ColumnCount
    };
    enum Roles { SortRole = Qt::UserRole + 1 };

    explicit ComparisonModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setComparison(const Comparison& comparison);
    const Comparison& comparison() const { return m_comparison; }

private:
    Comparison m_comparison;
};

} // namespace kix
