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
// Part of the Frame stage of the read path (documentparser.h). A .zst file is streamed (zstdstream.h): decompressed
// in bounded pieces and handed here, where it is cut into lines as it goes, never whole in memory. A compressed
// file that is not a catalog is read as kernelindex JSON Lines, line by line.

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

namespace catalog {
class Router;
}

// Text fed in pieces of any size (decompressed as it is read: zstdstream.h), cut into lines and read as a catalog
// export or, when its first non-blank line is not a catalog row, as kernelindex JSON Lines.
class LineRouter
{
public:
    LineRouter(const QString& file, const ParseLimits& limits, ParseResult& result);
    LineRouter(const LineRouter&) = delete;
    LineRouter& operator=(const LineRouter&) = delete;
    ~LineRouter();
    // False to stop (cancelled, or the text is refused).
    bool feed(std::string_view piece);
    // After the last piece: the last line, and the catalog's links resolved.
    void finish();

private:
    std::unique_ptr<catalog::Router> m_router;
};

} // namespace kix
