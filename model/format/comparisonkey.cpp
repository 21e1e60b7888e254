// SPDX-License-Identifier: Apache-2.0
#include "model/format/comparisonkey.h"

#include "model/format/canonicaljson.h"
#include "model/format/digest.h"

namespace kix::format {

std::string metricKey(std::string_view metric, std::string_view statistic, std::string_view unit)
{
    std::string key;
    key.reserve(metric.size() + statistic.size() + unit.size() + 2);
    key.append(metric).append(1, ':').append(statistic).append(1, ':').append(unit);
    return key;
}

std::string correctnessKey(std::string_view canonicalCorrectness)
{
    if (canonicalCorrectness.empty())
        return sha256Digest("{}");
    std::string text = "{\"correctness\":";
    text.append(canonicalCorrectness).append(1, '}');
    return sha256Digest(text);
}

std::string comparisonKey(const ComparisonParts& parts)
{
    // The members in JCS order (UTF-16 code units of their names): all ASCII, so plain byte order.
    std::string text = "{\"correctness\":";
    appendCanonicalString(text, parts.correctness);
    text += ",\"environment\":";
    appendCanonicalString(text, parts.environment);
    text += ",\"metric\":";
    appendCanonicalString(text, parts.metric);
    text += ",\"operation\":";
    appendCanonicalString(text, parts.operation);
    text += ",\"protocol\":";
    appendCanonicalString(text, parts.protocol);
    text += ",\"v\":1,\"workload\":";
    appendCanonicalString(text, parts.workload);
    text += '}';
    return sha256Digest(text);
}

} // namespace kix::format
