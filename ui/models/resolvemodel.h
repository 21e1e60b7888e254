// SPDX-License-Identifier: Apache-2.0
#pragma once
// The "My workload" panel's rows: each implementation of an exact case (ranked as its cohort), else the best
// implementation of each near case, with every field in which the case differs from the request.

#include "model/compare/resolve.h"

#include <QAbstractTableModel>

namespace kix {

class ResolveModel : public QAbstractTableModel
{
public:
    enum Column {
        Match,
        Workload,
        Rank,
        Implementation,
        Best,
        Implementations,
        Mismatches,
        Unconstrained,
        ColumnCount
    };
    enum Role {
        RunsRole = Qt::UserRole + 1, // RunList: the case's runs (an exact row: its implementation's runs)
        KindRole, // int: the case's ResolveKind
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setResolution(const Resolution& resolution);
    const Resolution& resolution() const { return m_resolution; }
    // The runs a row stands for: an exact row, its implementation's observations; a near row, every run of its case.
    RunList runsOf(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    QVariant data(const QModelIndex& index, int role) const override;

private:
    struct Row
    {
        int resolveCase = 0;
        int entry = 0;
    };
    Resolution m_resolution;
    QVector<Row> m_rows;
};

} // namespace kix
