// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (the document builder): the specs of the protocol and environment resources, written from
// loose facts with the schema's fields; what has no field, or cannot be written as the field asks, goes to labels.

#include "model/format/documentbuilder.h"

#include <string>

namespace kix::format::specs {

// The value as text: a string as it is, anything else as compact JSON.
std::string text(const json& value);

// A BenchmarkProtocol's spec from loose facts; the rest is added to `labels`.
json protocolSpec(const json& looseSpec, json& labels);
// An ExecutionEnvironment's spec from loose facts; the rest is added to `labels`.
json environmentSpec(const json& looseSpec, json& labels);

} // namespace kix::format::specs
