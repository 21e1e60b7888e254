// SPDX-License-Identifier: Apache-2.0
// RFC 8785 (JCS) canonical JSON; see canonicaljson.h.
#include "model/format/canonicaljson.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <system_error>
#include <utility>
#include <vector>

namespace kix::format {
namespace {

using json = nlohmann::json;

constexpr int kMaxDepth = 512;

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

void append(std::string& out, const json& value, int depth)
{
    if (depth > kMaxDepth)
        throw std::invalid_argument("canonical JSON: nested more than 512 levels");
    switch (value.type()) {
    case json::value_t::null:
        out += "null";
        break;
    case json::value_t::boolean:
        out += value.get<bool>() ? "true" : "false";
        break;
    case json::value_t::number_integer:
        out += ecmaScriptNumber(static_cast<double>(value.get<std::int64_t>()));
        break;
    case json::value_t::number_unsigned:
        out += ecmaScriptNumber(static_cast<double>(value.get<std::uint64_t>()));
        break;
    case json::value_t::number_float:
        out += ecmaScriptNumber(value.get<double>());
        break;
    case json::value_t::string:
        appendString(out, value.get_ref<const std::string&>());
        break;
    case json::value_t::array: {
        out += '[';
        bool first = true;
        for (const json& element : value) {
            if (!first)
                out += ',';
            first = false;
            append(out, element, depth + 1);
        }
        out += ']';
        break;
    }
    case json::value_t::object: {
        std::vector<std::pair<std::u16string, json::const_iterator>> members;
        members.reserve(value.size());
        for (auto it = value.cbegin(); it != value.cend(); ++it)
            members.emplace_back(utf16(it.key()), it);
        std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        out += '{';
        bool first = true;
        for (const auto& [name, it] : members) {
            if (!first)
                out += ',';
            first = false;
            appendString(out, it.key());
            out += ':';
            append(out, it.value(), depth + 1);
        }
        out += '}';
        break;
    }
    case json::value_t::binary:
    case json::value_t::discarded:
        throw std::invalid_argument("canonical JSON: a value JSON cannot hold");
    }
}

} // namespace

std::string ecmaScriptNumber(double value)
{
    if (!std::isfinite(value))
        throw std::invalid_argument("canonical JSON: NaN and infinity are not JSON numbers");
    if (value == 0)
        return "0"; // -0 too
    // Shortest digits that round-trip, as "d.ddde±x".
    char buffer[64];
    const std::to_chars_result r
        = std::to_chars(buffer, buffer + sizeof buffer, std::fabs(value), std::chars_format::scientific);
    if (r.ec != std::errc())
        throw std::invalid_argument("canonical JSON: cannot format a number");
    const std::string text(buffer, r.ptr);
    const std::size_t e = text.find('e');
    std::string digits = text.substr(0, e);
    digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
    while (digits.size() > 1 && digits.back() == '0')
        digits.pop_back();
    const int k = int(digits.size());
    const int n = std::stoi(text.substr(e + 1)) + 1; // value = 0.d1d2...dk × 10^n
    std::string out = value < 0 ? "-" : "";
    if (k <= n && n <= 21) {
        out += digits + std::string(std::size_t(n - k), '0');
    } else if (0 < n && n <= 21) {
        out += digits.substr(0, std::size_t(n)) + '.' + digits.substr(std::size_t(n));
    } else if (-6 < n && n <= 0) {
        out += "0." + std::string(std::size_t(-n), '0') + digits;
    } else {
        out += digits.substr(0, 1);
        if (k > 1)
            out += '.' + digits.substr(1);
        out += 'e';
        out += n - 1 > 0 ? '+' : '-';
        out += std::to_string(std::abs(n - 1));
    }
    return out;
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
    out += ecmaScriptNumber(value);
}

namespace {

// Printable ASCII other than '"' and '\\': written as it is.
bool plainAscii(std::string_view s)
{
    for (const char c : s) {
        if (c < 0x20 || c > 0x7E || c == '"' || c == '\\')
            return false;
    }
    return true;
}

bool ascii(std::string_view s)
{
    for (const char c : s) {
        if (static_cast<unsigned char>(c) >= 0x80)
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
    append(out, value, 0);
    return out;
}

} // namespace kix::format
