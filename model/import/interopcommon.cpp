// SPDX-License-Identifier: Apache-2.0
#include "model/import/interopcommon.h"

#include "model/format/vocabulary.h"
#include "model/import/ligernaming.h"
#include "model/read/jsonreader.h"

#include <QFileInfo>

#include <cmath>
#include <cstdlib>

namespace kix::interop::detail {

void Schema::error(const QString& pointer, const QString& message)
{
    m_out.append(makeError(m_file, pointer, message));
    ++m_errors;
}

void Schema::warning(const QString& pointer, const QString& message)
{
    m_out.append(makeWarning(m_file, pointer, message));
}

namespace {

bool isKind(const json& v, Kind kind)
{
    switch (kind) {
    case Kind::Object:
        return v.is_object();
    case Kind::Array:
        return v.is_array();
    case Kind::String:
        return v.is_string();
    case Kind::Number:
        return v.is_number();
    case Kind::Bool:
        return v.is_boolean();
    case Kind::NumberOrString:
        return asNumber(v).has_value();
    case Kind::Scalar:
        return v.is_string() || v.is_number() || v.is_boolean();
    }
    return false;
}

} // namespace

const json* Schema::member(const json& object, const char* key, const QString& pointer, Kind kind, bool required)
{
    const QString at = join(pointer, key);
    if (!object.is_object())
        return nullptr;
    const auto it = object.find(key);
    if (it == object.end() || (!required && it->is_null())) {
        if (required)
            error(at, QStringLiteral("missing \"%1\" (%2)").arg(QLatin1String(key), kindName(kind)));
        return nullptr;
    }
    if (!isKind(*it, kind)) {
        error(at, QStringLiteral("expected %1, found %2").arg(kindName(kind), typeName(*it)));
        return nullptr;
    }
    return &*it;
}

const json* Schema::require(const json& object, const char* key, const QString& pointer, Kind kind)
{
    return member(object, key, pointer, kind, true);
}

const json* Schema::optional(const json& object, const char* key, const QString& pointer, Kind kind)
{
    return member(object, key, pointer, kind, false);
}

QString join(const QString& pointer, const char* key)
{
    return pointer + QLatin1Char('/') + pointerToken(key);
}

QString join(const QString& pointer, std::size_t index)
{
    return pointer + QLatin1Char('/') + QString::number(index);
}

QString kindName(Kind kind)
{
    switch (kind) {
    case Kind::Object:
        return QStringLiteral("an object");
    case Kind::Array:
        return QStringLiteral("an array");
    case Kind::String:
        return QStringLiteral("a string");
    case Kind::Number:
        return QStringLiteral("a number");
    case Kind::Bool:
        return QStringLiteral("true or false");
    case Kind::NumberOrString:
        return QStringLiteral("a number (or a string holding one)");
    case Kind::Scalar:
        return QStringLiteral("a string or a number");
    }
    return {};
}

QString typeName(const json& value)
{
    if (value.is_string())
        return QStringLiteral("the string \"%1\"").arg(QString::fromStdString(value.get<std::string>()).left(40));
    if (value.is_number())
        return QStringLiteral("the number %1").arg(QString::fromStdString(value.dump()));
    return QString::fromLatin1(value.type_name());
}

std::optional<double> asNumber(const json& value)
{
    if (value.is_number())
        return value.get<double>();
    if (!value.is_string())
        return std::nullopt;
    const std::string& s = value.get_ref<const std::string&>();
    if (s.empty())
        return std::nullopt;
    char* end = nullptr;
    const double d = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size())
        return std::nullopt;
    return d;
}

std::string providerFromFile(const QString& file, const char* fallback)
{
    const QString base = QFileInfo(file).completeBaseName();
    return base.isEmpty() ? std::string(fallback) : slugValue(base.toStdString());
}

std::string slugValue(const std::string& value)
{
    std::string out;
    for (const char c : value) {
        if (c == '/' || c == '-' || c == '=' || c == ' ' || c == '\t' || c == '\n')
            out += '_';
        else
            out += c;
    }
    return out.empty() ? std::string("_") : out;
}

std::string knownDtype(const std::string& value)
{
    std::string v = liger::lower(value);
    if (v.rfind("torch.", 0) == 0)
        v = v.substr(6);
    if (v == "fp32" || v == "float32" || v == "float" || v == "f32")
        return "fp32";
    if (v == "fp16" || v == "float16" || v == "half" || v == "f16")
        return "fp16";
    if (v == "bf16" || v == "bfloat16")
        return "bf16";
    if (v == "fp64" || v == "float64" || v == "double" || v == "f64")
        return "fp64";
    if (v == "fp8" || v == "float8_e4m3fn" || v == "float8_e5m2")
        return "fp8";
    if (v == "int8")
        return "int8";
    if (v == "tf32")
        return "tf32";
    return {};
}

std::string workloadSlug(const std::vector<std::pair<std::string, std::string>>& params, const std::string& dtype)
{
    std::string out;
    for (const auto& [key, value] : params) {
        if (!out.empty())
            out += '-';
        out += slugValue(key) + '=' + slugValue(value);
    }
    if (!dtype.empty()) {
        if (!out.empty())
            out += '-';
        out += dtype;
    }
    return out.empty() ? std::string("default") : out;
}

QDateTime parseTime(const std::string& text)
{
    const QString s = QString::fromStdString(text);
    QDateTime t = QDateTime::fromString(s, Qt::ISODateWithMs);
    if (!t.isValid())
        t = QDateTime::fromString(s, Qt::ISODate);
    if (!t.isValid()) {
        // Python's isoformat() writes microseconds, which Qt does not read: cut them to milliseconds.
        const qsizetype dot = s.indexOf(QLatin1Char('.'));
        if (dot > 0) {
            qsizetype end = dot + 1;
            while (end < s.size() && s.at(end).isDigit())
                ++end;
            const QString trimmed = s.left(std::min<qsizetype>(end, dot + 4)) + s.mid(end);
            t = QDateTime::fromString(trimmed, Qt::ISODateWithMs);
        }
    }
    if (!t.isValid())
        return {};
    if (t.timeSpec() == Qt::LocalTime)
        t.setTimeSpec(Qt::UTC); // no zone written: the tools write UTC (pytest-benchmark) or say so
    return t.toUTC();
}

std::string isoUtcMs(const QDateTime& time)
{
    return time.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzzZ")).toStdString();
}

std::string timestampPart(const QDateTime& time)
{
    return time.toUTC().toString(QStringLiteral("yyyy-MM-dd-HH-mm-ss")).toStdString();
}

json measurement(const std::string& metric, const std::string& statistic, const std::string& unit, double value)
{
    return { { "metric", metric }, { "statistic", statistic }, { "unit", unit }, { "value", value } };
}

double toNs(double value, const std::string& unit, bool* known)
{
    *known = true;
    if (unit == "ns")
        return value;
    if (unit == "us")
        return value * 1e3;
    if (unit == "ms")
        return value * 1e6;
    if (unit == "s")
        return value * 1e9;
    *known = false;
    return value;
}

json resource(const char* kind, const std::string& name, const std::string& title, json spec)
{
    if (std::string_view(kind) == format::kExecutionEnvironment)
        return format::environmentResource(name, title, spec);
    return format::resource(kind, name, title, std::move(spec));
}

json protocolDocument(const std::string& family, const std::string& name, const std::string& title,
    const std::string& harness, const std::string& repository, const std::string& timer,
    const std::string& primaryStatistic, const std::string& notes)
{
    json spec = { { "harness", { { "name", harness }, { "repository", repository } } },
        { "measurement", { { "timer", timer }, { "primaryStatistic", primaryStatistic } } },
        { "comparability", { { "family", family }, { "notes", notes } } } };
    return format::protocolResource(name, title, spec);
}

format::RunDocument buildDocument(const RunParts& p)
{
    const std::string externalId
        = p.kernel + '/' + p.pass + '/' + p.provider + '/' + p.gpuSlug + '/' + p.workloadSlug + '/' + p.timestamp;
    format::DocumentBuilder b;
    b.setName(slugify(externalId))
        .setTitle(p.title)
        .setStatus(p.status)
        .setProtocol(p.protocol)
        .setEnvironment(p.environment)
        // The tools name no workload or implementation resource: the digests name what they do say, and the
        // resources themselves do not travel.
        .setWorkload(format::resource(format::kWorkloadCase, p.workloadSlug, {}, p.workload), false)
        .setImplementation(format::resource(format::kImplementationRevision, p.provider, {}, p.implementation), false);
    const QDateTime observed = parseTime(p.observedAt);
    if (observed.isValid()) {
        b.setObservedAt(observed);
    } else {
        // observedAt is required and the tool recorded no time: the source file's modification time (the same
        // document on every import of that file), else the time kix read it; a label says which.
        const QFileInfo info(p.file);
        if (!p.file.isEmpty() && info.exists() && info.lastModified().isValid()) {
            b.setObservedAt(info.lastModified().toUTC());
            b.addLabel("observed_at", "not recorded by the tool: the source file's modification time");
        } else {
            b.setObservedAt(QDateTime::currentDateTimeUtc());
            b.addLabel("observed_at", "not recorded by the tool: the time kix read it");
        }
    }
    if (!p.labels.empty()) {
        for (auto it = p.labels.begin(); it != p.labels.end(); ++it)
            b.addLabel(it.key(), it.value());
    }
    if (!p.latencyNs.empty())
        b.setTiming(p.primaryStatistic, p.latencyNs);
    b.setSamples(p.samplesNs);
    for (const json& m : p.measurements) {
        if (m.is_object() && m.contains("value") && m["value"].is_number())
            b.addMeasurement(m.value("metric", std::string("value")), m.value("statistic", std::string("value")),
                m.value("unit", std::string("value")), m["value"].get<double>());
    }
    json facts = p.sourceNative.is_object() ? p.sourceNative : json::object();
    const std::string source = facts.value("source", std::string("unknown"));
    json metrics = facts.contains("metrics") ? facts["metrics"] : json();
    facts.erase("source");
    facts.erase("metrics");
    b.setSourceNative(source, p.kernel + '/' + p.pass, externalId, metrics, facts);
    return b.build();
}

void addDocument(ImportResult& result, const RunParts& parts)
{
    format::RunDocument d = buildDocument(parts);
    result.documents.push_back(std::move(d.document));
    result.samples.push_back(std::move(d.samplesNs));
}

} // namespace kix::interop::detail
