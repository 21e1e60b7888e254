// SPDX-License-Identifier: Apache-2.0
#pragma once
// A ToolComparison as `kix compare` prints it: a text table, CSV (through csvwriter.h) or JSON.

#include "model/compare/toolcomparison.h"

#include <QByteArray>

namespace kix {

QByteArray toolComparisonToTable(const ToolComparison& comparison);
QByteArray toolComparisonToCsv(const ToolComparison& comparison);
QByteArray toolComparisonToJson(const ToolComparison& comparison);

} // namespace kix
