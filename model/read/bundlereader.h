// SPDX-License-Identifier: Apache-2.0
#pragma once
// Submission bundles (the format's registry/submissions/example-fixture.yaml structure) and single manifests,
// from JSON or YAML: top-level lists projects, operations, workloads, implementations ({projectSlug, manifest}),
// protocols, environments and runs ({run, protocol, environment}). Each run becomes a kernelindex document
// {run, protocol, environment} with the workload, operation, implementation and project it links to embedded
// when the bundle holds them (joined by digest, as the format links them; the project by its slug).

#include "model/read/readlimits.h"

#include <nlohmann/json.hpp>

#include <QString>

namespace kix {

// An object whose members are all lists and that names at least one of a bundle's lists (and is not a manifest).
bool isBundle(const nlohmann::json& value);

// Reads a bundle's runs into `result`.
void readBundle(const nlohmann::json& bundle, const QString& file, const ParseLimits& limits, ParseResult& result);

// Any JSON value read from a YAML file (or a JSON bundle): a bundle, a list of documents, one document or one
// manifest. A manifest of a kind that is not a run (a WorkloadCase, say) holds nothing to list: a warning.
void readManifestValue(
    const nlohmann::json& value, const QString& file, const ParseLimits& limits, ParseResult& result);

// The YAML file's text, read (yamlreader.h) and then as readManifestValue.
void parseYamlText(
    const char* begin, const char* end, const QString& file, const ParseLimits& limits, ParseResult& result);

} // namespace kix
