// SPDX-License-Identifier: Apache-2.0
#pragma once
// The KernelIndex catalog export (registry/exports/catalog-*.jsonl.zst, or decompressed): one JSON line
// {"table": NAME, "row": {...}} per published object. Every benchmark_runs row becomes a kernelindex document
// {run, protocol, environment} (its row.manifest) with the resources it links to embedded when the export holds
// them: workload (workloads, by workloadId), operation (operations, by the workload's operationId),
// implementation (implementations, by implementationId) and project (projects, by the implementation's
// projectId). Links are resolved after the whole export is read, whatever order its tables come in. Serving
// runs and the other tables are counted in one note.
//
// A .zst file is streamed: decompressed in bounded pieces and cut into lines as it goes, never whole in memory.
// A compressed file that is not a catalog is read as kernelindex JSON Lines, line by line.

#include "model/read/readlimits.h"

#include <QString>

#include <memory>
#include <string_view>

namespace kix {

// The text's first non-blank line starts as a catalog row does ({"table": ...).
bool looksLikeCatalog(const char* begin, const char* end);

// An uncompressed catalog export already in memory.
void parseCatalogText(
    const char* begin, const char* end, const QString& file, const ParseLimits& limits, ParseResult& result);

// Zstandard-compressed input (a catalog export or kernelindex JSON Lines), from a file or from memory.
void parseZstdFile(const QString& path, const ParseLimits& limits, ParseResult& result);
void parseZstdBytes(std::string_view compressed, const QString& file, const ParseLimits& limits, ParseResult& result);

} // namespace kix
