// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/chartdata/overviewdata.h"

#include <QAbstractTableModel>

namespace kix {

// The overview as a table: row 0 counts every kernel, then one row per kernel (most runs first); column 0 counts
// every GPU, then one column per GPU. A cell reads "448 · 3 impl." (runs and distinct implementations, then ", 2
// failed"); the row labels are the vertical header (the kernel names in full), the column labels the horizontal one (a
// long GPU name on two lines). ClauseRole gives the filter clause a click applies, on cells and on both headers.
class OverviewModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Roles { ClauseRole = Qt::UserRole + 1 };

    explicit OverviewModel(QObject* parent = nullptr);

    void setOverview(OverviewData data);
    const OverviewData& overview() const { return m_data; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "All kernels", or the kernel's name ("(no kernel)" when the runs name none).
    QString kernelLabel(int row) const;
    // "All GPUs", or the GPU's name ("(no GPU)"), in full on one line.
    QString gpuLabel(int column) const;
    // The label as the header draws it: a name longer than ~14 characters is broken at the space that balances
    // its two lines ("NVIDIA H100\n80GB HBM3").
    static QString wrapLabel(const QString& label);
    // A kernel's name as its row header draws it: longer than `maxChars`, it breaks after a '-', '_' or ' ' into
    // lines of at most `maxChars` (a longer piece stays whole). Joined again, the lines are the name.
    static QString wrapName(const QString& name, int maxChars = 36);
    // The cell's text; empty for a cell without runs.
    static QString cellText(const OverviewCell& cell);
    // The grid as tab-separated text (the clipboard) with totals: labels in full, numbers only.
    QString toTsv() const;

private:
    const OverviewCell& cellAt(int row, int column) const;
    QString clauseAt(int row, int column) const;

    OverviewData m_data;
};

} // namespace kix
