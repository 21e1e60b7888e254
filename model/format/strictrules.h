// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (`kix validate --strict`): the building blocks the v1alpha1 rules are written with, each a
// check of one JSON value at one pointer that adds what deviates to the report.

#include "model/format/strictcheck.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <regex>
#include <string>
#include <vector>

namespace kix::format::strict {

using json = nlohmann::json;

constexpr double kMaxSafe = 9007199254740991.0; // 2^53 - 1

QString child(const QString& pointer, const std::string& key); // pointer + "/" + the escaped key
QString item(const QString& pointer, std::size_t i);
QString shown(const json& v); // the value as JSON, cut at 80 characters
std::size_t codePoints(const std::string& s);

// A check of one value at one pointer; findings go to the report.
using Check = std::function<void(const json&, const QString&, StrictReport&)>;

void add(StrictReport& r, const QString& pointer, const QString& message);

struct Field
{
    const char* name;
    Check check;
    bool required = false;
};

// An object of these fields, no others.
Check object(std::vector<Field> fields);
Field req(const char* name, Check check);
Field opt(const char* name, Check check);

struct Pattern
{
    const char* text;
    std::shared_ptr<const std::regex> re;
};
Pattern pattern(const char* text);
const Pattern& token();
const Pattern& digest();
const Pattern& commit();
const Pattern& name();
const Pattern& slug();
bool matches(const Pattern& pat, const std::string& s);

Check string(const Pattern* pat = nullptr, std::size_t maxLength = 0);
Check text(std::size_t maxLength);
Check str(const Pattern& pat, std::size_t maxLength = 0);
Check oneOf(std::vector<std::string> values, const char* what = "value");

enum class Bound { None, Inclusive, Exclusive };
struct Range
{
    Bound low = Bound::None;
    double min = 0;
    double max = kMaxSafe;
    bool hasMax = false;
};

bool isWhole(const json& v);
Check number(bool integer, Range range);
Check integer(Bound low = Bound::Inclusive, double min = 0);
Check positiveInteger();
Check signedInteger();
Check anyNumber();
Check nonNegative(double max = 0);
Check positiveNumber();
Check boolean();
Check constant(const char* value);
// An object whose keys match `names` and whose values pass `value`.
Check mapOf(const Pattern* names, std::size_t maxNameLength, Check value);
Check array(Check items, std::size_t minItems = 0);
Check duration();
// ISO 8601 date-time in UTC with Z, as the schema's observedAt pattern (seconds and fraction optional).
Check timestamp();

} // namespace kix::format::strict
