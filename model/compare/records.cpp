// SPDX-License-Identifier: Apache-2.0
#include "model/compare/records.h"

#include "model/write/csvwriter.h"

#include <QHash>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace kix {

namespace {

using Json = nlohmann::ordered_json;

std::string utf8(const QString& s)
{
    return s.toStdString();
}

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

} // namespace

Records recordTimelines(const RunList& runs)
{
    Records out;
    const Ranking ranking = rankRuns(runs); // the cohorts, as Rank makes them
    QHash<QString, RecordStanding> standings;
    QHash<QString, RecordStanding> projects;
    for (const RankCohort& cohort : ranking.cohorts) {
        RunList eligible;
        for (const RankEntry& e : cohort.entries)
            eligible += e.runs;
        if (eligible.isEmpty())
            continue;
        std::sort(eligible.begin(), eligible.end(), observedBefore);
        RecordTimeline timeline { cohort.key, {}, {} };
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
    return QByteArray::fromStdString(root.dump(2) + "\n");
}

} // namespace kix
