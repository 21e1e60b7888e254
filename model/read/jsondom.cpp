// SPDX-License-Identifier: Apache-2.0
#include "model/read/jsondom.h"

#include "model/read/jsonreader.h"

#include <cstdint>

namespace kix::jsondom {

using simdjson::dom::element_type;

namespace {

simdjson::dom::parser& threadParser()
{
    thread_local simdjson::dom::parser parser;
    return parser;
}

} // namespace

void releaseLargeBuffers()
{
    constexpr std::size_t kKeep = std::size_t(16) << 20;
    if (threadParser().capacity() > kKeep)
        threadParser() = simdjson::dom::parser();
}

simdjson::error_code parse(std::string_view text, bool padded, int maxDepth, Element& root)
{
    simdjson::dom::parser& parser = threadParser();
    const auto depth = static_cast<std::size_t>(maxDepth);
    if (parser.max_depth() != depth || parser.capacity() < text.size()) {
        if (const auto error = parser.allocate(std::max(text.size(), parser.capacity()), depth))
            return error;
    }
    return parser.parse(text.data(), text.size(), !padded).get(root);
}

namespace {

// The path down to the container being walked: one frame per level, on the stack, made into text only for a
// warning.
struct Frame
{
    const Frame* parent = nullptr;
    std::string_view key; // an object member's key, or
    std::size_t index = 0; // an array element's index
    bool isKey = false;
};

QString pointerOf(const Frame* frame)
{
    if (!frame || !frame->parent)
        return {};
    return pointerOf(frame->parent) + QLatin1Char('/')
        + (frame->isKey ? pointerToken(std::string(frame->key)) : QString::number(frame->index));
}

bool sameKey(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && (a.empty() || (a.front() == b.front() && a == b));
}

void walk(Element e, const Frame& here, const QString& file, const QString& prefix, Diagnostics& out)
{
    if (e.type() == element_type::OBJECT) {
        // objects are small: compare each key with the keys before it, kept here (no second walk of the object)
        constexpr std::size_t kOnStack = 32;
        struct Key
        {
            const char* data;
            std::size_t size;
        };
        Key onStack[kOnStack]; // not initialised: filled as the members are read
        std::vector<Key> onHeap;
        const simdjson::dom::object object = asObject(e);
        Key* earlier = onStack;
        if (object.size() > kOnStack) {
            onHeap.resize(object.size());
            earlier = onHeap.data();
        }
        // one bit per (length, first and last byte) seen: a key whose bit is not set yet matches no earlier key
        std::uint64_t seen = 0;
        auto bitOf = [](std::string_view key) {
            const std::size_t mix = key.empty() ? 0
                                                : key.size() * 31 + static_cast<unsigned char>(key.front())
                    + 7u * static_cast<unsigned char>(key.back());
            return std::uint64_t(1) << (mix & 63);
        };
        std::size_t i = 0;
        for (const simdjson::dom::key_value_pair member : object) {
            const std::uint64_t bit = bitOf(member.key);
            const bool maybeSeen = (seen & bit) != 0;
            seen |= bit;
            for (std::size_t j = 0; maybeSeen && j < i; ++j) {
                if (sameKey(std::string_view(earlier[j].data, earlier[j].size), member.key)) {
                    const Frame duplicate { &here, member.key, 0, true };
                    out.append(makeWarning(
                        file, prefix + pointerOf(&duplicate), QStringLiteral("duplicate key: the last value is used")));
                    break;
                }
            }
            earlier[i] = { member.key.data(), member.key.size() };
            const element_type type = member.value.type();
            if (type == element_type::OBJECT || type == element_type::ARRAY)
                walk(member.value, Frame { &here, member.key, 0, true }, file, prefix, out);
            ++i;
        }
    } else if (e.type() == element_type::ARRAY) {
        std::size_t i = 0;
        for (const Element child : asArray(e)) {
            const element_type type = child.type();
            if (type == element_type::OBJECT || type == element_type::ARRAY)
                walk(child, Frame { &here, {}, i, false }, file, prefix, out);
            ++i;
        }
    }
}

} // namespace

bool reportDuplicateKeys(Element root, const QString& file, const QString& prefix, Diagnostics& out)
{
    const qsizetype before = out.size();
    walk(root, Frame {}, file, prefix, out);
    return out.size() != before;
}

void appendMinified(std::string_view text, std::string& out)
{
    const std::size_t at = out.size();
    out.resize(at + text.size());
    std::size_t written = 0;
    if (simdjson::minify(text.data(), text.size(), out.data() + at, written) != simdjson::SUCCESS) {
        out.resize(at); // not reached for valid JSON; keep the text as it was
        out.append(text);
        return;
    }
    out.resize(at + written);
}

std::vector<std::pair<std::size_t, std::size_t>> arrayElementSpans(std::string_view text)
{
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    if (text.size() < 2 || text.front() != '[')
        return spans;
    int depth = 0;
    bool inString = false;
    std::size_t start = 1;
    for (std::size_t i = 1; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        switch (c) {
        case '"':
            inString = true;
            break;
        case '{':
        case '[':
            ++depth;
            break;
        case '}':
        case ']':
            if (depth == 0) { // the array's own end
                if (i > start)
                    spans.emplace_back(start, i - start);
                return spans;
            }
            --depth;
            break;
        case ',':
            if (depth == 0) {
                spans.emplace_back(start, i - start);
                start = i + 1;
            }
            break;
        default:
            break;
        }
    }
    return spans;
}

QString typeName(Element e)
{
    switch (e.type()) {
    case element_type::OBJECT:
        return QStringLiteral("object");
    case element_type::ARRAY:
        return QStringLiteral("array");
    case element_type::STRING:
        return QStringLiteral("string");
    case element_type::INT64:
    case element_type::UINT64:
    case element_type::DOUBLE:
        return QStringLiteral("number");
    case element_type::BOOL:
        return QStringLiteral("boolean");
    case element_type::NULL_VALUE:
        break;
    }
    return QStringLiteral("null");
}

} // namespace kix::jsondom
