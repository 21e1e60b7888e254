// SPDX-License-Identifier: Apache-2.0
#pragma once
// Names, slugs, GPU facts and the protocol and environment documents of runs imported from Liger-Kernel's
// benchmark CSV. Internal to kix_model (ligercsv.cpp).

#include "model/runfields.h" // slugify

#include <nlohmann/json.hpp>

#include <string>

namespace kix::liger {

using json = nlohmann::json;

bool isAsciiAlnum(char c);
char asciiLower(char c);
std::string lower(std::string s);
// "group_norm" -> "GroupNorm"; well-known abbreviations keep their usual spelling ("rms_norm" -> "RMSNorm").
std::string kernelDisplayName(const std::string& kernel);
std::string architectureOf(const std::string& product); // "sm_100" for "NVIDIA B200"; "" when unknown
std::string vendorOf(const std::string& product); // "nvidia"; "" when unknown
// Through format::protocolResource / environmentResource: valid BenchmarkProtocol and ExecutionEnvironment resources.
json protocolDocument(const std::string& pass, bool memory);
json environmentDocument(const std::string& product);

} // namespace kix::liger
