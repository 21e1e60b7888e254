#pragma once
// RFC 8785 JSON Canonicalization Scheme (JCS), as the kernelindex format hashes its resources (spec §9.2): object
// keys sorted by UTF-16 code units, no whitespace, strings escaped as ECMAScript's JSON.stringify does, numbers
// as ECMAScript's Number::toString prints them (shortest round-trip digits; an exponent only below 1e-6 or from
// 1e21 on; integers without ".0"; -0 as 0).

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>

namespace kix {

// The canonical text of `value`. Throws std::invalid_argument for a number that is not finite (JCS has none).
// With a duplicated key (nlohmann keeps one) there is nothing to decide; see appendCanonicalMembers for trees
// that keep both.
std::string canonicalJson(const nlohmann::json& value);

// The pieces, for other JSON trees (the reader's simdjson DOM) that must canonicalize alike.
// A finite double in ECMAScript form; throws std::invalid_argument when it is not finite.
void appendCanonicalNumber(std::string& out, double value);
// A UTF-8 string, quoted, escaping only '"', '\\' and U+0000..U+001F (\b \t \n \f \r, else \u00xx).
void appendCanonicalString(std::string& out, std::string_view utf8);
// Whether key a sorts before key b by UTF-16 code units (UTF-8 byte order differs only for characters above
// U+FFFF against U+E000..U+FFFF).
bool utf16Less(std::string_view a, std::string_view b);

} // namespace kix
