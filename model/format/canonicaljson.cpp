#include "model/format/canonicaljson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <vector>

namespace kix {

void appendCanonicalNumber(std::string& out, double value)
{
    if (!std::isfinite(value))
        throw std::invalid_argument("JCS has no form for a number that is not finite");
    if (value == 0) { // 0 and -0
        out += '0';
        return;
    }
    if (value < 0) {
        out += '-';
        value = -value;
    }
    // The shortest digits that read back as the same double, in scientific form: "d[.ddd]e[+-]x".
    char buffer[64];
    const std::to_chars_result r = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
    const std::string_view text(buffer, std::size_t(r.ptr - buffer));
    const std::size_t e = text.find('e');
    std::string digits;
    for (std::size_t i = 0; i < e; ++i) {
        if (text[i] != '.')
            digits += text[i];
    }
    while (digits.size() > 1 && digits.back() == '0')
        digits.pop_back();
    const int exponent = std::atoi(std::string(text.substr(e + 1)).c_str());
    const int k = int(digits.size());
    const int n = exponent + 1; // value = 0.digits × 10^n
    if (k <= n && n <= 21) {
        out += digits;
        out.append(std::size_t(n - k), '0');
    } else if (0 < n && n <= 21) {
        out.append(digits, 0, std::size_t(n));
        out += '.';
        out.append(digits, std::size_t(n), std::string::npos);
    } else if (-6 < n && n <= 0) {
        out += "0.";
        out.append(std::size_t(-n), '0');
        out += digits;
    } else {
        out += digits[0];
        if (k > 1) {
            out += '.';
            out.append(digits, 1, std::string::npos);
        }
        out += 'e';
        out += n - 1 >= 0 ? '+' : '-';
        out += std::to_string(std::abs(n - 1));
    }
}

void appendCanonicalString(std::string& out, std::string_view s)
{
    static const char hex[] = "0123456789abcdef";
    out += '"';
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20) {
                out += "\\u00";
                out += hex[c >> 4];
                out += hex[c & 15];
            } else {
                out += ch;
            }
        }
    }
    out += '"';
}

namespace {

// The UTF-16 code units of valid UTF-8 (invalid bytes pass as themselves).
std::u16string utf16(std::string_view s)
{
    std::u16string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        char32_t cp = c;
        std::size_t len = 1;
        if (c >= 0xF0 && i + 3 < s.size()) {
            cp = char32_t(c & 0x07) << 18 | char32_t(s[i + 1] & 0x3F) << 12 | char32_t(s[i + 2] & 0x3F) << 6
                | char32_t(s[i + 3] & 0x3F);
            len = 4;
        } else if (c >= 0xE0 && i + 2 < s.size()) {
            cp = char32_t(c & 0x0F) << 12 | char32_t(s[i + 1] & 0x3F) << 6 | char32_t(s[i + 2] & 0x3F);
            len = 3;
        } else if (c >= 0xC0 && i + 1 < s.size()) {
            cp = char32_t(c & 0x1F) << 6 | char32_t(s[i + 1] & 0x3F);
            len = 2;
        }
        if (cp > 0xFFFF) {
            cp -= 0x10000;
            out += char16_t(0xD800 + (cp >> 10));
            out += char16_t(0xDC00 + (cp & 0x3FF));
        } else {
            out += char16_t(cp);
        }
        i += len;
    }
    return out;
}

bool ascii(std::string_view s)
{
    return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

void append(std::string& out, const nlohmann::json& v)
{
    switch (v.type()) {
    case nlohmann::json::value_t::null:
    case nlohmann::json::value_t::discarded:
        out += "null";
        break;
    case nlohmann::json::value_t::boolean:
        out += v.get<bool>() ? "true" : "false";
        break;
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float:
        appendCanonicalNumber(out, v.get<double>());
        break;
    case nlohmann::json::value_t::string:
        appendCanonicalString(out, v.get_ref<const std::string&>());
        break;
    case nlohmann::json::value_t::array: {
        out += '[';
        bool first = true;
        for (const nlohmann::json& element : v) {
            if (!first)
                out += ',';
            first = false;
            append(out, element);
        }
        out += ']';
        break;
    }
    case nlohmann::json::value_t::object: {
        std::vector<const std::string*> keys;
        keys.reserve(v.size());
        for (auto it = v.begin(); it != v.end(); ++it)
            keys.push_back(&it.key());
        std::sort(
            keys.begin(), keys.end(), [](const std::string* a, const std::string* b) { return utf16Less(*a, *b); });
        out += '{';
        bool first = true;
        for (const std::string* key : keys) {
            if (!first)
                out += ',';
            first = false;
            appendCanonicalString(out, *key);
            out += ':';
            append(out, v.at(*key));
        }
        out += '}';
        break;
    }
    case nlohmann::json::value_t::binary:
        throw std::invalid_argument("JCS has no form for binary values");
    }
}

} // namespace

bool utf16Less(std::string_view a, std::string_view b)
{
    if (ascii(a) && ascii(b))
        return a < b;
    return utf16(a) < utf16(b);
}

std::string canonicalJson(const nlohmann::json& value)
{
    std::string out;
    append(out, value);
    return out;
}

} // namespace kix
