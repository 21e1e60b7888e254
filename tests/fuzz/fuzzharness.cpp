// SPDX-License-Identifier: Apache-2.0
#include "fuzzharness.h"

#include "model/filter/runfilter.h"
#include "model/format/digest.h"
#include "model/format/documentbuilder.h"
#include "model/format/strictcheck.h"
#include "model/import/ligercsv.h"
#include "model/read/bundlereader.h"
#include "model/read/catalogreader.h"
#include "model/read/documentparser.h"
#include "model/read/documenttext.h"
#include "model/read/jsondom.h"
#include "model/read/runextract.h"
#include "model/read/yamlreader.h"
#include "model/read/zstdstream.h"
#include "model/write/bundlewriter.h"
#include "model/write/runwriter.h"

#include <QByteArray>

#include <algorithm>

#include <nlohmann/json.hpp>

#include <zstd.h>

#include <cmath>
#include <memory>

namespace kix::fuzz {

namespace {

QByteArray bytesOf(const uint8_t* data, std::size_t size)
{
    return QByteArray(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
}

// Every diagnostic names the file it is about and says something.
QString checkDiagnostics(const Diagnostics& diagnostics, const QString& file)
{
    for (const Diagnostic& d : diagnostics) {
        if (d.file != file)
            return QStringLiteral("a diagnostic names %1, not %2").arg(d.file, file);
        if (d.message.trimmed().isEmpty())
            return QStringLiteral("a diagnostic without a message: ") + d.toString();
    }
    return {};
}

bool sameNumber(double a, double b)
{
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

// Equal as JSON values (an array element is re-serialized, so its text may differ from the source's).
bool sameJson(const std::string& a, const std::string& b)
{
    const nlohmann::json x = nlohmann::json::parse(a, nullptr, false);
    const nlohmann::json y = nlohmann::json::parse(b, nullptr, false);
    return !x.is_discarded() && !y.is_discarded() && x == y;
}

// Runs kix imported keep their raw samples in memory and name them in the document by timing.rawSamples (an evidence
// file, not inline text): an export's text carries the reference, and the reference must be to these samples.
bool samplesNamedByDigest(const Run& a, const Run& b)
{
    if (!b.samples.empty())
        return false;
    const nlohmann::json doc = nlohmann::json::parse(a.raw, nullptr, false);
    const nlohmann::json::json_pointer p("/run/spec/timing/rawSamples/digest");
    return doc.is_object() && doc.contains(p) && doc.at(p).is_string()
        && doc.at(p).get<std::string>() == kix::format::sha256Digest(kix::format::samplesArtifact(a.samples));
}

// The typed view and the text of two runs that must be the same run.
QString compareRuns(const RunList& before, const RunList& after, const char* format)
{
    if (before.size() != after.size())
        return QStringLiteral("%1 runs loaded, %2 after the %3 export")
            .arg(before.size())
            .arg(after.size())
            .arg(QLatin1String(format));
    for (int i = 0; i < before.size(); ++i) {
        const Run& a = *before[i];
        const Run& b = *after[i];
        const QString where = QStringLiteral("run %1 after the %2 export: ").arg(i).arg(QLatin1String(format));
        if (a.raw != b.raw && !sameJson(a.raw, b.raw))
            return where + QStringLiteral("the document differs as a JSON value");
        if (a.identity != b.identity || a.externalId != b.externalId)
            return where + QStringLiteral("the identity differs");
        if (!sameNumber(a.median, b.median) || !sameNumber(a.p20, b.p20) || !sameNumber(a.p80, b.p80))
            return where + QStringLiteral("the headline statistics differ");
        if (a.samples.size() != b.samples.size() && !samplesNamedByDigest(a, b))
            return where + QStringLiteral("the raw samples differ");
        if (a.statistics.size() != b.statistics.size() || a.measurements.size() != b.measurements.size())
            return where + QStringLiteral("the samples or measurements differ");
        if (a.metric != b.metric || a.unit != b.unit || a.status != b.status || a.workloadSlug != b.workloadSlug
            || a.dtype != b.dtype || a.observedAt != b.observedAt)
            return where + QStringLiteral("the typed view differs");
    }
    return {};
}

// A fixed run for the filter target.
const RunList& filterRuns()
{
    static const RunList runs = [] {
        const QByteArray doc = R"({"run":{"kind":"BenchmarkRun","apiVersion":"kernelindex.dev/v1alpha1",
"metadata":{"name":"group-norm","labels":{"liger_version":"0.7.0"}},"spec":{"status":"passed",
"timing":{"latencyNs":{"median":1000,"p20":900,"p80":1100}},"sourceNative":{"source":"liger-kernel-bench",
"externalId":"group_norm/backward/liger/nvidia-b200/batch128-channels2048-fp32/2026-02-28-00-23-31"}}}})";
        return parseBytes(doc, QStringLiteral("filter.json")).runs;
    }();
    return runs;
}

} // namespace

QString document(const uint8_t* data, std::size_t size)
{
    const QByteArray bytes = bytesOf(data, size);
    for (const QString& file : { QStringLiteral("fuzz.json"), QStringLiteral("fuzz.jsonl") }) {
        const ParseResult result = parseBytes(bytes, file);
        if (QString problem = checkDiagnostics(result.diagnostics, file); !problem.isEmpty())
            return problem;
        if (result.runs.isEmpty() && !result.hasErrors())
            return file + QStringLiteral(": no runs and no error");
        for (const RunPtr& run : result.runs) {
            if (run->raw.empty() || run->identity.isEmpty())
                return file + QStringLiteral(": a run without its document or identity");
        }
    }
    return {};
}

QString ligerCsv(const uint8_t* data, std::size_t size)
{
    const QByteArray bytes = bytesOf(data, size);
    const QString file = QStringLiteral("fuzz.csv");
    (void)looksLikeLigerCsv(bytes);
    const LigerImport imported = importLigerCsv(bytes, file);
    if (QString problem = checkDiagnostics(imported.diagnostics, file); !problem.isEmpty())
        return problem;
    if (imported.documentLines.size() != imported.documents.size()
        || imported.documentRows.size() != imported.documents.size())
        return QStringLiteral("documents, lines and rows differ in number");
    const ParseResult result = parseBytes(bytes, file);
    if (QString problem = checkDiagnostics(result.diagnostics, file); !problem.isEmpty())
        return problem;
    if (result.runs.size() > static_cast<int>(imported.documents.size()))
        return QStringLiteral("more runs than imported documents");
    return {};
}

QString workloadSlug(const uint8_t* data, std::size_t size)
{
    const QString slug = QString::fromUtf8(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    QVector<WorkloadParam> params;
    QString dtype;
    parseWorkloadSlug(slug, params, dtype);
    for (const WorkloadParam& p : params) {
        if (p.key.isEmpty())
            return QStringLiteral("a parameter without a key");
        if (!std::isnan(p.number) && !std::isfinite(p.number))
            return QStringLiteral("a parameter with an infinite number");
        if (p.key.contains(QLatin1Char('-')) || p.value.contains(QLatin1Char('-')))
            return QStringLiteral("a parameter spans a '-'");
    }
    if (dtype.contains(QLatin1Char('-')))
        return QStringLiteral("the dtype spans a '-'");
    return {};
}

QString filter(const uint8_t* data, std::size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const RunList& runs = filterRuns();
    if (runs.isEmpty())
        return QStringLiteral("the filter target's own run does not load");
    RunFilter f;
    f.setText(text);
    RunFilter narrower;
    narrower.setText(text + QStringLiteral(" group_norm"));
    RunFilter empty;
    empty.setText(QString(text.size(), QLatin1Char(' ')));
    for (const RunPtr& run : runs) {
        if (!empty.matches(*run))
            return QStringLiteral("a blank filter hides a run");
        if (narrower.matches(*run) && !f.matches(*run))
            return QStringLiteral("adding a term matched more");
    }
    if (f.apply(runs).size() > runs.size())
        return QStringLiteral("the filter returned more runs than it was given");
    for (Facet facet : allFacets()) {
        RunFilter byFacet;
        byFacet.setFacet(facet, { text });
        (void)byFacet.apply(runs);
    }
    return {};
}

QString roundTrip(const uint8_t* data, std::size_t size)
{
    const QByteArray bytes = bytesOf(data, size);
    const ParseResult first = parseBytes(bytes, QStringLiteral("fuzz.json"));
    if (first.runs.isEmpty())
        return {};
    struct Format
    {
        ExportFormat format;
        const char* name;
        QString file;
    };
    for (const Format& f : { Format { ExportFormat::Json, "json", QStringLiteral("export.json") },
             Format { ExportFormat::JsonLines, "jsonl", QStringLiteral("export.jsonl") } }) {
        const ParseResult again = parseBytes(serializeRuns(first.runs, f.format), f.file);
        if (again.hasErrors()) {
            for (const Diagnostic& d : again.diagnostics) {
                if (d.isError())
                    return QStringLiteral("the %1 export does not load: ").arg(QLatin1String(f.name)) + d.toString();
            }
        }
        if (QString problem = compareRuns(first.runs, again.runs, f.name); !problem.isEmpty())
            return problem;
    }
    (void)serializeRuns(first.runs, ExportFormat::Csv);
    return {};
}

QString parser(const uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const QString file = QStringLiteral("fuzz.json");
    jsondom::Element root;
    if (jsondom::parse(text, false, ParseLimits().maxDepth, root))
        return {};
    Diagnostics diagnostics;
    const bool duplicates = jsondom::reportDuplicateKeys(root, file, {}, diagnostics);
    const std::shared_ptr<Run> run = extractRun(root, file, {}, diagnostics, duplicates);
    if (QString problem = checkDiagnostics(diagnostics, file); !problem.isEmpty())
        return problem;
    if (!run && std::none_of(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) { return d.isError(); }))
        return QStringLiteral("a document refused without an error");
    if (run && run->identity.isEmpty())
        return QStringLiteral("a run without its identity");
    return {};
}

QString catalog(const uint8_t* data, std::size_t size)
{
    const QString file = QStringLiteral("fuzz.jsonl");
    ParseResult plain;
    parseCatalogText(reinterpret_cast<const char*>(data), reinterpret_cast<const char*>(data) + size, file, {}, plain);
    if (QString problem = checkDiagnostics(plain.diagnostics, file); !problem.isEmpty())
        return problem;
    if (plain.runs.isEmpty() && !plain.hasErrors())
        return QStringLiteral("no runs and no error");
    // the same text, Zstandard-compressed, gives the same runs
    std::string packed(ZSTD_compressBound(size), '\0');
    // one compression context per thread (ZSTD_compress would make and free one per input)
    thread_local const std::unique_ptr<ZSTD_CCtx, std::size_t (*)(ZSTD_CCtx*)> context(
        ZSTD_createCCtx(), &ZSTD_freeCCtx);
    const std::size_t n = ZSTD_compressCCtx(context.get(), packed.data(), packed.size(), data, size, 1);
    if (ZSTD_isError(n))
        return QStringLiteral("ZSTD_compress failed");
    packed.resize(n);
    ParseResult unpacked;
    const ParseLimits defaults;
    parsing::Frame toUnpacked(defaults, unpacked);
    const std::string_view packedBytes(packed);
    parseZstd(file, &packedBytes, defaults, unpacked, toUnpacked);
    if (unpacked.runs.size() != plain.runs.size())
        return QStringLiteral("%1 runs from the text, %2 from its compression")
            .arg(plain.runs.size())
            .arg(unpacked.runs.size());
    for (int i = 0; i < plain.runs.size(); ++i) {
        if (plain.runs[i]->raw != unpacked.runs[i]->raw || plain.runs[i]->pointer != unpacked.runs[i]->pointer)
            return QStringLiteral("run %1 differs once compressed").arg(i);
    }
    // the bytes as Zstandard data: refused or read, always named, bounded
    ParseLimits small;
    small.maxDecompressedBytes = 1 << 20;
    ParseResult raw;
    parsing::Frame toRaw(small, raw);
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    parseZstd(file, &bytes, small, raw, toRaw);
    return checkDiagnostics(raw.diagnostics, file);
}

QString yaml(const uint8_t* data, std::size_t size)
{
    const char* begin = reinterpret_cast<const char*>(data);
    const YamlReadResult read = readYaml(begin, begin + size);
    if (!read.ok && read.error.trimmed().isEmpty())
        return QStringLiteral("refused without a reason");
    if (read.ok) {
        const std::string text = read.value.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
        if (nlohmann::json::parse(text, nullptr, false) != read.value)
            return QStringLiteral("the value does not survive a JSON round trip");
    }
    const QString file = QStringLiteral("fuzz.yaml");
    const ParseResult result = parseBytes(bytesOf(data, size), file);
    if (QString problem = checkDiagnostics(result.diagnostics, file); !problem.isEmpty())
        return problem;
    if (read.ok != !result.hasErrors() && read.ok && result.runs.isEmpty() && result.diagnostics.isEmpty())
        return QStringLiteral("a YAML value read without runs or a word");
    return {};
}

QString bundle(const uint8_t* data, std::size_t size)
{
    const nlohmann::json value = nlohmann::json::parse(data, data + size, nullptr, false);
    if (value.is_discarded())
        return {};
    format::StrictReport report;
    format::checkStrict(value, {}, report);
    const QString file = QStringLiteral("fuzz.json");
    ParseResult result;
    if (value.is_object())
        readBundle(value, file, {}, result);
    else
        readManifestValue(value, file, {}, result);
    if (QString problem = checkDiagnostics(result.diagnostics, file); !problem.isEmpty())
        return problem;
    const BundleResult written = buildBundle(result.runs);
    if (written.runs + written.leftOut.size() != result.runs.size())
        return QStringLiteral("runs neither written nor named as left out");
    format::StrictReport again;
    format::checkStrict(written.bundle, {}, again);
    if (!again.findings.empty())
        return QStringLiteral("the bundle kix wrote is not v1alpha1: ") + again.findings.front().pointer
            + QLatin1String(": ") + again.findings.front().message;
    if (written.runs > 0) {
        ParseResult back;
        readBundle(written.bundle, QStringLiteral("back.json"), {}, back);
        if (back.runs.size() != written.runs)
            return QStringLiteral("%1 runs written to the bundle, %2 read back")
                .arg(written.runs)
                .arg(back.runs.size());
    }
    return {};
}

const NamedTarget* targets(std::size_t* count)
{
    static const NamedTarget all[] = { { "document", &document }, { "ligercsv", &ligerCsv }, { "slug", &workloadSlug },
        { "filter", &filter }, { "roundtrip", &roundTrip }, { "parser", &parser }, { "catalog", &catalog },
        { "yaml", &yaml }, { "bundle", &bundle } };
    *count = sizeof(all) / sizeof(all[0]);
    return all;
}

} // namespace kix::fuzz
