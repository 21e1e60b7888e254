// SPDX-License-Identifier: Apache-2.0
#pragma once
// The record ledger of each cohort, as the format's home keeps it (record_events under ranking-v1): who held the
// best result of a cohort, from when, and who took it from them.

#include "model/compare/rank.h"

#include <QDateTime>
#include <QString>
#include <QVector>

namespace kix {

// One step of a cohort's record timeline: `run` took the record from `previous` (none for the first).
struct RecordStep
{
    RunPtr run;
    RunPtr previous;
    QDateTime at; // the run's observedAt
    double value = 0;
    double margin = 0; // previous value / this value (1.25: 25 % better); 0 for the first record
};

struct RecordTimeline
{
    CohortKey key;
    QVector<RecordStep> steps; // oldest first; the last one holds the record now
    QDateTime lastObserved; // the cohort's latest dated eligible run: the current record has held at least until then
    // Against the catalog export's own ledger for this cohort (record_events on the runs, Run::exportedRecords):
    // whether it was compared (the export has one and every run it names is in scope), and where they differ.
    bool exportCompared = false;
    QStringList exportDisagreements; // "record 2: the export credits bo (2026-05-02 …), kix cy (…)"; empty: they agree
};

// Records held per person (the implementation's authors, else its project, else the provider), or per project.
struct RecordStanding
{
    QString holder;
    int now = 0; // cohorts whose current record it holds
    int ever = 0; // record steps it set
};

struct Records
{
    QVector<RecordTimeline> timelines; // in Rank's cohort order
    QVector<RecordStanding> standings; // most records held now first, then ever, then by name
    QVector<RecordStanding> projects; // the same per project (recordProject), in the same order
    // The export's ledger: cohorts compared, those that disagree (each timeline says how), and what could not be
    // compared ("the export's ledger of 3 cohorts names runs not in scope"; a ledger for a cohort kix has none of).
    int exportCompared = 0;
    int exportDisagreeing = 0;
    QStringList exportNotes;
};

// Every cohort's timeline: its eligible runs (passed, with a headline value) in the order they were observed
// (observedAt, then the run's digest), each one that is strictly better (lower) than the record so far a step.
// This is the rule whose ledger the format's catalog export carries (record_events, cause new_run): over the
// export kix's timelines equal it (tests/model/compare/tst_records.cpp).
// Where the runs carry the export's ledger (a catalog export's record_events), each strict cohort's timeline is
// compared with it, step by step (the run credited, the run it took the record from, the date): a difference is
// reported (RecordTimeline::exportDisagreements), never hidden.
Records recordTimelines(const RunList& runs, const CancelToken& cancel = CancelToken());

// Who is credited with a record: the authors, else the project, else the implementation's label.
QString recordHolder(const Run& run);
// The project a record counts for: the implementation's software project, else its label.
QString recordProject(const Run& run);

// "1.250× (20.0% better)", or "first" for a margin of 0.
QString recordMarginText(double margin);

// The three outputs of `kix records`.
QByteArray recordsToTable(const Records& records);
QByteArray recordsToCsv(const Records& records);
QByteArray recordsToJson(const Records& records);

} // namespace kix
