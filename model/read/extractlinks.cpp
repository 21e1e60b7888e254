// SPDX-License-Identifier: Apache-2.0
// The resources a combined document carries beside its run, checked against their digests, and what they name.
#include "model/read/extractlinks.h"

#include "model/format/comparisonkey.h"
#include "model/read/dialectkix010.h"
#include "model/read/resourcecheck.h"
#include "model/runfields.h"
#include "model/stringpool.h"

#include <algorithm>
#include <cmath>

namespace kix::extract {

namespace {

bool usable(DigestCheck c)
{
    return c == DigestCheck::Verified || c == DigestCheck::VerifiedByDialect;
}

// The kernel an OperationSpec names: its name, else its family.
void applyOperation(Run* run, const FieldReader& r, JsonValue operation)
{
    QString kernel = r.textOf(r.member(operation, "metadata"), "name");
    if (kernel.isEmpty())
        kernel = r.textOf(r.member(operation, "spec"), "family");
    if (!kernel.isEmpty())
        run->kernel = kernel;
}

// The provider an ImplementationRevision names: its name or title, else its project's version or repository@commit.
void applyImplementation(Run* run, const FieldReader& r, JsonValue implementation, JsonValue implementationSpec)
{
    const JsonValue meta = r.member(implementation, "metadata");
    QString provider = r.textOf(meta, "name");
    if (provider.isEmpty())
        provider = r.textOf(meta, "title");
    if (provider.isEmpty()) {
        const JsonValue revision = r.member(implementationSpec, "projectRevision");
        provider = r.textOf(revision, "version");
        if (provider.isEmpty() && !r.textOf(revision, "repository").isEmpty())
            provider = r.textOf(revision, "repository") + QLatin1Char('@') + r.textOf(revision, "commit").left(12);
    }
    if (!provider.isEmpty())
        run->provider = provider;
}

// The workload a WorkloadCase names: its axes (sorted by key), its tensors' dtypes, and the slug made of both.
void applyWorkload(Run* run, const FieldReader& r, JsonValue workloadSpec)
{
    QVector<WorkloadParam> params;
    if (const JsonValue axes = r.member(workloadSpec, "axes"); isObject(axes)) {
        for (const simdjson::dom::key_value_pair member : jsondom::asObject(axes.element)) {
            const JsonValue value { member.value, true };
            WorkloadParam p;
            p.key = internUtf8(member.key);
            if (isNumber(value)) {
                p.number = numberOf(value);
                p.value = QString::number(p.number, 'g', 17);
            } else if (isString(value)) {
                p.value = internUtf8(utf8Of(value));
                bool ok = false;
                const double n = p.value.toDouble(&ok);
                p.number = ok && std::isfinite(n) ? n : p.number;
            } else {
                p.value = QString::fromStdString(simdjson::minify(member.value));
            }
            params.append(p);
        }
    }
    std::sort(
        params.begin(), params.end(), [](const WorkloadParam& a, const WorkloadParam& b) { return a.key < b.key; });
    QStringList dtypes;
    if (const JsonValue tensors = r.member(workloadSpec, "tensors"); isObject(tensors)) {
        for (const simdjson::dom::key_value_pair member : jsondom::asObject(tensors.element)) {
            const QString dtype = r.textOf(JsonValue { member.value, true }, "dtype");
            if (!dtype.isEmpty() && !dtypes.contains(dtype))
                dtypes << dtype;
        }
    }
    std::sort(dtypes.begin(), dtypes.end());
    QStringList slug;
    for (const WorkloadParam& p : params)
        slug << p.key + p.value;
    if (!dtypes.isEmpty())
        slug << dtypes.join(QLatin1Char('+'));
    if (!params.isEmpty() || !dtypes.isEmpty()) {
        run->workload = params;
        run->dtype = internUtf8(dtypes.join(QLatin1Char(',')).toStdString());
        run->workloadSlug = internUtf8(slug.join(QLatin1Char('-')).toStdString());
    }
}

// Kernel, provider, workload and dtype from the OperationSpec, ImplementationRevision and WorkloadCase the document
// carries, each only when it is the one the run names (its digest verified).
void applyLinkedResources(RunExtraction& x)
{
    Run* run = x.run.get();
    if (isObject(x.operationResource) && usable(run->operationCheck))
        applyOperation(run, x.fields, x.operationResource);
    if (isObject(x.implementationResource) && usable(run->implementationCheck))
        applyImplementation(run, x.fields, x.implementationResource, x.implementationSpec);
    if (isObject(x.workloadSpec) && usable(run->workloadCheck))
        applyWorkload(run, x.fields, x.workloadSpec);
}

// The names people know: the operation's title, the implementation's title and authors, the project's name and
// the workload's title (or "suite of N cases"). Metadata is outside every digest, so a title is shown as carried.
void applyNames(RunLinks& links, const FieldReader& r, JsonValue workloadResource, JsonValue operation,
    JsonValue implementation, JsonValue project)
{
    links.operationTitle = r.textOf(r.member(operation, "metadata"), "title");
    const JsonValue implementationMeta = r.member(implementation, "metadata");
    links.implementationTitle = r.textOf(implementationMeta, "title");
    if (const JsonValue authors = r.member(implementationMeta, "authors"); isArray(authors)) {
        for (const Element author : jsondom::asArray(authors.element)) {
            const QString name = r.textOf(JsonValue { author, true }, "name");
            if (!name.isEmpty())
                links.authors << name;
        }
    }
    links.project = r.textOf(r.member(project, "spec"), "name");
    const JsonValue cases = r.member(r.member(workloadResource, "spec"), "cases");
    if (r.textOf(workloadResource, "kind") == QLatin1String("WorkloadSuite") && isArray(cases))
        links.workloadTitle
            = internUtf8(QStringLiteral("suite of %1 cases").arg(jsondom::asArray(cases.element).size()).toStdString());
    else
        links.workloadTitle = r.textOf(r.member(workloadResource, "metadata"), "title");
}

// "metric:statistic:unit" of the run's primary measurement as the format's home chooses it: the latency statistic
// that timing.primaryStatistic (else the protocol's) names, when timing.latencyNs holds it; else the first
// measurement of the protocol's primary statistic; else the first measurement; else "none".
std::string primaryMetricKey(const FieldReader& r, JsonValue spec, std::string_view protocolPrimary)
{
    const JsonValue timing = r.member(spec, "timing");
    const JsonValue named = r.member(timing, "primaryStatistic");
    const std::string_view statistic = named ? utf8Of(named) : protocolPrimary;
    if (!statistic.empty() && r.member(r.member(timing, "latencyNs"), statistic))
        return format::metricKey("latency", statistic, "ns");
    const JsonValue measurements = r.member(spec, "measurements");
    if (!isArray(measurements))
        return "none";
    JsonValue first;
    for (const Element m : jsondom::asArray(measurements.element)) {
        const JsonValue measurement { m, true };
        if (!first)
            first = measurement;
        if (!protocolPrimary.empty() && utf8Of(r.member(measurement, "statistic")) == protocolPrimary) {
            first = measurement;
            break;
        }
    }
    if (!first)
        return "none";
    return format::metricKey(
        utf8Of(r.member(first, "metric")), utf8Of(r.member(first, "statistic")), utf8Of(r.member(first, "unit")));
}

// The format's strict comparison key, when the run names its digests and carries its verified workload document
// (which names the operation and holds the correctness spec).
void applyComparisonKey(
    RunLinks& links, const FieldReader& r, const Run* run, JsonValue workloadSpec, const std::string& metricKey)
{
    if (!usable(run->workloadCheck) || !isObject(workloadSpec) || run->operationDigest.isEmpty()
        || run->protocolDigest.isEmpty() || run->environmentDigest.isEmpty())
        return;
    std::string correctness;
    if (const JsonValue c = r.member(workloadSpec, "correctness"); c && !appendCanonicalDom(correctness, c.element))
        return;
    format::ComparisonParts parts;
    parts.operation = run->operationDigest.toStdString();
    parts.workload = run->workloadDigest.toStdString();
    parts.protocol = run->protocolDigest.toStdString();
    parts.environment = run->environmentDigest.toStdString();
    parts.correctness = format::correctnessKey(correctness);
    parts.metric = metricKey;
    links.comparisonKey = QString::fromStdString(format::comparisonKey(parts));
}

// Protocol of a combined document: its comparability family and notes, its timer and the harness that names it.
void readProtocol(RunExtraction& x)
{
    FieldReader& r = x.fields;
    const Path comparabilityPointer(x.protocolPointer, "comparability");
    const JsonValue comparability = r.object(x.protocolSpec, "comparability", x.protocolPointer);
    x.run->protocolFamily = r.shared(comparability, "family", comparabilityPointer);
    x.run->protocolNotes = r.shared(comparability, "notes", comparabilityPointer);
    x.links.timer = r.shared(x.protocolMeasurement, "timer", x.protocolMeasurementPointer);
    if (const JsonValue harness = r.member(x.protocolSpec, "harness"); isObject(harness)) {
        const QString name = r.textOf(harness, "name"), version = r.textOf(harness, "version");
        x.links.protocolName
            = version.isEmpty() ? name : internUtf8(QString(name + QLatin1Char(' ') + version).toStdString());
    }
    if (x.links.protocolName.isEmpty())
        x.links.protocolName = r.textOf(r.member(x.protocol, "metadata"), "name");
}

// Environment of a combined document: the GPU's vendor, product and architecture, and the software.
void readEnvironment(RunExtraction& x)
{
    FieldReader& r = x.fields;
    Run* run = x.run.get();
    const Path environmentMember(x.top, "environment");
    const Path environmentPointer(environmentMember, "spec");
    const JsonValue environmentSpec = r.object(x.environment, "spec", environmentMember);
    const Path hardwarePointer(environmentPointer, "hardware");
    const JsonValue hardware = r.object(environmentSpec, "hardware", environmentPointer);
    run->gpuVendor = r.shared(hardware, "vendor", hardwarePointer);
    run->gpuProduct = r.shared(hardware, "product", hardwarePointer);
    run->gpuArchitecture = r.shared(hardware, "architecture", hardwarePointer);
    run->software = keyValues(r.object(environmentSpec, "software", environmentPointer));
    if (run->gpuSlug.isEmpty()) {
        const QByteArray product = run->gpuProduct.toUtf8();
        run->gpuSlug = internUtf8(slugify(std::string_view(product.constData(), std::size_t(product.size()))));
    }
}

} // namespace

bool readResources(RunExtraction& x)
{
    readProtocol(x);
    readEnvironment(x);
    return !x.fields.failed();
}

void verifyResources(RunExtraction& x)
{
    FieldReader& r = x.fields;
    Run* run = x.run.get();
    const Path workloadMember(x.top, "workload");
    const Path implementationMember(x.top, "implementation");
    const Path workloadSpecPointer(workloadMember, "spec");
    const Path implementationSpecPointer(implementationMember, "spec");
    const Path implementationOperationPointer(implementationSpecPointer, "operation");
    x.workloadSpec = r.object(x.workloadResource, "spec", workloadMember);
    x.implementationSpec = r.object(x.implementationResource, "spec", implementationMember);
    if (x.workloadSpec)
        run->operationDigest = r.shared(x.workloadSpec, "operationSpecDigest", workloadSpecPointer);
    if (run->operationDigest.isEmpty() && x.implementationSpec)
        run->operationDigest = r.shared(r.object(x.implementationSpec, "operation", implementationSpecPointer),
            "specDigest", implementationOperationPointer);
    // the JSON pointers of the digests that name them, made into text only for a warning
    const Path protocolNamedAt(x.specPointer, "protocolDigest");
    const Path environmentNamedAt(x.specPointer, "environmentDigest");
    const Path workloadNamedAt(x.specPointer, "workloadDigest");
    const Path implementationNamedAt(x.specPointer, "implementationDigest");
    const Path operationNamedAt = x.workloadSpec ? Path(workloadSpecPointer, "operationSpecDigest")
                                                 : Path(implementationOperationPointer, "specDigest");
    struct Carried
    {
        JsonValue resource;
        const QString& named;
        DigestCheck& check;
        const char* what;
        const Path& namedAt;
    };
    const Carried carried[] = {
        { x.protocol, run->protocolDigest, run->protocolCheck, "protocol", protocolNamedAt },
        { x.environment, run->environmentDigest, run->environmentCheck, "environment", environmentNamedAt },
        { x.workloadResource, run->workloadDigest, run->workloadCheck, "workload", workloadNamedAt },
        { x.implementationResource, run->implementationDigest, run->implementationCheck, "implementation",
            implementationNamedAt },
        { x.operationResource, run->operationDigest, run->operationCheck, "operation", operationNamedAt },
    };
    for (const Carried& c : carried) {
        if (!isObject(c.resource))
            continue;
        if (c.named.isEmpty()) // nothing names it: nothing to verify (a missing digest is the schema's concern)
            continue;
        QString computed;
        c.check = checkResource(c.resource.element, c.named, &computed);
        if (c.check == DigestCheck::VerifiedByDialect)
            dialects::markOwnDigest(x, c.what);
        else if (c.check == DigestCheck::Mismatch)
            r.warning(c.namedAt,
                QStringLiteral("does not match the %1 the document carries (it digests to %2): the resource "
                               "was changed after the run was written; comparisons treat it as unknown")
                    .arg(QLatin1String(c.what), computed));
    }
}

void applyLinks(RunExtraction& x)
{
    Run* run = x.run.get();
    // The sources that define Liger's convention (Liger's bench, kix's engine and imports) name a run by its
    // externalId; their linked resources are built from the same facts and only fill in what the id leaves empty.
    // For every other source the linked resources name the run.
    if (x.slugHeld && x.liger) {
        const QString kernel = run->kernel, pass = run->pass, provider = run->provider, slug = run->workloadSlug,
                      dtype = run->dtype;
        const QVector<WorkloadParam> workload = run->workload;
        applyLinkedResources(x);
        auto keep = [](QString& field, const QString& fromId) {
            if (!fromId.isEmpty())
                field = fromId;
        };
        keep(run->kernel, kernel);
        keep(run->pass, pass);
        keep(run->provider, provider);
        if (!slug.isEmpty()) {
            run->workloadSlug = slug;
            run->workload = workload;
            run->dtype = dtype;
        }
    } else {
        applyLinkedResources(x);
    }

    const FieldReader& r = x.fields;
    applyNames(x.links, r, x.workloadResource, x.operationResource, x.implementationResource,
        x.combined ? r.member(x.document, "project") : JsonValue {});
    const std::string metricKey = primaryMetricKey(r, x.spec, x.protocolPrimary.toStdString());
    applyComparisonKey(x.links, r, run, x.workloadSpec, metricKey);
    run->linked = RunLinks::share(std::move(x.links));
    if (metricKey == "none" && std::isnan(run->median)) { // it records no measurement: its metric is "none"
        run->metric = Run::Metric::Other;
        run->headlineMetric = QStringLiteral("none");
        run->headlineStatistic.clear();
        run->unit.clear();
    }
}

} // namespace kix::extract
