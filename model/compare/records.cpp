// SPDX-License-Identifier: Apache-2.0
#include "model/compare/records.h"

#include "model/format/utf8.h"
#include "model/write/csvwriter.h"

#include <QHash>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace kix {

namespace {

using Json = nlohmann::ordered_json;

bool observedBefore(const RunPtr& a, const RunPtr& b)
{
    if (a->observedAt != b->observedAt) {
        if (!a->observedAt.isValid() || !b->observedAt.isValid())
            return b->observedAt.isValid(); // an undated run last: it cannot have been first
        return a->observedAt < b->observedAt;
    }
    return a->runDigest.toString() < b->runDigest.toString();
}

QString dateText(const QDateTime& at)
{
    return at.isValid() ? at.toString(Qt::ISODateWithMs) : QStringLiteral("(undated)");
}

} // namespace

QString recordMarginText(double margin)
{
    if (!(margin > 0))
        return QStringLiteral("first");
    // Enough digits that a record won by a hair does not read "1.000× (0.0% better)".
    const double better = (1 - 1 / margin) * 100; // %
    return better >= 1 ? QStringLiteral("%1× (%2% better)").arg(margin, 0, 'f', 3).arg(better, 0, 'f', 1)
                       : QStringLiteral("%1× (%2% better)").arg(margin, 0, 'f', 5).arg(better, 0, 'g', 2);
}

QString recordHolder(const Run& run)
{
    const QString who = run.authorText();
    return who.isEmpty() ? run.implementationLabel() : who;
}

QString recordProject(const Run& run)
{
    const QString project = run.links().project;
    return project.isEmpty() ? run.implementationLabel() : project;
}

namespace {

QVector<RecordStanding> sortedStandings(const QHash<QString, RecordStanding>& standings)
{
    QVector<RecordStanding> out = standings.values().toVector();
    std::sort(out.begin(), out.end(), [](const RecordStanding& a, const RecordStanding& b) {
        if (a.now != b.now)
            return a.now > b.now;
        if (a.ever != b.ever)
            return a.ever > b.ever;
        return a.holder < b.holder;
    });
    return out;
}

QString isoUtc(const QDateTime& at)
{
    return at.isValid() ? at.toUTC().toString(Qt::ISODateWithMs) : QStringLiteral("(undated)");
}

struct Credit
{
    RunPtr run;
    const ExportedRecord* record = nullptr;
};

// Who a digest names among the runs in scope, for a message.
QString whoIs(const QString& digest, const QHash<QString, RunPtr>& byDigest)
{
    if (digest.isEmpty())
        return QStringLiteral("nobody (a first record)");
    const RunPtr run = byDigest.value(digest);
    return run ? recordHolder(*run) : digest;
}

// Compares kix's steps with the export's credits for the same cohort (sorted by date, then digest).
QStringList ledgerDifferences(
    const RecordTimeline& t, const QVector<Credit>& exported, const QHash<QString, RunPtr>& byDigest)
{
    QStringList out;
    const qsizetype n = std::max(t.steps.size(), exported.size());
    for (qsizetype i = 0; i < n && out.size() < 3; ++i) {
        const RecordStep* mine = i < t.steps.size() ? &t.steps[i] : nullptr;
        const Credit* theirs = i < exported.size() ? &exported[i] : nullptr;
        const QString myDigest = mine ? mine->run->runDigest.toString() : QString();
        const QString myPrevious = mine && mine->previous ? mine->previous->runDigest.toString() : QString();
        if (mine && theirs && theirs->run == mine->run && theirs->record->previousRunDigest == myPrevious
            && theirs->record->at == isoUtc(mine->at))
            continue;
        const QString export_ = theirs ? QStringLiteral("the export credits %1 (at %2, over %3)")
                                             .arg(recordHolder(*theirs->run), theirs->record->at,
                                                 whoIs(theirs->record->previousRunDigest, byDigest))
                                       : QStringLiteral("the export has no such record");
        const QString kix = mine ? QStringLiteral("kix %1 (at %2, over %3)")
                                       .arg(recordHolder(*mine->run), isoUtc(mine->at), whoIs(myPrevious, byDigest))
                                 : QStringLiteral("kix has no such record");
        out << QStringLiteral("record %1: %2; %3").arg(i + 1).arg(export_, kix);
    }
    if (t.steps.size() != exported.size())
        out << QStringLiteral("the export has %1 record(s) in this cohort, kix %2")
                   .arg(exported.size())
                   .arg(t.steps.size());
    return out;
}

} // namespace

Records recordTimelines(const RunList& runs, const CancelToken& cancel)
{
    Records out;
    const Ranking ranking = rankRuns(runs, 0.05, CohortScope::Strict, cancel); // the cohorts, as Rank makes them
    QHash<QString, RecordStanding> standings;
    QHash<QString, RecordStanding> projects;
    for (const RankCohort& cohort : ranking.cohorts) {
        RunList eligible;
        for (const RankEntry& e : cohort.entries)
            eligible += e.runs;
        if (eligible.isEmpty())
            continue;
        std::sort(eligible.begin(), eligible.end(), observedBefore);
        RecordTimeline timeline;
        timeline.key = cohort.key;
        for (auto it = eligible.crbegin(); it != eligible.crend() && !timeline.lastObserved.isValid(); ++it)
            timeline.lastObserved = (*it)->observedAt;
        for (const RunPtr& run : std::as_const(eligible)) {
            const RecordStep* last = timeline.steps.isEmpty() ? nullptr : &timeline.steps.back();
            if (last && !(run->median < last->value))
                continue;
            RecordStep step { run, last ? last->run : RunPtr(), run->observedAt, run->median, 0 };
            if (last && run->median > 0)
                step.margin = last->value / run->median;
            timeline.steps.append(step);
            RecordStanding& s = standings[recordHolder(*run)];
            s.holder = recordHolder(*run);
            ++s.ever;
            RecordStanding& p = projects[recordProject(*run)];
            p.holder = recordProject(*run);
            ++p.ever;
        }
        ++standings[recordHolder(*timeline.steps.back().run)].now;
        ++projects[recordProject(*timeline.steps.back().run)].now;
        out.timelines.append(std::move(timeline));
    }
    // The export's ledger, where the runs carry it: per comparison key, the runs it credits.
    QHash<QString, QVector<Credit>> exported;
    QHash<QString, RunPtr> byDigest;
    for (const RunPtr& run : runs) {
        if (!run->exportedRecords)
            continue;
        for (const ExportedRecord& r : *run->exportedRecords)
            exported[r.comparisonKey].append(Credit { run, &r });
    }
    if (!exported.isEmpty()) {
        for (const RunPtr& run : runs)
            byDigest.insert(run->runDigest.toString(), run);
    }
    int outOfScope = 0;
    for (RecordTimeline& t : out.timelines) {
        if (!t.key.isStrict())
            continue;
        QVector<Credit> credits = exported.take(t.key.strict);
        if (credits.isEmpty())
            continue;
        // A ledger that names a run out of scope (filtered out, another file) cannot be compared whole.
        const bool whole = std::all_of(credits.begin(), credits.end(), [&](const Credit& c) {
            return c.record->previousRunDigest.isEmpty() || byDigest.contains(c.record->previousRunDigest);
        });
        if (!whole) {
            ++outOfScope;
            continue;
        }
        std::sort(credits.begin(), credits.end(), [](const Credit& a, const Credit& b) {
            if (a.record->at != b.record->at)
                return a.record->at < b.record->at;
            return a.run->runDigest.toString() < b.run->runDigest.toString();
        });
        t.exportCompared = true;
        t.exportDisagreements = ledgerDifferences(t, credits, byDigest);
        ++out.exportCompared;
        if (!t.exportDisagreements.isEmpty())
            ++out.exportDisagreeing;
    }
    if (outOfScope > 0)
        out.exportNotes << QStringLiteral("the export's ledger of %1 cohort(s) names runs not in scope: not compared")
                               .arg(outOfScope);
    for (auto it = exported.cbegin(); it != exported.cend(); ++it) { // ledgers kix made no timeline for
        ++out.exportDisagreeing;
        out.exportNotes << QStringLiteral("the export has %1 record(s) of cohort %2, kix none (its runs are in "
                                          "another cohort, or not eligible)")
                               .arg(it.value().size())
                               .arg(it.key());
    }
    out.standings = sortedStandings(standings);
    out.projects = sortedStandings(projects);
    return out;
}

QByteArray recordsToTable(const Records& records)
{
    QByteArray out;
    if (records.timelines.isEmpty())
        out += "No cohort with a ranked run: no records.\n";
    for (const RecordTimeline& t : records.timelines) {
        out += t.key.describe().toUtf8() + '\n';
        out += QStringLiteral("  cohort: %1\n").arg(t.key.scopeText()).toUtf8();
        for (const RecordStep& s : t.steps)
            out += QStringLiteral("  %1  %2  %3  %4%5\n")
                       .arg(dateText(s.at), formatRankValue(s.value, t.key.unit), recordHolder(*s.run),
                           recordMarginText(s.margin),
                           s.previous ? QStringLiteral(" over ") + recordHolder(*s.previous) : QString())
                       .toUtf8();
        for (const QString& d : t.exportDisagreements)
            out += QStringLiteral("  DISAGREES with the export's record_events: %1\n").arg(d).toUtf8();
        out += '\n';
    }
    if (records.exportCompared > 0 || !records.exportNotes.isEmpty()) {
        out += QStringLiteral("The export's record_events: %1 cohort ledger(s) compared, %2 disagree\n")
                   .arg(records.exportCompared)
                   .arg(records.exportDisagreeing)
                   .toUtf8();
        for (const QString& n : records.exportNotes)
            out += QStringLiteral("  %1\n").arg(n).toUtf8();
        out += '\n';
    }
    if (!records.standings.isEmpty()) {
        out += "Standings (records held now, set ever):\n";
        for (const RecordStanding& s : records.standings)
            out += QStringLiteral("  %1  %2  %3\n").arg(s.now, 4).arg(s.ever, 4).arg(s.holder).toUtf8();
        out += "Standings per project (records held now, set ever):\n";
        for (const RecordStanding& s : records.projects)
            out += QStringLiteral("  %1  %2  %3\n").arg(s.now, 4).arg(s.ever, 4).arg(s.holder).toUtf8();
    }
    out += "note: a record is a passed run strictly better (lower) than every earlier one of its cohort, in the "
           "order observed (the format's ranking-v1 ledger, cause new_run)\n";
    return out;
}

QByteArray recordsToCsv(const Records& records)
{
    QByteArray out = csvLine({ QStringLiteral("comparison_key"), QStringLiteral("cohort"), QStringLiteral("step"),
        QStringLiteral("at"), QStringLiteral("value"), QStringLiteral("unit"), QStringLiteral("holder"),
        QStringLiteral("implementation"), QStringLiteral("margin"), QStringLiteral("previous_holder"),
        QStringLiteral("external_id"), QStringLiteral("file") });
    for (const RecordTimeline& t : records.timelines) {
        for (int i = 0; i < t.steps.size(); ++i) {
            const RecordStep& s = t.steps[i];
            out += csvLine({ t.key.strict, t.key.describe(), QString::number(i + 1), dateText(s.at),
                QString::number(s.value, 'g', 12), t.key.unit, recordHolder(*s.run), s.run->implementationLabel(),
                s.margin > 0 ? QString::number(s.margin, 'g', 6) : QString(),
                s.previous ? recordHolder(*s.previous) : QString(), s.run->externalId, s.run->file + s.run->pointer });
        }
    }
    return out;
}

QByteArray recordsToJson(const Records& records)
{
    Json root;
    root["policy"] = "ranking-v1";
    Json timelines = Json::array();
    for (const RecordTimeline& t : records.timelines) {
        Json tj;
        tj["description"] = utf8(t.key.describe());
        tj["scope"] = t.key.isStrict() ? "strict" : "family";
        tj["comparisonKey"] = t.key.isStrict() ? Json(utf8(t.key.strict)) : Json(nullptr);
        tj["unit"] = utf8(t.key.unit);
        Json steps = Json::array();
        for (const RecordStep& s : t.steps) {
            Json sj;
            sj["at"] = s.at.isValid() ? Json(utf8(dateText(s.at))) : Json(nullptr);
            sj["value"] = s.value;
            sj["holder"] = utf8(recordHolder(*s.run));
            sj["implementation"] = utf8(s.run->implementationLabel());
            sj["margin"] = s.margin > 0 ? Json(s.margin) : Json(nullptr);
            sj["previousHolder"] = s.previous ? Json(utf8(recordHolder(*s.previous))) : Json(nullptr);
            sj["runDigest"] = utf8(s.run->runDigest.toString());
            sj["externalId"] = utf8(s.run->externalId);
            sj["file"] = utf8(s.run->file + s.run->pointer);
            steps.push_back(sj);
        }
        tj["steps"] = steps;
        if (t.exportCompared) {
            Json d = Json::array();
            for (const QString& text : t.exportDisagreements)
                d.push_back(utf8(text));
            tj["exportLedger"] = { { "agrees", t.exportDisagreements.isEmpty() }, { "disagreements", d } };
        }
        timelines.push_back(tj);
    }
    root["timelines"] = timelines;
    Json standings = Json::array();
    for (const RecordStanding& s : records.standings)
        standings.push_back({ { "holder", utf8(s.holder) }, { "now", s.now }, { "ever", s.ever } });
    root["standings"] = standings;
    Json projects = Json::array();
    for (const RecordStanding& s : records.projects)
        projects.push_back({ { "project", utf8(s.holder) }, { "now", s.now }, { "ever", s.ever } });
    root["projectStandings"] = projects;
    Json notes = Json::array();
    for (const QString& n : records.exportNotes)
        notes.push_back(utf8(n));
    root["exportLedger"]
        = { { "compared", records.exportCompared }, { "disagree", records.exportDisagreeing }, { "notes", notes } };
    return QByteArray::fromStdString(root.dump(2) + "\n");
}

} // namespace kix
