// SPDX-License-Identifier: Apache-2.0
#pragma once
// What every importer of another tool's JSON returns (model/import/nvbench.h, gbench.h, pytestbenchmark.h).

#include "model/diagnostic.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <vector>

namespace kix::interop {

enum class Format { Unknown, Nvbench, GoogleBenchmark, PytestBenchmark };

struct ImportResult
{
    Format format = Format::Unknown;
    std::vector<nlohmann::json> documents; // kernelindex documents
    std::vector<QString> pointers; // where each document came from in the source file ("/benchmarks/0/states/2")
    std::vector<std::vector<double>> samples; // each document's raw samples (ns), which it names by timing.rawSamples
    Diagnostics diagnostics; // errors name the source file, the JSON pointer into it and the reason
};

} // namespace kix::interop
