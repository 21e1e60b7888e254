// SPDX-License-Identifier: Apache-2.0
#pragma once
// One self-contained HTML report of runs, to share: what `kix report` writes and File > Export Report… saves.

#include "model/diagnostic.h"
#include "model/run.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QStringList>

namespace kix {

struct ReportInput
{
    RunList runs; // the runs reported (after the filter)
    RunList loaded; // every run loaded, for the inputs' run counts; empty: `runs`
    QStringList files; // the input files, each digested; empty: the files the loaded runs came from
    QString madeBy; // the exact command line, or what the window exported ("File > Export Report…")
    QString filter; // the filter that made `runs` of `loaded`; empty: none
    QString title; // empty: "kix report: N runs"
    Diagnostics diagnostics; // what loading said (grouped in the report)
    QDateTime generatedAt; // UTC; the one line two reports of the same input differ in
};

struct ReportSummary
{
    int runs = 0;
    int files = 0;
    int cohorts = 0;
    int pairs = 0;
    int records = 0; // cohorts with a record timeline
    int warnings = 0; // load warnings and errors, and comparability warnings of pairs
    int charts = 0; // charts inlined
    int chartsLeftOut = 0;
};

// The report as one HTML5 document: no external asset, no script, charts as inline SVG, every text escaped.
// Charts need a QApplication (they are drawn with Qt Charts); without one the report says they were left out.
QByteArray htmlReport(const ReportInput& input, ReportSummary* summary = nullptr);

// htmlReport() written atomically (a temporary file renamed over `path`: a failure leaves an existing file as it
// was). Refuses a directory. False and `error` (naming the path) on failure.
bool writeHtmlReport(const ReportInput& input, const QString& path, QString* error, ReportSummary* summary = nullptr);

// Text as HTML: & < > " escaped (QString::toHtmlEscaped).
QString htmlEscaped(const QString& text);

} // namespace kix
