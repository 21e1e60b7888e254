// SPDX-License-Identifier: Apache-2.0
// Recognises nvbench, Google Benchmark and pytest-benchmark JSON by content, and the loader's hook into them.
#include "model/import/interop.h"

#include "model/read/jsondom.h"
#include "model/read/jsonreader.h"

#include <cstring>

namespace kix::interop {

using json = nlohmann::json;

QString formatName(Format format)
{
    switch (format) {
    case Format::Nvbench:
        return QStringLiteral("nvbench JSON");
    case Format::GoogleBenchmark:
        return QStringLiteral("Google Benchmark JSON");
    case Format::PytestBenchmark:
        return QStringLiteral("pytest-benchmark JSON");
    case Format::Unknown:
        break;
    }
    return {};
}

QString familyOf(Format format)
{
    switch (format) {
    case Format::Nvbench:
        return QStringLiteral("nvbench_cold");
    case Format::GoogleBenchmark:
        return QStringLiteral("gbench");
    case Format::PytestBenchmark:
        return QStringLiteral("pytest_benchmark");
    case Format::Unknown:
        break;
    }
    return {};
}

namespace {

bool has(const json& object, const char* key)
{
    return object.is_object() && object.contains(key);
}

} // namespace

Format sniffFormat(const json& value)
{
    if (!value.is_object() || !value.contains("benchmarks") || has(value, "run") || has(value, "kind"))
        return Format::Unknown;
    const json& benchmarks = value["benchmarks"];
    const json first = benchmarks.is_array() && !benchmarks.empty() ? benchmarks.front() : json::object();
    const bool nvbenchMeta
        = has(value, "meta") && has(value["meta"], "version") && has(value["meta"]["version"], "nvbench");
    if (has(value, "devices") || nvbenchMeta || has(first, "states"))
        return Format::Nvbench;
    if (has(value, "context") || has(first, "run_type") || has(first, "time_unit") || has(first, "real_time"))
        return Format::GoogleBenchmark;
    if (has(value, "machine_info") || has(value, "commit_info") || has(first, "stats") || has(first, "fullname"))
        return Format::PytestBenchmark;
    return Format::Unknown;
}

ImportResult importForeign(const json& value, const QString& file)
{
    switch (sniffFormat(value)) {
    case Format::Nvbench:
        return importNvbench(value, file);
    case Format::GoogleBenchmark:
        return importGoogleBenchmark(value, file);
    case Format::PytestBenchmark:
        return importPytestBenchmark(value, file);
    case Format::Unknown:
        break;
    }
    return {};
}

bool mayBeForeign(const char* begin, const char* end)
{
    static const char kKey[] = "\"benchmarks\"";
    const std::size_t n = sizeof(kKey) - 1;
    while (begin < end && (*begin == ' ' || *begin == '\t' || *begin == '\r' || *begin == '\n'))
        ++begin;
    if (begin == end || *begin != '{')
        return false;
    return memmem(begin, static_cast<std::size_t>(end - begin), kKey, n) != nullptr;
}

bool parseForeign(const char* begin, const char* end, const QString& file, int maxDepth, ParseResult& result)
{
    const JsonReadResult read = readJson(begin, end, maxDepth);
    if (!read.ok)
        return false;
    const nlohmann::json value = nlohmann::json::parse(begin, end, nullptr, false);
    if (value.is_discarded())
        return false;
    ImportResult imported = importForeign(value, file);
    if (imported.format == Format::Unknown)
        return false;
    // Duplicate keys are named the same way as in kernelindex documents (nlohmann keeps the last value too).
    jsondom::Element root;
    if (!jsondom::parse(std::string_view(begin, static_cast<std::size_t>(end - begin)), false, maxDepth, root))
        jsondom::reportDuplicateKeys(root, file, {}, result.diagnostics);
    result.diagnostics += imported.diagnostics;
    for (std::size_t i = 0; i < imported.documents.size(); ++i) {
        if (RunPtr run = runFromDocument(imported.documents[i], file, imported.pointers[i], result.diagnostics,
                i < imported.samples.size() ? imported.samples[i] : std::vector<double>()))
            result.runs.append(run);
    }
    if (result.runs.isEmpty() && !result.hasErrors())
        result.diagnostics.append(makeError(file, QStringLiteral("/benchmarks"),
            QStringLiteral("%1 with no benchmark results").arg(formatName(imported.format))));
    return true;
}

} // namespace kix::interop
