// SPDX-License-Identifier: Apache-2.0
#include "ui/models/fleetjobmodel.h"

#include <QStringList>

#include <algorithm>

namespace kix {

using namespace kix::fleet;

void FleetJobModel::setJobs(const QVector<JobStatus>& jobs)
{
    beginResetModel();
    m_jobs = jobs;
    endResetModel();
}

bool FleetJobModel::anyUnfinished() const
{
    return std::any_of(m_jobs.begin(), m_jobs.end(), [](const JobStatus& j) { return !j.finished(); });
}

int FleetJobModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_jobs.size());
}

int FleetJobModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FleetJobModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_jobs.size())
        return {};
    const JobStatus& job = m_jobs[index.row()];
    if (role == Qt::ToolTipRole) {
        QStringList lines;
        for (const TaskStatus& t : job.tasks)
            lines
                << QStringLiteral("%1_%2  %3  %4").arg(job.record.jobId).arg(t.index).arg(stateName(t.state), t.detail);
        return (lines + job.notes).join(QLatin1Char('\n'));
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Job:
        return job.record.jobId;
    case Target:
        return job.record.target;
    case Tasks:
        return job.record.tasks;
    case State:
        return job.summary().section(QStringLiteral(": "), 1);
    case Results:
        return job.record.resultsDir;
    default:
        return {};
    }
}

QVariant FleetJobModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "Job", "Target", "Tasks", "State", "Results" };
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(names[section]) : QVariant();
}

} // namespace kix
