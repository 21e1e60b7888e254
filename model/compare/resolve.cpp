// SPDX-License-Identifier: Apache-2.0
#include "model/compare/resolve.h"

#include "model/compare/resolvematch.h"
#include "model/compare/resolvenear.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <functional>

namespace kix {

using namespace resolving;

bool ResolveRequest::parseAxis(const QString& text, KeyValue* out, QString* error)
{
    const qsizetype eq = text.indexOf(QLatin1Char('='));
    const QString key = eq < 0 ? QString() : text.left(eq).trimmed();
    const QString value = eq < 0 ? QString() : text.mid(eq + 1).trimmed();
    if (eq < 0 || key.isEmpty() || value.isEmpty()) {
        *error = QStringLiteral("\"%1\" is not AXIS=VALUE (e.g. channels=3000)").arg(text);
        return false;
    }
    *out = { key, value };
    return true;
}

QString ResolveMismatch::text() const
{
    return QStringLiteral("%1: %2 → %3").arg(field, requested, observed);
}

QString resolveKindName(ResolveKind kind)
{
    switch (kind) {
    case ResolveKind::Exact:
        return QStringLiteral("exact");
    case ResolveKind::Below:
        return QStringLiteral("below");
    case ResolveKind::Above:
        return QStringLiteral("above");
    case ResolveKind::OtherValue:
        return QStringLiteral("other value");
    case ResolveKind::OtherContext:
        return QStringLiteral("other dtype/GPU");
    case ResolveKind::Suite:
        break;
    }
    return QStringLiteral("suite");
}

RunList ResolveCase::runs() const
{
    RunList out;
    for (const RankEntry& e : cohort.entries)
        out += e.runs;
    return out;
}

QString ResolveCase::mismatchText() const
{
    QStringList parts;
    for (const ResolveMismatch& m : mismatches)
        parts << m.text();
    return parts.join(QStringLiteral("; "));
}

QString ResolveCase::unconstrainedText() const
{
    QStringList parts;
    for (const KeyValue& kv : unconstrained)
        parts << kv.key + QLatin1Char('=') + kv.value;
    return parts.join(QStringLiteral(", "));
}

QString resolveDtypeName(const QString& dtype)
{
    static const QHash<QString, QString> names = {
        { QStringLiteral("float32"), QStringLiteral("fp32") },
        { QStringLiteral("f32"), QStringLiteral("fp32") },
        { QStringLiteral("float"), QStringLiteral("fp32") },
        { QStringLiteral("torch.float32"), QStringLiteral("fp32") },
        { QStringLiteral("float16"), QStringLiteral("fp16") },
        { QStringLiteral("f16"), QStringLiteral("fp16") },
        { QStringLiteral("half"), QStringLiteral("fp16") },
        { QStringLiteral("torch.float16"), QStringLiteral("fp16") },
        { QStringLiteral("bfloat16"), QStringLiteral("bf16") },
        { QStringLiteral("torch.bfloat16"), QStringLiteral("bf16") },
        { QStringLiteral("float64"), QStringLiteral("fp64") },
        { QStringLiteral("double"), QStringLiteral("fp64") },
        { QStringLiteral("f64"), QStringLiteral("fp64") },
        { QStringLiteral("float8_e4m3fn"), QStringLiteral("fp8_e4m3") },
        { QStringLiteral("float8_e4m3"), QStringLiteral("fp8_e4m3") },
        { QStringLiteral("e4m3"), QStringLiteral("fp8_e4m3") },
        { QStringLiteral("float8_e5m2"), QStringLiteral("fp8_e5m2") },
        { QStringLiteral("e5m2"), QStringLiteral("fp8_e5m2") },
    };
    const QString d = lower(dtype);
    return names.value(d, d);
}

QString resolveRuleText()
{
    return QStringLiteral(
        "a case is a cohort of comparable runs (Rank's); exact = no field differs from the request (ranked as its "
        "cohort); else, for each requested axis, among the cases that differ from the request in the fewest other "
        "fields, the largest measured value below and the smallest above (numbers compare as numbers, text exactly), "
        "nearest first by ratio on a log scale (|log(observed/requested)|), ties broken by the other numeric axes; "
        "then cases that match every axis but not the dtype or GPU, then suites that hold the axes; a near case is "
        "never an answer: every field in which it differs is named (requested → observed)");
}

namespace {

// The runs of the requested operation: its kernel name, title or alias, any case (compared in place: a million runs
// make no copies). Sets how it was matched, or the nearest names when nothing matched.
RunList runsOfOperation(const RunList& runs, const ResolveRequest& request, Resolution& res)
{
    const QString wanted = request.operation.trimmed();
    RunList ofOperation;
    QSet<QString> matched;
    for (const RunPtr& run : runs) {
        const RunLinks& links = run->links();
        bool hit = false;
        auto consider = [&](const QString& name, const char* what) {
            if (name.isEmpty() || name.compare(wanted, Qt::CaseInsensitive) != 0)
                return;
            hit = true;
            matched.insert(QStringLiteral("%1 \"%2\"").arg(QLatin1String(what), name));
        };
        consider(run->kernel, "kernel name");
        consider(links.operationTitle, "operation title");
        for (const QString& alias : links.operationAliases)
            consider(alias, "alias");
        if (hit)
            ofOperation << run;
    }
    res.matchedBy = QStringList(matched.cbegin(), matched.cend());
    std::sort(res.matchedBy.begin(), res.matchedBy.end());
    if (ofOperation.isEmpty()) {
        QSet<QString> names;
        for (const RunPtr& run : runs) {
            for (const QString* name : { &run->kernel, &run->links().operationTitle })
                if (!name->isEmpty())
                    names.insert(*name);
            for (const QString& alias : run->links().operationAliases)
                names.insert(alias);
        }
        res.suggestions = nearestNames(names, request.operation, 5);
    }
    return ofOperation;
}

// Axis names: the request's, matched to the cases' (exactly, else in another case when that is unique).
QVector<KeyValue> requestedAxes(const ResolveRequest& request, const QStringList& known, Resolution& res)
{
    QVector<KeyValue> axes;
    for (const KeyValue& kv : request.axes) {
        QString key = kv.key;
        if (!known.contains(key)) {
            QStringList folded;
            for (const QString& k : std::as_const(known))
                if (k.compare(key, Qt::CaseInsensitive) == 0)
                    folded << k;
            if (folded.size() == 1) {
                res.notes << QStringLiteral("axis \"%1\" read as \"%2\"").arg(key, folded.front());
                key = folded.front();
            } else {
                res.unknownAxes << QStringLiteral("%1 (the cases have: %2)")
                                       .arg(key,
                                           known.isEmpty() ? QStringLiteral("no axes")
                                                           : known.join(QStringLiteral(", ")));
            }
        }
        axes.append({ key, kv.value });
    }
    return axes;
}

// A field the request left open, and how to read it off a case.
struct Open
{
    QString name;
    std::function<QString(const CaseInfo&)> value;
};

QVector<Open> openFields(const ResolveRequest& request, const QStringList& known, const QVector<KeyValue>& axes)
{
    QVector<Open> open;
    for (const QString& key : std::as_const(known)) {
        const bool requested
            = std::any_of(axes.cbegin(), axes.cend(), [&key](const KeyValue& a) { return a.key == key; });
        if (!requested)
            open.append({ key, [key](const CaseInfo& i) -> QString {
                             const WorkloadParam* p = paramOf(*i.run, key);
                             return p ? p->value : i.suite ? QStringLiteral("(suite)") : QStringLiteral("(absent)");
                         } });
    }
    if (request.dtype.trimmed().isEmpty())
        open.append({ QStringLiteral("dtype"), [](const CaseInfo& i) -> QString { return i.run->dtype; } });
    if (request.gpu.trimmed().isEmpty())
        open.append({ QStringLiteral("gpu"), [](const CaseInfo& i) -> QString { return i.run->gpuDisplayName(); } });
    open.append({ QStringLiteral("pass"), [](const CaseInfo& i) -> QString { return i.run->pass; } });
    open.append({ QStringLiteral("metric"), [](const CaseInfo& i) -> QString { return metricText(*i.run); } });
    open.append(
        { QStringLiteral("protocol"), [](const CaseInfo& i) -> QString { return rankProtocolFamily(*i.run); } });
    return open;
}

// The fields the request left open that vary among the cases, each listed in res.unconstrained.
QVector<Open> varyingFields(const QVector<Open>& open, const QVector<CaseInfo>& infos, Resolution& res)
{
    QVector<Open> varying;
    for (const Open& o : std::as_const(open)) {
        QStringList values;
        for (const CaseInfo& info : std::as_const(infos)) {
            const QString v = o.value(info);
            if (!values.contains(v))
                values << v;
        }
        if (values.size() > 1) {
            varying.append(o);
            const int shown = 6;
            QString list = values.mid(0, shown).join(QStringLiteral(", "));
            if (values.size() > shown)
                list += QStringLiteral(", … %1 values").arg(values.size());
            res.unconstrained << QStringLiteral("%1 (%2)").arg(o.name, list);
        }
    }
    return varying;
}

ResolveCase caseOf(const Ranking& ranking, const QVector<Open>& varying, const CaseInfo& info, ResolveKind kind)
{
    ResolveCase c;
    c.kind = kind;
    c.cohort = ranking.cohorts[info.cohort];
    c.mismatches = info.mismatches;
    for (const Open& o : std::as_const(varying))
        c.unconstrained.append({ o.name, o.value(info) });
    c.workload = !info.run->workloadSlug.isEmpty()   ? info.run->workloadSlug
        : !info.run->links().workloadTitle.isEmpty() ? info.run->links().workloadTitle
                                                     : QStringLiteral("(no workload)");
    return c;
}

} // namespace

Resolution resolveWorkload(const RunList& runs, const ResolveRequest& request)
{
    Resolution res;
    res.request = request;
    const RunList ofOperation = runsOfOperation(runs, request, res);
    if (ofOperation.isEmpty())
        return res;
    res.runCount = int(ofOperation.size());

    const Ranking ranking = rankRuns(ofOperation);
    QVector<CaseInfo> infos = caseInfosOf(ranking);
    res.caseCount = int(infos.size());
    const QStringList known = knownAxes(infos);
    const QVector<KeyValue> axes = requestedAxes(request, known, res);
    addMismatches(infos, axes, request);
    const QVector<Open> varying = varyingFields(openFields(request, known, axes), infos, res);
    auto makeCase = [&](const CaseInfo& info, ResolveKind kind) { return caseOf(ranking, varying, info, kind); };

    // Exact cases answer the request.
    for (const CaseInfo& info : std::as_const(infos)) {
        if (info.mismatches.isEmpty())
            res.cases.append(makeCase(info, ResolveKind::Exact));
    }
    if (!res.cases.isEmpty())
        return res;

    // Else the nearest measured values on each requested axis.
    const int fewestOverall = fewestMismatches(infos);
    QSet<int> taken;
    for (const Near& n : nearCases(infos, axes, fewestOverall)) {
        if (taken.contains(n.info))
            continue;
        taken.insert(n.info);
        ResolveCase c = makeCase(infos[n.info], n.kind);
        c.axis = n.axis;
        c.ratio = n.ratio;
        res.cases.append(c);
    }

    // Cases that hold every requested axis value but differ in dtype or GPU: the fewest such differences.
    for (const int i : otherContextCases(infos, taken, fewestOverall))
        res.cases.append(makeCase(infos[i], ResolveKind::OtherContext));

    // Suites whose cases hold every requested axis: one aggregate each, never a case.
    for (const CaseInfo& info : std::as_const(infos)) {
        if (!info.suite || axes.isEmpty())
            continue;
        const bool holds = std::none_of(info.mismatches.cbegin(), info.mismatches.cend(),
            [](const ResolveMismatch& m) { return m.observed == QLatin1String("(absent)"); });
        if (holds)
            res.cases.append(makeCase(info, ResolveKind::Suite));
    }
    if (!res.cases.isEmpty())
        res.notes << QStringLiteral("no measured case matches the request: the nearest are listed, none is an answer "
                                    "to it (every difference is named)");
    else
        res.notes << QStringLiteral("no measured case differs from the request on one axis at a time, nor matches "
                                    "its axes with another dtype or GPU");
    return res;
}

} // namespace kix
