// SPDX-License-Identifier: Apache-2.0
#pragma once
// How the Frame stage (documenttext.cpp) offers a file's text to a reader: an accepts test and a parse. Its own
// readers of text (YAML, a catalog export, JSON Lines) are entries of this shape, and so are the formats kix imports
// besides kernelindex JSON (Liger-Kernel CSV, nvbench, Google Benchmark and pytest-benchmark JSON). model/import/
// defines importedFormats(), so the dependency points one way: import -> read, never read -> import.

#include <QString>

#include <vector>

namespace kix {

struct ParseLimits;
struct ParseResult;

struct InputFormat
{
    // When the format is tried: on the text, before the JSON Lines reader (CSV), or after a parse as JSON, before
    // the document is read as kernelindex.
    enum class Stage { BeforeJsonLines, BeforeKernelindex };
    Stage stage = Stage::BeforeKernelindex;
    // Cheap test by suffix ("csv", lower case) and content.
    bool (*accepts)(const QString& suffix, const char* begin, const char* end) = nullptr;
    // Parses the text into `result` (runs and diagnostics); false leaves `result` alone (not this format after all).
    bool (*parse)(
        const char* begin, const char* end, const QString& file, const ParseLimits& limits, ParseResult& result)
        = nullptr;
};

// Defined in model/import/importedformats.cpp, in the order the formats are tried.
const std::vector<InputFormat>& importedFormats();

} // namespace kix
