// Builds the typed Run view of one kernelindex document and decides whether it is refused.
#include "model/documentparser.h"
#include "model/jsontape.h"
#include "model/jsonview.h"

#include <QStringList>

#include <nlohmann/json.hpp>

#include <cmath>
#include <functional>

namespace kix {

using json = nlohmann::json;

namespace {

const char* const kApiVersion = "kernelindex.dev/v1alpha1";
constexpr double kMaxLatencyNs = 1e15; // about 11.6 days: anything above is a unit mistake, not a measurement

using namespace jsonview;

// Reads fields of one JSON object and records type errors against a JSON pointer.
template<class V>
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

    // The member as an object, or null when absent; a present member of another type is an error.
    V object(V parent, const char* key, const QString& base)
    {
        const V v = memberOf(parent, key);
        if (v && !isObject(v)) {
            error(join(base, key), QStringLiteral("expected an object, found %1").arg(typeNameOf(v)));
            return V {};
        }
        return v;
    }

    QString string(V parent, const char* key, const QString& base)
    {
        const V v = memberOf(parent, key);
        if (!v || isNull(v))
            return {};
        if (!isString(v)) {
            error(join(base, key), QStringLiteral("expected a string, found %1").arg(typeNameOf(v)));
            return {};
        }
        return stringOf(v);
    }

    // A latency-like number: finite, not negative, not absurd. NaN when absent.
    double number(V parent, const char* key, const QString& base, bool isLatencyNs)
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

    static QString join(const QString& base, const char* key) { return base + QLatin1Char('/') + QLatin1String(key); }

    double checkNumber(V v, const QString& pointer, bool isLatencyNs)
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

double toNs(double value, const QString& unit, bool* known)
{
    *known = true;
    if (unit == QLatin1String("ns"))
        return value;
    if (unit == QLatin1String("us") || unit == QStringLiteral("µs"))
        return value * 1e3;
    if (unit == QLatin1String("ms"))
        return value * 1e6;
    if (unit == QLatin1String("s"))
        return value * 1e9;
    *known = false;
    return value;
}

template<class V>
QVector<KeyValue> keyValues(V object)
{
    QVector<KeyValue> out;
    if (!isObject(object))
        return out;
    forEachMember(object, [&](const QString& key, V value) {
        out.append({ key, isString(value) ? stringOf(value) : dumpOf(value) });
    });
    return out;
}

QString slugify(const QString& text)
{
    QString out;
    bool dash = false;
    for (const QChar c : text.toLower()) {
        if (c.isLetterOrNumber()) {
            out += c;
            dash = false;
        } else if (!dash && !out.isEmpty()) {
            out += QLatin1Char('-');
            dash = true;
        }
    }
    while (out.endsWith(QLatin1Char('-')))
        out.chop(1);
    return out;
}

bool isDigest(const QString& d)
{
    if (!d.startsWith(QLatin1String("sha256:")) || d.size() != 7 + 64)
        return false;
    for (int i = 7; i < d.size(); ++i) {
        const QChar c = d.at(i);
        if (!((c >= QLatin1Char('0') && c <= QLatin1Char('9')) || (c >= QLatin1Char('a') && c <= QLatin1Char('f'))))
            return false;
    }
    return true;
}

} // namespace

void parseWorkloadSlug(const QString& slug, QVector<WorkloadParam>& params, QString& dtype)
{
    static const QStringList dtypes = { QStringLiteral("fp32"), QStringLiteral("fp16"), QStringLiteral("bf16"),
        QStringLiteral("fp64"), QStringLiteral("fp8"), QStringLiteral("int8"), QStringLiteral("tf32"),
        QStringLiteral("float32"), QStringLiteral("float16"), QStringLiteral("bfloat16") };
    params.clear();
    dtype.clear();
    if (slug.isEmpty())
        return;
    const QStringList parts = slug.split(QLatin1Char('-'), Qt::SkipEmptyParts);
    for (const QString& part : parts) {
        if (dtypes.contains(part)) {
            dtype = part;
            continue;
        }
        if (const qsizetype eq = part.indexOf(QLatin1Char('=')); eq > 0) { // "T=I32": values that start with a letter
            WorkloadParam p { part.left(eq), part.mid(eq + 1) };
            bool ok = false;
            const double n = p.value.toDouble(&ok);
            p.number = ok && std::isfinite(n) ? n : p.number;
            params.append(p);
            continue;
        }
        // key = leading letters and underscores, value = the rest ("channels_per_group4").
        int split = 0;
        while (split < part.size() && (part.at(split).isLetter() || part.at(split) == QLatin1Char('_')))
            ++split;
        WorkloadParam p;
        if (split == 0) { // a bare value ("llama_2_7b" starts with a letter, "7b" does not)
            p.key = QStringLiteral("value");
            p.value = part;
        } else if (split == part.size()) { // a bare word: a flag such as "causal"
            p.key = part;
        } else {
            p.key = part.left(split);
            p.value = part.mid(split);
        }
        bool ok = false;
        const double n = p.value.toDouble(&ok);
        if (ok && std::isfinite(n))
            p.number = n;
        params.append(p);
    }
}

namespace {

template<class V>
RunPtr extractRun(V document, const QString& file, const QString& pointer, Diagnostics& out,
    std::string_view sourceText, const std::function<std::string()>& dumpDocument)
{
    Reader<V> r(file, out);
    if (!isObject(document)) {
        r.error(pointer,
            QStringLiteral("not a kernelindex document: expected an object, found %1").arg(typeNameOf(document)));
        return nullptr;
    }

    auto run = std::make_shared<Run>();
    run->file = file;
    run->pointer = pointer;

    // A combined document {run, protocol, environment} or a bare BenchmarkRun.
    V runObject = document;
    QString runPointer = pointer;
    V protocol {};
    V environment {};
    if (memberOf(document, "run")) {
        runPointer = pointer + QStringLiteral("/run");
        runObject = r.object(document, "run", pointer);
        protocol = r.object(document, "protocol", pointer);
        environment = r.object(document, "environment", pointer);
        if (!runObject)
            return nullptr;
    }
    const QString kind = r.string(runObject, "kind", runPointer);
    if (kind != QLatin1String("BenchmarkRun")) {
        r.error(runPointer + QStringLiteral("/kind"),
            kind.isEmpty()
                ? QStringLiteral("not a kernelindex document: no \"run\" member and no kind BenchmarkRun (kix "
                                 "reads kernelindex, nvbench, Google Benchmark and pytest-benchmark JSON, "
                                 "and Liger-Kernel CSV)")
                : QStringLiteral("not a kernelindex run: kind is \"%1\", expected BenchmarkRun").arg(kind));
        return nullptr;
    }
    run->apiVersion = r.string(runObject, "apiVersion", runPointer);
    if (!run->apiVersion.isEmpty() && run->apiVersion != QLatin1String(kApiVersion))
        r.warning(runPointer + QStringLiteral("/apiVersion"),
            QStringLiteral("unknown apiVersion \"%1\" (kix knows %2); read as %2")
                .arg(run->apiVersion, QLatin1String(kApiVersion)));

    const QString specPointer = runPointer + QStringLiteral("/spec");
    V spec = r.object(runObject, "spec", runPointer);
    if (!spec) {
        if (!r.failed())
            r.error(specPointer, QStringLiteral("the run has no spec"));
        return nullptr;
    }
    const QString metadataPointer = runPointer + QStringLiteral("/metadata");
    V metadata = r.object(runObject, "metadata", runPointer);
    run->name = r.string(metadata, "name", metadataPointer);
    run->title = r.string(metadata, "title", metadataPointer);
    run->labels = keyValues(r.object(metadata, "labels", metadataPointer));

    run->status = r.string(spec, "status", specPointer);
    const QString observed = r.string(spec, "observedAt", specPointer);
    if (!observed.isEmpty()) {
        run->observedAt = QDateTime::fromString(observed, Qt::ISODateWithMs);
        if (!run->observedAt.isValid())
            r.warning(specPointer + QStringLiteral("/observedAt"),
                QStringLiteral("observedAt \"%1\" is not an ISO-8601 time").arg(observed));
        else
            run->observedAt = run->observedAt.toUTC();
    }
    const char* digestKeys[] = { "protocolDigest", "workloadDigest", "environmentDigest", "implementationDigest" };
    QString* digestFields[]
        = { &run->protocolDigest, &run->workloadDigest, &run->environmentDigest, &run->implementationDigest };
    for (int i = 0; i < 4; ++i) {
        *digestFields[i] = r.string(spec, digestKeys[i], specPointer);
        if (!digestFields[i]->isEmpty() && !isDigest(*digestFields[i]))
            r.warning(specPointer + QLatin1Char('/') + QLatin1String(digestKeys[i]),
                QStringLiteral("\"%1\" is not a sha256: digest").arg(*digestFields[i]));
    }

    // sourceNative: the producer's view, and the externalId that carries the workload.
    const QString nativePointer = specPointer + QStringLiteral("/sourceNative");
    V native = r.object(spec, "sourceNative", specPointer);
    run->source = r.string(native, "source", nativePointer);
    run->externalId = r.string(native, "externalId", nativePointer);
    if (run->externalId.isEmpty())
        run->externalId = r.string(spec, "externalId", specPointer);
    const QString benchmark = r.string(native, "benchmark", nativePointer);
    const QStringList idParts = run->externalId.split(QLatin1Char('/'));
    if (idParts.size() >= 6) {
        run->kernel = idParts[0];
        run->pass = idParts[1];
        run->provider = idParts[2];
        run->gpuSlug = idParts[3];
        run->workloadSlug = idParts[4];
    } else if (!benchmark.isEmpty()) {
        const QStringList b = benchmark.split(QLatin1Char('/'));
        run->kernel = b.value(0);
        run->pass = b.value(1);
    }
    parseWorkloadSlug(run->workloadSlug, run->workload, run->dtype);

    // Headline statistics.
    const QString timingPointer = specPointer + QStringLiteral("/timing");
    V timing = r.object(spec, "timing", specPointer);
    V latencyNs = r.object(timing, "latencyNs", timingPointer);
    const QString latencyPointer = timingPointer + QStringLiteral("/latencyNs");
    run->median = r.number(latencyNs, "median", latencyPointer, true);
    for (const char* stat : { "p20", "p80", "min", "max", "mean" }) {
        const double v = r.number(latencyNs, stat, latencyPointer, true);
        if (!std::isnan(v))
            run->statistics.append({ QStringLiteral("latency"), QLatin1String(stat), QStringLiteral("ns"), v });
    }
    // A run whose primary statistic is not a median (nvbench reports a mean) has that as its headline.
    if (const QString primary = r.string(timing, "primaryStatistic", timingPointer);
        std::isnan(run->median) && primary == QLatin1String("mean")) {
        run->median = r.number(latencyNs, "mean", latencyPointer, true);
        run->headlineStatistic = primary;
    }
    if (const V samples = memberOf(timing, "samplesNs")) {
        const QString samplesPointer = timingPointer + QStringLiteral("/samplesNs");
        if (!isArray(samples)) {
            r.error(samplesPointer, QStringLiteral("expected an array of numbers, found %1").arg(typeNameOf(samples)));
        } else {
            run->samples.reserve(sizeOf(samples));
            forEachElement(samples, [&](std::size_t i, V sample) {
                const double v = isNumber(sample) && Reader<V>::plausible(numberOf(sample), true)
                    ? numberOf(sample)
                    : r.checkNumber(sample, samplesPointer + QLatin1Char('/') + QString::number(i), true);
                if (std::isnan(v))
                    return false;
                run->samples.push_back(v);
                return true;
            });
        }
    }

    const QString measurementsPointer = specPointer + QStringLiteral("/measurements");
    QVector<Measurement> memory;
    if (const V measurements = memberOf(spec, "measurements")) {
        if (!isArray(measurements)) {
            r.error(measurementsPointer, QStringLiteral("expected an array, found %1").arg(typeNameOf(measurements)));
        } else {
            forEachElement(measurements, [&](std::size_t i, V m) {
                const QString mp = measurementsPointer + QLatin1Char('/') + QString::number(i);
                if (!isObject(m)) {
                    r.error(mp, QStringLiteral("expected an object, found %1").arg(typeNameOf(m)));
                    return true;
                }
                Measurement value;
                value.metric = r.string(m, "metric", mp);
                value.statistic = r.string(m, "statistic", mp);
                value.unit = r.string(m, "unit", mp);
                const bool isLatency = value.metric == QLatin1String("latency");
                bool timeUnit = false;
                const V raw = memberOf(m, "value");
                if (!raw) {
                    r.error(mp + QStringLiteral("/value"), QStringLiteral("the measurement has no value"));
                    return true;
                }
                double v = r.checkNumber(
                    raw, mp + QStringLiteral("/value"), isLatency && value.unit != QLatin1String("count"));
                if (std::isnan(v))
                    return true;
                if (isLatency && value.unit != QLatin1String("count")) {
                    v = toNs(v, value.unit, &timeUnit);
                    if (!timeUnit) {
                        r.error(mp + QStringLiteral("/unit"),
                            QStringLiteral("unknown latency unit \"%1\"").arg(value.unit));
                        return true;
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
                return true;
            });
        }
    }

    // sourceNative.metrics (ms_20, ms_50, ms_80) fill whatever the spec lacks.
    if (V metrics = r.object(native, "metrics", nativePointer)) {
        const QString mp = nativePointer + QStringLiteral("/metrics");
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
        r.error(timingPointer + QStringLiteral("/latencyNs/median"),
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
    const QString protocolPointer = pointer + QStringLiteral("/protocol/spec");
    V protocolSpec = r.object(protocol, "spec", pointer + QStringLiteral("/protocol"));
    V comparability = r.object(protocolSpec, "comparability", protocolPointer);
    const QString comparabilityPointer = protocolPointer + QStringLiteral("/comparability");
    run->protocolFamily = r.string(comparability, "family", comparabilityPointer);
    run->protocolNotes = r.string(comparability, "notes", comparabilityPointer);
    V measurement = r.object(protocolSpec, "measurement", protocolPointer);
    run->timer = r.string(measurement, "timer", protocolPointer + QStringLiteral("/measurement"));

    const QString environmentPointer = pointer + QStringLiteral("/environment/spec");
    V environmentSpec = r.object(environment, "spec", pointer + QStringLiteral("/environment"));
    V hardware = r.object(environmentSpec, "hardware", environmentPointer);
    const QString hardwarePointer = environmentPointer + QStringLiteral("/hardware");
    run->gpuVendor = r.string(hardware, "vendor", hardwarePointer);
    run->gpuProduct = r.string(hardware, "product", hardwarePointer);
    run->gpuArchitecture = r.string(hardware, "architecture", hardwarePointer);
    run->software = keyValues(r.object(environmentSpec, "software", environmentPointer));
    if (run->gpuSlug.isEmpty())
        run->gpuSlug = slugify(run->gpuProduct);
    if (r.failed())
        return nullptr;

    // The document as loaded, compact: from its own text when we have it (cheaper than dumping the tree).
    run->raw = sourceText.empty() ? dumpDocument() : minifyJson(sourceText);
    internStrings(*run);
    run->finalize();
    return run;
}

} // namespace

RunPtr runFromDocument(const json& document, const QString& file, const QString& pointer, Diagnostics& out)
{
    return runFromDocument(document, file, pointer, out, std::string_view());
}

RunPtr runFromDocument(
    const json& document, const QString& file, const QString& pointer, Diagnostics& out, std::string_view sourceText)
{
    return extractRun<JsonPtr>(&document, file, pointer, out, sourceText,
        [&document]() { return document.dump(-1, ' ', false, json::error_handler_t::replace); });
}

RunPtr runFromTape(const JsonTape& tape, const QString& file, const QString& pointer, Diagnostics& out)
{
    return extractRun<TapeRef>(TapeRef { &tape, 0 }, file, pointer, out, tape.text(), {});
}

} // namespace kix
