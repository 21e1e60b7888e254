#pragma once
// Internal to kix_model: the few functions through which runextract.cpp reads any JSON tree, so that one
// extraction serves nlohmann's tree and the loader's JsonTape alike.

#include "model/documentparser.h"
#include "model/jsontape.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace kix::jsonview {

using json = nlohmann::json;

inline QString fromStd(const std::string& s)
{
    return QString::fromStdString(s);
}

// The extraction below reads any JSON tree through these few functions: nlohmann's (documents built in memory,
// arrays, Liger rows) and the loader's JsonTape (files and JSON Lines, the hot path).
using JsonPtr = const json*;

inline bool isObject(JsonPtr v)
{
    return v && v->is_object();
}
inline bool isArray(JsonPtr v)
{
    return v && v->is_array();
}
inline bool isString(JsonPtr v)
{
    return v && v->is_string();
}
inline bool isNumber(JsonPtr v)
{
    return v && v->is_number();
}
inline bool isNull(JsonPtr v)
{
    return v && v->is_null();
}
inline double numberOf(JsonPtr v)
{
    return v->get<double>();
}
inline QString stringOf(JsonPtr v)
{
    return fromStd(v->get_ref<const std::string&>());
}
inline QString typeNameOf(JsonPtr v)
{
    return fromStd(v->type_name());
}
inline QString dumpOf(JsonPtr v)
{
    return fromStd(v->dump(-1, ' ', false, json::error_handler_t::replace));
}
inline std::size_t sizeOf(JsonPtr v)
{
    return v->size();
}
inline JsonPtr memberOf(JsonPtr parent, const char* key)
{
    if (!isObject(parent))
        return nullptr;
    const auto it = parent->find(key);
    return it == parent->end() ? nullptr : &*it;
}
template<class F>
void forEachElement(JsonPtr v, F f)
{
    for (std::size_t i = 0; i < v->size(); ++i) {
        if (!f(i, JsonPtr(&(*v)[i])))
            return;
    }
}
template<class F>
void forEachMember(JsonPtr v, F f)
{
    for (auto it = v->begin(); it != v->end(); ++it)
        f(fromStd(it.key()), JsonPtr(&*it));
}

struct TapeRef
{
    const JsonTape* tape = nullptr;
    std::uint32_t index = 0;
    explicit operator bool() const { return tape != nullptr; }
    const JsonTape::Node& node() const { return tape->nodes()[index]; }
};

inline bool isObject(TapeRef v)
{
    return v && v.node().type == JsonTape::Type::Object;
}
inline bool isArray(TapeRef v)
{
    return v && v.node().type == JsonTape::Type::Array;
}
inline bool isString(TapeRef v)
{
    return v && v.node().type == JsonTape::Type::String;
}
inline bool isNumber(TapeRef v)
{
    return v && v.node().type == JsonTape::Type::Number;
}
inline bool isNull(TapeRef v)
{
    return v && v.node().type == JsonTape::Type::Null;
}
inline double numberOf(TapeRef v)
{
    return v.node().number;
}
inline QString stringOf(TapeRef v)
{
    return v.tape->string(v.node());
}
inline QString typeNameOf(TapeRef v)
{
    static const char* const names[] = { "null", "boolean", "number", "string", "array", "object" };
    return QLatin1String(names[static_cast<int>(v.node().type)]);
}
inline QString dumpOf(TapeRef v)
{
    const std::string_view span = v.tape->text().substr(v.node().begin, v.node().end - v.node().begin);
    return fromStd(minifyJson(span));
}
inline std::size_t sizeOf(TapeRef v)
{
    return v.node().count;
}
inline TapeRef memberOf(TapeRef parent, const char* key)
{
    if (!isObject(parent))
        return {};
    const auto& nodes = parent.tape->nodes();
    const std::string_view wanted(key);
    std::uint32_t i = parent.index + 1;
    for (std::uint32_t m = 0; m < parent.node().count; ++m) {
        const JsonTape::Node& k = nodes[i];
        if (k.escaped ? parent.tape->utf8(k) == wanted : parent.tape->span(k) == wanted)
            return { parent.tape, i + 1 };
        i = nodes[i + 1].next;
    }
    return {};
}
template<class F>
void forEachElement(TapeRef v, F f)
{
    std::uint32_t i = v.index + 1;
    for (std::uint32_t e = 0; e < v.node().count; ++e) {
        if (!f(std::size_t(e), TapeRef { v.tape, i }))
            return;
        i = v.tape->nodes()[i].next;
    }
}
template<class F>
void forEachMember(TapeRef v, F f)
{
    std::uint32_t i = v.index + 1;
    for (std::uint32_t m = 0; m < v.node().count; ++m) {
        f(v.tape->string(v.tape->nodes()[i]), TapeRef { v.tape, i + 1 });
        i = v.tape->nodes()[i + 1].next;
    }
}

} // namespace kix::jsonview
