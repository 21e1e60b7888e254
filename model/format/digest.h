// SPDX-License-Identifier: Apache-2.0
#pragma once
// The kernelindex digest (spec §9.2): what a run's protocolDigest, environmentDigest, workloadDigest and
// implementationDigest name.

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace kix::format {

// "sha256:" + lower-case hex of SHA-256 over the RFC 8785 canonical JSON (canonicalJson) of
// {apiVersion, kind, spec} of `resource`; metadata and anything else is left out. A member the resource lacks is
// taken as null, as the format's own tools do. Throws std::invalid_argument where canonicalJson does.
std::string kernelindexDigest(const nlohmann::json& resource);

// "sha256:" + hex of SHA-256 over `bytes` (an artifact file's content: raw samples, logs).
std::string sha256Digest(const std::string& bytes);

// The 32 bytes of SHA-256 over `size` bytes at `data`.
void sha256Bytes(const char* data, std::size_t size, unsigned char (&hash)[32]);

// The 16 bytes of MD5 over `size` bytes at `data` (a run's identityHash(): a hash table's key, not a digest).
void md5Bytes(const char* data, std::size_t size, unsigned char (&hash)[16]);

} // namespace kix::format
