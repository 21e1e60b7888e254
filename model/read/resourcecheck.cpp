// SPDX-License-Identifier: Apache-2.0
#include "model/read/resourcecheck.h"

#include "model/format/canonicaljson.h"
#include "model/format/digest.h"
#include "model/read/dialectkix010.h"

#include <QString>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace kix::format {

// The reader's simdjson DOM for the one canonical walk: objects in document order, a duplicated key kept.
template<>
struct CanonicalTree<jsondom::Element>
{
    using Node = jsondom::Element;
    static Node node(const jsondom::Element& e) { return e; }
    static CanonicalType type(Node e)
    {
        using simdjson::dom::element_type;
        switch (e.type()) {
        case element_type::NULL_VALUE:
            return CanonicalType::Null;
        case element_type::BOOL:
            return CanonicalType::Boolean;
        case element_type::INT64:
        case element_type::UINT64:
        case element_type::DOUBLE:
            return CanonicalType::Number;
        case element_type::STRING:
            return CanonicalType::String;
        case element_type::ARRAY:
            return CanonicalType::Array;
        case element_type::OBJECT:
            return CanonicalType::Object;
        }
        return CanonicalType::Other;
    }
    static bool boolean(Node e)
    {
        bool b = false;
        return e.get_bool().get(b) == simdjson::SUCCESS && b;
    }
    static bool number(Node e, double& out) { return e.get_double().get(out) == simdjson::SUCCESS; }
    static std::string_view string(Node e)
    {
        std::string_view s;
        if (e.get_string().get(s) != simdjson::SUCCESS)
            return {};
        return s;
    }
    static std::size_t size(Node e) { return jsondom::asObject(e).size(); }
    template<class F>
    static void items(Node e, F&& f)
    {
        for (const jsondom::Element item : jsondom::asArray(e))
            f(item);
    }
    template<class F>
    static void members(Node e, F&& f)
    {
        for (const simdjson::dom::key_value_pair kv : jsondom::asObject(e))
            f(kv.key, kv.value);
    }
};

} // namespace kix::format

namespace kix {

using format::appendCanonicalString;
using simdjson::dom::element_type;

bool appendCanonicalDom(std::string& out, jsondom::Element e)
{
    try {
        format::appendCanonical(out, e);
    } catch (const std::invalid_argument&) {
        return false;
    }
    return true;
}

namespace {

jsondom::Element lastMember(jsondom::Element object, std::string_view key, bool* found)
{
    jsondom::Element value;
    *found = false;
    if (object.type() != element_type::OBJECT)
        return value;
    for (const simdjson::dom::key_value_pair kv : jsondom::asObject(object)) {
        if (kv.key == key) {
            value = kv.value;
            *found = true;
        }
    }
    return value;
}

} // namespace

bool domResourceSha256(jsondom::Element resource, unsigned char (&hash)[32])
{
    thread_local std::string text;
    text.clear();
    text += '{';
    bool first = true;
    for (const char* key : { "apiVersion", "kind", "spec" }) { // already in UTF-16 order
        bool found = false;
        const jsondom::Element value = lastMember(resource, key, &found);
        if (!found)
            continue;
        if (!first)
            text += ',';
        first = false;
        appendCanonicalString(text, key);
        text += ':';
        if (!appendCanonicalDom(text, value))
            return false;
    }
    text += '}';
    format::sha256Bytes(text.data(), text.size(), hash);
    return true;
}

QString domResourceDigest(jsondom::Element resource)
{
    unsigned char hash[32];
    if (!domResourceSha256(resource, hash))
        return {};
    CompactDigest digest;
    digest.assignSha256(hash);
    return digest.toString();
}

namespace {

// An exact, cheap key for a resource read into the DOM: each value's type and bytes in document order, strings with
// their length (so that no two different resources share a key). No sorting, escaping or number formatting.
void appendDomKey(std::string& out, jsondom::Element e)
{
    auto bytes = [&](const void* p, std::size_t n) { out.append(static_cast<const char*>(p), n); };
    auto text = [&](std::string_view s) {
        const auto n = static_cast<std::uint32_t>(s.size());
        bytes(&n, sizeof n);
        out.append(s.data(), s.size());
    };
    const element_type type = e.type();
    out += static_cast<char>(type);
    switch (type) {
    case element_type::NULL_VALUE:
        return;
    case element_type::BOOL: {
        bool b = false;
        if (e.get_bool().get(b) != simdjson::SUCCESS)
            b = false;
        out += b ? '1' : '0';
        return;
    }
    case element_type::INT64: {
        std::int64_t v = 0;
        if (e.get_int64().get(v) != simdjson::SUCCESS)
            v = 0;
        bytes(&v, sizeof v);
        return;
    }
    case element_type::UINT64: {
        std::uint64_t v = 0;
        if (e.get_uint64().get(v) != simdjson::SUCCESS)
            v = 0;
        bytes(&v, sizeof v);
        return;
    }
    case element_type::DOUBLE: {
        double v = 0;
        if (e.get_double().get(v) != simdjson::SUCCESS)
            v = 0;
        bytes(&v, sizeof v);
        return;
    }
    case element_type::STRING: {
        std::string_view s;
        if (e.get_string().get(s) != simdjson::SUCCESS)
            s = {};
        text(s);
        return;
    }
    case element_type::ARRAY:
        for (const jsondom::Element item : jsondom::asArray(e))
            appendDomKey(out, item);
        out += ']';
        return;
    case element_type::OBJECT:
        for (const simdjson::dom::key_value_pair kv : jsondom::asObject(e)) {
            text(kv.key);
            appendDomKey(out, kv.value);
        }
        out += '}';
        return;
    }
}

// Whether `e` is the resource whose appendDomKey text starts at `at` (before `end`), reading that text as
// appendDomKey writes it; `at` ends past it. The check against the last resource seen under one digest, without
// writing a key or hashing one.
bool matchesDomKey(const char*& at, const char* end, jsondom::Element e)
{
    auto bytes = [&](const void* p, std::size_t n) {
        if (std::size_t(end - at) < n || std::memcmp(at, p, n) != 0)
            return false;
        at += n;
        return true;
    };
    auto byte = [&](char c) {
        if (at == end || *at != c)
            return false;
        ++at;
        return true;
    };
    auto text = [&](std::string_view s) {
        const auto n = static_cast<std::uint32_t>(s.size());
        return bytes(&n, sizeof n) && bytes(s.data(), s.size());
    };
    const element_type type = e.type();
    if (!byte(static_cast<char>(type)))
        return false;
    switch (type) {
    case element_type::NULL_VALUE:
        return true;
    case element_type::BOOL: {
        bool b = false;
        if (e.get_bool().get(b) != simdjson::SUCCESS)
            b = false;
        return byte(b ? '1' : '0');
    }
    case element_type::INT64: {
        std::int64_t v = 0;
        if (e.get_int64().get(v) != simdjson::SUCCESS)
            v = 0;
        return bytes(&v, sizeof v);
    }
    case element_type::UINT64: {
        std::uint64_t v = 0;
        if (e.get_uint64().get(v) != simdjson::SUCCESS)
            v = 0;
        return bytes(&v, sizeof v);
    }
    case element_type::DOUBLE: {
        double v = 0;
        if (e.get_double().get(v) != simdjson::SUCCESS)
            v = 0;
        return bytes(&v, sizeof v);
    }
    case element_type::STRING: {
        std::string_view s;
        if (e.get_string().get(s) != simdjson::SUCCESS)
            s = {};
        return text(s);
    }
    case element_type::ARRAY:
        for (const jsondom::Element item : jsondom::asArray(e)) {
            if (!matchesDomKey(at, end, item))
                return false;
        }
        return byte(']');
    case element_type::OBJECT:
        for (const simdjson::dom::key_value_pair kv : jsondom::asObject(e)) {
            if (!text(kv.key) || !matchesDomKey(at, end, kv.value))
                return false;
        }
        return byte('}');
    }
    return false;
}

struct CheckedResource
{
    DigestCheck check;
    QString digest;
};

DigestCheck checkUncached(jsondom::Element resource, const QString& named, QString* computed);

// The digest a run names, hashed by its last 16 characters (hex digits, as random as any hash of the whole text,
// and far cheaper than Qt's over its 142 bytes: looked up for each resource of each run read); another text
// hashes as well, if not as well spread.
struct TailHash
{
    std::size_t operator()(const QString& s) const noexcept
    {
        const qsizetype n = s.size();
        const qsizetype take = std::min<qsizetype>(n, 16);
        const char16_t* p = reinterpret_cast<const char16_t*>(s.constData()) + (n - take);
        std::uint64_t h = std::uint64_t(n) * 0x9E3779B97F4A7C15ull;
        for (qsizetype i = 0; i < take; ++i)
            h = (h ^ p[i]) * 0x100000001B3ull;
        return std::size_t(h ^ (h >> 29));
    }
};

} // namespace

// The protocol and environment of a bundle's runs are mostly the same few resources: each thread remembers the
// checks it made, by the resource's exact content and the digest named.
DigestCheck checkResource(jsondom::Element resource, const QString& named, QString* computed)
{
    constexpr std::size_t kMaxEntries = 4096;
    constexpr std::size_t kMaxKeyBytes = std::size_t(64) << 10;
    struct Recent
    {
        std::string key; // as in the cache: the digest named, '\0', then appendDomKey's text
        CheckedResource checked;
    };
    // First the resource last checked against the same digest (a bundle's runs mostly carry the same one): read
    // against its key, nothing written.
    thread_local std::unordered_map<QString, Recent, TailHash> recent;
    const std::size_t prefix = std::size_t(named.size()) * sizeof(QChar) + 1;
    if (const auto last = recent.find(named); last != recent.end()) {
        const char* at = last->second.key.data() + prefix;
        const char* end = last->second.key.data() + last->second.key.size();
        if (matchesDomKey(at, end, resource) && at == end) {
            if (computed)
                *computed = last->second.checked.digest;
            return last->second.checked.check;
        }
    }
    thread_local std::unordered_map<std::string, CheckedResource> cache;
    thread_local std::string key;
    key.clear();
    key.append(reinterpret_cast<const char*>(named.constData()), std::size_t(named.size()) * sizeof(QChar));
    key += '\0';
    appendDomKey(key, resource);
    CheckedResource checked;
    if (const auto found = cache.find(key); found != cache.end()) {
        checked = found->second;
    } else {
        checked.check = checkUncached(resource, named, &checked.digest);
        if (key.size() <= kMaxKeyBytes) {
            if (cache.size() >= kMaxEntries)
                cache.clear();
            cache.emplace(key, checked);
        }
    }
    if (key.size() <= kMaxKeyBytes) {
        if (recent.size() >= kMaxEntries)
            recent.clear();
        recent.insert_or_assign(named, Recent { key, checked });
    }
    if (computed)
        *computed = checked.digest;
    return checked.check;
}

namespace {

DigestCheck checkUncached(jsondom::Element resource, const QString& named, QString* computed)
{
    const QString digest = domResourceDigest(resource);
    if (computed)
        *computed = digest;
    if (!digest.isEmpty() && digest == named)
        return DigestCheck::Verified;
    return dialects::checkOwnDigest(resource, named);
}

} // namespace

} // namespace kix
