// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/compare/rank.h"

#include <QByteArray>

namespace kix {

// The three outputs of `kix rank`. Every cohort with its key, its implementations best first (rank, best value,
// median of the observations, their count, ratio to the best, whether it is distinguishable from the best and on
// what evidence), then its failed runs, unranked.
QByteArray rankingToTable(const Ranking& ranking);
// One row per entry, failed and unranked run, with the cohort's key in every row and a header row.
QByteArray rankingToCsv(const Ranking& ranking);
// {alpha, cohorts: [{key{...}, description, protocolFamilies[], entries[], failed[], unranked[]}], notes[]}
QByteArray rankingToJson(const Ranking& ranking);

} // namespace kix
