// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/fleet/fleetjobs.h"

#include <QAbstractTableModel>

namespace kix {

// The submitted fleet jobs: one row per array job with its task states.
class FleetJobModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Job, Target, Tasks, State, Results, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;

    void setJobs(const QVector<fleet::JobStatus>& jobs); // replaces every row
    const QVector<fleet::JobStatus>& jobs() const { return m_jobs; }
    bool anyUnfinished() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVector<fleet::JobStatus> m_jobs;
};

} // namespace kix
