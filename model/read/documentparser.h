#pragma once

#include "model/diagnostic.h"
#include "model/read/runextract.h"
#include "model/run.h"

#include <QByteArray>
#include <QString>

namespace kix {

struct ParseResult
{
    RunList runs;
    Diagnostics diagnostics;
    bool hasErrors() const;
};

// Limits that keep hostile input from exhausting memory or the stack.
struct ParseLimits
{
    qint64 maxFileBytes = qint64(1) << 30; // 1 GiB
    int maxDepth = 64;
    qint64 maxDocuments = 5'000'000;
};

// Parses the bytes of one file. Accepted: a kernelindex document ({run, protocol, environment}), a bare
// BenchmarkRun, a JSON array of either, JSON Lines (one per line), and Liger-Kernel benchmark CSV
// (by `.csv` extension or its header). A UTF-8 BOM and CRLF line ends are accepted.
ParseResult parseBytes(const QByteArray& bytes, const QString& file, const ParseLimits& limits = {});

// Reads and parses one file (refuses files larger than limits.maxFileBytes without reading them).
ParseResult parseFile(const QString& path, const ParseLimits& limits = {});

// The same, appending to `result` (the loader reads many files into one result).
void parseFileInto(const QString& path, const ParseLimits& limits, ParseResult& result);

} // namespace kix
