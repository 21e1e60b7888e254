// SPDX-License-Identifier: Apache-2.0
#include "model/compare/rundifffields.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace kix::rundiff {

namespace {

// An array of more scalars than this is one row (its length and a hash of its text), not one row per element:
// inline samples would otherwise bury the fields.
constexpr std::size_t kMaxArrayRows = 32;

QString number(double v)
{
    return QString::number(v, 'g', 12);
}

class FieldList
{
public:
    explicit FieldList(QVector<DiffField>& out)
        : m_out(out)
    {
    }
    void add(const QString& section, const QString& path, const QString& value)
    {
        if (!value.isEmpty())
            m_out.append({ section, path, value });
    }
    void add(const QString& section, const QString& path, double value)
    {
        if (!std::isnan(value))
            m_out.append({ section, path, number(value) });
    }

private:
    QVector<DiffField>& m_out;
};

QString pointerToken(const std::string& key)
{
    QString token = QString::fromStdString(key);
    token.replace(QLatin1Char('~'), QLatin1String("~0"));
    token.replace(QLatin1Char('/'), QLatin1String("~1"));
    return token;
}

QString scalarText(const nlohmann::ordered_json& v)
{
    if (v.is_string())
        return QString::fromStdString(v.get<std::string>());
    return QString::fromStdString(v.dump());
}

void flattenJson(const nlohmann::ordered_json& v, const QString& pointer, QVector<DiffField>& out)
{
    if (v.is_object()) {
        if (v.empty())
            out.append({ QStringLiteral("json"), pointer, QStringLiteral("{}") });
        for (auto it = v.begin(); it != v.end(); ++it)
            flattenJson(it.value(), pointer + QLatin1Char('/') + pointerToken(it.key()), out);
        return;
    }
    if (v.is_array()) {
        if (v.empty()) {
            out.append({ QStringLiteral("json"), pointer, QStringLiteral("[]") });
            return;
        }
        const bool scalars = std::all_of(v.begin(), v.end(), [](const auto& e) { return e.is_primitive(); });
        if (scalars && v.size() > kMaxArrayRows) {
            const std::string text = v.dump();
            out.append({ QStringLiteral("json"), pointer,
                QStringLiteral("[%1 values, hash %2]")
                    .arg(v.size())
                    .arg(RawSource::hashOf(text) & 0xffffffffffffull, 12, 16, QLatin1Char('0')) });
            return;
        }
        for (std::size_t i = 0; i < v.size(); ++i)
            flattenJson(v[i], pointer + QLatin1Char('/') + QString::number(i), out);
        return;
    }
    out.append({ QStringLiteral("json"), pointer, scalarText(v) });
}

QString checkText(DigestCheck check, const Run& run)
{
    switch (check) {
    case DigestCheck::NotCarried:
        return {}; // absent: the run carries only the digest
    case DigestCheck::Verified:
        return QStringLiteral("verified");
    case DigestCheck::Mismatch:
        return QStringLiteral("does not match");
    case DigestCheck::VerifiedByDialect:
        return QStringLiteral("verified (%1)").arg(run.dialectName());
    }
    return {};
}

bool isMetricName(const QString& last)
{
    static const QStringList names = { QStringLiteral("metric"), QStringLiteral("unit"), QStringLiteral("statistic"),
        QStringLiteral("primaryStatistic"), QStringLiteral("primaryMetric"), QStringLiteral("primaryUnit") };
    return names.contains(last);
}

void addRunAndLinks(FieldList& f, const Run& run)
{
    const QString r = QStringLiteral("run");
    f.add(r, QStringLiteral("file"), run.file);
    f.add(r, QStringLiteral("pointer"), run.pointer);
    f.add(r, QStringLiteral("externalId"), run.externalId);
    f.add(r, QStringLiteral("name"), run.name);
    f.add(r, QStringLiteral("title"), run.title);
    f.add(r, QStringLiteral("apiVersion"), run.apiVersion);
    f.add(r, QStringLiteral("status"), run.status);
    if (run.observedAt.isValid())
        f.add(r, QStringLiteral("observedAt"), run.observedAt.toString(Qt::ISODateWithMs));
    f.add(r, QStringLiteral("kernel"), run.kernel);
    f.add(r, QStringLiteral("pass"), run.pass);
    f.add(r, QStringLiteral("provider"), run.provider);
    f.add(r, QStringLiteral("source"), run.source);
    f.add(r, QStringLiteral("benchmark"), run.benchmark);
    if (run.dialect != Dialect::Format)
        f.add(r, QStringLiteral("dialect"), run.dialectName());
    for (const KeyValue& kv : run.labels)
        f.add(r, QStringLiteral("labels/") + kv.key, kv.value);

    const RunLinks& l = run.links();
    const QString links = QStringLiteral("links");
    f.add(links, QStringLiteral("operationTitle"), l.operationTitle);
    f.add(links, QStringLiteral("operationAliases"), l.operationAliases.join(QStringLiteral(", ")));
    f.add(links, QStringLiteral("implementationTitle"), l.implementationTitle);
    f.add(links, QStringLiteral("implementationLabel"), run.implementationLabel());
    f.add(links, QStringLiteral("authors"), l.authors.join(QStringLiteral(", ")));
    f.add(links, QStringLiteral("project"), l.project);
    f.add(links, QStringLiteral("workloadTitle"), l.workloadTitle);
}

void addDigestsAndContext(FieldList& f, const Run& run)
{
    const RunLinks& l = run.links();
    const QString d = QStringLiteral("digests");
    f.add(d, QStringLiteral("comparisonKey"), l.comparisonKey.toString());
    f.add(d, QStringLiteral("protocolDigest"), run.protocolDigest);
    f.add(d, QStringLiteral("protocolCheck"), checkText(run.protocolCheck, run));
    f.add(d, QStringLiteral("environmentDigest"), run.environmentDigest);
    f.add(d, QStringLiteral("environmentCheck"), checkText(run.environmentCheck, run));
    f.add(d, QStringLiteral("workloadDigest"), run.workloadDigest);
    f.add(d, QStringLiteral("workloadCheck"), checkText(run.workloadCheck, run));
    f.add(d, QStringLiteral("operationDigest"), run.operationDigest);
    f.add(d, QStringLiteral("operationCheck"), checkText(run.operationCheck, run));
    f.add(d, QStringLiteral("implementationDigest"), run.implementationDigest);
    f.add(d, QStringLiteral("implementationCheck"), checkText(run.implementationCheck, run));
    f.add(d, QStringLiteral("runDigest"), run.runDigest.toString());

    const QString p = QStringLiteral("protocol");
    f.add(p, QStringLiteral("name"), l.protocolName);
    f.add(p, QStringLiteral("family"), run.protocolFamily);
    f.add(p, QStringLiteral("timer"), l.timer);
    f.add(p, QStringLiteral("notes"), run.protocolNotes);

    const QString e = QStringLiteral("environment");
    f.add(e, QStringLiteral("gpuVendor"), run.gpuVendor);
    f.add(e, QStringLiteral("gpuProduct"), run.gpuProduct);
    f.add(e, QStringLiteral("gpuArchitecture"), run.gpuArchitecture);
    f.add(e, QStringLiteral("gpuSlug"), run.gpuSlug);
    for (const KeyValue& kv : run.software)
        f.add(e, QStringLiteral("software/") + kv.key, kv.value);
}

void addWorkloadAndHeadline(FieldList& f, const Run& run)
{
    const QString w = QStringLiteral("workload");
    f.add(w, QStringLiteral("slug"), run.workloadSlug);
    f.add(w, QStringLiteral("dtype"), run.dtype);
    for (const WorkloadParam& param : run.workload)
        f.add(w, QStringLiteral("params/") + param.key, param.value);

    const QString h = QStringLiteral("headline");
    f.add(h, QStringLiteral("metric"), run.metricName());
    f.add(h, QStringLiteral("statistic"), run.headlineStatistic);
    f.add(h, QStringLiteral("unit"), run.unit);
    f.add(h, QStringLiteral("value"), run.median);
    f.add(h, QStringLiteral("p20"), run.p20);
    f.add(h, QStringLiteral("p80"), run.p80);
    for (const Measurement& m : run.statistics)
        f.add(h, QStringLiteral("statistics/") + m.statistic, m.value);
    if (!run.samples.empty())
        f.add(h, QStringLiteral("samples"), QStringLiteral("%1 values").arg(run.samples.size()));
    if (!run.cpuSamples.empty())
        f.add(h, QStringLiteral("cpuSamples"), QStringLiteral("%1 values").arg(run.cpuSamples.size()));
    for (const Measurement& m : run.measurements)
        f.add(h, QStringLiteral("measurements/%1:%2:%3").arg(m.metric, m.statistic, m.unit), m.value);
}

} // namespace

void addRecordFields(const Run& run, QVector<DiffField>& out)
{
    FieldList f(out);
    addRunAndLinks(f, run);
    addDigestsAndContext(f, run);
    addWorkloadAndHeadline(f, run);
}

void addDocumentFields(const Run& run, QVector<DiffField>& out, QString* error)
{
    QString unread;
    if (!run.raw.empty() || run.raw.source()) {
        if (!run.raw.load(&unread)) {
            if (error)
                *error = unread;
        } else {
            try {
                flattenJson(nlohmann::ordered_json::parse(run.raw.view()), QString(), out);
            } catch (const nlohmann::json::exception& ex) {
                if (error)
                    *error = QStringLiteral("the document is not JSON: %1").arg(QString::fromUtf8(ex.what()));
            }
        }
    }
}

// The classification of a leaf of the document, at `pointer`.
DiffKind classifyJson(const QString& pointer)
{
    static const QStringList resources = { QStringLiteral("run"), QStringLiteral("protocol"),
        QStringLiteral("environment"), QStringLiteral("workload"), QStringLiteral("operation"),
        QStringLiteral("implementation"), QStringLiteral("project") };
    static const QStringList envelope
        = { QStringLiteral("apiVersion"), QStringLiteral("kind"), QStringLiteral("metadata"), QStringLiteral("spec") };
    const QStringList parts = pointer.split(QLatin1Char('/')).mid(1);
    if (parts.isEmpty())
        return DiffKind::Cosmetic;
    QString resource;
    QStringList rest;
    if (resources.contains(parts[0])) {
        resource = parts[0];
        rest = parts.mid(1);
    } else if (envelope.contains(parts[0])) {
        resource = QStringLiteral("run"); // a document that is the run resource alone
        rest = parts;
    } else {
        return isMetricName(parts.last()) ? DiffKind::Material : DiffKind::Cosmetic; // a member kix does not know
    }
    const QString top = rest.value(0);
    if (top == QLatin1String("metadata"))
        return DiffKind::Cosmetic;
    if (resource == QLatin1String("implementation") || resource == QLatin1String("project"))
        return DiffKind::Cosmetic;
    if (resource != QLatin1String("run"))
        return DiffKind::Material; // protocol, environment, workload, operation: their spec, apiVersion, kind
    if (top != QLatin1String("spec"))
        return DiffKind::Material; // apiVersion, kind
    const QString field = rest.value(1);
    if (field == QLatin1String("protocolDigest") || field == QLatin1String("environmentDigest")
        || field == QLatin1String("workloadDigest") || field == QLatin1String("status")
        || field == QLatin1String("correctness"))
        return DiffKind::Material;
    if (field == QLatin1String("implementationDigest") || field == QLatin1String("observedAt")
        || field == QLatin1String("evidence"))
        return DiffKind::Cosmetic;
    if (field == QLatin1String("sourceNative"))
        return rest.value(2) == QLatin1String("metrics") ? DiffKind::Measurement : DiffKind::Cosmetic;
    if (isMetricName(rest.last()))
        return DiffKind::Material;
    return DiffKind::Measurement; // timing, measurements' values, any other result the run records
}

} // namespace kix::rundiff
