// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/chartdata/overviewdata.h"
#include "model/run.h"

#include <QTableView>

namespace kix {

class OverviewModel;

// The chart panel's first view of runs that span many kernels or GPUs: kernels × GPUs with their run counts. The
// kernel names (rows) stay in view while the GPU columns scroll; every label is shown in full (sections are sized
// to the widest label, a long GPU name wraps onto two lines). One click on a cell, a kernel or a GPU asks for its
// filter clause (filterRequested), which the window puts in the filter box.
class OverviewTable : public QTableView
{
    Q_OBJECT
public:
    explicit OverviewTable(QWidget* parent = nullptr);

    void setRuns(const RunList& runs); // counts them here: setOverview(buildOverview(runs))
    // Counts prepared elsewhere (the chart panel counts many runs off the GUI thread). Costs O(kernels × GPUs).
    void setOverview(OverviewData data);
    OverviewModel* overviewModel() const { return m_model; }
    // One line for the banner: "35 kernels × 6 GPUs, 2,448 runs: click a cell, a kernel or a GPU to filter to it".
    QString summary() const;

signals:
    void filterRequested(const QString& clauses);

private:
    void fitSections();
    void request(const QString& clause);

    OverviewModel* m_model;
};

} // namespace kix
