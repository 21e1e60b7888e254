// SPDX-License-Identifier: Apache-2.0
#pragma once
// The read path's entry, and its first stage. model/read reads a file in three stages, each calling only the next:
// Source (this file: which source a path is; wholefile, zstdstream, jsonlstream, jsonlmapped and jsonlread: text,
// whole, decompressed or in windows of lines, with where it came from), Frame (documenttext and the format readers
// it routes to: the text becomes documents, each with its JSON pointer or line) and Extract (runextract: a
// document becomes a run).

#include "model/read/readlimits.h"
#include "model/read/runextract.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace kix {

// Parses the bytes of one file. Accepted: a kernelindex document ({run, protocol, environment}), a bare
// BenchmarkRun, a JSON array of either, JSON Lines (one per line), a submission bundle (JSON or YAML), YAML
// manifests (`.yaml`, `.yml`), the KernelIndex catalog export (JSON Lines of {"table", "row"}, plain or
// Zstandard-compressed), and Liger-Kernel benchmark CSV (by `.csv` extension or its header). A UTF-8 BOM and CRLF
// line ends are accepted.
ParseResult parseBytes(const QByteArray& bytes, const QString& file, const ParseLimits& limits = {});

// Reads and parses one file (refuses files larger than limits.maxFileBytes without reading them).
ParseResult parseFile(const QString& path, const ParseLimits& limits = {});

// The same, appending to `result` (the loader reads many files into one result).
void parseFileInto(const QString& path, const ParseLimits& limits, ParseResult& result);

} // namespace kix
