// SPDX-License-Identifier: Apache-2.0
#pragma once
// The read path's entry. model/read reads a file in three stages, each handing on only to the next:
// - Source: where the bytes come from. This file picks a big JSON Lines file on disk (jsonlstream: read in windows
//   of whole lines, through jsonlmapped or jsonlread) or a file read whole (wholefile, which decompresses a
//   Zstandard file as it is read: zstdstream). A source knows the next stage only as a TextSink (textsink.h).
// - Frame (documenttext's Frame and the format readers it routes to): the text becomes documents, each with its
//   JSON pointer or line.
// - Extract (runextract): a document becomes a run.

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
