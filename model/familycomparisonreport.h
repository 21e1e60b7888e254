#pragma once
// A FamilyComparison as `kix compare` prints it: a text table, CSV (through csvwriter.h) or JSON.

#include "model/familycomparison.h"

#include <QByteArray>

namespace kix {

QByteArray familyComparisonToTable(const FamilyComparison& comparison);
QByteArray familyComparisonToCsv(const FamilyComparison& comparison);
QByteArray familyComparisonToJson(const FamilyComparison& comparison);

} // namespace kix
