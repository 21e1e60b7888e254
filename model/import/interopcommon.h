// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shared by the importers of other tools' JSON (internal to kix_model): schema checks that name the JSON pointer,
// number parsing, workload slugs and the kernelindex document they all build.

#include "model/diagnostic.h"
#include "model/format/documentbuilder.h"
#include "model/import/interop.h"

#include <QDateTime>
#include <QString>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kix::interop::detail {

using json = nlohmann::json;

enum class Kind { Object, Array, String, Number, Bool, NumberOrString, Scalar };

// Records schema problems of one source file, each with the JSON pointer it concerns.
class Schema
{
public:
    Schema(const QString& file, Diagnostics& out)
        : m_file(file)
        , m_out(out)
    {
    }
    void error(const QString& pointer, const QString& message);
    void warning(const QString& pointer, const QString& message);
    int errors() const { return m_errors; }
    const QString& file() const { return m_file; }

    // The member of `object` (at `pointer`) when present and of the kind asked for. A missing required member and a
    // member of another kind are errors; nullptr then. An optional member that is absent or null gives nullptr.
    const json* require(const json& object, const char* key, const QString& pointer, Kind kind);
    const json* optional(const json& object, const char* key, const QString& pointer, Kind kind);

private:
    const json* member(const json& object, const char* key, const QString& pointer, Kind kind, bool required);
    QString m_file;
    Diagnostics& m_out;
    int m_errors = 0;
};

QString join(const QString& pointer, const char* key);
QString join(const QString& pointer, std::size_t index);
QString kindName(Kind kind);
QString typeName(const json& value);
// A number, or a string holding one (nvbench writes its numbers as strings): "1.5e-05", "inf".
std::optional<double> asNumber(const json& value);
// nvbench and Google Benchmark compare builds one file each, so a file's runs are one implementation: the provider
// is the file's base name ("main" for main.json), or `fallback` when it has none.
std::string providerFromFile(const QString& file, const char* fallback);

// Turns a value into something a workload slug can carry: no '/', '-', '=' or spaces.
std::string slugValue(const std::string& value);
// "fp16" for "fp16", "float16", "torch.float16", "half"...; "" when the value is not a dtype kix knows.
std::string knownDtype(const std::string& value);
// "key=value" parts joined by '-', the dtype (when known) last: "Elements{io}=1048576-T=I32".
std::string workloadSlug(const std::vector<std::pair<std::string, std::string>>& params, const std::string& dtype);

QDateTime parseTime(const std::string& text); // ISO-8601 with or without a zone (none = UTC); invalid when not
std::string isoUtcMs(const QDateTime& time); // "2026-02-28T00:23:31.000Z"
std::string timestampPart(const QDateTime& time); // "2026-02-28-00-23-31"

json measurement(const std::string& metric, const std::string& statistic, const std::string& unit, double value);
double toNs(double value, const std::string& unit, bool* known);

// What every importer knows about one run; buildDocument() turns it into a kernelindex document.
struct RunParts
{
    std::string kernel;
    std::string pass;
    std::string provider;
    std::string gpuSlug;
    std::string workloadSlug;
    std::string timestamp; // "2026-02-28-00-23-31", or "src-<hash of the source file>" when the tool records no time
    std::string observedAt; // ISO-8601 UTC, or ""
    QString file; // the source file: when the tool records no time, its modification time dates the run
    std::string status = "passed"; // one of format::runStatuses()
    std::string title;
    json labels = json::object();
    json latencyNs = json::object(); // {mean: ..., min: ...}; the primary statistic among them
    std::string primaryStatistic;
    std::vector<double> samplesNs;
    json measurements = json::array();
    json sourceNative = json::object(); // the tool's own view; source, benchmark and externalId are added
    json workload = json::object(); // for the workload digest
    json implementation = json::object(); // for the implementation digest
    json protocol;
    json environment;
};
format::RunDocument buildDocument(const RunParts& parts); // through format::DocumentBuilder
// buildDocument(parts) into `result`: the document and, beside it, its raw samples.
void addDocument(ImportResult& result, const RunParts& parts);

json resource(const char* kind, const std::string& name, const std::string& title, json spec);
json protocolDocument(const std::string& family, const std::string& name, const std::string& title,
    const std::string& harness, const std::string& repository, const std::string& timer,
    const std::string& primaryStatistic, const std::string& notes);

} // namespace kix::interop::detail
