// SPDX-License-Identifier: Apache-2.0
// The Liger CSV import tests' rows: the upstream header and the seed row, CSV text built from them, and the
// document fields the tests read (tst_ligercsv, tst_ligercsvmapping).
#pragma once

#include "model/import/ligercsv.h"

#include <QByteArray>
#include <QByteArrayList>
#include <QString>
#include <QTest>

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <utility>

namespace kixtest::ligercsv {

using kix::Diagnostic;
using kix::LigerImport;
using nlohmann::json;

// Column order of the upstream CSV.
enum Col { Kernel, Provider, Mode, Metric, Unit, XName, XLabel, XValue, Y50, Y20, Y80, Config, Gpu, Stamp, Version };

inline const QByteArray kHeader
    = "kernel_name,kernel_provider,kernel_operation_mode,metric_name,metric_unit,x_name,x_label,"
      "x_value,y_value_50,y_value_20,y_value_80,extra_benchmark_config_str,gpu_name,timestamp,"
      "liger_version";

// The row the seed document was made from (line 1843 of the shared CSV), field by field, unquoted.
inline const QByteArrayList kSeedFields = { "group_norm", "huggingface", "backward", "speed", "ms", "C", "num_channels",
    "2048", "1.3158719539642334", "1.3157440423965454", "1.3177599906921387",
    R"({"M": 128, "H": 512, "channels_per_group": 4, "dtype": "torch.float32", "eps": 1e-06})", "NVIDIA B200",
    "2026-02-28 00:23:31", "0.7.0" };

inline const char kSeedId[] = "group_norm/backward/huggingface/nvidia-b200/"
                              "batch128-channels2048-channels_per_group4-hidden512-fp32/2026-02-28-00-23-31";

inline QByteArray csvField(const QByteArray& text)
{
    if (!text.contains(',') && !text.contains('"') && !text.contains('\n') && !text.contains('\r'))
        return text;
    QByteArray quoted = text;
    return '"' + quoted.replace("\"", "\"\"") + '"';
}

inline QByteArrayList seedFieldsWith(std::initializer_list<std::pair<int, QByteArray>> changes)
{
    QByteArrayList fields = kSeedFields;
    for (const auto& [column, value] : changes)
        fields[column] = value;
    return fields;
}

inline QByteArray joinRow(const QByteArrayList& fields)
{
    QByteArrayList quoted;
    for (const QByteArray& f : fields)
        quoted.append(csvField(f));
    return quoted.join(',');
}

// The seed row with some fields replaced, as one CSV line (no line end).
inline QByteArray seedRow(std::initializer_list<std::pair<int, QByteArray>> changes = {})
{
    return joinRow(seedFieldsWith(changes));
}

inline QByteArray csvText(const QByteArrayList& rows)
{
    return kHeader + '\n' + rows.join('\n') + '\n';
}

inline json get(const json& j, const char* pointer)
{
    const json::json_pointer p(pointer);
    return j.contains(p) ? j.at(p) : json();
}

inline QString str(const json& j, const char* pointer)
{
    const json v = get(j, pointer);
    return v.is_string() ? QString::fromStdString(v.get<std::string>()) : QString();
}

inline QString externalId(const json& document)
{
    return str(document, "/run/spec/sourceNative/externalId");
}

inline QString workloadSlug(const json& document)
{
    return externalId(document).section(QLatin1Char('/'), 4, 4);
}

// The measurement of `metric` with `statistic`, or null.
inline json measurementEntry(const json& document, const char* metric, const char* statistic)
{
    for (const json& m : get(document, "/run/spec/measurements")) {
        if (m.value("metric", "") == metric && m.value("statistic", "") == statistic)
            return m;
    }
    return json();
}

inline QString describeDiagnostics(const kix::Diagnostics& diagnostics)
{
    QStringList lines;
    for (const Diagnostic& d : diagnostics)
        lines.append(d.toString());
    return lines.join(QLatin1Char('\n'));
}

// Imports one seed row with the given fields replaced; fails the test unless it gives exactly one document.
inline json importOne(std::initializer_list<std::pair<int, QByteArray>> changes)
{
    const LigerImport imported = kix::importLigerCsv(csvText({ seedRow(changes) }), QStringLiteral("one.csv"));
    if (imported.documents.size() != 1 || !imported.diagnostics.isEmpty()) {
        qWarning("%s", qPrintable(describeDiagnostics(imported.diagnostics)));
        return json();
    }
    return imported.documents.front();
}

} // namespace kixtest::ligercsv

// nlohmann::json has no QTest::toString; show both sides as JSON text.
#define COMPARE_JSON(actual, expected)                                                                                 \
    do {                                                                                                               \
        const json actual_ = (actual);                                                                                 \
        const json expected_ = (expected);                                                                             \
        QVERIFY2(actual_ == expected_, (actual_.dump() + " != " + expected_.dump()).c_str());                          \
    } while (false)
