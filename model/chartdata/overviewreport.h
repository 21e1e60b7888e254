// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/chartdata/overviewdata.h"

#include <QByteArray>

namespace kix {

// The three outputs of `kix overview` (UTF-8).
// Table: one row per kernel (most runs first) under a header of GPUs, each cell its run count, with an "all" row and
// column; implementations and failed runs are in the CSV and JSON.
QByteArray overviewToTable(const OverviewData& data);
// One row per kernel and GPU that has runs: kernel,gpu,runs,implementations,failed,filter (the clause that selects
// exactly those runs, empty when the grammar cannot say it).
QByteArray overviewToCsv(const OverviewData& data);
// {runs, implementations, failed, gpus: [{gpu, runs, implementations, failed, filter}],
//  kernels: [{kernel, runs, implementations, failed, filter, cells: [{gpu, runs, implementations, failed, filter}]}]}
// with the cells of a kernel only for the GPUs it ran on.
QByteArray overviewToJson(const OverviewData& data);

} // namespace kix
