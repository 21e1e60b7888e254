// SPDX-License-Identifier: Apache-2.0
#include "model/write/cellformat.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace kix {

namespace {

// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's civil_from_days).
void civilFromDays(std::int64_t days, int& year, unsigned& month, unsigned& day)
{
    days += 719468;
    const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const auto dayOfEra = unsigned(days - era * 146097);
    const unsigned yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
    const unsigned dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
    const unsigned mp = (5 * dayOfYear + 2) / 153;
    day = dayOfYear - (153 * mp + 2) / 5 + 1;
    month = mp < 10 ? mp + 3 : mp - 9;
    year = int(std::int64_t(yearOfEra) + era * 400 + (month <= 2 ? 1 : 0));
}

char* digits(char* out, unsigned value, int width)
{
    for (int i = width - 1; i >= 0; --i) {
        out[i] = char('0' + value % 10);
        value /= 10;
    }
    return out + width;
}

} // namespace

std::string_view formatNumberCell(double v, CellBuffer& buffer)
{
    if (std::isnan(v))
        return {};
    if (std::isinf(v))
        return v > 0 ? std::string_view("inf") : std::string_view("-inf");
    if (v == 0)
        return "0"; // Qt writes -0 as 0
    char* const end = buffer.bytes + sizeof buffer.bytes;
    std::to_chars_result r = std::to_chars(buffer.bytes, end, v, std::chars_format::scientific, 16);
    const char* digits = buffer.bytes + (v < 0 ? 1 : 0); // "d.dddddddddddddddde+XX": digit k at index k, k >= 2
    if (digits[16] == '5' && digits[17] == '0') {
        buffer.fallback = QByteArray::number(v, 'g', 15);
        return { buffer.fallback.constData(), std::size_t(buffer.fallback.size()) };
    }
    r = std::to_chars(buffer.bytes, end, v, std::chars_format::general, 15);
    return { buffer.bytes, std::size_t(r.ptr - buffer.bytes) };
}

std::string_view formatTimeCell(const QDateTime& time, CellBuffer& buffer)
{
    if (!time.isValid())
        return {};
    if (time.timeSpec() == Qt::UTC) {
        const std::int64_t ms = time.toMSecsSinceEpoch();
        const std::int64_t msPerDay = 86400000;
        const std::int64_t days = ms >= 0 ? ms / msPerDay : (ms - msPerDay + 1) / msPerDay;
        const auto ofDay = unsigned(ms - days * msPerDay);
        int year = 0;
        unsigned month = 0, day = 0;
        civilFromDays(days, year, month, day);
        if (year >= 1 && year <= 9999) {
            char* p = buffer.bytes;
            p = digits(p, unsigned(year), 4);
            *p++ = '-';
            p = digits(p, month, 2);
            *p++ = '-';
            p = digits(p, day, 2);
            *p++ = 'T';
            p = digits(p, ofDay / 3600000, 2);
            *p++ = ':';
            p = digits(p, ofDay / 60000 % 60, 2);
            *p++ = ':';
            p = digits(p, ofDay / 1000 % 60, 2);
            *p++ = '.';
            p = digits(p, ofDay % 1000, 3);
            *p++ = 'Z';
            return { buffer.bytes, std::size_t(p - buffer.bytes) };
        }
    }
    buffer.fallback = time.toString(Qt::ISODateWithMs).toUtf8();
    return { buffer.fallback.constData(), std::size_t(buffer.fallback.size()) };
}

} // namespace kix
