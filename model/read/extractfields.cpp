// SPDX-License-Identifier: Apache-2.0
// Reading one document's fields: type errors against JSON pointers, latencies checked for plausibility.
#include "model/read/extractfields.h"

#include "model/runfields.h"
#include "model/stringpool.h"

namespace kix::extract {

QVector<KeyValue> keyValues(JsonValue object)
{
    QVector<KeyValue> out;
    if (!isObject(object))
        return out;
    const simdjson::dom::object members = jsondom::asObject(object.element);
    out.reserve(qsizetype(members.size()));
    for (const simdjson::dom::key_value_pair member : members) {
        const JsonValue value { member.value, true };
        out.append({ internUtf8(member.key),
            isString(value) ? internUtf8(utf8Of(value)) : QString::fromStdString(simdjson::minify(member.value)) });
    }
    return out;
}

FieldReader::FieldReader(const QString& file, Diagnostics& out, bool duplicateKeys)
    : m_file(file)
    , m_out(out)
    , m_duplicateKeys(duplicateKeys)
{
}

QString FieldReader::textOf(JsonValue parent, std::string_view key) const
{
    const JsonValue v = member(parent, key);
    return isString(v) ? internUtf8(utf8Of(v)) : QString();
}

void FieldReader::error(const QString& pointer, const QString& message)
{
    m_out.append(makeError(m_file, pointer, message));
    m_failed = true;
}

void FieldReader::warning(const QString& pointer, const QString& message)
{
    m_out.append(makeWarning(m_file, pointer, message));
}

JsonValue FieldReader::object(JsonValue parent, const char* key, const Path& base)
{
    const JsonValue v = member(parent, key);
    if (v && !isObject(v)) {
        error(Path(base, key), QStringLiteral("expected an object, found %1").arg(typeNameOf(v)));
        return JsonValue {};
    }
    return v;
}

std::string_view FieldReader::utf8(JsonValue parent, const char* key, const Path& base)
{
    const JsonValue v = member(parent, key);
    if (!v || isNull(v))
        return {};
    if (!isString(v)) {
        error(Path(base, key), QStringLiteral("expected a string, found %1").arg(typeNameOf(v)));
        return {};
    }
    return utf8Of(v);
}

QString FieldReader::shared(JsonValue parent, const char* key, const Path& base)
{
    return internUtf8(utf8(parent, key, base));
}

QString FieldReader::own(JsonValue parent, const char* key, const Path& base)
{
    return fromUtf8(utf8(parent, key, base));
}

double FieldReader::number(JsonValue parent, const char* key, const Path& base, bool isLatencyNs)
{
    const JsonValue v = member(parent, key);
    if (!v || isNull(v))
        return std::nan("");
    if (isNumber(v) && plausible(numberOf(v), isLatencyNs))
        return numberOf(v);
    return checkNumber(v, Path(base, key), isLatencyNs);
}

double FieldReader::duration(JsonValue parent, const char* key, const Path& base)
{
    const JsonValue v = member(parent, key);
    if (!v || isNull(v))
        return std::nan("");
    if (isString(v)) {
        double ns = 0;
        if (parseDuration(utf8Of(v), &ns) && plausible(ns, true))
            return ns;
        error(Path(base, key),
            QStringLiteral("\"%1\" is not a duration (an integer in ns, or digits and ns, us, µs, ms or s)")
                .arg(fromUtf8(utf8Of(v))));
        return std::nan("");
    }
    return number(parent, key, base, true);
}

double FieldReader::checkNumber(JsonValue v, const Path& pointer, bool isLatencyNs)
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

} // namespace kix::extract
