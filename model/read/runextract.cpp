// Builds the typed Run view of one kernelindex document and decides whether it is refused.
#include "model/read/runextract.h"

#include "model/read/jsondom.h"
#include "model/runfields.h"
#include "model/stringpool.h"

#include <QHash>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <cmath>

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
        if (member.key.size() == key.size() && member.key == key) {
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

    // A combined document {run, protocol, environment} or a bare BenchmarkRun.
    const Path top(pointer);
    V runObject = document;
    const Path runMember(top, "run");
    const Path* runPath = &top;
    V protocol {};
    V environment {};
    if (memberOf(document, "run")) {
        runPath = &runMember;
        runObject = r.object(document, "run", top);
        protocol = r.object(document, "protocol", top);
        environment = r.object(document, "environment", top);
        if (!runObject)
            return nullptr;
    }
    const Path& runPointer = *runPath;
    const std::string_view kind = r.utf8(runObject, "kind", runPointer);
    if (kind != "BenchmarkRun") {
        r.error(Path(runPointer, "kind"),
            kind.empty() ? QStringLiteral("not a kernelindex document: no \"run\" member and no kind BenchmarkRun (kix "
                                          "reads kernelindex, nvbench, Google Benchmark and pytest-benchmark JSON, "
                                          "and Liger-Kernel CSV)")
                         : QStringLiteral("not a kernelindex run: kind is \"%1\", expected BenchmarkRun")
                               .arg(QString::fromUtf8(kind.data(), qsizetype(kind.size()))));
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
    const Path metadataPointer(runPointer, "metadata");
    V metadata = r.object(runObject, "metadata", runPointer);
    run->name = r.own(metadata, "name", metadataPointer);
    run->title = r.shared(metadata, "title", metadataPointer);
    run->labels = keyValues(r.object(metadata, "labels", metadataPointer));

    run->status = r.shared(spec, "status", specPointer);
    const std::string_view observed = r.utf8(spec, "observedAt", specPointer);
    if (!observed.empty()) {
        run->observedAt = parseTime(observed);
        if (!run->observedAt.isValid())
            r.warning(Path(specPointer, "observedAt"),
                QStringLiteral("observedAt \"%1\" is not an ISO-8601 time")
                    .arg(QString::fromUtf8(observed.data(), qsizetype(observed.size()))));
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

    // sourceNative: the producer's view, and the externalId that carries the workload.
    const Path nativePointer(specPointer, "sourceNative");
    V native = r.object(spec, "sourceNative", specPointer);
    run->source = r.shared(native, "source", nativePointer);
    std::string_view externalId = r.utf8(native, "externalId", nativePointer);
    if (externalId.empty())
        externalId = r.utf8(spec, "externalId", specPointer);
    run->externalId = QString::fromUtf8(externalId.data(), qsizetype(externalId.size()));
    const std::string_view benchmark = r.utf8(native, "benchmark", nativePointer);
    run->benchmark = QString::fromUtf8(benchmark.data(), qsizetype(benchmark.size()));
    auto parts = [](std::string_view text, std::string_view* out, int most) {
        int n = 0;
        std::size_t from = 0;
        while (n < most) {
            const std::size_t slash = text.find('/', from);
            out[n++] = text.substr(from, slash == std::string_view::npos ? std::string_view::npos : slash - from);
            if (slash == std::string_view::npos)
                break;
            from = slash + 1;
        }
        return n;
    };
    std::string_view id[6];
    if (parts(externalId, id, 6) >= 6) {
        run->kernel = internUtf8(id[0]);
        run->pass = internUtf8(id[1]);
        run->provider = internUtf8(id[2]);
        run->gpuSlug = internUtf8(id[3]);
        run->workloadSlug = internUtf8(id[4]);
        setWorkload(id[4], *run);
    } else if (!benchmark.empty()) {
        std::string_view b[2];
        const int n = parts(benchmark, b, 2);
        run->kernel = internUtf8(b[0]);
        if (n > 1)
            run->pass = internUtf8(b[1]);
    }

    // Headline statistics.
    const Path timingPointer(specPointer, "timing");
    V timing = r.object(spec, "timing", specPointer);
    const Path latencyPointer(timingPointer, "latencyNs");
    V latencyNs = r.object(timing, "latencyNs", timingPointer);
    run->median = r.number(latencyNs, "median", latencyPointer, true);
    for (const char* stat : { "p20", "p80", "min", "max", "mean" }) {
        const double v = r.number(latencyNs, stat, latencyPointer, true);
        if (!std::isnan(v))
            run->statistics.append({ QStringLiteral("latency"), QLatin1String(stat), QStringLiteral("ns"), v });
    }
    // A run whose primary statistic is not a median (nvbench reports a mean) has that as its headline.
    if (std::isnan(run->median) && r.utf8(timing, "primaryStatistic", timingPointer) == "mean") {
        run->median = r.number(latencyNs, "mean", latencyPointer, true);
        run->headlineStatistic = QStringLiteral("mean");
    }
    if (const V samples = memberOf(timing, "samplesNs")) {
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
                const bool isLatency = value.metric == QLatin1String("latency");
                bool timeUnit = false;
                const V raw = memberOf(m, "value");
                if (!raw) {
                    r.error(Path(mp, "value"), QStringLiteral("the measurement has no value"));
                    continue;
                }
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
                    if (value.statistic == QLatin1String("p20"))
                        run->p20 = v;
                    else if (value.statistic == QLatin1String("p80"))
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

    // sourceNative.metrics (ms_20, ms_50, ms_80) fill whatever the spec lacks.
    if (V metrics = r.object(native, "metrics", nativePointer)) {
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

    if (std::isnan(run->median) && !memory.isEmpty()) {
        run->metric = Run::Metric::Memory;
        run->unit = memory.first().unit.isEmpty() ? QStringLiteral("MB") : memory.first().unit;
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
    } else {
        run->measurements += memory;
    }

    if (r.failed())
        return nullptr;
    const bool passed = run->status.isEmpty() || run->status == QLatin1String("passed");
    if (std::isnan(run->median) && passed) {
        r.error(Path(latencyPointer, "median"),
            QStringLiteral(
                "no usable latency: neither timing.latencyNs.median nor sourceNative.metrics.ms_50 is present"));
        return nullptr;
    }
    if (!std::isnan(run->median)) {
        if ((!std::isnan(run->p20) && run->p20 > run->median) || (!std::isnan(run->p80) && run->p80 < run->median)
            || (!std::isnan(run->p20) && !std::isnan(run->p80) && run->p20 > run->p80))
            r.warning(measurementsPointer,
                QStringLiteral("quantiles out of order: p20 %1, median %2, p80 %3")
                    .arg(run->p20, 0, 'g', 10)
                    .arg(run->median, 0, 'g', 10)
                    .arg(run->p80, 0, 'g', 10));
    }

    // Protocol and environment of a combined document.
    const Path protocolMember(top, "protocol");
    const Path protocolPointer(protocolMember, "spec");
    V protocolSpec = r.object(protocol, "spec", protocolMember);
    const Path comparabilityPointer(protocolPointer, "comparability");
    V comparability = r.object(protocolSpec, "comparability", protocolPointer);
    run->protocolFamily = r.shared(comparability, "family", comparabilityPointer);
    run->protocolNotes = r.shared(comparability, "notes", comparabilityPointer);
    V measurement = r.object(protocolSpec, "measurement", protocolPointer);
    run->timer = r.shared(measurement, "timer", Path(protocolPointer, "measurement"));

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

    run->finalize();
    return run;
}

RunPtr runFromDocument(const json& document, const QString& file, const QString& pointer, Diagnostics& out)
{
    std::string text = document.dump(-1, ' ', false, json::error_handler_t::replace);
    Element root;
    if (const auto error = jsondom::parse(text, false, 64, root)) {
        out.append(
            makeError(file, pointer, QStringLiteral("not read: ") + QLatin1String(simdjson::error_message(error))));
        return nullptr;
    }
    std::shared_ptr<Run> run = extractRun(root, file, pointer, out, false); // nlohmann's objects have unique keys
    if (run)
        run->raw = RawText(std::move(text));
    return run;
}

} // namespace kix
