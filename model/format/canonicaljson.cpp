// SPDX-License-Identifier: Apache-2.0
// RFC 8785 (JCS) canonical JSON: the pieces of the one walk (numbers, strings, key order); see canonicaljson.h.
#include "model/format/canonicaljson.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <system_error>
#include <utility>
#include <vector>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace kix::format {
namespace {

// Decodes one UTF-8 sequence at s[i]; advances i. Returns U+FFFD for a malformed sequence (one byte consumed).
char32_t decodeUtf8(const std::string& s, std::size_t& i)
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = byte(i);
    if (c < 0x80) {
        ++i;
        return c;
    }
    int length = 0;
    char32_t cp = 0;
    char32_t least = 0;
    if ((c & 0xE0) == 0xC0) {
        length = 2;
        cp = c & 0x1F;
        least = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        length = 3;
        cp = c & 0x0F;
        least = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        length = 4;
        cp = c & 0x07;
        least = 0x10000;
    } else {
        ++i;
        return 0xFFFD;
    }
    if (i + std::size_t(length) > s.size()) {
        ++i;
        return 0xFFFD;
    }
    for (int k = 1; k < length; ++k) {
        const unsigned char next = byte(i + std::size_t(k));
        if ((next & 0xC0) != 0x80) {
            ++i;
            return 0xFFFD;
        }
        cp = (cp << 6) | (next & 0x3F);
    }
    if (cp < least || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        ++i;
        return 0xFFFD;
    }
    i += std::size_t(length);
    return cp;
}

void appendUtf8(std::string& out, char32_t cp)
{
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

std::u16string utf16(const std::string& s)
{
    std::u16string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const char32_t cp = decodeUtf8(s, i);
        if (cp >= 0x10000) {
            out += char16_t(0xD800 + ((cp - 0x10000) >> 10));
            out += char16_t(0xDC00 + ((cp - 0x10000) & 0x3FF));
        } else {
            out += char16_t(cp);
        }
    }
    return out;
}

void appendString(std::string& out, const std::string& s)
{
    static const char hex[] = "0123456789abcdef";
    out += '"';
    for (std::size_t i = 0; i < s.size();) {
        const char32_t cp = decodeUtf8(s, i);
        switch (cp) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (cp < 0x20) {
                out += "\\u00";
                out += hex[cp >> 4];
                out += hex[cp & 0xF];
            } else {
                appendUtf8(out, cp);
            }
        }
    }
    out += '"';
}

} // namespace

namespace {

// ECMAScript's Number::toString of a finite, non-zero double, written at `out` (at most 32 bytes); returns the end.
char* writeEcmaScriptNumber(double value, char* out)
{
    // Shortest digits that round-trip, as "d.ddde±x".
    char text[40];
    const std::to_chars_result r
        = std::to_chars(text, text + sizeof text, std::fabs(value), std::chars_format::scientific);
    if (r.ec != std::errc())
        throw std::invalid_argument("canonical JSON: cannot format a number");
    const char* e = static_cast<const char*>(std::memchr(text, 'e', std::size_t(r.ptr - text)));
    if (!e)
        throw std::invalid_argument("canonical JSON: cannot format a number");
    char digits[24];
    int k = 0;
    for (const char* p = text; p < e; ++p) {
        if (*p != '.')
            digits[k++] = *p;
    }
    while (k > 1 && digits[k - 1] == '0')
        --k;
    int exponent = 0;
    const char* p = e + 1;
    const bool negativeExponent = *p == '-';
    if (*p == '-' || *p == '+')
        ++p;
    for (; p < r.ptr; ++p)
        exponent = exponent * 10 + (*p - '0');
    const int n = (negativeExponent ? -exponent : exponent) + 1; // value = 0.d1d2...dk × 10^n
    char* o = out;
    if (value < 0)
        *o++ = '-';
    auto put = [&](const char* from, int count) {
        std::memcpy(o, from, std::size_t(count));
        o += count;
    };
    if (k <= n && n <= 21) {
        put(digits, k);
        std::memset(o, '0', std::size_t(n - k));
        o += n - k;
    } else if (0 < n && n <= 21) {
        put(digits, n);
        *o++ = '.';
        put(digits + n, k - n);
    } else if (-6 < n && n <= 0) {
        *o++ = '0';
        *o++ = '.';
        std::memset(o, '0', std::size_t(-n));
        o += -n;
        put(digits, k);
    } else {
        *o++ = digits[0];
        if (k > 1) {
            *o++ = '.';
            put(digits + 1, k - 1);
        }
        *o++ = 'e';
        *o++ = n - 1 > 0 ? '+' : '-';
        o = std::to_chars(o, o + 8, std::abs(n - 1)).ptr;
    }
    return o;
}

} // namespace

std::string ecmaScriptNumber(double value)
{
    if (!std::isfinite(value))
        throw std::invalid_argument("canonical JSON: NaN and infinity are not JSON numbers");
    if (value == 0)
        return "0"; // -0 too
    char buffer[40];
    return std::string(buffer, writeEcmaScriptNumber(value, buffer));
}

void appendCanonicalNumber(std::string& out, double value)
{
    // an integer below 2^53 is written by ECMAScript as its digits: the common case, without the shortest-digits search
    if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0 && !(value == 0 && std::signbit(value))) {
        char digits[24];
        const auto written = std::to_chars(digits, digits + sizeof digits, static_cast<long long>(value));
        out.append(digits, written.ptr);
        return;
    }
    if (!std::isfinite(value))
        throw std::invalid_argument("canonical JSON: NaN and infinity are not JSON numbers");
    if (value == 0) {
        out += '0'; // -0
        return;
    }
    char buffer[40];
    out.append(buffer, writeEcmaScriptNumber(value, buffer));
}

namespace {

// Printable ASCII other than '"' and '\\': written as it is.
// Sixteen (SSE2) or eight bytes at a time: a byte below 0x20, at or above 0x7F, '"' or '\\' stops it (the bit tricks of
// "hasless" and "haszero": a borrow can only start at a byte that is itself one of those, so none is missed and
// none is invented); the tail byte by byte.
bool plainAscii(std::string_view s)
{
    constexpr std::uint64_t ones = 0x0101010101010101ull;
    constexpr std::uint64_t highs = 0x8080808080808080ull;
    auto hasZero = [&](std::uint64_t x) { return (x - ones) & ~x & highs; };
    const char* p = s.data();
    std::size_t n = s.size();
#ifdef __SSE2__
    // sixteen at a time: a signed byte below 0x20 is a control character or one at or above 0x80
    const __m128i space = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'),
                  del = _mm_set1_epi8(0x7F);
    for (; n >= 16; p += 16, n -= 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const __m128i bad = _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, quote)),
            _mm_or_si128(_mm_cmpeq_epi8(v, backslash), _mm_cmpeq_epi8(v, del)));
        if (_mm_movemask_epi8(bad) != 0)
            return false;
    }
#endif
    for (; n >= 8; p += 8, n -= 8) {
        std::uint64_t v = 0;
        std::memcpy(&v, p, 8);
        if ((v & highs) || ((v - ones * 0x20) & ~v & highs) || hasZero(v ^ (ones * '"')) || hasZero(v ^ (ones * '\\'))
            || hasZero(v ^ (ones * 0x7F)))
            return false;
    }
    for (; n > 0; ++p, --n) {
        const char c = *p;
        if (c < 0x20 || c > 0x7E || c == '"' || c == '\\')
            return false;
    }
    return true;
}

bool ascii(std::string_view s)
{
    const char* p = s.data();
    std::size_t n = s.size();
    for (; n >= 8; p += 8, n -= 8) {
        std::uint64_t v = 0;
        std::memcpy(&v, p, 8);
        if (v & 0x8080808080808080ull)
            return false;
    }
    for (; n > 0; ++p, --n) {
        if (static_cast<unsigned char>(*p) >= 0x80)
            return false;
    }
    return true;
}

} // namespace

void appendCanonicalString(std::string& out, std::string_view utf8)
{
    if (plainAscii(utf8)) { // the common case, without decoding
        out += '"';
        out.append(utf8.data(), utf8.size());
        out += '"';
        return;
    }
    appendString(out, std::string(utf8));
}

bool utf16Less(std::string_view a, std::string_view b)
{
    if (ascii(a) && ascii(b)) // ASCII sorts the same in bytes and in UTF-16 code units
        return a < b;
    return utf16(std::string(a)) < utf16(std::string(b));
}

std::string canonicalJson(const nlohmann::json& value)
{
    std::string out;
    appendCanonical(out, value);
    return out;
}

} // namespace kix::format
