// SPDX-License-Identifier: Apache-2.0
#pragma once
// RFC 8785 JSON Canonicalization Scheme (JCS): the byte string the kernelindex digest is taken over.

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

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

// The pieces, for canonicalising a tree that is not an nlohmann::json (the reader's simdjson DOM, see
// model/read/resourcecheck.cpp), so that both give the same bytes.
void appendCanonicalNumber(std::string& out, double value); // ecmaScriptNumber; throws std::invalid_argument
void appendCanonicalString(std::string& out, std::string_view utf8); // a JSON string as JCS escapes it
bool utf16Less(std::string_view a, std::string_view b); // key order: UTF-16 code units

} // namespace kix::format
