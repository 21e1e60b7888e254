// SPDX-License-Identifier: Apache-2.0
#include "model/compare/resolvereport.h"

#include "model/format/utf8.h"
#include "model/write/csvwriter.h"
#include "model/write/jsonnumber.h"
#include "model/write/texttable.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace kix {

namespace {

using Json = nlohmann::ordered_json;

QString requestText(const ResolveRequest& r)
{
    QStringList parts;
    for (const KeyValue& kv : r.axes)
        parts << kv.key + QLatin1Char('=') + kv.value;
    if (!r.dtype.isEmpty())
        parts << QStringLiteral("dtype=") + r.dtype;
    if (!r.gpu.isEmpty())
        parts << QStringLiteral("gpu=") + r.gpu;
    return parts.isEmpty() ? QStringLiteral("(any workload)") : parts.join(QStringLiteral(", "));
}

// The rows of the table and the CSV: every implementation of an exact case, the best one of a near case.
template<class F>
void forEachRow(const Resolution& r, F f)
{
    for (const ResolveCase& c : r.cases) {
        const qsizetype n = c.kind == ResolveKind::Exact ? c.cohort.entries.size() : 1;
        for (qsizetype i = 0; i < n; ++i)
            f(c, c.cohort.entries[i]);
    }
}

} // namespace

QString resolveMatchText(const ResolveCase& c)
{
    QString text = resolveKindName(c.kind);
    if (std::isfinite(c.ratio))
        text += QStringLiteral(" %1 ×%2").arg(c.axis, QString::number(c.ratio, 'g', 3));
    else if (!c.axis.isEmpty())
        text += QLatin1Char(' ') + c.axis;
    return text;
}

QString resolveValueText(const ResolveCase& c, const RankEntry& entry)
{
    return formatRankValue(entry.best, c.cohort.key.unit);
}

QByteArray resolutionToTable(const Resolution& r)
{
    QByteArray out;
    if (r.matchedBy.isEmpty()) {
        out += QStringLiteral("No operation is called \"%1\" (kernel name, operation title or alias, any case).\n")
                   .arg(r.request.operation)
                   .toUtf8();
        if (!r.suggestions.isEmpty())
            out += QStringLiteral("nearest names: %1\n").arg(r.suggestions.join(QStringLiteral(", "))).toUtf8();
        return out;
    }
    out += QStringLiteral("operation: %1 matched by %2; %3 runs, %4 measured cases\n")
               .arg(r.request.operation, r.matchedBy.join(QStringLiteral(", ")))
               .arg(r.runCount)
               .arg(r.caseCount)
               .toUtf8();
    out += QStringLiteral("request: %1\n").arg(requestText(r.request)).toUtf8();
    for (const QString& u : r.unknownAxes)
        out += QStringLiteral("unknown axis: %1\n").arg(u).toUtf8();
    if (!r.unconstrained.isEmpty())
        out += QStringLiteral("unconstrained (not in the request, varying among the cases): %1\n")
                   .arg(r.unconstrained.join(QStringLiteral("; ")))
                   .toUtf8();
    out += r.exact() ? QByteArray("answer: exact, ranked as its cohort\n")
        : r.found()  ? QByteArray("answer: none exact; nearest measured cases (not answers to the request)\n")
                     : QByteArray("answer: nothing measured near the request\n");
    if (r.found()) {
        QVector<QStringList> rows { { QStringLiteral("match"), QStringLiteral("workload"), QStringLiteral("#"),
            QStringLiteral("implementation"), QStringLiteral("best"), QStringLiteral("of"),
            QStringLiteral("differs (requested → observed)"), QStringLiteral("unconstrained") } };
        forEachRow(r, [&rows](const ResolveCase& c, const RankEntry& e) {
            rows.append({ resolveMatchText(c), c.workload, QString::number(e.rank), e.implementation,
                resolveValueText(c, e), QString::number(c.cohort.entries.size()),
                c.mismatches.isEmpty() ? QStringLiteral("–") : c.mismatchText(),
                c.unconstrainedText().isEmpty() ? QStringLiteral("–") : c.unconstrainedText() });
        });
        out += alignedRows(rows, u"  ");
    }
    out += QStringLiteral("rule: %1\n").arg(resolveRuleText()).toUtf8();
    for (const QString& n : r.notes)
        out += QStringLiteral("note: %1\n").arg(n).toUtf8();
    return out;
}

QByteArray resolutionToCsv(const Resolution& r)
{
    QByteArray out = csvLine({ QStringLiteral("match"), QStringLiteral("axis"), QStringLiteral("ratio"),
        QStringLiteral("workload"), QStringLiteral("dtype"), QStringLiteral("gpu"), QStringLiteral("pass"),
        QStringLiteral("metric"), QStringLiteral("statistic"), QStringLiteral("unit"), QStringLiteral("rank"),
        QStringLiteral("implementation"), QStringLiteral("best"), QStringLiteral("implementations"),
        QStringLiteral("mismatches"), QStringLiteral("unconstrained"), QStringLiteral("external_id"),
        QStringLiteral("file"), QStringLiteral("comparison_key") });
    forEachRow(r, [&out](const ResolveCase& c, const RankEntry& e) {
        const CohortKey& k = c.cohort.key;
        out += csvLine({ resolveKindName(c.kind), c.axis,
            std::isfinite(c.ratio) ? QString::number(c.ratio, 'g', 10) : QString(), c.workload, k.dtype, k.gpuName,
            k.pass, k.metric, k.statistic, k.unit, QString::number(e.rank), e.implementation,
            QString::number(e.best, 'g', 10), QString::number(c.cohort.entries.size()), c.mismatchText(),
            c.unconstrainedText(), e.bestRun->externalId, e.bestRun->file + e.bestRun->pointer, k.strict });
    });
    return out;
}

QByteArray resolutionToJson(const Resolution& r)
{
    Json root;
    Json request;
    request["operation"] = utf8(r.request.operation);
    Json axes = Json::object();
    for (const KeyValue& kv : r.request.axes)
        axes[utf8(kv.key)] = utf8(kv.value);
    request["axes"] = axes;
    request["dtype"] = r.request.dtype.isEmpty() ? Json(nullptr) : Json(utf8(r.request.dtype));
    request["gpu"] = r.request.gpu.isEmpty() ? Json(nullptr) : Json(utf8(r.request.gpu));
    root["request"] = request;
    auto list = [](const QStringList& l) {
        Json a = Json::array();
        for (const QString& s : l)
            a.push_back(utf8(s));
        return a;
    };
    root["matchedBy"] = list(r.matchedBy);
    root["suggestions"] = list(r.suggestions);
    root["runCount"] = r.runCount;
    root["caseCount"] = r.caseCount;
    root["unconstrained"] = list(r.unconstrained);
    root["unknownAxes"] = list(r.unknownAxes);
    root["exact"] = r.exact();
    Json cases = Json::array();
    for (const ResolveCase& c : r.cases) {
        const CohortKey& k = c.cohort.key;
        Json cj;
        cj["kind"] = utf8(resolveKindName(c.kind));
        cj["axis"] = c.axis.isEmpty() ? Json(nullptr) : Json(utf8(c.axis));
        cj["ratio"] = jsonNumber(c.ratio);
        cj["workload"] = utf8(c.workload);
        cj["dtype"] = utf8(k.dtype);
        cj["gpu"] = utf8(k.gpuName);
        cj["pass"] = utf8(k.pass);
        cj["metric"] = utf8(k.metric);
        cj["statistic"] = utf8(k.statistic);
        cj["unit"] = utf8(k.unit);
        cj["comparisonKey"] = k.strict.isEmpty() ? Json(nullptr) : Json(utf8(k.strict));
        Json mismatches = Json::array();
        for (const ResolveMismatch& m : c.mismatches)
            mismatches.push_back(
                { { "field", utf8(m.field) }, { "requested", utf8(m.requested) }, { "observed", utf8(m.observed) } });
        cj["mismatches"] = mismatches;
        Json open = Json::object();
        for (const KeyValue& kv : c.unconstrained)
            open[utf8(kv.key)] = utf8(kv.value);
        cj["unconstrained"] = open;
        Json entries = Json::array();
        const qsizetype n = c.kind == ResolveKind::Exact ? c.cohort.entries.size() : 1;
        for (qsizetype i = 0; i < n; ++i) {
            const RankEntry& e = c.cohort.entries[i];
            entries.push_back({ { "rank", e.rank }, { "implementation", utf8(e.implementation) },
                { "best", jsonNumber(e.best) }, { "count", e.count }, { "externalId", utf8(e.bestRun->externalId) },
                { "file", utf8(e.bestRun->file + e.bestRun->pointer) } });
        }
        cj["implementations"] = entries;
        cj["implementationCount"] = c.cohort.entries.size();
        cases.push_back(cj);
    }
    root["cases"] = cases;
    root["rule"] = utf8(resolveRuleText());
    root["notes"] = list(r.notes);
    return QByteArray::fromStdString(root.dump(2)) + '\n';
}

} // namespace kix
