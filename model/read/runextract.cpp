// SPDX-License-Identifier: Apache-2.0
// Builds the typed Run view of one kernelindex document and decides whether it is refused.
#include "model/read/runextract.h"

#include "model/format/documentbuilder.h"

#include "model/format/comparisonkey.h"
#include "model/format/digest.h"

#include "model/read/jsondom.h"
#include "model/read/resourcecheck.h"
#include "model/runfields.h"
#include "model/stringpool.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace kix {

using json = nlohmann::json;

namespace {

const char* const kApiVersion = "kernelindex.dev/v1alpha1";
constexpr double kMaxLatencyNs = 1e15; // about 11.6 days: anything above is a unit mistake, not a measurement

using jsondom::Element;
using simdjson::dom::element_type;

// A JSON pointer made into text only when a diagnostic needs it.
struct Path
{
    const QString* root = nullptr; // the document's pointer, at the top
    const Path* parent = nullptr;
    const char* key = nullptr;
    qsizetype index = -1;

    Path(const QString& documentPointer)
        : root(&documentPointer)
    {
    }
    Path(const Path& up, const char* member)
        : parent(&up)
        , key(member)
    {
    }
    Path(const Path& up, qsizetype element)
        : parent(&up)
        , index(element)
    {
    }
    QString str() const
    {
        if (root)
            return *root;
        return parent->str() + QLatin1Char('/') + (key ? QString::fromLatin1(key) : QString::number(index));
    }
    operator QString() const { return str(); } // NOLINT
};

// A member that may be absent.
struct V
{
    Element e;
    bool present = false;
    explicit operator bool() const { return present; }
};

bool isObject(V v)
{
    return v && v.e.type() == element_type::OBJECT;
}
bool isArray(V v)
{
    return v && v.e.type() == element_type::ARRAY;
}
bool isString(V v)
{
    return v && v.e.type() == element_type::STRING;
}
bool isNumber(V v)
{
    const element_type t = v.e.type();
    return v && (t == element_type::DOUBLE || t == element_type::INT64 || t == element_type::UINT64);
}
bool isNull(V v)
{
    return v && v.e.type() == element_type::NULL_VALUE;
}
double numberOf(V v)
{
    double d = 0;
    if (v.e.get_double().get(d) != simdjson::SUCCESS)
        return {};
    return d;
}
std::string_view utf8Of(V v)
{
    std::string_view s;
    if (v.e.get_string().get(s) != simdjson::SUCCESS)
        return {};
    return s;
}
QString typeNameOf(V v)
{
    return jsondom::typeName(v.e);
}
// Whether the document being read has a duplicated key somewhere (set by extractRun).
thread_local bool t_duplicateKeys = true;

// The member's value; with a duplicated key, the last one (as nlohmann reads it, and as the warning says).
V memberOf(V parent, std::string_view key)
{
    V found;
    if (!isObject(parent))
        return found;
    for (const simdjson::dom::key_value_pair member : jsondom::asObject(parent.e)) {
        if (member.key.size() == key.size()
            && (key.empty()
                || (member.key[0] == key[0] && std::memcmp(member.key.data(), key.data(), key.size()) == 0))) {
            found = { member.value, true };
            if (!t_duplicateKeys)
                break;
        }
    }
    return found;
}

// Reads fields of one JSON object and records type errors against a JSON pointer.
class Reader
{
public:
    Reader(const QString& file, Diagnostics& out)
        : m_file(file)
        , m_out(out)
    {
    }

    bool failed() const { return m_failed; }

    void error(const QString& pointer, const QString& message)
    {
        m_out.append(makeError(m_file, pointer, message));
        m_failed = true;
    }
    void warning(const QString& pointer, const QString& message)
    {
        m_out.append(makeWarning(m_file, pointer, message));
    }

    // The member as an object, or absent; a present member of another type is an error.
    V object(V parent, const char* key, const Path& base)
    {
        const V v = memberOf(parent, key);
        if (v && !isObject(v)) {
            error(join(base, key), QStringLiteral("expected an object, found %1").arg(typeNameOf(v)));
            return V {};
        }
        return v;
    }

    // The member's UTF-8 text ("" when absent or null); a present member of another type is an error.
    std::string_view utf8(V parent, const char* key, const Path& base)
    {
        const V v = memberOf(parent, key);
        if (!v || isNull(v))
            return {};
        if (!isString(v)) {
            error(join(base, key), QStringLiteral("expected a string, found %1").arg(typeNameOf(v)));
            return {};
        }
        return utf8Of(v);
    }
    // A string that repeats across runs, shared through the pool.
    QString shared(V parent, const char* key, const Path& base) { return internUtf8(utf8(parent, key, base)); }
    // A string of this run alone.
    QString own(V parent, const char* key, const Path& base)
    {
        const std::string_view s = utf8(parent, key, base);
        return QString::fromUtf8(s.data(), qsizetype(s.size()));
    }

    // A latency-like number: finite, not negative, not absurd. NaN when absent.
    double number(V parent, const char* key, const Path& base, bool isLatencyNs)
    {
        const V v = memberOf(parent, key);
        if (!v || isNull(v))
            return std::nan("");
        if (isNumber(v) && plausible(numberOf(v), isLatencyNs))
            return numberOf(v);
        return checkNumber(v, join(base, key), isLatencyNs);
    }

    // A latencyNs duration: integer ns or a string with a unit ("8.1 us"), as the format allows. NaN when absent.
    double duration(V parent, const char* key, const Path& base)
    {
        const V v = memberOf(parent, key);
        if (!v || isNull(v))
            return std::nan("");
        if (isString(v)) {
            double ns = 0;
            if (parseDuration(utf8Of(v), &ns) && plausible(ns, true))
                return ns;
            error(join(base, key),
                QStringLiteral("\"%1\" is not a duration (an integer in ns, or digits and ns, us, µs, ms or s)")
                    .arg(QString::fromUtf8(utf8Of(v).data(), qsizetype(utf8Of(v).size()))));
            return std::nan("");
        }
        return number(parent, key, base, true);
    }

    static bool plausible(double d, bool isLatencyNs)
    {
        return std::isfinite(d) && (!isLatencyNs || (d >= 0 && d <= kMaxLatencyNs));
    }

    static Path join(const Path& base, const char* key) { return Path(base, key); }

    double checkNumber(V v, const Path& pointer, bool isLatencyNs)
    {
        if (!isNumber(v)) {
            error(pointer, QStringLiteral("expected a number, found %1").arg(typeNameOf(v)));
            return std::nan("");
        }
        const double d = numberOf(v);
        if (!std::isfinite(d)) {
            error(pointer, QStringLiteral("the value is not finite"));
            return std::nan("");
        }
        if (isLatencyNs && d < 0) {
            error(pointer, QStringLiteral("a latency cannot be negative (%1)").arg(d));
            return std::nan("");
        }
        if (isLatencyNs && d > kMaxLatencyNs) {
            error(pointer, QStringLiteral("%1 ns is not a plausible latency").arg(d));
            return std::nan("");
        }
        return d;
    }

private:
    QString m_file;
    Diagnostics& m_out;
    bool m_failed = false;
};

// Members in document order; a value that is not a string is kept as its compact JSON text.
QVector<KeyValue> keyValues(V object)
{
    QVector<KeyValue> out;
    if (!isObject(object))
        return out;
    const simdjson::dom::object members = jsondom::asObject(object.e);
    out.reserve(qsizetype(members.size()));
    for (const simdjson::dom::key_value_pair member : members) {
        const V value { member.value, true };
        out.append({ internUtf8(member.key),
            isString(value) ? internUtf8(utf8Of(value)) : QString::fromStdString(simdjson::minify(member.value)) });
    }
    return out;
}

} // namespace

namespace {

// Sources whose externalId and benchmark follow Liger's `kernel/pass/...` convention (Liger's own bench and what
// kix itself writes or imports).
bool ligerConvention(const QString& source)
{
    static const char* const sources[]
        = { "liger-kernel-bench", "kix-engine", "google-benchmark", "nvbench", "pytest-benchmark" };
    for (const char* s : sources) {
        if (source == QLatin1String(s))
            return true;
    }
    return false;
}

// The six parts of a Liger externalId `kernel/pass/provider/gpu/workload/timestamp`, all present; else false.
// `more`: the source follows the convention, and kix's own importers add parts after the six ("/memory").
bool ligerSlug(std::string_view text, std::string_view* part, bool more)
{
    int n = 0;
    std::size_t from = 0;
    while (n < 6) {
        const std::size_t slash = text.find('/', from);
        part[n++] = text.substr(from, slash == std::string_view::npos ? std::string_view::npos : slash - from);
        if (part[n - 1].empty())
            return false;
        if (slash == std::string_view::npos)
            return n == 6;
        from = slash + 1;
    }
    return more; // a seventh part
}

QString fromUtf8(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// The headline statistics of timing.latencyNs, the format's and kix 0.1.0's names.
const char* const kLatencyStatistics[]
    = { "median", "mean", "p05", "p20", "p80", "p95", "minimum", "maximum", "mad", "min", "max" };

bool usable(DigestCheck c)
{
    return c == DigestCheck::Verified || c == DigestCheck::VerifiedKix010;
}

QString textOf(V parent, std::string_view key)
{
    const V v = memberOf(parent, key);
    return isString(v) ? internUtf8(utf8Of(v)) : QString();
}

// Kernel, provider, workload and dtype from the OperationSpec, ImplementationRevision and WorkloadCase the document
// carries, each only when it is the one the run names (its digest verified).
void applyLinkedResources(Run* run, V workloadSpec, V operation, V implementation, V implementationSpec)
{
    if (isObject(operation) && usable(run->operationCheck)) {
        QString kernel = textOf(memberOf(operation, "metadata"), "name");
        if (kernel.isEmpty())
            kernel = textOf(memberOf(operation, "spec"), "family");
        if (!kernel.isEmpty())
            run->kernel = kernel;
    }
    if (isObject(implementation) && usable(run->implementationCheck)) {
        const V meta = memberOf(implementation, "metadata");
        QString provider = textOf(meta, "name");
        if (provider.isEmpty())
            provider = textOf(meta, "title");
        if (provider.isEmpty()) {
            const V revision = memberOf(implementationSpec, "projectRevision");
            provider = textOf(revision, "version");
            if (provider.isEmpty() && !textOf(revision, "repository").isEmpty())
                provider = textOf(revision, "repository") + QLatin1Char('@') + textOf(revision, "commit").left(12);
        }
        if (!provider.isEmpty())
            run->provider = provider;
    }
    if (isObject(workloadSpec) && usable(run->workloadCheck)) {
        QVector<WorkloadParam> params;
        if (const V axes = memberOf(workloadSpec, "axes"); isObject(axes)) {
            for (const simdjson::dom::key_value_pair member : jsondom::asObject(axes.e)) {
                const V value { member.value, true };
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
        if (const V tensors = memberOf(workloadSpec, "tensors"); isObject(tensors)) {
            for (const simdjson::dom::key_value_pair member : jsondom::asObject(tensors.e)) {
                const QString dtype = textOf(V { member.value, true }, "dtype");
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
}

// The names people know: the operation's title, the implementation's title and authors, the project's name and
// the workload's title (or "suite of N cases"). Metadata is outside every digest, so a title is shown as carried.
void applyNames(RunLinks& links, V workloadResource, V operation, V implementation, V project)
{
    links.operationTitle = textOf(memberOf(operation, "metadata"), "title");
    const V implementationMeta = memberOf(implementation, "metadata");
    links.implementationTitle = textOf(implementationMeta, "title");
    if (const V authors = memberOf(implementationMeta, "authors"); isArray(authors)) {
        for (const Element author : jsondom::asArray(authors.e)) {
            const QString name = textOf(V { author, true }, "name");
            if (!name.isEmpty())
                links.authors << name;
        }
    }
    links.project = textOf(memberOf(project, "spec"), "name");
    const V cases = memberOf(memberOf(workloadResource, "spec"), "cases");
    if (textOf(workloadResource, "kind") == QLatin1String("WorkloadSuite") && isArray(cases))
        links.workloadTitle
            = internUtf8(QStringLiteral("suite of %1 cases").arg(jsondom::asArray(cases.e).size()).toStdString());
    else
        links.workloadTitle = textOf(memberOf(workloadResource, "metadata"), "title");
}

// "metric:statistic:unit" of the run's primary measurement as the format's home chooses it: the latency statistic
// that timing.primaryStatistic (else the protocol's) names, when timing.latencyNs holds it; else the first
// measurement of the protocol's primary statistic; else the first measurement; else "none".
std::string primaryMetricKey(V spec, std::string_view protocolPrimary)
{
    const V timing = memberOf(spec, "timing");
    const V named = memberOf(timing, "primaryStatistic");
    const std::string_view statistic = named ? utf8Of(named) : protocolPrimary;
    if (!statistic.empty() && memberOf(memberOf(timing, "latencyNs"), statistic))
        return format::metricKey("latency", statistic, "ns");
    const V measurements = memberOf(spec, "measurements");
    if (!isArray(measurements))
        return "none";
    V first;
    for (const Element m : jsondom::asArray(measurements.e)) {
        const V measurement { m, true };
        if (!first)
            first = measurement;
        if (!protocolPrimary.empty() && utf8Of(memberOf(measurement, "statistic")) == protocolPrimary) {
            first = measurement;
            break;
        }
    }
    if (!first)
        return "none";
    return format::metricKey(
        utf8Of(memberOf(first, "metric")), utf8Of(memberOf(first, "statistic")), utf8Of(memberOf(first, "unit")));
}

// The format's strict comparison key, when the run names its digests and carries its verified workload document
// (which names the operation and holds the correctness spec).
void applyComparisonKey(RunLinks& links, const Run* run, V workloadSpec, const std::string& metricKey)
{
    if (!usable(run->workloadCheck) || !isObject(workloadSpec) || run->operationDigest.isEmpty()
        || run->protocolDigest.isEmpty() || run->environmentDigest.isEmpty())
        return;
    std::string correctness;
    if (const V c = memberOf(workloadSpec, "correctness"); c && !appendCanonicalDom(correctness, c.e))
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

// timing.rawSamples: the evidence file beside `document`, when its name stays in the document's folder and its
// bytes digest to `digest`; a warning at `pointer` otherwise (the run loads without samples).
void readSamplesBeside(Run& run, const QString& document, const QString& uri, const QString& digest,
    const QString& pointer, Diagnostics& out)
{
    auto refuse = [&](const QString& why) {
        out.append(makeWarning(document, pointer, QStringLiteral("raw samples \"%1\" not used: %2").arg(uri, why)));
    };
    if (uri.contains(QLatin1String("://")) || uri.startsWith(QLatin1Char('/')) || uri.contains(QLatin1Char('\\'))
        || uri.split(QLatin1Char('/')).contains(QStringLiteral(".."))) {
        refuse(QStringLiteral("only a file beside the document is read"));
        return;
    }
    const QDir folder = QFileInfo(document).absoluteDir();
    const QFileInfo info(folder.filePath(uri));
    if (!info.exists())
        return; // the document travelled without its evidence file: nothing to say per run
    const QString canonical = info.canonicalFilePath();
    if (!canonical.startsWith(folder.canonicalPath() + QLatin1Char('/'))) {
        refuse(QStringLiteral("it leads out of the document's folder"));
        return;
    }
    constexpr qint64 maxBytes = qint64(64) << 20;
    QFile f(canonical);
    if (info.size() > maxBytes || !f.open(QIODevice::ReadOnly)) {
        refuse(info.size() > maxBytes ? QStringLiteral("larger than 64 MiB") : f.errorString());
        return;
    }
    const std::string bytes = f.readAll().toStdString();
    if (QString::fromStdString(format::sha256Digest(bytes)) != digest) {
        refuse(QStringLiteral("the file does not match the digest the run names"));
        return;
    }
    std::vector<double> samples;
    if (!format::parseSamplesArtifact(bytes, samples)) {
        refuse(QStringLiteral("not a raw-samples file kix reads"));
        return;
    }
    run.samples = std::move(samples);
}

} // namespace

std::shared_ptr<Run> extractRun(
    const Element& documentElement, const QString& file, const QString& pointer, Diagnostics& out, bool duplicateKeys)
{
    t_duplicateKeys = duplicateKeys;
    Reader r(file, out);
    const V document { documentElement, true };
    if (!isObject(document)) {
        r.error(pointer,
            QStringLiteral("not a kernelindex document: expected an object, found %1").arg(typeNameOf(document)));
        return nullptr;
    }

    auto run = std::make_shared<Run>();
    run->file = file;
    run->pointer = pointer;

    // A combined document {run, protocol, environment, workload?, operation?, implementation?} or a bare run.
    const Path top(pointer);
    V runObject = document;
    const Path runMember(top, "run");
    const Path* runPath = &top;
    V protocol {};
    V environment {};
    V workloadResource {};
    V operationResource {};
    V implementationResource {};
    if (memberOf(document, "run")) {
        runPath = &runMember;
        runObject = r.object(document, "run", top);
        protocol = r.object(document, "protocol", top);
        environment = r.object(document, "environment", top);
        workloadResource = r.object(document, "workload", top);
        operationResource = r.object(document, "operation", top);
        implementationResource = r.object(document, "implementation", top);
        if (!runObject)
            return nullptr;
    }
    const Path& runPointer = *runPath;
    const std::string_view kind = r.utf8(runObject, "kind", runPointer);
    if (kind != "BenchmarkRun") {
        r.error(Path(runPointer, "kind"),
            kind.empty()
                ? QStringLiteral("not a kernelindex document: no \"run\" member and no kind BenchmarkRun (kix "
                                 "reads kernelindex, nvbench, Google Benchmark and pytest-benchmark JSON, "
                                 "and Liger-Kernel CSV)")
                : QStringLiteral("not a kernelindex run: kind is \"%1\", expected BenchmarkRun").arg(fromUtf8(kind)));
        return nullptr;
    }
    run->apiVersion = r.shared(runObject, "apiVersion", runPointer);
    if (!run->apiVersion.isEmpty() && run->apiVersion != QLatin1String(kApiVersion))
        r.warning(Path(runPointer, "apiVersion"),
            QStringLiteral("unknown apiVersion \"%1\" (kix knows %2); read as %2")
                .arg(run->apiVersion, QLatin1String(kApiVersion)));

    const Path specPointer(runPointer, "spec");
    V spec = r.object(runObject, "spec", runPointer);
    if (!spec) {
        if (!r.failed())
            r.error(specPointer, QStringLiteral("the run has no spec"));
        return nullptr;
    }
    if (unsigned char hash[32]; domResourceSha256(runObject.e, hash))
        run->runDigest.assignSha256(hash);
    const Path metadataPointer(runPointer, "metadata");
    V metadata = r.object(runObject, "metadata", runPointer);
    run->name = r.own(metadata, "name", metadataPointer);
    run->title = r.shared(metadata, "title", metadataPointer);
    run->labels = keyValues(r.object(metadata, "labels", metadataPointer));

    QStringList kix010; // what marks the document as kix 0.1.0's dialect
    run->status = r.shared(spec, "status", specPointer);
    if (run->status == QLatin1String("failed"))
        kix010 << QStringLiteral("status \"failed\"");
    else if (!run->status.isEmpty() && run->status != QLatin1String("passed") && !run->failed())
        r.warning(Path(specPointer, "status"),
            QStringLiteral("unknown status \"%1\": not one of the format's 13; shown, not counted as passed")
                .arg(run->status));
    const std::string_view observed = r.utf8(spec, "observedAt", specPointer);
    if (!observed.empty()) {
        run->observedAt = parseTime(observed);
        if (!run->observedAt.isValid())
            r.warning(Path(specPointer, "observedAt"),
                QStringLiteral("observedAt \"%1\" is not an ISO-8601 time").arg(fromUtf8(observed)));
    }
    const char* digestKeys[] = { "protocolDigest", "workloadDigest", "environmentDigest", "implementationDigest" };
    QString* digestFields[]
        = { &run->protocolDigest, &run->workloadDigest, &run->environmentDigest, &run->implementationDigest };
    for (int i = 0; i < 4; ++i) {
        *digestFields[i] = r.shared(spec, digestKeys[i], specPointer);
        if (!digestFields[i]->isEmpty() && !isDigest(*digestFields[i]))
            r.warning(Path(specPointer, digestKeys[i]),
                QStringLiteral("\"%1\" is not a sha256: digest").arg(*digestFields[i]));
    }

    // sourceNative: the producer's own view.
    const Path nativePointer(specPointer, "sourceNative");
    V native = r.object(spec, "sourceNative", specPointer);
    run->source = r.shared(native, "source", nativePointer);
    if (memberOf(native, "engine"))
        kix010 << QStringLiteral("sourceNative.engine");
    std::string_view externalId = r.utf8(native, "externalId", nativePointer);
    if (externalId.empty())
        externalId = r.utf8(spec, "externalId", specPointer);
    run->externalId = fromUtf8(externalId);
    const std::string_view benchmark = r.utf8(native, "benchmark", nativePointer);
    const bool liger = ligerConvention(run->source);
    run->benchmark = internUtf8(benchmark); // the producer's name for a benchmark: shared by its runs
    std::string_view id[6];
    const bool slugHeld = ligerSlug(externalId, id, liger);
    if (slugHeld) { // Liger's convention, where the externalId is one
        run->kernel = internUtf8(id[0]);
        run->pass = internUtf8(id[1]);
        run->provider = internUtf8(id[2]);
        run->gpuSlug = internUtf8(id[3]);
        run->workloadSlug = internUtf8(id[4]);
        setWorkload(id[4], *run);
    }
    // The source's benchmark name ("causal_conv1d", Liger's "group_norm/backward") names the kernel, unless an
    // externalId in Liger's convention already did: then the benchmark is that id's "kernel/pass" again.
    if (!benchmark.empty() && !(slugHeld && !run->kernel.isEmpty())) {
        const std::size_t slash = benchmark.find('/');
        if (liger && slash != std::string_view::npos) {
            run->kernel = internUtf8(benchmark.substr(0, slash));
            if (run->pass.isEmpty())
                run->pass = internUtf8(benchmark.substr(slash + 1));
        } else {
            run->kernel = internUtf8(benchmark);
        }
    }

    // The protocol's primary statistic, for a run whose own timing does not name one.
    const Path protocolMember(top, "protocol");
    const Path protocolPointer(protocolMember, "spec");
    V protocolSpec = r.object(protocol, "spec", protocolMember);
    V protocolMeasurement = r.object(protocolSpec, "measurement", protocolPointer);
    const Path protocolMeasurementPointer(protocolPointer, "measurement");
    const QString protocolPrimary = r.shared(protocolMeasurement, "primaryStatistic", protocolMeasurementPointer);

    // Headline: the latency statistic timing.primaryStatistic names.
    const Path timingPointer(specPointer, "timing");
    V timing = r.object(spec, "timing", specPointer);
    const Path latencyPointer(timingPointer, "latencyNs");
    V latencyNs = r.object(timing, "latencyNs", timingPointer);
    QString primary = r.shared(timing, "primaryStatistic", timingPointer);
    if (primary.isEmpty())
        primary = protocolPrimary;
    for (const char* stat : kLatencyStatistics) {
        const double v = r.duration(latencyNs, stat, latencyPointer);
        if (std::isnan(v))
            continue;
        const QLatin1String name(stat);
        if (name == QLatin1String("median"))
            run->median = v;
        else if (name == QLatin1String("p20"))
            run->p20 = v;
        else if (name == QLatin1String("p80"))
            run->p80 = v;
        else
            run->statistics.append({ QStringLiteral("latency"), name, QStringLiteral("ns"), v });
    }
    auto promote = [&](const QString& stat) { // makes a latency statistic the headline
        for (qsizetype i = 0; i < run->statistics.size(); ++i) {
            if (run->statistics[i].metric == QLatin1String("latency") && run->statistics[i].statistic == stat) {
                const double value = run->statistics[i].value;
                run->statistics.remove(i);
                if (!std::isnan(run->median))
                    run->statistics.append(
                        { QStringLiteral("latency"), QStringLiteral("median"), QStringLiteral("ns"), run->median });
                run->median = value;
                run->headlineStatistic = stat;
                return true;
            }
        }
        return false;
    };
    if (!primary.isEmpty() && primary != QLatin1String("median") && latencyNs) {
        if (!promote(primary) && std::isnan(run->median))
            r.warning(Path(timingPointer, "primaryStatistic"),
                QStringLiteral("the primary statistic \"%1\" is not among timing.latencyNs").arg(primary));
    }
    if (std::isnan(run->median) && latencyNs)
        promote(QStringLiteral("mean"));
    if (memberOf(timing, "samplesNs")) {
        kix010 << QStringLiteral("inline timing.samplesNs");
        const V samples = memberOf(timing, "samplesNs");
        const Path samplesPointer(timingPointer, "samplesNs");
        if (!isArray(samples)) {
            r.error(samplesPointer, QStringLiteral("expected an array of numbers, found %1").arg(typeNameOf(samples)));
        } else {
            const simdjson::dom::array values = jsondom::asArray(samples.e);
            run->samples.reserve(values.size());
            qsizetype i = 0;
            for (const Element element : values) {
                const V sample { element, true };
                const double v = isNumber(sample) && Reader::plausible(numberOf(sample), true)
                    ? numberOf(sample)
                    : r.checkNumber(sample, Path(samplesPointer, i), true);
                if (std::isnan(v))
                    break;
                run->samples.push_back(v);
                ++i;
            }
        }
    }

    // Google Benchmark's CPU time per repetition (sourceNative.cpuTimesNs), for compare.py's CPU U test.
    if (const V cpuTimes = memberOf(native, "cpuTimesNs"); cpuTimes && isArray(cpuTimes)) {
        for (const Element element : jsondom::asArray(cpuTimes.e)) {
            const V time { element, true };
            if (!isNumber(time) || !Reader::plausible(numberOf(time), true)) {
                r.warning(Path(nativePointer, "cpuTimesNs"), QStringLiteral("not an array of times: ignored"));
                run->cpuSamples.clear();
                break;
            }
            run->cpuSamples.push_back(numberOf(time));
        }
    }
    // ... or, as kix writes it now (sourceNative.metrics holds numbers only), cpu_time_ns_0, cpu_time_ns_1, ...
    if (run->cpuSamples.empty()) {
        if (const V metrics = memberOf(native, "metrics"); metrics && isObject(metrics)) {
            for (int i = 0;; ++i) {
                const std::string key = "cpu_time_ns_" + std::to_string(i);
                const V time = memberOf(metrics, key);
                if (!time || !isNumber(time) || !Reader::plausible(numberOf(time), true))
                    break;
                run->cpuSamples.push_back(numberOf(time));
            }
        }
    }

    const Path measurementsPointer(specPointer, "measurements");
    QVector<Measurement> memory;
    if (const V measurements = memberOf(spec, "measurements")) {
        if (!isArray(measurements)) {
            r.error(measurementsPointer, QStringLiteral("expected an array, found %1").arg(typeNameOf(measurements)));
        } else {
            qsizetype i = -1;
            for (const Element element : jsondom::asArray(measurements.e)) {
                ++i;
                const V m { element, true };
                const Path mp(measurementsPointer, i);
                if (!isObject(m)) {
                    r.error(mp, QStringLiteral("expected an object, found %1").arg(typeNameOf(m)));
                    continue;
                }
                Measurement value;
                value.metric = r.shared(m, "metric", mp);
                value.statistic = r.shared(m, "statistic", mp);
                value.unit = r.shared(m, "unit", mp);
                const V raw = memberOf(m, "value");
                if (!raw) {
                    r.error(Path(mp, "value"), QStringLiteral("the measurement has no value"));
                    continue;
                }
                bool timeUnit = false;
                const bool isLatency = value.metric == QLatin1String("latency");
                const bool isTime = isLatency && value.unit != QLatin1String("count");
                double v = isNumber(raw) && Reader::plausible(numberOf(raw), isTime)
                    ? numberOf(raw)
                    : r.checkNumber(raw, Path(mp, "value"), isTime);
                if (std::isnan(v))
                    continue;
                if (isTime) {
                    v = toNs(v, value.unit, &timeUnit);
                    if (!timeUnit) {
                        r.error(Path(mp, "unit"), QStringLiteral("unknown latency unit \"%1\"").arg(value.unit));
                        continue;
                    }
                    value.unit = QStringLiteral("ns");
                    value.value = v;
                    if (value.statistic == QLatin1String("p20") && std::isnan(run->p20))
                        run->p20 = v;
                    else if (value.statistic == QLatin1String("p80") && std::isnan(run->p80))
                        run->p80 = v;
                    else if (value.statistic == QLatin1String("median") && std::isnan(run->median))
                        run->median = v;
                    else
                        run->statistics.append(value);
                } else {
                    value.value = v;
                    if (value.metric == QLatin1String("memory"))
                        memory.append(value);
                    else if (isLatency)
                        run->statistics.append(value); // the sample count
                    else
                        run->measurements.append(value);
                }
            }
        }
    }

    // sourceNative.metrics (Liger's ms_20, ms_50, ms_80) fill whatever the spec lacks.
    if (V metrics = r.object(native, "metrics", nativePointer); metrics && liger) {
        const Path mp(nativePointer, "metrics");
        const double ms50 = r.number(metrics, "ms_50", mp, true);
        const double ms20 = r.number(metrics, "ms_20", mp, true);
        const double ms80 = r.number(metrics, "ms_80", mp, true);
        if (std::isnan(run->median) && !std::isnan(ms50))
            run->median = std::round(ms50 * 1e6);
        if (std::isnan(run->p20) && !std::isnan(ms20))
            run->p20 = std::round(ms20 * 1e6);
        if (std::isnan(run->p80) && !std::isnan(ms80))
            run->p80 = std::round(ms80 * 1e6);
    }
    // A latency measured only as measurements[] ({latency, mean, ns}): the primary statistic, else the mean.
    if (std::isnan(run->median) && !(primary.isEmpty() || primary == QLatin1String("median")))
        promote(primary);
    if (std::isnan(run->median))
        promote(QStringLiteral("mean"));

    if (std::isnan(run->median) && !memory.isEmpty()) {
        run->metric = Run::Metric::Memory;
        // "mb" is how the format spells kix 0.1.0's "MB" (units match ^[a-z][a-z0-9_]*$); shown as MB either way
        run->unit = memory.first().unit.isEmpty() || memory.first().unit == QLatin1String("mb") ? QStringLiteral("MB")
                                                                                                : memory.first().unit;
        for (const Measurement& m : memory) {
            if (m.statistic == QLatin1String("median"))
                run->median = m.value;
            else if (m.statistic == QLatin1String("p20"))
                run->p20 = m.value;
            else if (m.statistic == QLatin1String("p80"))
                run->p80 = m.value;
            else
                run->statistics.append(m);
        }
    } else if (std::isnan(run->median) && !run->measurements.isEmpty() && !run->failed()) {
        // No latency: the headline is the run's one measurement (a leaderboard score, a throughput), or the one
        // whose statistic the protocol names, or the first. A failed run has no headline: what it measured (bytes,
        // an error) stays a measurement.
        qsizetype pick = 0;
        for (qsizetype i = 0; i < run->measurements.size(); ++i) {
            if (!protocolPrimary.isEmpty() && run->measurements[i].statistic == protocolPrimary) {
                pick = i;
                break;
            }
        }
        const Measurement headline = run->measurements.takeAt(pick);
        run->metric = Run::Metric::Other;
        run->headlineMetric = headline.metric;
        run->unit = headline.unit;
        run->median = headline.value;
        run->headlineStatistic = headline.statistic;
        run->measurements += memory;
    } else {
        run->measurements += memory;
    }

    if (r.failed())
        return nullptr;
    if (std::isnan(run->median) && !run->failed())
        r.warning(specPointer,
            QStringLiteral("no headline measurement: the run has no timing.latencyNs and no measurements; loaded "
                           "without a value"));
    if (!std::isnan(run->median)) {
        if ((!std::isnan(run->p20) && run->p20 > run->median) || (!std::isnan(run->p80) && run->p80 < run->median)
            || (!std::isnan(run->p20) && !std::isnan(run->p80) && run->p20 > run->p80))
            r.warning(measurementsPointer,
                QStringLiteral("quantiles out of order: p20 %1, median %2, p80 %3")
                    .arg(run->p20, 0, 'g', 10)
                    .arg(run->median, 0, 'g', 10)
                    .arg(run->p80, 0, 'g', 10));
    }

    RunLinks links; // what the linked documents say: the protocol's name here, names and key below
    // Protocol and environment of a combined document.
    const Path comparabilityPointer(protocolPointer, "comparability");
    V comparability = r.object(protocolSpec, "comparability", protocolPointer);
    run->protocolFamily = r.shared(comparability, "family", comparabilityPointer);
    run->protocolNotes = r.shared(comparability, "notes", comparabilityPointer);
    links.timer = r.shared(protocolMeasurement, "timer", protocolMeasurementPointer);
    if (const V harness = memberOf(protocolSpec, "harness"); isObject(harness)) {
        const QString name = textOf(harness, "name"), version = textOf(harness, "version");
        links.protocolName
            = version.isEmpty() ? name : internUtf8(QString(name + QLatin1Char(' ') + version).toStdString());
    }
    if (links.protocolName.isEmpty())
        links.protocolName = textOf(memberOf(protocol, "metadata"), "name");

    const Path environmentMember(top, "environment");
    const Path environmentPointer(environmentMember, "spec");
    V environmentSpec = r.object(environment, "spec", environmentMember);
    const Path hardwarePointer(environmentPointer, "hardware");
    V hardware = r.object(environmentSpec, "hardware", environmentPointer);
    run->gpuVendor = r.shared(hardware, "vendor", hardwarePointer);
    run->gpuProduct = r.shared(hardware, "product", hardwarePointer);
    run->gpuArchitecture = r.shared(hardware, "architecture", hardwarePointer);
    run->software = keyValues(r.object(environmentSpec, "software", environmentPointer));
    if (run->gpuSlug.isEmpty())
        run->gpuSlug = internUtf8(slugify(run->gpuProduct).toStdString());
    if (r.failed())
        return nullptr;

    // Every resource the document carries, against the digest that names it.
    const Path workloadMember(top, "workload");
    const Path implementationMember(top, "implementation");
    V workloadSpec = r.object(workloadResource, "spec", workloadMember);
    V implementationSpec = r.object(implementationResource, "spec", implementationMember);
    if (workloadSpec)
        run->operationDigest = r.shared(workloadSpec, "operationSpecDigest", Path(workloadMember, "spec"));
    if (run->operationDigest.isEmpty() && implementationSpec)
        run->operationDigest = r.shared(r.object(implementationSpec, "operation", Path(implementationMember, "spec")),
            "specDigest", Path(Path(implementationMember, "spec"), "operation"));
    // the JSON pointers of the digests that name them, made into text only for a warning
    const Path protocolNamedAt(specPointer, "protocolDigest");
    const Path environmentNamedAt(specPointer, "environmentDigest");
    const Path workloadNamedAt(specPointer, "workloadDigest");
    const Path implementationNamedAt(specPointer, "implementationDigest");
    const Path workloadSpecPointer(workloadMember, "spec");
    const Path implementationSpecPointer(implementationMember, "spec");
    const Path implementationOperationPointer(implementationSpecPointer, "operation");
    const Path operationNamedAt = workloadSpec ? Path(workloadSpecPointer, "operationSpecDigest")
                                               : Path(implementationOperationPointer, "specDigest");
    struct Carried
    {
        V resource;
        const QString& named;
        DigestCheck& check;
        const char* what;
        const Path& namedAt;
    };
    const Carried carried[] = {
        { protocol, run->protocolDigest, run->protocolCheck, "protocol", protocolNamedAt },
        { environment, run->environmentDigest, run->environmentCheck, "environment", environmentNamedAt },
        { workloadResource, run->workloadDigest, run->workloadCheck, "workload", workloadNamedAt },
        { implementationResource, run->implementationDigest, run->implementationCheck, "implementation",
            implementationNamedAt },
        { operationResource, run->operationDigest, run->operationCheck, "operation", operationNamedAt },
    };
    for (const Carried& c : carried) {
        if (!isObject(c.resource))
            continue;
        if (c.named.isEmpty()) // nothing names it: nothing to verify (a missing digest is the schema's concern)
            continue;
        QString computed;
        c.check = checkResource(c.resource.e, c.named, &computed);
        if (c.check == DigestCheck::VerifiedKix010)
            kix010 << QStringLiteral("its own %1 digest").arg(QLatin1String(c.what));
        else if (c.check == DigestCheck::Mismatch)
            r.warning(c.namedAt,
                QStringLiteral("does not match the %1 the document carries (it digests to %2): the resource "
                               "was changed after the run was written; comparisons treat it as unknown")
                    .arg(QLatin1String(c.what), computed));
    }
    // The sources that define Liger's convention (Liger's bench, kix's engine and imports) name a run by its
    // externalId; their linked resources are built from the same facts and only fill in what the id leaves empty.
    // For every other source the linked resources name the run.
    if (slugHeld && liger) {
        const QString kernel = run->kernel, pass = run->pass, provider = run->provider, slug = run->workloadSlug,
                      dtype = run->dtype;
        const QVector<WorkloadParam> workload = run->workload;
        applyLinkedResources(run.get(), workloadSpec, operationResource, implementationResource, implementationSpec);
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
        applyLinkedResources(run.get(), workloadSpec, operationResource, implementationResource, implementationSpec);
    }

    applyNames(links, workloadResource, operationResource, implementationResource,
        runPath == &runMember ? memberOf(document, "project") : V {});
    const std::string metricKey = primaryMetricKey(spec, protocolPrimary.toStdString());
    applyComparisonKey(links, run.get(), workloadSpec, metricKey);
    run->linked = RunLinks::share(std::move(links));
    if (metricKey == "none" && std::isnan(run->median)) { // it records no measurement: its metric is "none"
        run->metric = Run::Metric::Other;
        run->headlineMetric = QStringLiteral("none");
        run->headlineStatistic.clear();
        run->unit.clear();
    }

    if (!kix010.isEmpty()) {
        run->writtenByKix010 = true;
        r.warning(runPointer,
            QStringLiteral("written by kix 0.1.0 (%1): loaded as it was written; not v1alpha1 as the format "
                           "defines it")
                .arg(kix010.join(QStringLiteral(", "))));
    }

    // Raw samples named by timing.rawSamples {uri, digest}: read only from beside the document (a relative name that
    // stays in its folder, never a URL or an absolute path from a file kix did not write) and used only when the
    // file's digest is the one the run names.
    if (run->samples.empty()) {
        const V raw = memberOf(timing, "rawSamples");
        const QString uri = textOf(raw, "uri");
        const QString digest = textOf(raw, "digest");
        if (!uri.isEmpty() && !digest.isEmpty() && !file.startsWith(QLatin1Char(':')))
            readSamplesBeside(*run, file, uri, digest, Path(Path(timingPointer, "rawSamples"), "uri").str(), out);
    }

    // the lists were grown one by one: no slack kept for each of a million runs
    run->statistics.squeeze();
    run->measurements.squeeze();
    run->labels.squeeze();
    run->software.squeeze();
    run->workload.squeeze();
    run->finalize();
    return run;
}

RunPtr runFromDocument(const json& document, const QString& file, const QString& pointer, Diagnostics& out,
    const std::vector<double>& samplesNs)
{
    std::string text = document.dump(-1, ' ', false, json::error_handler_t::replace);
    Element root;
    if (const auto error = jsondom::parse(text, false, 64, root)) {
        out.append(
            makeError(file, pointer, QStringLiteral("not read: ") + QLatin1String(simdjson::error_message(error))));
        return nullptr;
    }
    const qsizetype before = out.size();
    std::shared_ptr<Run> run = extractRun(root, file, pointer, out, false); // nlohmann's objects have unique keys
    // A document kix builds in memory now (an import, an engine run) is not a file that kix 0.1.0 wrote: no note.
    for (qsizetype i = out.size() - 1; i >= before; --i) {
        if (!out[i].isError() && out[i].message.startsWith(QLatin1String("written by kix 0.1.0")))
            out.remove(i);
    }
    if (run) {
        run->raw = RawText(std::move(text));
        if (run->samples.empty())
            run->samples = samplesNs;
    }
    return run;
}

} // namespace kix
