// SPDX-License-Identifier: Apache-2.0
#pragma once
// Other benchmark tools' JSON results (nvbench, Google Benchmark, pytest-benchmark), recognised by their content
// and turned into kernelindex documents ({run, protocol, environment}) that then go through the normal kernelindex
// parsing. Each importer takes an already parsed JSON value, so it does not depend on how the loader reads text.

#include "model/diagnostic.h"
#include "model/import/gbench.h"
#include "model/import/importresult.h"
#include "model/import/nvbench.h"
#include "model/import/pytestbenchmark.h"
#include "model/read/documentparser.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <vector>

namespace kix::interop {

// "nvbench JSON", "Google Benchmark JSON", "pytest-benchmark JSON"; "" for Unknown.
QString formatName(Format format);
// The protocol family the runs of a format get ("nvbench_cold", "gbench", "pytest_benchmark").
QString familyOf(Format format);

// Decides by content, never by file name: the top-level keys and the shape of the first benchmark entry. A file
// that breaks its format's schema is still recognised when its top level says which format it means to be.
Format sniffFormat(const nlohmann::json& value);

// Sniffs and dispatches; format Unknown (and nothing else) when the value is none of the three.
ImportResult importForeign(const nlohmann::json& value, const QString& file);

// The loader's hook. Cheap test first: could this text be one of the formats (a top-level "benchmarks" key)?
bool mayBeForeign(const char* begin, const char* end);
// Parses the text, and when it is one of the formats imports it and adds its runs and diagnostics to `result`
// (each run located by its pointer in the source file). Returns false, leaving `result` alone, otherwise.
bool parseForeign(const char* begin, const char* end, const QString& file, int maxDepth, ParseResult& result);

} // namespace kix::interop
