// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/compare/resolve.h"

#include <QByteArray>

namespace kix {

// The three outputs of `kix resolve`. The table: how the operation was found, the fields left open, then one row
// per implementation of each exact case (ranked as its cohort) or one row per near case (its best implementation),
// with every mismatch (requested → observed); the notes last.
QByteArray resolutionToTable(const Resolution& resolution);
// One row per row of the table, with the case's kind, axis, ratio, mismatches and open fields in every row.
QByteArray resolutionToCsv(const Resolution& resolution);
// {request{...}, matchedBy[], suggestions[], unconstrained[], unknownAxes[], exact, cases[{kind, axis, ratio,
// workload, gpu, pass, metric, mismatches[{field, requested, observed}], unconstrained{}, implementations[...]}],
// rule, notes[]}
QByteArray resolutionToJson(const Resolution& resolution);

// How a case matches the request as the table shows it ("exact", "below channels ×0.683").
QString resolveMatchText(const ResolveCase& c);

// The value of an implementation as the table shows it ("12.3 µs", "1.005e-05 s").
QString resolveValueText(const ResolveCase& c, const RankEntry& entry);

} // namespace kix
