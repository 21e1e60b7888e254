#pragma once
// The kernelindex digest (spec §9.2): "sha256:" + hex(sha256(JCS({apiVersion, kind, spec}))). Metadata is left
// out, so renaming or retitling a resource keeps its digest.

#include <nlohmann/json_fwd.hpp>

#include <QString>

#include <string_view>

namespace kix {

// The digest of one resource ({apiVersion, kind, metadata, spec}); members it lacks are left out of the hash.
// Throws std::invalid_argument for a number that is not finite.
QString kernelindexDigest(const nlohmann::json& resource);

// "sha256:" + the lower-case hex SHA-256 of bytes.
QString sha256Digest(std::string_view bytes);

} // namespace kix
