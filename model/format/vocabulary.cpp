// SPDX-License-Identifier: Apache-2.0
#include "model/format/vocabulary.h"

#include <algorithm>
#include <map>

namespace kix::format {
namespace {

bool isLowerAlnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

char lowerAscii(char c)
{
    return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
}

// Lower case; runs of characters outside [a-z0-9] plus `keep` become one `separator`; none at either end.
std::string slug(std::string_view text, char separator, std::string_view keep)
{
    std::string out;
    for (const char raw : text) {
        const char c = lowerAscii(raw);
        if (isLowerAlnum(c) || (c != '\0' && keep.find(c) != std::string_view::npos))
            out += c;
        else if (!out.empty() && out.back() != separator)
            out += separator;
    }
    while (!out.empty() && out.back() == separator)
        out.pop_back();
    return out;
}

std::string trimmedTo(std::string s, std::size_t most, std::string_view trailing)
{
    if (s.size() > most)
        s.resize(most);
    while (!s.empty() && trailing.find(s.back()) != std::string_view::npos)
        s.pop_back();
    return s;
}

} // namespace

const std::vector<std::string>& runStatuses()
{
    static const std::vector<std::string> statuses = { "passed", "incorrect_shape", "incorrect_dtype",
        "incorrect_numerical", "compile_error", "runtime_error", "timeout", "resource_exceeded", "invalid_reference",
        "policy_violation", "suspected_reward_hack", "incomplete_evidence", "revoked" };
    return statuses;
}

bool isRunStatus(std::string_view status)
{
    const auto& all = runStatuses();
    return std::find(all.begin(), all.end(), status) != all.end();
}

bool isFailureStatus(std::string_view status)
{
    return status != "passed" && isRunStatus(status);
}

bool isName(std::string_view text)
{
    if (text.empty() || !(text[0] >= 'a' && text[0] <= 'z'))
        return false;
    return std::all_of(text.begin(), text.end(), [](char c) { return isLowerAlnum(c) || c == '_'; });
}

std::string toName(std::string_view text)
{
    // camelCase words apart first: "smClockHz" -> "sm_clock_hz", "l2CacheBytes" -> "l2_cache_bytes"
    std::string words;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const bool upper = c >= 'A' && c <= 'Z';
        const char before = i > 0 ? text[i - 1] : '\0';
        if (upper && ((before >= 'a' && before <= 'z') || (before >= '0' && before <= '9')))
            words += '_';
        words += c;
    }
    std::string out = slug(words, '_', "");
    if (out.empty())
        return "value";
    if (!(out[0] >= 'a' && out[0] <= 'z'))
        out = "x_" + out;
    return out;
}

std::string unitName(std::string_view unit)
{
    static const std::map<std::string_view, const char*> known
        = { { "B", "bytes" }, { "byte", "bytes" }, { "bytes", "bytes" }, { "GB/s", "gb_s" }, { "B/s", "bytes_s" },
              { "MB", "mb" }, { "MiB", "mib" }, { "µs", "us" }, { "\u03bcs", "us" } };
    const auto it = known.find(unit);
    return it != known.end() ? std::string(it->second) : toName(unit);
}

const std::vector<std::string>& latencyNsKeys()
{
    static const std::vector<std::string> keys
        = { "median", "mean", "p05", "p95", "minimum", "maximum", "mad", "confidence95" };
    return keys;
}

bool isLatencyNsKey(std::string_view key)
{
    const auto& all = latencyNsKeys();
    return std::find(all.begin(), all.end(), key) != all.end();
}

bool isDigest(std::string_view text)
{
    if (text.size() != 7 + 64 || text.substr(0, 7) != "sha256:")
        return false;
    return std::all_of(
        text.begin() + 7, text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

std::string metadataName(std::string_view text)
{
    std::string out = trimmedTo(slug(text, '-', "._"), 200, "-._");
    while (!out.empty() && !isLowerAlnum(out.front()))
        out.erase(out.begin());
    return out.empty() ? std::string("unnamed") : out;
}

std::string sourceName(std::string_view text)
{
    const std::string out = trimmedTo(slug(text, '-', ""), 100, "-");
    return out.empty() ? std::string("unknown") : out;
}

std::string truncateCodePoints(std::string_view text, std::size_t count)
{
    std::size_t points = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
            if (points == count)
                return std::string(text.substr(0, i));
            ++points;
        }
    }
    return std::string(text);
}

} // namespace kix::format
