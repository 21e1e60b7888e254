// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (the run extractor): the members of one kernelindex document's simdjson tree, read with
// their types checked and their JSON pointers kept for the diagnostics.

#include "model/diagnostic.h"
#include "model/read/jsondom.h"
#include "model/run.h"

#include <QString>
#include <QVector>

#include <cmath>
#include <cstring>
#include <string_view>

namespace kix::extract {

using jsondom::Element;
using simdjson::dom::element_type;

constexpr double kMaxLatencyNs = 1e15; // about 11.6 days: anything above is a unit mistake, not a measurement

// A JSON pointer made into text only when a diagnostic needs it. A Path refers to its parent, which must outlive it.
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

// A member's value, or nothing when the member is absent.
struct JsonValue
{
    Element element;
    bool present = false;
    explicit operator bool() const { return present; }
};

inline bool isObject(JsonValue v)
{
    return v && v.element.type() == element_type::OBJECT;
}
inline bool isArray(JsonValue v)
{
    return v && v.element.type() == element_type::ARRAY;
}
inline bool isString(JsonValue v)
{
    return v && v.element.type() == element_type::STRING;
}
inline bool isNumber(JsonValue v)
{
    const element_type t = v.element.type();
    return v && (t == element_type::DOUBLE || t == element_type::INT64 || t == element_type::UINT64);
}
inline bool isNull(JsonValue v)
{
    return v && v.element.type() == element_type::NULL_VALUE;
}
inline double numberOf(JsonValue v)
{
    double d = 0;
    if (v.element.get_double().get(d) != simdjson::SUCCESS)
        return {};
    return d;
}
inline std::string_view utf8Of(JsonValue v)
{
    std::string_view s;
    if (v.element.get_string().get(s) != simdjson::SUCCESS)
        return {};
    return s;
}
inline QString typeNameOf(JsonValue v)
{
    return jsondom::typeName(v.element);
}
inline QString fromUtf8(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// Members in document order; a value that is not a string is kept as its compact JSON text.
QVector<KeyValue> keyValues(JsonValue object);

// Reads the fields of one document and records type errors against their JSON pointers.
class FieldReader
{
public:
    // `duplicateKeys`: the document may hold a key twice (the last value is read); false reads the first match.
    FieldReader(const QString& file, Diagnostics& out, bool duplicateKeys);

    // The member's value; with a duplicated key, the last one (as nlohmann reads it, and as the warning says).
    JsonValue member(JsonValue parent, std::string_view key) const
    {
        JsonValue found;
        if (!isObject(parent))
            return found;
        for (const simdjson::dom::key_value_pair m : jsondom::asObject(parent.element)) {
            if (m.key.size() == key.size()
                && (key.empty() || (m.key[0] == key[0] && std::memcmp(m.key.data(), key.data(), key.size()) == 0))) {
                found = { m.value, true };
                if (!m_duplicateKeys)
                    break;
            }
        }
        return found;
    }
    // The member's text when it is a string (shared through the pool), else "": no diagnostic.
    QString textOf(JsonValue parent, std::string_view key) const;

    bool failed() const { return m_failed; }
    void error(const QString& pointer, const QString& message);
    void warning(const QString& pointer, const QString& message);

    // The member as an object, or absent; a present member of another type is an error.
    JsonValue object(JsonValue parent, const char* key, const Path& base);
    // The member's UTF-8 text ("" when absent or null); a present member of another type is an error.
    std::string_view utf8(JsonValue parent, const char* key, const Path& base);
    // A string that repeats across runs, shared through the pool.
    QString shared(JsonValue parent, const char* key, const Path& base);
    // A string of this run alone.
    QString own(JsonValue parent, const char* key, const Path& base);
    // A latency-like number: finite, not negative, not absurd. NaN when absent.
    double number(JsonValue parent, const char* key, const Path& base, bool isLatencyNs);
    // A latencyNs duration: integer ns or a string with a unit ("8.1 us"), as the format allows. NaN when absent.
    double duration(JsonValue parent, const char* key, const Path& base);
    // The value as a number, or NaN and an error that says why it is none (or not a plausible latency).
    double checkNumber(JsonValue v, const Path& pointer, bool isLatencyNs);

    static bool plausible(double d, bool isLatencyNs)
    {
        return std::isfinite(d) && (!isLatencyNs || (d >= 0 && d <= kMaxLatencyNs));
    }

private:
    QString m_file;
    Diagnostics& m_out;
    bool m_duplicateKeys;
    bool m_failed = false;
};

} // namespace kix::extract
