// SPDX-License-Identifier: Apache-2.0
#include "model/compare/resolve.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <functional>

namespace kix {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// What the matching reads of one measured case (a cohort with a ranked implementation).
struct CaseInfo
{
    int cohort = 0;
    const Run* run = nullptr; // the cohort's best run: the workload, dtype and GPU of every run of it
    bool suite = false;
    int suiteSize = 0;
    QVector<QVector<KeyValue>> suiteCases; // the axes of each case of a suite, as its document lists them
    QVector<ResolveMismatch> mismatches;
};

QString lower(const QString& s)
{
    return s.trimmed().toLower();
}

double numberOf(const QString& text)
{
    bool ok = false;
    const double n = text.trimmed().toDouble(&ok);
    return ok && std::isfinite(n) ? n : nan;
}

// Numbers compare as numbers ("2048" is 2048.0), anything else as text.
bool sameValue(const QString& requested, const QString& observedText, double observedNumber)
{
    const double r = numberOf(requested);
    if (std::isfinite(r) && std::isfinite(observedNumber))
        return r == observedNumber;
    return requested.trimmed() == observedText;
}

// How far an observed value is from the requested one: |log(observed / requested)| (a ratio on a log scale, what
// "near" means for sizes); the plain difference where either is not positive.
double distance(double requested, double observed)
{
    if (requested > 0 && observed > 0)
        return std::abs(std::log(observed / requested));
    return std::abs(observed - requested);
}

const WorkloadParam* paramOf(const Run& run, const QString& key)
{
    for (const WorkloadParam& p : run.workload) {
        if (p.key == key)
            return &p;
    }
    return nullptr;
}

QString textOfJson(const nlohmann::json& v)
{
    if (v.is_string())
        return QString::fromStdString(v.get<std::string>());
    if (v.is_number())
        return QString::number(v.get<double>(), 'g', 17);
    return QString::fromStdString(v.dump());
}

// The axes of each case of a WorkloadSuite the run's document carries (the catalog embeds it as "workload").
QVector<QVector<KeyValue>> suiteCasesOf(const Run& run, int* size)
{
    QVector<QVector<KeyValue>> out;
    if (!run.raw.load())
        return out;
    const nlohmann::json doc = nlohmann::json::parse(run.raw.view(), nullptr, false);
    if (!doc.is_object())
        return out;
    const auto workload = doc.find("workload");
    if (workload == doc.end() || !workload->is_object() || workload->value("kind", std::string()) != "WorkloadSuite")
        return out;
    const auto spec = workload->find("spec");
    if (spec == workload->end() || !spec->is_object())
        return out;
    const auto cases = spec->find("cases");
    if (cases == spec->end() || !cases->is_array())
        return out;
    *size = int(cases->size());
    for (const nlohmann::json& c : *cases) {
        QVector<KeyValue> axes;
        if (c.is_object() && c.contains("axes") && c["axes"].is_object()) {
            for (const auto& [key, value] : c["axes"].items())
                axes.append({ QString::fromStdString(key), textOfJson(value) });
        }
        out.append(axes);
    }
    return out;
}

QStringList dtypesOf(const Run& run)
{
    static const QRegularExpression separators(QStringLiteral("[,+]"));
    QStringList out;
    for (const QString& d : run.dtype.split(separators, Qt::SkipEmptyParts))
        out << resolveDtypeName(d);
    return out;
}

bool gpuMatches(const Run& run, const QString& wanted)
{
    const QString w = lower(wanted);
    return run.gpuProduct.toLower().contains(w) || run.gpuSlug.toLower().contains(w)
        || run.gpuSlug.toLower() == QString(w).replace(QLatin1Char(' '), QLatin1Char('-'));
}

QString metricText(const Run& run)
{
    return QStringLiteral("%1 %2 (%3)").arg(run.metricName(), run.headlineStatistic, run.unit);
}

int levenshtein(const QString& a, const QString& b)
{
    QVector<int> row(b.size() + 1);
    for (int j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (int i = 1; i <= a.size(); ++i) {
        int diagonal = row[0];
        row[0] = i;
        for (int j = 1; j <= b.size(); ++j) {
            const int above = row[j];
            row[j] = std::min({ row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1) });
            diagonal = above;
        }
    }
    return row[b.size()];
}

// Letters and digits only, in lower case: "RMS norm" and "069_rms_norm" share "rmsnorm".
QString letters(const QString& s)
{
    QString out;
    for (const QChar c : s)
        if (c.isLetterOrNumber())
            out += c.toLower();
    return out;
}

// The operation names nearest to `wanted`: names that contain it (or that it contains), separators aside, first;
// then by edit distance.
QStringList nearestNames(const QSet<QString>& names, const QString& wanted, int count)
{
    const QString w = lower(wanted);
    const QString wl = letters(wanted);
    QVector<QPair<int, QString>> scored;
    for (const QString& name : names) {
        const QString n = name.toLower();
        const QString nl = letters(name);
        const bool contains = !wl.isEmpty() && !nl.isEmpty() && (nl.contains(wl) || wl.contains(nl));
        scored.append({ (contains ? 0 : 1000) + levenshtein(w, n), name });
    }
    std::sort(scored.begin(), scored.end());
    QStringList out;
    for (int i = 0; i < scored.size() && i < count; ++i)
        out << scored[i].second;
    return out;
}

} // namespace

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

Resolution resolveWorkload(const RunList& runs, const ResolveRequest& request)
{
    Resolution res;
    res.request = request;

    // The operation: its kernel name, title or alias, any case (compared in place: a million runs make no copies).
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
        return res;
    }
    res.runCount = int(ofOperation.size());

    const Ranking ranking = rankRuns(ofOperation);
    QVector<CaseInfo> infos;
    for (int c = 0; c < ranking.cohorts.size(); ++c) {
        if (ranking.cohorts[c].entries.isEmpty())
            continue;
        CaseInfo info;
        info.cohort = c;
        info.run = ranking.cohorts[c].entries.front().bestRun.get();
        if (info.run->workload.isEmpty() && info.run->links().workloadTitle.startsWith(QLatin1String("suite of"))) {
            info.suite = true;
            info.suiteCases = suiteCasesOf(*info.run, &info.suiteSize);
        }
        infos.append(info);
    }
    res.caseCount = int(infos.size());

    // Axis names: the request's, matched to the cases' (exactly, else in another case when that is unique).
    QStringList known;
    for (const CaseInfo& info : std::as_const(infos)) {
        for (const WorkloadParam& p : info.run->workload)
            if (!known.contains(p.key))
                known << p.key;
        for (const QVector<KeyValue>& c : info.suiteCases)
            for (const KeyValue& kv : c)
                if (!known.contains(kv.key))
                    known << kv.key;
    }
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

    // Every field in which each case differs from the request.
    for (CaseInfo& info : infos) {
        const Run& run = *info.run;
        if (info.suite && !axes.isEmpty())
            info.mismatches.append({ QStringLiteral("workload"), QStringLiteral("one case"),
                QStringLiteral("suite of %1 cases (one aggregate)").arg(info.suiteSize) });
        for (const KeyValue& axis : std::as_const(axes)) {
            if (info.suite) {
                QStringList values;
                bool covered = false;
                for (const QVector<KeyValue>& c : std::as_const(info.suiteCases)) {
                    for (const KeyValue& kv : c) {
                        if (kv.key != axis.key)
                            continue;
                        covered = covered || sameValue(axis.value, kv.value, numberOf(kv.value));
                        if (!values.contains(kv.value))
                            values << kv.value;
                    }
                }
                info.mismatches.append({ axis.key, axis.value,
                    covered ? QStringLiteral("covered inside the suite aggregate")
                        : values.isEmpty()
                        ? QStringLiteral("(absent)")
                        : QStringLiteral("not in the suite (%1)").arg(values.join(QStringLiteral(", "))) });
                continue;
            }
            const WorkloadParam* p = paramOf(run, axis.key);
            if (!p)
                info.mismatches.append({ axis.key, axis.value, QStringLiteral("(absent)") });
            else if (!sameValue(axis.value, p->value, p->number))
                info.mismatches.append({ axis.key, axis.value, p->value });
        }
        if (!request.dtype.trimmed().isEmpty() && !dtypesOf(run).contains(resolveDtypeName(request.dtype)))
            info.mismatches.append({ QStringLiteral("dtype"), request.dtype.trimmed(),
                run.dtype.isEmpty() ? QStringLiteral("(none)") : run.dtype });
        if (!request.gpu.trimmed().isEmpty() && !gpuMatches(run, request.gpu))
            info.mismatches.append({ QStringLiteral("gpu"), request.gpu.trimmed(),
                run.gpuDisplayName().isEmpty() ? QStringLiteral("(unknown)") : run.gpuDisplayName() });
    }

    // The fields the request left open that vary among the cases.
    struct Open
    {
        QString name;
        std::function<QString(const CaseInfo&)> value;
    };
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

    auto makeCase = [&](const CaseInfo& info, ResolveKind kind) {
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
    };

    // Exact cases answer the request.
    for (const CaseInfo& info : std::as_const(infos)) {
        if (info.mismatches.isEmpty())
            res.cases.append(makeCase(info, ResolveKind::Exact));
    }
    if (!res.cases.isEmpty())
        return res;

    // Else the nearest measured values on each requested axis.
    struct Near
    {
        int info;
        ResolveKind kind;
        QString axis;
        double ratio;
        int extra; // mismatches besides the axis
        double order; // distance on the axis
        double others; // distance on the other numeric axes
        int axisIndex;
    };
    // Only the cases with the fewest mismatches are near: a case that differs in one more field is farther,
    // however close its values.
    int fewestOverall = std::numeric_limits<int>::max();
    for (const CaseInfo& info : std::as_const(infos))
        if (!info.suite)
            fewestOverall = std::min(fewestOverall, int(info.mismatches.size()));
    QVector<Near> near;
    QSet<int> taken;
    auto otherDistance = [&](const CaseInfo& info, const QString& axis) {
        double sum = 0;
        for (const KeyValue& a : std::as_const(axes)) {
            const WorkloadParam* p = a.key == axis ? nullptr : paramOf(*info.run, a.key);
            if (p && std::isfinite(numberOf(a.value)) && std::isfinite(p->number))
                sum += distance(numberOf(a.value), p->number);
        }
        return sum;
    };
    for (int a = 0; a < axes.size(); ++a) {
        const KeyValue& axis = axes[a];
        const double requested = numberOf(axis.value);
        QVector<int> pool;
        int fewest = std::numeric_limits<int>::max();
        for (int i = 0; i < infos.size(); ++i) {
            const CaseInfo& info = infos[i];
            const WorkloadParam* p = info.suite ? nullptr : paramOf(*info.run, axis.key);
            if (!p || sameValue(axis.value, p->value, p->number))
                continue;
            if (std::isfinite(requested) != std::isfinite(p->number))
                continue; // a number is not near a text
            pool << i;
            fewest = std::min(fewest, int(info.mismatches.size()) - 1);
        }
        QVector<int> kept;
        for (const int i : std::as_const(pool))
            if (int(infos[i].mismatches.size()) - 1 == fewest && fewest + 1 == fewestOverall)
                kept << i;
        if (kept.isEmpty())
            continue;
        if (!std::isfinite(requested)) {
            for (const int i : std::as_const(kept))
                near.append(
                    { i, ResolveKind::OtherValue, axis.key, nan, fewest, 0, otherDistance(infos[i], axis.key), a });
            continue;
        }
        for (const ResolveKind side : { ResolveKind::Below, ResolveKind::Above }) {
            double nearest = nan;
            for (const int i : std::as_const(kept)) {
                const double v = paramOf(*infos[i].run, axis.key)->number;
                if ((side == ResolveKind::Below) != (v < requested))
                    continue;
                if (!std::isfinite(nearest) || (side == ResolveKind::Below ? v > nearest : v < nearest))
                    nearest = v;
            }
            if (!std::isfinite(nearest))
                continue;
            double closest = std::numeric_limits<double>::infinity();
            for (const int i : std::as_const(kept))
                if (paramOf(*infos[i].run, axis.key)->number == nearest)
                    closest = std::min(closest, otherDistance(infos[i], axis.key));
            for (const int i : std::as_const(kept)) {
                if (paramOf(*infos[i].run, axis.key)->number != nearest || otherDistance(infos[i], axis.key) != closest)
                    continue;
                near.append({ i, side, axis.key, requested != 0 ? nearest / requested : nan, fewest,
                    distance(requested, nearest), closest, a });
            }
        }
    }
    std::stable_sort(near.begin(), near.end(), [](const Near& x, const Near& y) {
        if (x.extra != y.extra)
            return x.extra < y.extra;
        if (x.order != y.order)
            return x.order < y.order;
        return x.axisIndex < y.axisIndex;
    });
    for (const Near& n : std::as_const(near)) {
        if (taken.contains(n.info))
            continue;
        taken.insert(n.info);
        ResolveCase c = makeCase(infos[n.info], n.kind);
        c.axis = n.axis;
        c.ratio = n.ratio;
        res.cases.append(c);
    }

    // Cases that hold every requested axis value but differ in dtype or GPU: the fewest such differences.
    int fewest = std::numeric_limits<int>::max();
    QVector<int> context;
    for (int i = 0; i < infos.size(); ++i) {
        const CaseInfo& info = infos[i];
        if (info.suite || taken.contains(i))
            continue;
        const bool axesMatch
            = std::none_of(info.mismatches.cbegin(), info.mismatches.cend(), [](const ResolveMismatch& m) {
                  return m.field != QLatin1String("dtype") && m.field != QLatin1String("gpu");
              });
        if (!axesMatch)
            continue;
        context << i;
        fewest = std::min(fewest, int(info.mismatches.size()));
    }
    for (const int i : std::as_const(context))
        if (int(infos[i].mismatches.size()) == fewest && fewest == fewestOverall)
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
