#pragma once

#include "model/diagnostic.h"
#include "model/run.h"

#include <QByteArray>
#include <QString>

#include <nlohmann/json_fwd.hpp>

#include <string_view>

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

// Builds the typed view of one parsed document. Returns nullptr and an error diagnostic when the document is
// refused; warnings for documents loaded anyway are appended to `out` too. `pointer` locates the document inside
// the file ("" for the whole file, "/3" for the fourth array element, "/12" for line 13 of JSON Lines).
RunPtr runFromDocument(const nlohmann::json& document, const QString& file, const QString& pointer, Diagnostics& out);

// The same, given the document's source text (valid JSON): the run keeps that text, minified, as its raw document.
RunPtr runFromDocument(const nlohmann::json& document, const QString& file, const QString& pointer, Diagnostics& out,
    std::string_view sourceText);

class JsonTape;
// The same from the loader's fast reader (the source text is the tape's).
RunPtr runFromTape(const JsonTape& tape, const QString& file, const QString& pointer, Diagnostics& out);

// Removes insignificant whitespace from valid JSON text.
std::string minifyJson(std::string_view text);

// Shares the memory of the strings that repeat across runs (GPU, protocol notes, digests, ...).
void internStrings(Run& run);

// "batch128-channels2048-channels_per_group4-hidden512-fp32" -> params and dtype. Generic for other kernels:
// each '-' separated part is a key followed by its value ("seqlen1024"), a known dtype, or a bare value.
void parseWorkloadSlug(const QString& slug, QVector<WorkloadParam>& params, QString& dtype);

} // namespace kix
