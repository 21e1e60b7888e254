// SPDX-License-Identifier: Apache-2.0
// The text fields of a run: workload slugs, times, digests, units.
#include "model/runfields.h"

#include "model/stringpool.h"

#include <QByteArray>
#include <QHash>
#include <QStringList>

#include <cmath>
#include <cstdlib>
#include <string>

namespace kix {

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

void setWorkload(std::string_view slug, Run& run)
{
    struct Parsed
    {
        QVector<WorkloadParam> params;
        QString dtype;
    };
    thread_local QHash<QByteArray, Parsed> cache;
    const QByteArray key = QByteArray::fromRawData(slug.data(), qsizetype(slug.size()));
    auto it = cache.constFind(key);
    if (it == cache.cend()) {
        if (cache.size() >= (1 << 14))
            cache.clear();
        Parsed parsed;
        parseWorkloadSlug(run.workloadSlug, parsed.params, parsed.dtype);
        for (WorkloadParam& p : parsed.params) {
            p.key = internUtf8(p.key.toStdString());
            p.value = internUtf8(p.value.toStdString());
        }
        parsed.dtype = internUtf8(parsed.dtype.toStdString());
        it = cache.insert(QByteArray(slug.data(), qsizetype(slug.size())), parsed);
    }
    run.workload = it->params;
    run.dtype = it->dtype;
}

QDateTime parseTime(std::string_view t)
{
    auto digits = [&](std::size_t at, std::size_t n, int& value) {
        value = 0;
        for (std::size_t i = at; i < at + n; ++i) {
            if (i >= t.size() || t[i] < '0' || t[i] > '9')
                return false;
            value = value * 10 + (t[i] - '0');
        }
        return true;
    };
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0, ms = 0;
    const bool basic = t.size() >= 20 && digits(0, 4, y) && t[4] == '-' && digits(5, 2, mo) && t[7] == '-'
        && digits(8, 2, d) && t[10] == 'T' && digits(11, 2, h) && t[13] == ':' && digits(14, 2, mi) && t[16] == ':'
        && digits(17, 2, sec);
    std::size_t at = 19;
    bool fast = basic;
    if (fast && t[at] == '.') { // milliseconds
        fast = digits(20, 3, ms);
        at = 23;
    }
    fast = fast && at + 1 == t.size() && t[at] == 'Z';
    if (fast) {
        const QDate date(y, mo, d);
        const QTime time(h, mi, sec, ms);
        if (date.isValid() && time.isValid())
            return QDateTime(date, time, Qt::UTC);
    }
    QDateTime parsed = QDateTime::fromString(QString::fromUtf8(t.data(), qsizetype(t.size())), Qt::ISODateWithMs);
    return parsed.isValid() ? parsed.toUTC() : parsed;
}

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

bool parseDuration(std::string_view t, double* ns)
{
    std::size_t i = 0;
    auto digitsFrom = [&](std::size_t at) {
        std::size_t j = at;
        while (j < t.size() && t[j] >= '0' && t[j] <= '9')
            ++j;
        return j;
    };
    i = digitsFrom(0);
    if (i == 0)
        return false;
    if (i < t.size() && t[i] == '.') {
        const std::size_t end = digitsFrom(i + 1);
        if (end == i + 1)
            return false;
        i = end;
    }
    const std::string number(t.substr(0, i));
    if (i < t.size() && (t[i] == ' ' || t[i] == '\t'))
        ++i;
    const std::string_view unit = t.substr(i);
    double scale = 0;
    if (unit == "ns")
        scale = 1;
    else if (unit == "us" || unit == "\xC2\xB5s")
        scale = 1e3;
    else if (unit == "ms")
        scale = 1e6;
    else if (unit == "s")
        scale = 1e9;
    else
        return false;
    // The format's own rule: the product in binary double arithmetic must be a safe integer.
    const double value = std::strtod(number.c_str(), nullptr) * scale;
    if (!(value >= 0) || value > 9007199254740991.0 || std::floor(value) != value)
        return false;
    *ns = value;
    return true;
}

std::string slugify(std::string_view text)
{
    std::string out;
    for (const char c : text) {
        const bool digit = c >= '0' && c <= '9';
        const bool upper = c >= 'A' && c <= 'Z';
        if (digit || upper || (c >= 'a' && c <= 'z'))
            out += upper ? char(c - 'A' + 'a') : c;
        else if (!out.empty() && out.back() != '-')
            out += '-';
    }
    while (!out.empty() && out.back() == '-')
        out.pop_back();
    return out;
}

QString slugify(const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    return QString::fromLatin1(slugify(std::string_view(utf8.constData(), std::size_t(utf8.size()))));
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

} // namespace kix
