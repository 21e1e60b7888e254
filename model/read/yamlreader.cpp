// SPDX-License-Identifier: Apache-2.0
#include "model/read/yamlreader.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <istream>
#include <map>
#include <streambuf>
#include <string>
#include <vector>

namespace kix {

using json = nlohmann::json;

namespace {

// Thrown by the handler to stop the parse; caught in readYaml.
struct Refused
{
    QString message;
    YAML::Mark mark;
};

class MemoryBuffer : public std::streambuf
{
public:
    MemoryBuffer(const char* begin, const char* end)
    {
        char* b = const_cast<char*>(begin); // read only: std::streambuf has no const get area
        setg(b, b, const_cast<char*>(end));
    }
};

bool all(const std::string& s, std::size_t from, int (*pred)(int))
{
    if (from >= s.size())
        return false;
    return std::all_of(s.begin() + std::ptrdiff_t(from), s.end(), [&](char c) { return pred((unsigned char)c) != 0; });
}

int isOctal(int c)
{
    return c >= '0' && c <= '7';
}

// YAML 1.2 core schema, a plain scalar: null, bool, int, float, else a string.
bool isCoreFloat(const std::string& s)
{
    // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
    std::size_t i = 0;
    if (i < s.size() && (s[i] == '-' || s[i] == '+'))
        ++i;
    std::size_t digits = 0;
    while (i < s.size() && std::isdigit((unsigned char)s[i])) {
        ++i;
        ++digits;
    }
    std::size_t fraction = 0;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && std::isdigit((unsigned char)s[i])) {
            ++i;
            ++fraction;
        }
        if (digits == 0 && fraction == 0)
            return false;
    } else if (digits == 0) {
        return false;
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '-' || s[i] == '+'))
            ++i;
        std::size_t exponent = 0;
        while (i < s.size() && std::isdigit((unsigned char)s[i])) {
            ++i;
            ++exponent;
        }
        if (exponent == 0)
            return false;
    }
    return i == s.size();
}

bool isSpecialFloat(const std::string& s)
{
    static const char* const names[]
        = { ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN" };
    return std::any_of(std::begin(names), std::end(names), [&](const char* n) { return s == n; });
}

// Well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF): the format's text is UTF-8.
bool isUtf8(const std::string& s)
{
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const auto* end = p + s.size();
    while (p < end) {
        const unsigned char c = *p;
        int extra = 0;
        unsigned int cp = 0;
        if (c < 0x80) {
            ++p;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            extra = 1;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            extra = 2;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            extra = 3;
            cp = c & 0x07;
        } else {
            return false;
        }
        if (end - p <= extra)
            return false;
        for (int i = 1; i <= extra; ++i) {
            if ((p[i] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (p[i] & 0x3F);
        }
        if ((extra == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)))
            || (extra == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
            return false;
        p += extra + 1;
    }
    return true;
}

class Builder : public YAML::EventHandler
{
public:
    Builder(const YamlLimits& limits, qint64 maxNodes)
        : m_limits(limits)
        , m_maxNodes(maxNodes)
    {
    }

    json take() { return std::move(m_root); }
    int documents() const { return m_documents; }

    void OnDocumentStart(const YAML::Mark& mark) override
    {
        if (++m_documents > 1)
            throw Refused { QStringLiteral("more than one YAML document in the file (kix reads one)"), mark };
    }
    void OnDocumentEnd() override { }
    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override
    {
        if (expectingKey())
            throw Refused { QStringLiteral("an empty or null mapping key (kix reads string keys only)"), mark };
        add(mark, json(nullptr), anchor);
    }
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override
    {
        if (++m_aliases > m_limits.maxAliases)
            throw Refused { QStringLiteral("more than %1 aliases in one document").arg(m_limits.maxAliases), mark };
        const auto it = m_anchors.find(anchor);
        if (it == m_anchors.end())
            throw Refused { QStringLiteral("an alias to an anchor that is not defined (or not complete)"), mark };
        count(mark, it->second.second);
        if (expectingKey() && it->second.first.is_string()) {
            key(mark, it->second.first.get<std::string>(), {});
            return;
        }
        add(mark, it->second.first, 0, false);
    }
    void OnScalar(
        const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor, const std::string& value) override
    {
        if (!isUtf8(value))
            throw Refused { QStringLiteral("text that is not UTF-8"), mark };
        if (expectingKey()) {
            key(mark, value, tag);
            if (anchor)
                remember(anchor, json(value), 1);
            return;
        }
        add(mark, scalar(mark, tag, value), anchor);
    }
    void OnSequenceStart(
        const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor, YAML::EmitterStyle::value) override
    {
        if (tag != "?" && tag != "!" && tag != "tag:yaml.org,2002:seq")
            throw Refused { QStringLiteral("tag %1 on a sequence: kix reads the core schema's tags only")
                                .arg(QString::fromStdString(tag)),
                mark };
        open(mark, json::array(), anchor);
    }
    void OnSequenceEnd() override { close(); }
    void OnMapStart(
        const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor, YAML::EmitterStyle::value) override
    {
        if (tag != "?" && tag != "!" && tag != "tag:yaml.org,2002:map")
            throw Refused { QStringLiteral("tag %1 on a mapping: kix reads the core schema's tags only")
                                .arg(QString::fromStdString(tag)),
                mark };
        open(mark, json::object(), anchor);
    }
    void OnMapEnd() override { close(); }

private:
    struct Frame
    {
        json value;
        YAML::anchor_t anchor = 0;
        qint64 nodesAtStart = 0;
        bool haveKey = false;
        std::string key;
        YAML::Mark mark;
    };

    bool expectingKey() const
    {
        return !m_stack.empty() && m_stack.back().value.is_object() && !m_stack.back().haveKey;
    }

    void count(const YAML::Mark& mark, qint64 nodes)
    {
        m_nodes += nodes;
        if (m_nodes > m_maxNodes)
            throw Refused { QStringLiteral("more than %1 nodes once aliases are expanded: refused").arg(m_maxNodes),
                mark };
    }

    json scalar(const YAML::Mark& mark, const std::string& tag, const std::string& text)
    {
        static const std::string core = "tag:yaml.org,2002:";
        if (tag == "!" || tag == core + "str")
            return json(text);
        if (tag == core + "null")
            return json(nullptr);
        if (tag == core + "bool") {
            if (text == "true" || text == "True" || text == "TRUE")
                return json(true);
            if (text == "false" || text == "False" || text == "FALSE")
                return json(false);
            throw Refused { QStringLiteral("\"%1\" is not a boolean").arg(QString::fromStdString(text)), mark };
        }
        const bool plain = tag == "?";
        const bool wantInt = tag == core + "int";
        const bool wantFloat = tag == core + "float";
        if (!plain && !wantInt && !wantFloat)
            throw Refused { QStringLiteral("tag %1: kix reads the core schema's tags only (str, int, float, bool, "
                                           "null, seq, map)")
                                .arg(QString::fromStdString(tag)),
                mark };
        if (plain) {
            if (text == "true" || text == "True" || text == "TRUE")
                return json(true);
            if (text == "false" || text == "False" || text == "FALSE")
                return json(false);
        }
        // integers: decimal, 0o octal, 0x hexadecimal
        const std::size_t sign = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
        if (all(text, sign, [](int c) { return std::isdigit(c); }))
            return integer(text, 10, mark);
        if (text.size() > 2 && text[0] == '0' && text[1] == 'o' && all(text, 2, isOctal))
            return integer(text.substr(2), 8, mark);
        if (text.size() > 2 && text[0] == '0' && text[1] == 'x' && all(text, 2, [](int c) { return std::isxdigit(c); }))
            return integer(text.substr(2), 16, mark);
        if (wantInt)
            throw Refused { QStringLiteral("\"%1\" is not an integer").arg(QString::fromStdString(text)), mark };
        if (isSpecialFloat(text))
            throw Refused { QStringLiteral("%1 is not a finite number (the format refuses NaN and infinities)")
                                .arg(QString::fromStdString(text)),
                mark };
        if (isCoreFloat(text)) {
            const double v = std::strtod(text.c_str(), nullptr);
            if (!std::isfinite(v))
                throw Refused { QStringLiteral("%1 is too large for a number").arg(QString::fromStdString(text)),
                    mark };
            return json(v);
        }
        if (wantFloat)
            throw Refused { QStringLiteral("\"%1\" is not a number").arg(QString::fromStdString(text)), mark };
        return json(text);
    }

    json integer(const std::string& text, int base, const YAML::Mark& mark)
    {
        errno = 0;
        char* end = nullptr;
        if (text[0] != '-') {
            const unsigned long long u = std::strtoull(text.c_str(), &end, base);
            if (errno == 0) {
                if (u <= static_cast<unsigned long long>(INT64_MAX))
                    return json(static_cast<std::int64_t>(u));
                return json(static_cast<std::uint64_t>(u));
            }
        } else {
            const long long v = std::strtoll(text.c_str(), &end, base);
            if (errno == 0)
                return json(static_cast<std::int64_t>(v));
        }
        const double v = std::strtod(text.c_str(), nullptr); // beyond 64 bits: a double, as JSON readers do
        if (base != 10 || !std::isfinite(v))
            throw Refused { QStringLiteral("%1 is too large for an integer").arg(QString::fromStdString(text)), mark };
        return json(v);
    }

    void key(const YAML::Mark& mark, const std::string& text, const std::string&)
    {
        Frame& top = m_stack.back();
        if (top.value.contains(text))
            throw Refused { QStringLiteral("duplicate key \"%1\" (the format refuses duplicate mapping keys)")
                                .arg(QString::fromStdString(text)),
                mark };
        top.key = text;
        top.haveKey = true;
        count(mark, 1);
    }

    void remember(YAML::anchor_t anchor, const json& value, qint64 nodes) { m_anchors[anchor] = { value, nodes }; }

    // A complete value: into its parent (or as the root).
    void add(const YAML::Mark& mark, json value, YAML::anchor_t anchor, bool counted = true)
    {
        if (counted)
            count(mark, 1);
        if (anchor)
            remember(anchor, value, 1);
        place(mark, std::move(value));
    }

    void place(const YAML::Mark& mark, json value)
    {
        if (m_stack.empty()) {
            m_root = std::move(value);
            return;
        }
        Frame& top = m_stack.back();
        if (top.value.is_array()) {
            top.value.push_back(std::move(value));
            return;
        }
        if (!top.haveKey)
            throw Refused { QStringLiteral("a mapping key that is not a scalar (kix reads string keys only)"), mark };
        top.value[top.key] = std::move(value);
        top.haveKey = false;
    }

    void open(const YAML::Mark& mark, json value, YAML::anchor_t anchor)
    {
        if (expectingKey())
            throw Refused { QStringLiteral("a mapping key that is not a scalar (kix reads string keys only)"), mark };
        if (int(m_stack.size()) >= m_limits.maxDepth)
            throw Refused { QStringLiteral("nesting deeper than %1 levels").arg(m_limits.maxDepth), mark };
        count(mark, 1);
        m_stack.push_back({ std::move(value), anchor, m_nodes, false, {}, mark });
    }

    void close()
    {
        Frame frame = std::move(m_stack.back());
        m_stack.pop_back();
        if (frame.anchor)
            remember(frame.anchor, frame.value, m_nodes - frame.nodesAtStart + 1);
        place(frame.mark, std::move(frame.value));
    }

    const YamlLimits& m_limits;
    qint64 m_maxNodes;
    qint64 m_nodes = 0;
    int m_aliases = 0;
    int m_documents = 0;
    std::vector<Frame> m_stack;
    std::map<YAML::anchor_t, std::pair<json, qint64>> m_anchors;
    json m_root;
};

} // namespace

YamlReadResult readYaml(const char* begin, const char* end, const YamlLimits& limits)
{
    YamlReadResult result;
    const qint64 maxNodes = limits.maxNodes > 0 ? limits.maxNodes : std::max<qint64>(100'000, qint64(end - begin) * 4);
    MemoryBuffer buffer(begin, end);
    std::istream in(&buffer);
    Builder builder(limits, maxNodes);
    try {
        YAML::Parser parser(in);
        while (parser.HandleNextDocument(builder)) { }
    } catch (const Refused& refused) {
        result.error = refused.message;
        result.line = refused.mark.is_null() ? 0 : refused.mark.line + 1;
        result.column = refused.mark.is_null() ? 0 : refused.mark.column + 1;
        return result;
    } catch (const YAML::Exception& e) {
        result.error = QStringLiteral("not valid YAML: ") + QString::fromStdString(e.msg);
        result.line = e.mark.is_null() ? 0 : e.mark.line + 1;
        result.column = e.mark.is_null() ? 0 : e.mark.column + 1;
        return result;
    } catch (const std::exception& e) {
        result.error = QStringLiteral("not valid YAML: ") + QString::fromUtf8(e.what());
        return result;
    }
    if (builder.documents() == 0) {
        result.error = QStringLiteral("the file holds no YAML document");
        return result;
    }
    result.value = builder.take();
    result.ok = true;
    return result;
}

} // namespace kix
