// SPDX-License-Identifier: Apache-2.0
#include "model/import/ligercsv.h"

#include "model/format/documentbuilder.h"
#include "model/format/vocabulary.h"
#include "model/import/ligernaming.h"
#include "model/read/csvreader.h"

#include <QDate>
#include <QDateTime>
#include <QTime>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <string_view>

namespace kix {
namespace {

using namespace liger;

using nlohmann::json;

// ---- Columns ----

enum Column {
    KernelName,
    KernelProvider,
    OperationMode,
    MetricName,
    MetricUnit,
    XName,
    XLabel,
    XValue,
    Y50,
    Y20,
    Y80,
    ExtraConfig,
    GpuName,
    Timestamp,
    LigerVersion,
    ColumnCount
};

constexpr const char* kColumnNames[ColumnCount] = { "kernel_name", "kernel_provider", "kernel_operation_mode",
    "metric_name", "metric_unit", "x_name", "x_label", "x_value", "y_value_50", "y_value_20", "y_value_80",
    "extra_benchmark_config_str", "gpu_name", "timestamp", "liger_version" };

bool isRequired(int column)
{
    return column != XLabel && column != LigerVersion;
}

// A bad row: which field and what is wrong with it.
struct RowError
{
    int column; // Column, or -1 for the row as a whole
    QString message;
};

[[noreturn]] void fail(int column, const QString& message)
{
    throw RowError { column, message };
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

// Keeps [A-Za-z0-9_.] plus `extra`; anything else becomes '_' (no '/' may reach an externalId component).
std::string sanitize(const std::string& s, const char* extra = "")
{
    std::string out;
    for (const char c : s)
        out += (isAsciiAlnum(c) || c == '_' || c == '.' || (c != '\0' && std::strchr(extra, c))) ? c : '_';
    return out;
}

std::optional<double> parseNumber(const std::string& text)
{
    bool ok = false;
    const double v = QByteArray::fromStdString(text).trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(v))
        return std::nullopt;
    return v;
}

// '-' separates slug parts, so a minus sign is spelled "neg" ("ignore_index-100" -> "ignore_indexneg100").
std::string numberText(const std::string& text)
{
    std::string out;
    for (const char c : QByteArray::fromStdString(text).trimmed().toStdString()) {
        if (c == '-')
            out += "neg";
        else if (c != '+')
            out += c;
    }
    return out;
}

std::string valueText(const std::string& text)
{
    return parseNumber(text) ? numberText(text) : sanitize(QByteArray::fromStdString(text).trimmed().toStdString());
}

std::string dtypeText(const std::string& dtype)
{
    static const std::map<std::string, std::string> known
        = { { "torch.float32", "fp32" }, { "torch.float16", "fp16" }, { "torch.bfloat16", "bf16" },
              { "torch.float64", "fp64" }, { "torch.float8_e4m3fn", "fp8e4m3" }, { "torch.float8_e5m2", "fp8e5m2" } };
    const auto it = known.find(dtype);
    if (it != known.end())
        return it->second;
    return sanitize(dtype.rfind("torch.", 0) == 0 ? dtype.substr(6) : dtype);
}

std::string jsonValueText(const json& v)
{
    switch (v.type()) {
    case json::value_t::string:
        return sanitize(v.get<std::string>());
    case json::value_t::boolean:
        return v.get<bool>() ? "true" : "false";
    case json::value_t::null:
        return "none";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
        return numberText(v.dump());
    default:
        return sanitize(v.dump());
    }
}

// The seed's renames; every other key is kept as written (case included), only made path-safe.
std::string workloadKey(const std::string& key)
{
    static const std::map<std::string, std::string> renames
        = { { "M", "batch" }, { "C", "channels" }, { "H", "hidden" } };
    const auto it = renames.find(key);
    return it != renames.end() ? it->second : (key.empty() ? std::string("x") : sanitize(key));
}

// Most nesting of [ and { outside strings; keeps hostile configs away from nlohmann's recursive dump().
int jsonNesting(const std::string& s)
{
    int depth = 0, most = 0;
    bool inString = false;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            most = std::max(most, ++depth);
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return most;
}

struct Workload
{
    std::vector<std::pair<std::string, std::string>> params; // key order of the slug
    std::string dtype;
    std::string slug;
};

// Extra config plus the swept x: eps dropped, keys in case-insensitive alphabetical order, dtype last.
Workload makeWorkload(const std::string& config, const std::string& xName, const std::string& xValue)
{
    json object = json::object();
    const std::string trimmed = QByteArray::fromStdString(config).trimmed().toStdString();
    if (!trimmed.empty()) {
        if (jsonNesting(trimmed) > 16)
            fail(ExtraConfig, QStringLiteral("extra_benchmark_config_str is nested too deeply"));
        object = json::parse(trimmed, nullptr, false);
        if (object.is_discarded() || !object.is_object())
            fail(ExtraConfig,
                QStringLiteral("extra_benchmark_config_str is not a JSON object: '%1'").arg(q(config).left(80)));
    }
    Workload w;
    std::map<std::string, std::string> params;
    for (const auto& [key, value] : object.items()) {
        if (key == "eps")
            continue;
        if (key == "dtype")
            w.dtype = value.is_string() ? dtypeText(value.get<std::string>()) : jsonValueText(value);
        else
            params[workloadKey(key)] = jsonValueText(value);
    }
    if (xName == "dtype")
        w.dtype = dtypeText(QByteArray::fromStdString(xValue).trimmed().toStdString());
    else
        params[workloadKey(xName)] = valueText(xValue); // the swept value wins over a placeholder in the config
    w.params.assign(params.begin(), params.end());
    std::stable_sort(
        w.params.begin(), w.params.end(), [](const auto& a, const auto& b) { return lower(a.first) < lower(b.first); });
    for (const auto& [key, value] : w.params)
        w.slug += (w.slug.empty() ? "" : "-") + key + value;
    if (!w.dtype.empty())
        w.slug += (w.slug.empty() ? "" : "-") + w.dtype;
    return w;
}

std::string required(const std::vector<std::string>& row, int column)
{
    const std::string value = QByteArray::fromStdString(row[column]).trimmed().toStdString();
    if (value.empty())
        fail(column, QStringLiteral("%1 is empty").arg(QLatin1String(kColumnNames[column])));
    return value;
}

double statistic(const std::vector<std::string>& row, int column, bool latency)
{
    const std::optional<double> v = parseNumber(row[column]);
    // ms; above 1e9 ms (1e15 ns, days) it is a unit mistake, and llround() stays in range
    if (!v || *v < 0 || (latency && *v > 1e9))
        fail(column,
            QStringLiteral("%1 is not a valid measurement: '%2'")
                .arg(QLatin1String(kColumnNames[column]), q(row[column]).left(80)));
    return *v;
}

// One row (fields already in Column order, converted to valid UTF-8) as a {run, protocol, environment} document.
json documentFromRow(const std::vector<std::string>& row)
{
    const std::string kernel = sanitize(required(row, KernelName), "-");
    const std::string provider = sanitize(required(row, KernelProvider), "-");
    const std::string pass = sanitize(required(row, OperationMode), "-");
    const std::string metric = required(row, MetricName);
    const std::string unit = required(row, MetricUnit);
    const std::string product = QString::fromStdString(required(row, GpuName)).simplified().toStdString();
    const bool memory = metric == "memory";
    if (!memory && metric != "speed")
        fail(MetricName,
            QStringLiteral("unsupported metric_name '%1' (expected speed or memory)").arg(q(metric).left(80)));
    if (unit != (memory ? "MB" : "ms"))
        fail(MetricUnit, QStringLiteral("unsupported metric_unit '%1' for %2").arg(q(unit).left(80), q(metric)));
    const double y50 = statistic(row, Y50, !memory), y20 = statistic(row, Y20, !memory),
                 y80 = statistic(row, Y80, !memory);

    const std::string stamp = required(row, Timestamp);
    const QString s = q(stamp);
    const QDate date = QDate::fromString(s.left(10), QStringLiteral("yyyy-MM-dd"));
    const QTime time = QTime::fromString(s.mid(11), QStringLiteral("HH:mm:ss"));
    if (s.size() != 19 || (s[10] != QLatin1Char(' ') && s[10] != QLatin1Char('T')) || !date.isValid()
        || !time.isValid())
        fail(Timestamp, QStringLiteral("timestamp is not 'YYYY-MM-DD HH:MM:SS': '%1'").arg(s.left(80)));
    const std::string observedAt = stamp.substr(0, 10) + 'T' + stamp.substr(11) + ".000Z";
    const std::string stampSlug = slugify(stamp);

    const Workload w = makeWorkload(row[ExtraConfig], required(row, XName), row[XValue]);
    const std::string gpuSlug = slugify(product).empty() ? "unknown-gpu" : slugify(product);
    const std::string externalId = kernel + '/' + pass + '/' + provider + '/' + gpuSlug + '/' + w.slug + '/' + stampSlug
        + (memory ? "/memory" : "");
    std::string name = slugify("liger-" + kernel + '-' + pass + (memory ? "-memory-" : "-") + provider + '-' + gpuSlug
        + '-' + w.slug + '-' + stampSlug);
    name.resize(std::min<size_t>(name.size(), 100));
    while (!name.empty() && name.back() == '-')
        name.pop_back();

    json params = json::object();
    for (const auto& [key, value] : w.params)
        params[key] = value;
    if (!w.dtype.empty())
        params["dtype"] = w.dtype;
    const std::string version = QByteArray::fromStdString(row[LigerVersion]).trimmed().toStdString();

    format::DocumentBuilder b;
    b.setName(name)
        .setTitle(
            kernelDisplayName(kernel) + " \u00b7 " + provider + " \u00b7 " + pass + (memory ? " \u00b7 memory" : ""))
        .setStatus("passed")
        .setObservedAt(QDateTime(date, time, Qt::UTC))
        .setProtocol(protocolDocument(pass, memory))
        .setEnvironment(environmentDocument(product))
        // The CSV names no workload or implementation resource: their digests name what it does say, and the
        // resources themselves do not travel (the seed's shape).
        .setWorkload(format::resource(format::kWorkloadCase, name, {},
                         { { "kernel", kernel }, { "pass", pass }, { "params", params } }),
            false)
        .setImplementation(format::resource(format::kImplementationRevision, provider, {},
                               { { "provider", provider }, { "liger_version", version } }),
            false);
    if (!version.empty())
        b.addLabel("liger_version", version);
    const char* const sourceUnit = memory ? "mb" : "ms";
    b.setSourceNative("liger-kernel-bench", kernel + '/' + pass, externalId,
        { { std::string(sourceUnit) + "_20", y20 }, { std::string(sourceUnit) + "_50", y50 },
            { std::string(sourceUnit) + "_80", y80 } });
    using Stat = std::pair<const char*, double>;
    if (memory) {
        for (const auto& [stat, value] : { Stat { "median", y50 }, Stat { "p20", y20 }, Stat { "p80", y80 } })
            b.addMeasurement("memory", stat, "MB", value);
    } else {
        b.setTiming("median", { { "median", y50 * 1e6 } });
        for (const auto& [stat, value] : { Stat { "p20", y20 }, Stat { "p80", y80 } })
            b.addMeasurement("latency", stat, "ns", double(std::llround(value * 1e6)));
    }
    return b.build().document;
}

constexpr int kMaxDiagnostics = 1000; // a file of garbage reports this many problems, then stops listing them

} // namespace

bool looksLikeLigerCsv(const QByteArray& bytes)
{
    const qsizetype end = bytes.indexOf('\n');
    const qsizetype firstLine = end < 0 ? qsizetype(64 * 1024) : std::min(end, qsizetype(64 * 1024));
    // a header that names the three columns holds "y_value_50" as it is (quoting leaves letters alone): a first
    // line without it is not one, and no CSV reader is made for it (every JSON file the loader reads asks)
    if (std::string_view(bytes.constData(), std::size_t(std::min(firstLine, bytes.size()))).find("y_value_50")
        == std::string_view::npos)
        return false;
    CsvReader reader(bytes.left(firstLine));
    CsvRecord header;
    if (!reader.next(header))
        return false;
    int found = 0;
    for (const CsvField& f : header.fields) {
        const QByteArray name = QByteArray::fromStdString(f.text).trimmed();
        found += name == "kernel_name" || name == "metric_name" || name == "y_value_50";
    }
    return found >= 3;
}

LigerImport importLigerCsv(const QByteArray& bytes, const QString& file)
{
    LigerImport result;
    const auto report = [&](int line, int column, const QString& pointer, const QString& message) {
        if (result.diagnostics.size() > kMaxDiagnostics)
            return;
        Diagnostic d = makeError(file, pointer,
            result.diagnostics.size() == kMaxDiagnostics ? QStringLiteral("further problems not listed") : message);
        d.line = line;
        d.column = column;
        result.diagnostics.push_back(d);
    };
    try {
        CsvReader reader(bytes);
        CsvRecord record;
        int columnOf[ColumnCount];
        std::fill(std::begin(columnOf), std::end(columnOf), -1);
        if (!reader.next(record) || record.blank()) {
            report(1, 1, QString(), QStringLiteral("no CSV header (expected Liger-Kernel benchmark columns)"));
            return result;
        }
        for (size_t i = 0; i < record.fields.size(); ++i) {
            const QByteArray name = QByteArray::fromStdString(record.fields[i].text).trimmed();
            for (int c = 0; c < ColumnCount; ++c) {
                if (name == kColumnNames[c] && columnOf[c] < 0)
                    columnOf[c] = int(i);
            }
        }
        bool complete = true;
        for (int c = 0; c < ColumnCount; ++c) {
            if (columnOf[c] < 0 && isRequired(c)) {
                report(1, 1, QString(),
                    QStringLiteral("missing required column '%1'").arg(QLatin1String(kColumnNames[c])));
                complete = false;
            }
        }
        if (!complete)
            return result;
        const size_t fieldCount = record.fields.size();
        for (int index = 0; reader.next(record);) {
            if (record.blank())
                continue;
            const QString pointer = QStringLiteral("/rows/%1").arg(index++);
            if (record.unterminated) {
                report(record.line, 1, pointer, QStringLiteral("a quoted field is never closed"));
                continue;
            }
            if (record.fields.size() != fieldCount) {
                report(record.line, 1, pointer,
                    QStringLiteral("expected %1 fields like the header, found %2")
                        .arg(fieldCount)
                        .arg(record.fields.size()));
                continue;
            }
            std::vector<std::string> row(ColumnCount);
            for (int c = 0; c < ColumnCount; ++c) {
                if (columnOf[c] >= 0)
                    row[c]
                        = QString::fromUtf8(QByteArray::fromStdString(record.fields[columnOf[c]].text)).toStdString();
            }
            try {
                result.documents.push_back(documentFromRow(row));
                result.documentLines.push_back(record.line);
                result.documentRows.push_back(index - 1);
            } catch (const RowError& e) {
                // the field's column when it starts on the row's first line (Diagnostic::line is the row's)
                const CsvField* f = e.column >= 0 ? &record.fields[columnOf[e.column]] : nullptr;
                report(record.line, f && f->line == record.line ? f->column : 1, pointer, e.message);
            } catch (const std::exception& e) {
                report(record.line, 1, pointer, QString::fromUtf8(e.what()));
            }
        }
    } catch (const std::exception& e) {
        report(0, 0, QString(), QStringLiteral("cannot read the CSV: ") + QString::fromUtf8(e.what()));
    } catch (...) {
        report(0, 0, QString(), QStringLiteral("cannot read the CSV"));
    }
    if (result.documentLines.size() != result.documents.size()) // a failed push_back can leave them apart
        result.documents.resize(result.documentLines.size());
    result.documentRows.resize(result.documents.size());
    return result;
}

} // namespace kix
