// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model: the kernelindex digest of a resource read into the simdjson DOM (the same JCS as
// model/format/canonicaljson, without building a second tree), and the check of a carried resource against the
// digest its run names.

#include "model/read/jsondom.h"
#include "model/run.h"

#include <QString>

#include <string>

namespace kix {

// Appends the RFC 8785 canonical text of e; with a duplicated key, the last value counts (as nlohmann reads it).
// Returns false for a number JCS cannot write (not finite, or an integer past 64 bits).
bool appendCanonicalDom(std::string& out, jsondom::Element e);

// "sha256:…" of JCS({apiVersion, kind, spec}) of the resource; empty when it cannot be canonicalized.
QString domResourceDigest(jsondom::Element resource);
// The same digest's 32 bytes; false when it cannot be canonicalized.
bool domResourceSha256(jsondom::Element resource, unsigned char (&hash)[32]);

// Verified when the resource digests to `named`; VerifiedByDialect when it matches a digest a dialect wrote (the
// dialect adapter's checkOwnDigest); Mismatch otherwise. `computed` gets the format's digest.
DigestCheck checkResource(jsondom::Element resource, const QString& named, QString* computed = nullptr);

} // namespace kix
