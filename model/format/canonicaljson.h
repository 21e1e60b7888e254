// SPDX-License-Identifier: Apache-2.0
#pragma once
// RFC 8785 JSON Canonicalization Scheme (JCS): the byte string the kernelindex digest is taken over. One tree walk,
// appendCanonical, for every tree it is taken of (nlohmann/json here, the reader's simdjson DOM in
// model/read/resourcecheck.cpp): each tree only says what its nodes hold, through a CanonicalTree adapter.

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace kix::format {

// The JCS text of `value`: object members sorted by the UTF-16 code units of their names, no whitespace, strings
// escaped as ECMAScript's JSON.stringify does (only '"', '\\' and U+0000..U+001F; \b \t \n \f \r short, the rest
// as lower-case \u00xx), numbers as ECMAScript's Number.prototype.toString prints the IEEE-754 double (shortest
// round trip: 1e-7, 0.000001, 1e+21, 4.5, integers without ".0", -0 as 0). Integers are taken as doubles, as JCS
// requires. Invalid UTF-8 in a string is written as U+FFFD. Throws std::invalid_argument for NaN or infinity
// (JSON has neither) and for a nesting deeper than 512.
std::string canonicalJson(const nlohmann::json& value);

// One number as ECMAScript prints it ("1e+21", "0.000001", "5e-324"). Throws std::invalid_argument when not finite.
std::string ecmaScriptNumber(double value);

// The pieces of the walk, also for texts built by hand (the comparison key).
void appendCanonicalNumber(std::string& out, double value); // ecmaScriptNumber; throws std::invalid_argument
void appendCanonicalString(std::string& out, std::string_view utf8); // a JSON string as JCS escapes it
bool utf16Less(std::string_view a, std::string_view b); // key order: UTF-16 code units

// What a node of a tree holds, as the walk asks it.
enum class CanonicalType : unsigned char { Null, Boolean, Number, String, Array, Object, Other };

// The adapter a tree gives the walk; a specialisation defines:
//   using Node = …;                                  a cheap, trivially copyable handle to one value
//   static Node node(const Tree&);
//   static CanonicalType type(Node);
//   static bool boolean(Node);
//   static bool number(Node, double&);               false when the number cannot be read as a double
//   static std::string_view string(Node);
//   static std::size_t size(Node);                   an object's member count, duplicates included
//   template <class F> static void items(Node, F&&);   f(Node) for each array item, in order
//   template <class F> static void members(Node, F&&); f(std::string_view key, Node) in document order
template<class Tree>
struct CanonicalTree;

// Appends the JCS text of `value` (see canonicalJson). Where an object names a key twice, the last value counts
// (as nlohmann/json and simdjson's lookups read it). Throws std::invalid_argument for a number JCS cannot write,
// for a value JSON cannot hold and for a nesting deeper than 512.
template<class Tree>
void appendCanonical(std::string& out, const Tree& value);

namespace canonical_detail {

constexpr int kMaxDepth = 512;

template<class Tree>
void appendValue(std::string& out, typename CanonicalTree<Tree>::Node node, int depth);

// An object's members in JCS order, the last of each duplicated key only. Most objects are small and already in
// order (kix and nlohmann write sorted keys): then no sort and no allocation. Its own function so that only an
// object's level of the recursion holds the members' room on the stack.
template<class Tree>
void appendObject(std::string& out, typename CanonicalTree<Tree>::Node object, int depth)
{
    using Adapter = CanonicalTree<Tree>;
    struct Member
    {
        std::string_view key;
        typename Adapter::Node value;
        std::size_t order;
    };
    constexpr std::size_t kOnStack = 32;
    static_assert(std::is_trivially_copyable_v<Member> && std::is_trivially_destructible_v<Member>);
    alignas(Member) unsigned char onStack[kOnStack * sizeof(Member)]; // not initialised: filled below
    std::vector<Member> onHeap;
    const std::size_t count = Adapter::size(object); // may saturate for a huge object: then counted on the heap
    const bool heap = count > kOnStack;
    if (heap)
        onHeap.reserve(count);
    Member* const stack = reinterpret_cast<Member*>(onStack);
    std::size_t n = 0;
    bool sorted = true;
    std::string_view previous;
    Adapter::members(object, [&](std::string_view key, typename Adapter::Node value) {
        if (n > 0 && sorted && !utf16Less(previous, key))
            sorted = false; // out of order, or a duplicated key
        previous = key;
        if (heap)
            onHeap.push_back(Member { key, value, n });
        else if (n < kOnStack)
            new (stack + n) Member { key, value, n };
        else
            throw std::invalid_argument("canonical JSON: an object holds more members than it counts");
        ++n;
    });
    Member* const members = heap ? onHeap.data() : stack;
    if (!sorted) {
        // UTF-16 order, then bytes (two invalid UTF-8 names both read as U+FFFD), then document order: a
        // duplicated key's values end up together, the last one last
        std::sort(members, members + n, [](const Member& a, const Member& b) {
            if (a.key == b.key)
                return a.order < b.order;
            if (utf16Less(a.key, b.key))
                return true;
            return !utf16Less(b.key, a.key) && a.key < b.key;
        });
    }
    out += '{';
    bool first = true;
    for (std::size_t i = 0; i < n; ++i) {
        if (i + 1 < n && members[i + 1].key == members[i].key)
            continue; // a duplicated key: the last one is read
        if (!first)
            out += ',';
        first = false;
        appendCanonicalString(out, members[i].key);
        out += ':';
        appendValue<Tree>(out, members[i].value, depth + 1);
    }
    out += '}';
}

template<class Tree>
void appendValue(std::string& out, typename CanonicalTree<Tree>::Node node, int depth)
{
    using Adapter = CanonicalTree<Tree>;
    if (depth > kMaxDepth)
        throw std::invalid_argument("canonical JSON: nested more than 512 levels");
    switch (Adapter::type(node)) {
    case CanonicalType::Null:
        out += "null";
        return;
    case CanonicalType::Boolean:
        out += Adapter::boolean(node) ? "true" : "false";
        return;
    case CanonicalType::Number: {
        double value = 0;
        if (!Adapter::number(node, value))
            throw std::invalid_argument("canonical JSON: a number that is not a double");
        appendCanonicalNumber(out, value);
        return;
    }
    case CanonicalType::String:
        appendCanonicalString(out, Adapter::string(node));
        return;
    case CanonicalType::Array: {
        out += '[';
        bool first = true;
        Adapter::items(node, [&](typename Adapter::Node item) {
            if (!first)
                out += ',';
            first = false;
            appendValue<Tree>(out, item, depth + 1);
        });
        out += ']';
        return;
    }
    case CanonicalType::Object:
        appendObject<Tree>(out, node, depth);
        return;
    case CanonicalType::Other:
        break;
    }
    throw std::invalid_argument("canonical JSON: a value JSON cannot hold");
}

} // namespace canonical_detail

template<class Tree>
void appendCanonical(std::string& out, const Tree& value)
{
    canonical_detail::appendValue<Tree>(out, CanonicalTree<Tree>::node(value), 0);
}

// nlohmann/json: its objects hold each key once, in byte order.
template<>
struct CanonicalTree<nlohmann::json>
{
    using Node = const nlohmann::json*;
    static Node node(const nlohmann::json& value) { return &value; }
    static CanonicalType type(Node v)
    {
        using t = nlohmann::json::value_t;
        switch (v->type()) {
        case t::null:
            return CanonicalType::Null;
        case t::boolean:
            return CanonicalType::Boolean;
        case t::number_integer:
        case t::number_unsigned:
        case t::number_float:
            return CanonicalType::Number;
        case t::string:
            return CanonicalType::String;
        case t::array:
            return CanonicalType::Array;
        case t::object:
            return CanonicalType::Object;
        case t::binary:
        case t::discarded:
            break;
        }
        return CanonicalType::Other;
    }
    static bool boolean(Node v) { return v->get<bool>(); }
    static bool number(Node v, double& out)
    {
        if (v->is_number_integer() && !v->is_number_unsigned())
            out = static_cast<double>(v->get<std::int64_t>());
        else if (v->is_number_unsigned())
            out = static_cast<double>(v->get<std::uint64_t>());
        else
            out = v->get<double>();
        return true;
    }
    static std::string_view string(Node v) { return v->get_ref<const std::string&>(); }
    static std::size_t size(Node v) { return v->size(); }
    template<class F>
    static void items(Node v, F&& f)
    {
        for (const nlohmann::json& item : *v)
            f(&item);
    }
    template<class F>
    static void members(Node v, F&& f)
    {
        for (auto it = v->cbegin(); it != v->cend(); ++it)
            f(std::string_view(it.key()), &it.value());
    }
};

} // namespace kix::format
