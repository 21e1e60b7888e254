#include "model/jsontape.h"

#include <array>
#include <charconv>
#include <cmath>
#include <unordered_set>

namespace kix {

namespace {

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool readHex4(std::string_view s, std::size_t pos, unsigned& out)
{
    if (pos + 4 > s.size())
        return false;
    out = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        const int h = hexValue(s[pos + i]);
        if (h < 0)
            return false;
        out = out * 16 + static_cast<unsigned>(h);
    }
    return true;
}

// Length of the well-formed UTF-8 sequence at s[pos] (lead byte >= 0x80), or 0 (RFC 3629: no overlongs, no
// surrogates, nothing above U+10FFFF).
std::size_t utf8Sequence(std::string_view s, std::size_t pos)
{
    const auto byte = [&](std::size_t i) { return i < s.size() ? static_cast<unsigned char>(s[i]) : 0u; };
    const unsigned c = byte(pos);
    auto cont = [&](std::size_t i, unsigned lo = 0x80, unsigned hi = 0xBF) {
        const unsigned b = byte(i);
        return b >= lo && b <= hi;
    };
    if (c >= 0xC2 && c <= 0xDF)
        return cont(pos + 1) ? 2 : 0;
    if (c == 0xE0)
        return cont(pos + 1, 0xA0, 0xBF) && cont(pos + 2) ? 3 : 0;
    if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF)
        return cont(pos + 1) && cont(pos + 2) ? 3 : 0;
    if (c == 0xED)
        return cont(pos + 1, 0x80, 0x9F) && cont(pos + 2) ? 3 : 0;
    if (c == 0xF0)
        return cont(pos + 1, 0x90, 0xBF) && cont(pos + 2) && cont(pos + 3) ? 4 : 0;
    if (c >= 0xF1 && c <= 0xF3)
        return cont(pos + 1) && cont(pos + 2) && cont(pos + 3) ? 4 : 0;
    if (c == 0xF4)
        return cont(pos + 1, 0x80, 0x8F) && cont(pos + 2) && cont(pos + 3) ? 4 : 0;
    return 0;
}

void appendUtf8(std::string& out, unsigned cp)
{
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

} // namespace

void JsonTape::skipSpace()
{
    while (m_pos < m_text.size()) {
        const char c = m_text[m_pos];
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
            return;
        ++m_pos;
    }
}

bool JsonTape::parse(std::string_view text, int maxDepth)
{
    if (text.size() >= UINT32_MAX)
        return false;
    m_text = text;
    m_pos = 0;
    m_maxDepth = maxDepth;
    m_nodes.clear();
    m_nodes.reserve(text.size() / 12 + 8);
    skipSpace();
    if (!value(0))
        return false;
    skipSpace();
    return m_pos == m_text.size();
}

bool JsonTape::literal(std::string_view word)
{
    if (m_text.substr(m_pos, word.size()) != word)
        return false;
    m_pos += word.size();
    return true;
}

bool JsonTape::string(std::uint32_t& begin, std::uint32_t& end, bool& escaped)
{
    // m_text[m_pos] == '"'
    ++m_pos;
    begin = static_cast<std::uint32_t>(m_pos);
    escaped = false;
    // Plain bytes (printable ASCII other than '"' and '\\') are skipped in a tight loop.
    static const auto plain = []() {
        std::array<bool, 256> table {};
        for (int c = 0x20; c < 0x80; ++c)
            table[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
        return table;
    }();
    const std::size_t size = m_text.size();
    const char* data = m_text.data();
    while (m_pos < size) {
        while (m_pos < size && plain[static_cast<unsigned char>(data[m_pos])])
            ++m_pos;
        if (m_pos >= size)
            break;
        const auto c = static_cast<unsigned char>(m_text[m_pos]);
        if (c == '"') {
            end = static_cast<std::uint32_t>(m_pos);
            ++m_pos;
            return true;
        }
        if (c < 0x20)
            return false;
        if (c == '\\') {
            escaped = true;
            if (++m_pos >= m_text.size())
                return false;
            const char e = m_text[m_pos];
            if (e == 'u') {
                unsigned cp = 0;
                if (!readHex4(m_text, m_pos + 1, cp))
                    return false;
                m_pos += 5;
                if (cp >= 0xDC00 && cp <= 0xDFFF)
                    return false; // a lone low surrogate
                if (cp >= 0xD800 && cp <= 0xDBFF) { // must be followed by \uDC00-\uDFFF
                    unsigned low = 0;
                    if (m_text.substr(m_pos, 2) != "\\u" || !readHex4(m_text, m_pos + 2, low) || low < 0xDC00
                        || low > 0xDFFF)
                        return false;
                    m_pos += 6;
                }
                continue;
            }
            if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' && e != 'n' && e != 'r' && e != 't')
                return false;
            ++m_pos;
            continue;
        }
        if (c >= 0x80) {
            const std::size_t n = utf8Sequence(m_text, m_pos);
            if (n == 0)
                return false;
            m_pos += n;
            continue;
        }
        ++m_pos;
    }
    return false;
}

bool JsonTape::number()
{
    const std::size_t start = m_pos;
    auto digit = [&]() { return m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9'; };
    if (m_pos < m_text.size() && m_text[m_pos] == '-')
        ++m_pos;
    if (!digit())
        return false;
    if (m_text[m_pos] == '0') {
        ++m_pos;
    } else {
        while (digit())
            ++m_pos;
    }
    if (m_pos < m_text.size() && m_text[m_pos] == '.') {
        ++m_pos;
        if (!digit())
            return false;
        while (digit())
            ++m_pos;
    }
    if (m_pos < m_text.size() && (m_text[m_pos] == 'e' || m_text[m_pos] == 'E')) {
        ++m_pos;
        if (m_pos < m_text.size() && (m_text[m_pos] == '+' || m_text[m_pos] == '-'))
            ++m_pos;
        if (!digit())
            return false;
        while (digit())
            ++m_pos;
    }
    double v = 0;
    const auto result = std::from_chars(m_text.data() + start, m_text.data() + m_pos, v);
    if (result.ec != std::errc() || result.ptr != m_text.data() + m_pos || !std::isfinite(v))
        return false; // out of range: let the strict reader say so
    Node n;
    n.type = Type::Number;
    n.begin = static_cast<std::uint32_t>(start);
    n.end = static_cast<std::uint32_t>(m_pos);
    n.number = v;
    n.next = static_cast<std::uint32_t>(m_nodes.size() + 1);
    m_nodes.push_back(n);
    return true;
}

bool JsonTape::value(int depth)
{
    if (m_pos >= m_text.size())
        return false;
    const char c = m_text[m_pos];
    const auto index = static_cast<std::uint32_t>(m_nodes.size());
    if (c == '{' || c == '[') {
        if (depth >= m_maxDepth)
            return false;
        const bool isObject = c == '{';
        Node n;
        n.type = isObject ? Type::Object : Type::Array;
        n.begin = static_cast<std::uint32_t>(m_pos);
        m_nodes.push_back(n);
        ++m_pos;
        skipSpace();
        std::uint32_t count = 0;
        const char close = isObject ? '}' : ']';
        if (m_pos < m_text.size() && m_text[m_pos] == close) {
            ++m_pos;
        } else {
            while (true) {
                if (isObject) {
                    if (m_pos >= m_text.size() || m_text[m_pos] != '"')
                        return false;
                    Node key;
                    key.type = Type::String;
                    if (!string(key.begin, key.end, key.escaped))
                        return false;
                    key.next = static_cast<std::uint32_t>(m_nodes.size() + 1);
                    m_nodes.push_back(key);
                    skipSpace();
                    if (m_pos >= m_text.size() || m_text[m_pos] != ':')
                        return false;
                    ++m_pos;
                    skipSpace();
                }
                if (!value(depth + 1))
                    return false;
                ++count;
                skipSpace();
                if (m_pos >= m_text.size())
                    return false;
                if (m_text[m_pos] == ',') {
                    ++m_pos;
                    skipSpace();
                    continue;
                }
                if (m_text[m_pos] != close)
                    return false;
                ++m_pos;
                break;
            }
        }
        Node& self = m_nodes[index];
        self.count = count;
        self.end = static_cast<std::uint32_t>(m_pos);
        self.next = static_cast<std::uint32_t>(m_nodes.size());
        return !isObject || !duplicateKeys(index);
    }
    if (c == '"') {
        Node n;
        n.type = Type::String;
        if (!string(n.begin, n.end, n.escaped))
            return false;
        n.next = index + 1;
        m_nodes.push_back(n);
        return true;
    }
    Node n;
    n.begin = static_cast<std::uint32_t>(m_pos);
    if (c == 't' || c == 'f') {
        n.type = Type::Boolean;
        n.boolean = c == 't';
        if (!literal(c == 't' ? "true" : "false"))
            return false;
    } else if (c == 'n') {
        if (!literal("null"))
            return false;
    } else {
        return number();
    }
    n.end = static_cast<std::uint32_t>(m_pos);
    n.next = index + 1;
    m_nodes.push_back(n);
    return true;
}

// Objects with a repeated key go to the strict reader, which reports them.
bool JsonTape::duplicateKeys(std::uint32_t object) const
{
    const Node& o = m_nodes[object];
    if (o.count < 2)
        return false;
    // Keys as written; an escaped key is decoded (rare), so "a" and "\u0061" still count as the same key.
    std::vector<std::string> decoded;
    std::vector<std::string_view> keys;
    keys.reserve(o.count);
    std::uint32_t i = object + 1;
    for (std::uint32_t m = 0; m < o.count; ++m) {
        const Node& k = m_nodes[i];
        if (k.escaped) {
            decoded.reserve(o.count); // no reallocation may move the strings that views point into
            decoded.push_back(utf8(k));
            keys.push_back(decoded.back());
        } else {
            keys.push_back(span(k));
        }
        i = m_nodes[i + 1].next;
    }
    if (keys.size() <= 16) {
        for (std::size_t a = 0; a < keys.size(); ++a) {
            for (std::size_t b = a + 1; b < keys.size(); ++b) {
                if (keys[a] == keys[b])
                    return true;
            }
        }
        return false;
    }
    std::unordered_set<std::string_view> seen;
    for (const std::string_view k : keys) {
        if (!seen.insert(k).second)
            return true;
    }
    return false;
}

std::string JsonTape::utf8(const Node& n) const
{
    const std::string_view s = span(n);
    if (!n.escaped)
        return std::string(s);
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '\\') {
            out.push_back(s[i]);
            continue;
        }
        const char e = s[++i];
        switch (e) {
        case 'b':
            out.push_back('\b');
            break;
        case 'f':
            out.push_back('\f');
            break;
        case 'n':
            out.push_back('\n');
            break;
        case 'r':
            out.push_back('\r');
            break;
        case 't':
            out.push_back('\t');
            break;
        case 'u': {
            unsigned cp = 0;
            readHex4(s, i + 1, cp);
            i += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                unsigned low = 0;
                readHex4(s, i + 3, low);
                i += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            }
            appendUtf8(out, cp);
            break;
        }
        default: // '"', '\\', '/'
            out.push_back(e);
        }
    }
    return out;
}

QString JsonTape::string(const Node& n) const
{
    if (!n.escaped) {
        const std::string_view s = span(n);
        return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
    }
    return QString::fromStdString(utf8(n));
}

} // namespace kix
