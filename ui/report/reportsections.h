// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to the HTML report (htmlreport): its sections, each an <h2> with its id and what follows it, appended to
// `html`. The large ones are capped; each cap says what it left out and which command lists it all.

#include <QString>

namespace kix {

struct Comparison;
struct Ranking;
struct Records;
struct ReportCharts;
struct ReportInput;
struct ReportSummary;

namespace reporthtml {

// The input files, each with its digest and its runs loaded and reported (`summary.files`).
void writeInputs(QString& html, const ReportInput& input, ReportSummary& summary);
void writeCharts(QString& html, const ReportCharts& charts);
void writeVerdicts(QString& html, const Comparison& comparison);
void writeRank(QString& html, const Ranking& ranking);
void writeRecords(QString& html, const Records& records); // nothing where no cohort has a record timeline
// The warnings, the runs not compared and why, and the load's diagnostics grouped (adds to `summary.warnings`).
void writeComparability(QString& html, const ReportInput& input, const Comparison& comparison, const Ranking& ranking,
    ReportSummary& summary);

} // namespace reporthtml

} // namespace kix
