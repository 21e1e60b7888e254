// SPDX-License-Identifier: Apache-2.0
#include "model/compare/resolvematch.h"

#include <QHash>
#include <QRegularExpression>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace kix::resolving {

namespace {

QString textOfJson(const nlohmann::json& v)
{
    if (v.is_string())
        return QString::fromStdString(v.get<std::string>());
    if (v.is_number())
        return QString::number(v.get<double>(), 'g', 17);
    return QString::fromStdString(v.dump());
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

} // namespace

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

QVector<CaseInfo> caseInfosOf(const Ranking& ranking)
{
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
    return infos;
}

QStringList knownAxes(const QVector<CaseInfo>& infos)
{
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
    return known;
}

// How a suite answers one requested axis: covered by one of its cases, absent from all, or other values.
ResolveMismatch suiteMismatch(const CaseInfo& info, const KeyValue& axis)
{
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
    return { axis.key, axis.value,
        covered                ? QStringLiteral("covered inside the suite aggregate")
            : values.isEmpty() ? QStringLiteral("(absent)")
                               : QStringLiteral("not in the suite (%1)").arg(values.join(QStringLiteral(", "))) };
}

void addMismatches(QVector<CaseInfo>& infos, const QVector<KeyValue>& axes, const ResolveRequest& request)
{
    for (CaseInfo& info : infos) {
        const Run& run = *info.run;
        if (info.suite && !axes.isEmpty())
            info.mismatches.append({ QStringLiteral("workload"), QStringLiteral("one case"),
                QStringLiteral("suite of %1 cases (one aggregate)").arg(info.suiteSize) });
        for (const KeyValue& axis : std::as_const(axes)) {
            if (info.suite) {
                info.mismatches.append(suiteMismatch(info, axis));
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
}

} // namespace kix::resolving
