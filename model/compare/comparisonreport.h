// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/compare/comparison.h"

#include <QByteArray>

namespace kix {

// The three outputs of `kix compare`. All show both medians, the ratio, the verdict (and what decided it) and the
// warnings of every pair; then the geometric mean per provider and the notes.
QByteArray comparisonToTable(const Comparison& comparison);
QByteArray comparisonToCsv(const Comparison& comparison); // one row per pair, with a header row
QByteArray comparisonToJson(
    const Comparison& comparison); // {baseline, alpha, pairs[], providers[], unpaired[], notes[]}

} // namespace kix
