// SPDX-License-Identifier: Apache-2.0
#include "model/compare/rankreport.h"

#include "model/format/utf8.h"
#include "model/write/csvwriter.h"
#include "model/write/jsonnumber.h"
#include "model/write/texttable.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace kix {

namespace {

using Json = nlohmann::ordered_json;

QString location(const Run& run)
{
    return run.file + run.pointer;
}

Json keyJson(const CohortKey& k)
{
    Json j;
    j["kernel"] = utf8(k.kernel);
    j["pass"] = utf8(k.pass);
    j["workload"] = utf8(k.workload);
    j["dtype"] = utf8(k.dtype);
    j["gpu"] = utf8(k.gpuName);
    j["gpuKey"] = utf8(k.gpu);
    j["protocolFamily"] = utf8(k.protocol);
    j["metric"] = utf8(k.metric);
    j["statistic"] = utf8(k.statistic);
    j["unit"] = utf8(k.unit);
    return j;
}

Json distinguishableJson(Distinguishable d)
{
    switch (d) {
    case Distinguishable::Yes:
        return true;
    case Distinguishable::No:
        return false;
    case Distinguishable::Best:
    case Distinguishable::Unknown:
        break;
    }
    return nullptr;
}

Json unrankedJson(const UnrankedRun& u)
{
    Json j;
    j["implementation"] = utf8(u.implementation);
    j["status"] = utf8(u.run->status);
    j["reason"] = utf8(u.reason);
    j["externalId"] = utf8(u.run->externalId);
    j["file"] = utf8(location(*u.run));
    return j;
}

QString verdictText(const RankEntry& e)
{
    switch (e.distinguishable) {
    case Distinguishable::Best:
        return QStringLiteral("best");
    case Distinguishable::Yes:
        return QStringLiteral("slower (") + e.evidence + QLatin1Char(')');
    case Distinguishable::No:
        return QStringLiteral("not distinguishable (") + e.evidence + QLatin1Char(')');
    case Distinguishable::Unknown:
        break;
    }
    return e.evidence; // "no noise recorded"
}

} // namespace

QByteArray rankingToTable(const Ranking& ranking)
{
    QByteArray out;
    if (ranking.cohorts.isEmpty())
        out += "No runs to rank.\n";
    for (const RankCohort& c : ranking.cohorts) {
        out += c.key.describe().toUtf8();
        out += QStringLiteral(" — %1 implementation%2, %3 run%4")
                   .arg(c.entries.size())
                   .arg(c.entries.size() == 1 ? QString() : QStringLiteral("s"))
                   .arg(c.runCount())
                   .arg(c.runCount() == 1 ? QString() : QStringLiteral("s"))
                   .toUtf8();
        if (c.protocolFamilies().size() > 1)
            out += QStringLiteral(" (families %1)").arg(c.protocolFamilies().join(QStringLiteral(", "))).toUtf8();
        out += '\n';
        if (!c.entries.isEmpty()) {
            QVector<QStringList> rows { { QStringLiteral("#"), QStringLiteral("implementation"), QStringLiteral("best"),
                QStringLiteral("median"), QStringLiteral("n"), QStringLiteral("ratio"), QStringLiteral("vs best") } };
            for (const RankEntry& e : c.entries)
                rows.append({ QString::number(e.rank), e.implementation, formatRankValue(e.best, c.key.unit),
                    formatRankValue(e.median, c.key.unit), QString::number(e.count), rankRatioText(e.ratio),
                    verdictText(e) });
            out += alignedRows(rows, u"  ");
            for (const RankEntry& e : c.entries) {
                if (!e.differences.isEmpty())
                    out += QStringLiteral("  #%1 %2 differs from the best in: %3\n")
                               .arg(e.rank)
                               .arg(e.implementation, e.differences.join(QStringLiteral("; ")))
                               .toUtf8();
            }
        }
        for (const UnrankedRun& u : c.failed)
            out += QStringLiteral("  failed, unranked: %1 (%2) %3\n")
                       .arg(u.implementation, u.reason, location(*u.run))
                       .toUtf8();
        for (const UnrankedRun& u : c.unranked)
            out += QStringLiteral("  unranked: %1 (%2) %3\n")
                       .arg(u.implementation, u.reason, location(*u.run))
                       .toUtf8();
        out += QStringLiteral("  cohort: %1\n").arg(c.key.scopeText()).toUtf8();
        out += '\n';
    }
    if (!ranking.cohorts.isEmpty())
        out += QStringLiteral("note: %1\n").arg(observationRuleText()).toUtf8();
    if (!ranking.cohorts.isEmpty())
        out += QStringLiteral("note: %1\n").arg(rankingPolicyText()).toUtf8();
    for (const QString& n : ranking.notes)
        out += QStringLiteral("note: %1\n").arg(n).toUtf8();
    return out;
}

QByteArray rankingToCsv(const Ranking& ranking)
{
    QByteArray out = csvLine({ QStringLiteral("kernel"), QStringLiteral("pass"), QStringLiteral("workload"),
        QStringLiteral("dtype"), QStringLiteral("gpu"), QStringLiteral("protocol_family"), QStringLiteral("metric"),
        QStringLiteral("statistic"), QStringLiteral("unit"), QStringLiteral("rank"), QStringLiteral("implementation"),
        QStringLiteral("best"), QStringLiteral("median"), QStringLiteral("count"), QStringLiteral("ratio"),
        QStringLiteral("distinguishable"), QStringLiteral("evidence"), QStringLiteral("status"),
        QStringLiteral("external_id"), QStringLiteral("file"), QStringLiteral("comparison_key") });
    auto num = [](double v) { return std::isfinite(v) ? QString::number(v, 'g', 10) : QString(); };
    for (const RankCohort& c : ranking.cohorts) {
        const CohortKey& k = c.key;
        const QStringList key { k.kernel, k.pass, k.workload, k.dtype, k.gpuName, k.protocol, k.metric, k.statistic,
            k.unit };
        for (const RankEntry& e : c.entries)
            out += csvLine(key
                + QStringList { QString::number(e.rank), e.implementation, num(e.best), num(e.median),
                    QString::number(e.count), num(e.ratio), distinguishableName(e.distinguishable), e.evidence,
                    e.bestRun->status, e.bestRun->externalId, location(*e.bestRun), k.strict });
        for (const QVector<UnrankedRun>* list : { &c.failed, &c.unranked }) {
            for (const UnrankedRun& u : *list)
                out += csvLine(key
                    + QStringList { QString(), u.implementation, QString(), QString(), QString(), QString(), QString(),
                        u.reason, u.run->status, u.run->externalId, location(*u.run), k.strict });
        }
    }
    return out;
}

QByteArray rankingToJson(const Ranking& ranking)
{
    Json root;
    root["alpha"] = ranking.alpha;
    root["observationRule"] = "best";
    root["rankingPolicy"] = "ranking-v1";
    root["rankingPolicyText"] = utf8(rankingPolicyText());
    root["observationRuleText"] = utf8(observationRuleText());
    Json cohorts = Json::array();
    for (const RankCohort& c : ranking.cohorts) {
        Json cj;
        cj["key"] = keyJson(c.key);
        cj["description"] = utf8(c.key.describe());
        cj["scope"] = c.key.isStrict() ? "strict" : "family";
        if (c.key.isStrict()) {
            cj["comparisonKey"] = utf8(c.key.strict);
        } else {
            Json missing = Json::array();
            for (const QString& m : c.key.missing)
                missing.push_back(utf8(m));
            cj["strictKeyMissing"] = missing;
        }
        Json families = Json::array();
        for (const QString& f : c.protocolFamilies())
            families.push_back(utf8(f));
        cj["protocolFamilies"] = families;
        Json entries = Json::array();
        for (const RankEntry& e : c.entries) {
            Json ej;
            ej["rank"] = e.rank;
            ej["implementation"] = utf8(e.implementation);
            ej["best"] = jsonNumber(e.best);
            ej["median"] = jsonNumber(e.median);
            ej["count"] = e.count;
            ej["ratio"] = jsonNumber(e.ratio);
            ej["distinguishable"] = distinguishableJson(e.distinguishable);
            ej["evidence"] = utf8(e.evidence);
            if (!e.differences.isEmpty()) {
                Json differences = Json::array();
                for (const QString& d : e.differences)
                    differences.push_back(utf8(d));
                ej["differences"] = differences;
            }
            if (std::isfinite(e.pValue))
                ej["pValue"] = e.pValue;
            Json observations = Json::array();
            for (const RunPtr& r : e.runs)
                observations.push_back({ { "value", jsonNumber(r->median) }, { "externalId", utf8(r->externalId) },
                    { "file", utf8(location(*r)) } });
            ej["observations"] = observations;
            entries.push_back(ej);
        }
        cj["entries"] = entries;
        Json failed = Json::array();
        for (const UnrankedRun& u : c.failed)
            failed.push_back(unrankedJson(u));
        cj["failed"] = failed;
        Json unranked = Json::array();
        for (const UnrankedRun& u : c.unranked)
            unranked.push_back(unrankedJson(u));
        cj["unranked"] = unranked;
        cohorts.push_back(cj);
    }
    root["cohorts"] = cohorts;
    Json notes = Json::array();
    for (const QString& n : ranking.notes)
        notes.push_back(utf8(n));
    root["notes"] = notes;
    return QByteArray::fromStdString(root.dump(2) + "\n");
}

} // namespace kix
