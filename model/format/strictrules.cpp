// SPDX-License-Identifier: Apache-2.0
#include "model/format/strictrules.h"

#include <QStringList>

#include <cmath>
#include <optional>

namespace kix::format::strict {

QString child(const QString& pointer, const std::string& key)
{
    QString token = QString::fromStdString(key);
    token.replace(QLatin1Char('~'), QLatin1String("~0")).replace(QLatin1Char('/'), QLatin1String("~1"));
    return pointer + QLatin1Char('/') + token;
}

QString item(const QString& pointer, std::size_t i)
{
    return pointer + QLatin1Char('/') + QString::number(i);
}

QString shown(const json& v)
{
    std::string text = v.dump(-1, ' ', false, json::error_handler_t::replace);
    if (text.size() > 80)
        text = text.substr(0, 77) + "...";
    return QString::fromStdString(text);
}

std::size_t codePoints(const std::string& s)
{
    std::size_t n = 0;
    for (const unsigned char c : s)
        n += (c & 0xC0) != 0x80 ? 1 : 0;
    return n;
}

void add(StrictReport& r, const QString& pointer, const QString& message)
{
    r.findings.push_back({ pointer, message });
}

Check object(std::vector<Field> fields)
{
    return [fields = std::move(fields)](const json& v, const QString& p, StrictReport& r) {
        if (!v.is_object()) {
            add(r, p, QStringLiteral("expected an object, found %1").arg(shown(v)));
            return;
        }
        for (const Field& f : fields) {
            const auto it = v.find(f.name);
            if (it == v.end()) {
                if (f.required)
                    add(r, p, QStringLiteral("missing required field \"%1\"").arg(QLatin1String(f.name)));
                continue;
            }
            f.check(*it, child(p, f.name), r);
        }
        for (const auto& [key, value] : v.items()) {
            (void)value;
            bool known = false;
            for (const Field& f : fields)
                known = known || key == f.name;
            if (!known)
                add(r, child(p, key),
                    QStringLiteral("unknown field \"%1\" (v1alpha1 refuses fields it does not define)")
                        .arg(QString::fromStdString(key)));
        }
    };
}

Field req(const char* name, Check check)
{
    return { name, std::move(check), true };
}
Field opt(const char* name, Check check)
{
    return { name, std::move(check), false };
}

Pattern pattern(const char* text)
{
    return { text, std::make_shared<const std::regex>(text, std::regex::ECMAScript) };
}
const Pattern& token()
{
    static const Pattern p = pattern("^[a-z][a-z0-9_]*$");
    return p;
}
const Pattern& digest()
{
    static const Pattern p = pattern("^sha256:[0-9a-f]{64}$");
    return p;
}
const Pattern& commit()
{
    static const Pattern p = pattern("^[0-9a-f]{40}$");
    return p;
}
const Pattern& name()
{
    static const Pattern p = pattern("^[a-z0-9][a-z0-9._-]*$");
    return p;
}
const Pattern& slug()
{
    static const Pattern p = pattern("^[a-z0-9][a-z0-9-]*$");
    return p;
}

bool matches(const Pattern& pat, const std::string& s)
{
    return std::regex_search(s, *pat.re);
}

Check string(const Pattern* pat, std::size_t maxLength)
{
    const std::optional<Pattern> copy = pat ? std::optional<Pattern>(*pat) : std::nullopt;
    return [copy, maxLength](const json& v, const QString& p, StrictReport& r) {
        if (!v.is_string()) {
            add(r, p, QStringLiteral("expected a string, found %1").arg(shown(v)));
            return;
        }
        const std::string& s = v.get_ref<const std::string&>();
        if (maxLength && codePoints(s) > maxLength)
            add(r, p, QStringLiteral("%1 characters, more than the limit of %2").arg(codePoints(s)).arg(maxLength));
        if (copy && !matches(*copy, s))
            add(r, p, QStringLiteral("%1 does not match %2").arg(shown(v), QLatin1String(copy->text)));
    };
}
Check text(std::size_t maxLength)
{
    return string(nullptr, maxLength);
}
Check str(const Pattern& pat, std::size_t maxLength)
{
    return string(&pat, maxLength);
}

Check oneOf(std::vector<std::string> values, const char* what)
{
    return [values = std::move(values), what](const json& v, const QString& p, StrictReport& r) {
        if (v.is_string()) {
            for (const std::string& allowed : values) {
                if (v.get_ref<const std::string&>() == allowed)
                    return;
            }
        }
        QStringList names;
        for (const std::string& allowed : values)
            names << QString::fromStdString(allowed);
        add(r, p,
            QStringLiteral("%1 is not a v1alpha1 %2 (%3)")
                .arg(shown(v), QLatin1String(what), names.join(QStringLiteral(", "))));
    };
}

bool isWhole(const json& v)
{
    if (v.is_number_integer())
        return true;
    return v.is_number_float() && std::isfinite(v.get<double>()) && std::floor(v.get<double>()) == v.get<double>();
}

Check number(bool integer, Range range)
{
    return [integer, range](const json& v, const QString& p, StrictReport& r) {
        if (!v.is_number() || (integer && !isWhole(v))) {
            add(r, p, QStringLiteral("expected %1, found %2").arg(integer ? "an integer" : "a number", shown(v)));
            return;
        }
        const double x = v.get<double>();
        if ((range.low == Bound::Inclusive && x < range.min) || (range.low == Bound::Exclusive && x <= range.min))
            add(r, p,
                QStringLiteral("%1 is below the minimum %2%3")
                    .arg(shown(v), range.low == Bound::Exclusive ? QStringLiteral("(exclusive) ") : QString())
                    .arg(range.min));
        if ((integer || range.hasMax) && x > range.max)
            add(r, p, QStringLiteral("%1 is above the maximum %2").arg(shown(v)).arg(range.max, 0, 'f', 0));
    };
}
Check integer(Bound low, double min)
{
    return number(true, { low, min, kMaxSafe, true });
}
Check positiveInteger()
{
    return integer(Bound::Exclusive, 0);
}
Check signedInteger()
{
    return integer(Bound::Inclusive, -kMaxSafe);
}
Check anyNumber()
{
    return number(false, {});
}
Check nonNegative(double max)
{
    return number(false, { Bound::Inclusive, 0, max, max > 0 });
}
Check positiveNumber()
{
    return number(false, { Bound::Exclusive, 0, 0, false });
}

Check boolean()
{
    return [](const json& v, const QString& p, StrictReport& r) {
        if (!v.is_boolean())
            add(r, p, QStringLiteral("expected true or false, found %1").arg(shown(v)));
    };
}

Check constant(const char* value)
{
    return [value](const json& v, const QString& p, StrictReport& r) {
        if (!v.is_string() || v.get_ref<const std::string&>() != value)
            add(r, p, QStringLiteral("%1 must be \"%2\"").arg(shown(v), QLatin1String(value)));
    };
}

// An object whose keys match `names` and whose values pass `value`.
Check mapOf(const Pattern* names, std::size_t maxNameLength, Check value)
{
    const std::optional<Pattern> copy = names ? std::optional<Pattern>(*names) : std::nullopt;
    return [copy, maxNameLength, value = std::move(value)](const json& v, const QString& p, StrictReport& r) {
        if (!v.is_object()) {
            add(r, p, QStringLiteral("expected an object, found %1").arg(shown(v)));
            return;
        }
        for (const auto& [key, member] : v.items()) {
            if (copy && !matches(*copy, key))
                add(r, child(p, key),
                    QStringLiteral("the name \"%1\" does not match %2")
                        .arg(QString::fromStdString(key), QLatin1String(copy->text)));
            if (maxNameLength && codePoints(key) > maxNameLength)
                add(r, child(p, key), QStringLiteral("a name longer than %1 characters").arg(maxNameLength));
            value(member, child(p, key), r);
        }
    };
}

Check array(Check items, std::size_t minItems)
{
    return [items = std::move(items), minItems](const json& v, const QString& p, StrictReport& r) {
        if (!v.is_array()) {
            add(r, p, QStringLiteral("expected a list, found %1").arg(shown(v)));
            return;
        }
        if (v.size() < minItems)
            add(r, p, QStringLiteral("at least %1 item(s) expected").arg(minItems));
        for (std::size_t i = 0; i < v.size(); ++i)
            items(v[i], item(p, i), r);
    };
}

Check duration()
{
    return [](const json& v, const QString& p, StrictReport& r) {
        QString why;
        if (!durationNanoseconds(v, nullptr, &why))
            add(r, p, why);
    };
}

Check timestamp()
{
    return [](const json& v, const QString& p, StrictReport& r) {
        static const std::regex form(R"(^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|.*)$)");
        std::smatch m;
        const std::string s = v.is_string() ? v.get<std::string>() : std::string();
        if (!v.is_string() || !std::regex_match(s, m, form)) {
            add(r, p, QStringLiteral("%1 is not an ISO 8601 date-time (YYYY-MM-DDTHH:MM:SSZ)").arg(shown(v)));
            return;
        }
        if (m[7] != "Z") {
            add(r, p, QStringLiteral("%1 is not in UTC: the format asks for a time ending in Z").arg(shown(v)));
            return;
        }
        const int year = std::stoi(m[1]);
        const int month = std::stoi(m[2]);
        const int day = std::stoi(m[3]);
        const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
        if (month < 1 || month > 12 || day < 1 || day > days[month - 1] + (month == 2 && leap ? 1 : 0))
            add(r, p, QStringLiteral("%1 is not a calendar date").arg(shown(v)));
    };
}

} // namespace kix::format::strict
