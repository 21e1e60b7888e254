// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/chartdata/timescale.h" // formatValue: one unit per figure
#include "model/run.h"

#include <QAbstractTableModel>
#include <QHash>

namespace kix {

// The run table. Data is replaced wholesale or appended; duplicates (same externalId and digests) are kept once.
class RunTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        KernelColumn,
        PassColumn,
        ProviderColumn,
        GpuColumn,
        WorkloadColumn,
        DtypeColumn,
        MedianColumn,
        P20Column,
        P80Column,
        SpreadColumn,
        ObservedAtColumn,
        StatusColumn,
        SourceColumn,
        FileColumn,
        BandwidthColumn, // achieved GB/s and the fraction of the copy bandwidth, where the run records them
        AuthorColumn, // the implementation's authors (a leaderboard's user or team), else its project
        ColumnCount
    };
    enum Roles {
        RunRole = Qt::UserRole + 1, // QVariant holding a kix::RunPtr
        SortRole, // numbers for numeric columns, the displayed text otherwise (compared case-insensitively)
    };

    explicit RunTableModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setRuns(const RunList& runs);
    // Appends the runs not already present; returns how many were duplicates.
    int appendRuns(const RunList& runs);
    // Room for this many rows in all, so that appending a large load in chunks never regrows (rehashes) at once.
    void reserve(qsizetype rows);
    void clear();

    const RunList& runs() const { return m_runs; }
    RunPtr runAt(int row) const;

    static QString columnName(int column);
    // A cell's text (DisplayRole); pure, so workers may call it on runs they share.
    static QString displayText(const Run& run, int column, const QStringList& workloadKeys = {});

    // The workload parameters the Workload column shows ("channels=2048"): those that vary among the runs in view.
    // Empty: the full slug.
    void setWorkloadKeys(const QStringList& keys);
    const QStringList& workloadKeys() const { return m_workloadKeys; }

private:
    RunList m_runs;
    QHash<RunIdentity, int> m_rowByKey; // identityHash() -> row
    QStringList m_workloadKeys;
};

// "12.3%", with " ⚠ noisy" when it exceeds Run::noisySpread; empty when the run has no spread.
QString formatSpread(const Run& run);
// "812 GB/s · 87% of copy", "812 GB/s", or empty when the run records no bandwidth.
QString formatBandwidth(const Run& run);

} // namespace kix

Q_DECLARE_METATYPE(kix::RunPtr)
