#pragma once

#include <QString>

#include <cstdint>
#include <string_view>
#include <vector>

namespace kix {

// A fast, validating JSON reader for the loader's hot path: one flat vector of nodes that point into the source
// text, no allocation per value. It accepts exactly what a strict RFC 8259 parser accepts, or gives up: on any
// syntax error, duplicate key, nesting deeper than the limit or number out of range, parse() returns false and
// the caller reads the text again with nlohmann/json, which says precisely what is wrong.
class JsonTape
{
public:
    enum class Type : std::uint8_t { Null, Boolean, Number, String, Array, Object };

    struct Node
    {
        Type type = Type::Null;
        bool escaped = false; // a string holding backslash escapes
        bool boolean = false;
        std::uint32_t begin = 0; // source span: a string's text without quotes, or the whole token
        std::uint32_t end = 0;
        std::uint32_t next = 0; // index of the node after this one's subtree
        std::uint32_t count = 0; // members of an object, elements of an array
        double number = 0;
    };

    bool parse(std::string_view text, int maxDepth);

    const std::vector<Node>& nodes() const { return m_nodes; }
    std::string_view text() const { return m_text; }
    std::string_view span(const Node& n) const { return m_text.substr(n.begin, n.end - n.begin); }
    // A string node's value (escapes decoded).
    QString string(const Node& n) const;
    std::string utf8(const Node& n) const;

private:
    bool value(int depth);
    bool string(std::uint32_t& begin, std::uint32_t& end, bool& escaped);
    bool number();
    bool literal(std::string_view word);
    bool duplicateKeys(std::uint32_t object) const;
    void skipSpace();

    std::string_view m_text;
    std::size_t m_pos = 0;
    int m_maxDepth = 64;
    std::vector<Node> m_nodes;
};

} // namespace kix
