// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/history/history.h"

#include <QByteArray>

namespace kix {

// The three outputs of `kix history`: every change, largest first, with its series, the runs before and after
// (observedAt, label, median), the ratio after / before and the evidence; then the unplaceable runs and the notes.
QByteArray historyToTable(const History& history, double threshold);
QByteArray historyToCsv(const History& history); // one row per change, with a header row
// {threshold, series, changes[], unplaceable[], sameTime[], notes[]}; each change: kernel, pass, provider, gpu,
// workload, metric, protocolFamily, series, kind, ratio, before/after {observedAt, label, median, level,
// externalId}, evidence, confirmed, runsBefore, runsAfter, pValue.
QByteArray historyToJson(const History& history, double threshold);

// "1.316 ms" for latency (ns), "100.5 MB" for memory.
QString formatHistoryValue(double value, const QString& unit);

} // namespace kix
