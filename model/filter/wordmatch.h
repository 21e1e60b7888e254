// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/filter/runfilter.h"

namespace kix {

// Does the word clause `c` (op Word, a non-empty folded value) hold for the run? Exactly what testing the whole of
// run.searchText() finds: the word as typed (c.word) or folded (c.value, '_' and '-' in the text skipped), in one
// of the fields. Only the fields of `groups` (FieldGroup bits, runfilter.h) are searched. Safe to call from several
// threads at once.
// True when no byte of `bytes` is above 0x7f.
bool isAscii(const QByteArray& bytes);

bool wordClauseMatches(const FilterClause& c, const Run& run, unsigned groups = AllFieldGroups);

} // namespace kix
