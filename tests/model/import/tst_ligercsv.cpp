// SPDX-License-Identifier: Apache-2.0
#include "kix/config.h"
#include "model/import/ligercsv.h"
#include "model/read/documentparser.h"

#include "tests/support/testmain.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTest>

#include <set>
#include <utility>

using kix::Diagnostic;
using kix::LigerImport;
using nlohmann::json;

namespace {

// Column order of the upstream CSV.
enum Col { Kernel, Provider, Mode, Metric, Unit, XName, XLabel, XValue, Y50, Y20, Y80, Config, Gpu, Stamp, Version };

const QByteArray kHeader = "kernel_name,kernel_provider,kernel_operation_mode,metric_name,metric_unit,x_name,x_label,"
                           "x_value,y_value_50,y_value_20,y_value_80,extra_benchmark_config_str,gpu_name,timestamp,"
                           "liger_version";

// The row the seed document was made from (line 1843 of the shared CSV), field by field, unquoted.
const QByteArrayList kSeedFields = { "group_norm", "huggingface", "backward", "speed", "ms", "C", "num_channels",
    "2048", "1.3158719539642334", "1.3157440423965454", "1.3177599906921387",
    R"({"M": 128, "H": 512, "channels_per_group": 4, "dtype": "torch.float32", "eps": 1e-06})", "NVIDIA B200",
    "2026-02-28 00:23:31", "0.7.0" };

const char kSeedId[] = "group_norm/backward/huggingface/nvidia-b200/"
                       "batch128-channels2048-channels_per_group4-hidden512-fp32/2026-02-28-00-23-31";
const char kSeedName[]
    = "liger-group-norm-backward-huggingface-nvidia-b200-batch128-channels2048-channels-per-group4-hidden51";
const char kSeedNotes[]
    = "Timed: the backward pass of the module output given a random upstream gradient, via triton.testing.do_bench "
      "with quantiles 0.5/0.2/0.8 (median with p20/p80 spread). The upstream CSV records no CUDA, driver, or torch "
      "version; the Liger release rides each run's labels. Comparable only within one kernel, workload, timed pass, "
      "and GPU.";

QByteArray csvField(const QByteArray& text)
{
    if (!text.contains(',') && !text.contains('"') && !text.contains('\n') && !text.contains('\r'))
        return text;
    QByteArray quoted = text;
    return '"' + quoted.replace("\"", "\"\"") + '"';
}

QByteArrayList seedFieldsWith(std::initializer_list<std::pair<int, QByteArray>> changes)
{
    QByteArrayList fields = kSeedFields;
    for (const auto& [column, value] : changes)
        fields[column] = value;
    return fields;
}

QByteArray joinRow(const QByteArrayList& fields)
{
    QByteArrayList quoted;
    for (const QByteArray& f : fields)
        quoted.append(csvField(f));
    return quoted.join(',');
}

// The seed row with some fields replaced, as one CSV line (no line end).
QByteArray seedRow(std::initializer_list<std::pair<int, QByteArray>> changes = {})
{
    return joinRow(seedFieldsWith(changes));
}

// 1-based byte column where field `index` of the row starts.
int fieldColumn(const QByteArrayList& fields, int index)
{
    int column = 1;
    for (int i = 0; i < index; ++i)
        column += int(csvField(fields[i]).size()) + 1;
    return column;
}

QByteArray csvText(const QByteArrayList& rows)
{
    return kHeader + '\n' + rows.join('\n') + '\n';
}

json get(const json& j, const char* pointer)
{
    const json::json_pointer p(pointer);
    return j.contains(p) ? j.at(p) : json();
}

QString str(const json& j, const char* pointer)
{
    const json v = get(j, pointer);
    return v.is_string() ? QString::fromStdString(v.get<std::string>()) : QString();
}

QString externalId(const json& document)
{
    return str(document, "/run/spec/sourceNative/externalId");
}

QString workloadSlug(const json& document)
{
    return externalId(document).section(QLatin1Char('/'), 4, 4);
}

// The measurement of `metric` with `statistic`, or null.
json measurementEntry(const json& document, const char* metric, const char* statistic)
{
    for (const json& m : get(document, "/run/spec/measurements")) {
        if (m.value("metric", "") == metric && m.value("statistic", "") == statistic)
            return m;
    }
    return json();
}

QList<int> lines(const LigerImport& imported)
{
    return QList<int>(imported.documentLines.begin(), imported.documentLines.end());
}

QString describeDiagnostics(const kix::Diagnostics& diagnostics)
{
    QStringList lines;
    for (const Diagnostic& d : diagnostics)
        lines.append(d.toString());
    return lines.join(QLatin1Char('\n'));
}

// Imports one seed row with the given fields replaced; fails the test unless it gives exactly one document.
json importOne(std::initializer_list<std::pair<int, QByteArray>> changes)
{
    const LigerImport imported = kix::importLigerCsv(csvText({ seedRow(changes) }), QStringLiteral("one.csv"));
    if (imported.documents.size() != 1 || !imported.diagnostics.isEmpty()) {
        qWarning("%s", qPrintable(describeDiagnostics(imported.diagnostics)));
        return json();
    }
    return imported.documents.front();
}

} // namespace

// nlohmann::json has no QTest::toString; show both sides as JSON text.
#define COMPARE_JSON(actual, expected)                                                                                 \
    do {                                                                                                               \
        const json actual_ = (actual);                                                                                 \
        const json expected_ = (expected);                                                                             \
        QVERIFY2(actual_ == expected_, (actual_.dump() + " != " + expected_.dump()).c_str());                          \
    } while (false)

class TestLigerCsv : public QObject
{
    Q_OBJECT

private slots:
    void seedRow();
    void seedRowMatchesSeedDocument();
    void csvSyntax_data();
    void csvSyntax();
    void badRows_data();
    void badRows();
    void unterminatedQuote();
    void missingColumn_data();
    void missingColumn();
    void optionalColumns();
    void emptyInput();
    void memoryRow();
    void nonNumericX();
    void workloadSlugRules_data();
    void workloadSlugRules();
    void gpuRules_data();
    void gpuRules();
    void titles_data();
    void titles();
    void looksLikeLigerCsv_data();
    void looksLikeLigerCsv();
    void arbitraryBytes();
    void sharedCsv();
};

void TestLigerCsv::seedRow()
{
    const LigerImport imported = kix::importLigerCsv(csvText({ ::seedRow() }), QStringLiteral("seed.csv"));
    QVERIFY2(imported.diagnostics.isEmpty(), qPrintable(describeDiagnostics(imported.diagnostics)));
    QCOMPARE(imported.documents.size(), size_t(1));
    QCOMPARE(lines(imported), QList<int> { 2 });
    const json& doc = imported.documents.front();

    QCOMPARE(externalId(doc), QLatin1String(kSeedId));
    QVERIFY(get(doc, "/run/spec/timing/latencyNs/median").is_number_integer());
    QCOMPARE(get(doc, "/run/spec/timing/latencyNs/median").get<qint64>(), qint64(1315872));
    QCOMPARE(str(doc, "/run/spec/timing/primaryStatistic"), QStringLiteral("median"));
    COMPARE_JSON(measurementEntry(doc, "latency", "p20"),
        json({ { "unit", "ns" }, { "value", 1315744 }, { "metric", "latency" }, { "statistic", "p20" } }));
    COMPARE_JSON(measurementEntry(doc, "latency", "p80"),
        json({ { "unit", "ns" }, { "value", 1317760 }, { "metric", "latency" }, { "statistic", "p80" } }));
    QCOMPARE(str(doc, "/run/spec/observedAt"), QStringLiteral("2026-02-28T00:23:31.000Z"));
    QCOMPARE(str(doc, "/run/spec/status"), QStringLiteral("passed"));
    QCOMPARE(str(doc, "/run/metadata/title"), QStringLiteral("GroupNorm \u00b7 huggingface \u00b7 backward"));
    QCOMPARE(str(doc, "/run/metadata/name"), QLatin1String(kSeedName));
    COMPARE_JSON(get(doc, "/run/metadata/labels"), json({ { "liger_version", "0.7.0" } }));
    QCOMPARE(str(doc, "/run/spec/sourceNative/source"), QStringLiteral("liger-kernel-bench"));
    QCOMPARE(str(doc, "/run/spec/sourceNative/benchmark"), QStringLiteral("group_norm/backward"));
    QCOMPARE(get(doc, "/run/spec/sourceNative/metrics/ms_50").get<double>(), 1.3158719539642334);
    QCOMPARE(str(doc, "/protocol/spec/comparability/notes"), QLatin1String(kSeedNotes));
    QCOMPARE(str(doc, "/protocol/spec/comparability/family"), QStringLiteral("liger_kernel_bench"));
    QCOMPARE(str(doc, "/protocol/metadata/name"), QStringLiteral("liger-bench-do-bench-backward"));
    QCOMPARE(str(doc, "/environment/spec/hardware/architecture"), QStringLiteral("sm_100"));
    for (const char* key : { "/run/spec/protocolDigest", "/run/spec/workloadDigest", "/run/spec/environmentDigest",
             "/run/spec/implementationDigest" }) {
        const QString digest = str(doc, key);
        QVERIFY2(digest.startsWith(QLatin1String("sha256:")) && digest.size() == 7 + 64, key);
    }
    // Digests depend on content only: the same row imported again gives the same ones.
    const LigerImport again = kix::importLigerCsv(csvText({ ::seedRow() }), QStringLiteral("other.csv"));
    COMPARE_JSON(again.documents.front(), doc);
}

void TestLigerCsv::seedRowMatchesSeedDocument()
{
    QFile file(QStringLiteral(KIX_SOURCE_DIR "/resources/runs/group_norm-backward-huggingface-nvidia-b200.json"));
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
    json seed = json::parse(file.readAll().toStdString());
    json doc = importOne({});
    // The seed's protocol and environment digests are the format's (sha256 of the RFC 8785 JSON of apiVersion, kind
    // and spec) and must come out the same; its workload and implementation resources are not in the document, so
    // what their digests were taken over is unknown. Everything else must be identical.
    for (const char* key : { "workloadDigest", "implementationDigest" }) {
        seed["run"]["spec"].erase(key);
        doc["run"]["spec"].erase(key);
    }
    QVERIFY2(doc == seed, json::diff(seed, doc).dump(2).c_str());
}

void TestLigerCsv::csvSyntax_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QList<int>>("expectedLines");
    QTest::addColumn<QString>("firstId");

    const auto add
        = [](const char* name, const QByteArray& bytes, const QList<int>& lines,
              const QString& firstId = QLatin1String(kSeedId)) { QTest::newRow(name) << bytes << lines << firstId; };
    const QByteArray seed = ::seedRow();
    const QByteArray other = ::seedRow({ { XValue, "4096" } });
    add("LF", kHeader + '\n' + seed + '\n' + other + '\n', { 2, 3 });
    add("CRLF", kHeader + "\r\n" + seed + "\r\n" + other + "\r\n", { 2, 3 });
    add("CR", kHeader + '\r' + seed + '\r' + other + '\r', { 2, 3 });
    add("BOM", "\xEF\xBB\xBF" + kHeader + '\n' + seed + '\n', { 2 });
    add("BOM and CRLF", "\xEF\xBB\xBF" + kHeader + "\r\n" + seed + "\r\n", { 2 });
    add("no final line end", kHeader + '\n' + seed, { 2 });
    add("blank lines", kHeader + "\n\n" + seed + "\n\n\n" + other + '\n', { 3, 6 });

    // A line break inside a quoted field: the row spans two lines, the next row starts one line later.
    const QByteArray twoLineConfig = ::seedRow(
        { { Config, "{\"M\": 128, \"H\": 512,\n \"channels_per_group\": 4, \"dtype\": \"torch.float32\"}" } });
    add("line break in quotes", csvText({ twoLineConfig, seed }), { 2, 4 });
    add("CRLF in quotes", csvText({ QByteArray(twoLineConfig).replace('\n', "\r\n"), seed }), { 2, 4 });

    QByteArrayList allQuoted;
    for (const QByteArray& f : kSeedFields)
        allQuoted.append('"' + QByteArray(f).replace("\"", "\"\"") + '"');
    add("every field quoted", csvText({ allQuoted.join(',') }), { 2 });
    add("comma and quotes in a field", csvText({ ::seedRow({ { Gpu, "NVIDIA B200, \"SXM\"" } }) }), { 2 },
        QStringLiteral("group_norm/backward/huggingface/nvidia-b200-sxm/"
                       "batch128-channels2048-channels_per_group4-hidden512-fp32/2026-02-28-00-23-31"));

    // Columns are found by name: any order, unknown columns ignored.
    QByteArrayList header = kHeader.split(',');
    QByteArrayList fields = kSeedFields;
    std::reverse(header.begin(), header.end());
    std::reverse(fields.begin(), fields.end());
    header.append("notes");
    fields.append("rerun, see log");
    add("reordered columns", header.join(',') + '\n' + joinRow(fields) + '\n', { 2 });
}

void TestLigerCsv::csvSyntax()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QList<int>, expectedLines);
    QFETCH(QString, firstId);

    const LigerImport imported = kix::importLigerCsv(bytes, QStringLiteral("syntax.csv"));
    QVERIFY2(imported.diagnostics.isEmpty(), qPrintable(describeDiagnostics(imported.diagnostics)));
    QCOMPARE(lines(imported), expectedLines);
    QCOMPARE(int(imported.documents.size()), expectedLines.size());
    QCOMPARE(externalId(imported.documents.front()), firstId);
    // No stray CR reaches a value.
    COMPARE_JSON(get(imported.documents.front(), "/run/metadata/labels/liger_version"), json("0.7.0"));
    COMPARE_JSON(get(imported.documents.front(), "/run/spec/timing/latencyNs/median"), json(1315872));
}

void TestLigerCsv::badRows_data()
{
    QTest::addColumn<QByteArrayList>("fields");
    QTest::addColumn<int>("column"); // 1-based byte column of the diagnostic
    QTest::addColumn<QString>("message");

    const auto add = [](const char* name, std::initializer_list<std::pair<int, QByteArray>> changes, int badField,
                         const char* message) {
        const QByteArrayList fields = seedFieldsWith(changes);
        QTest::newRow(name) << fields << (badField < 0 ? 1 : fieldColumn(fields, badField))
                            << QString::fromUtf8(message);
    };
    add("non-numeric median", { { Y50, "fast" } }, Y50, "y_value_50");
    add("empty p20", { { Y20, "" } }, Y20, "y_value_20");
    add("NaN p80", { { Y80, "nan" } }, Y80, "y_value_80");
    add("negative median", { { Y50, "-1.5" } }, Y50, "y_value_50");
    add("implausible latency", { { Y50, "1e300" } }, Y50, "y_value_50");
    add("config is not JSON", { { Config, "{\"M\": 128," } }, Config, "not a JSON object");
    add("config is an array", { { Config, "[1, 2]" } }, Config, "not a JSON object");
    add("config nested too deeply", { { Config, QByteArray(100, '[') + QByteArray(100, ']') } }, Config, "nested");
    add("impossible date", { { Stamp, "2026-13-01 00:00:00" } }, Stamp, "timestamp");
    add("not a timestamp", { { Stamp, "yesterday" } }, Stamp, "timestamp");
    add("timestamp with zone", { { Stamp, "2026-02-28 00:23:31+02:00" } }, Stamp, "timestamp");
    add("unknown metric", { { Metric, "throughput" } }, Metric, "metric_name");
    add("speed not in ms", { { Unit, "s" } }, Unit, "metric_unit");
    add("memory not in MB", { { Metric, "memory" }, { Unit, "ms" } }, Unit, "metric_unit");
    add("empty kernel", { { Kernel, "" } }, Kernel, "kernel_name");
    add("empty GPU", { { Gpu, " " } }, Gpu, "gpu_name");

    QByteArrayList shortRow = kSeedFields.mid(0, 14);
    QTest::newRow("too few fields") << shortRow << 1 << QStringLiteral("found 14");
    QTest::newRow("too many fields") << QByteArrayList(kSeedFields) + QByteArrayList { "extra" } << 1
                                     << QStringLiteral("found 16");
}

void TestLigerCsv::badRows()
{
    QFETCH(QByteArrayList, fields);
    QFETCH(int, column);
    QFETCH(QString, message);

    // Good row on line 2, the bad one on line 3, another good one on line 4.
    const QByteArray bytes = csvText({ ::seedRow(), joinRow(fields), ::seedRow({ { XValue, "4096" } }) });
    const LigerImport imported = kix::importLigerCsv(bytes, QStringLiteral("bad.csv"));
    QCOMPARE(imported.documents.size(), size_t(2));
    QCOMPARE(lines(imported), (QList<int> { 2, 4 }));
    QCOMPARE(int(imported.diagnostics.size()), 1);
    const Diagnostic& d = imported.diagnostics.front();
    QVERIFY(d.isError());
    QCOMPARE(d.file, QStringLiteral("bad.csv"));
    QCOMPARE(d.line, 3);
    QCOMPARE(d.column, column);
    QCOMPARE(d.pointer, QStringLiteral("/rows/1"));
    QVERIFY2(d.message.contains(message), qPrintable(d.message));
    QVERIFY2(d.toString().contains(QLatin1String("bad.csv")) && d.toString().contains(QLatin1String("line 3")),
        qPrintable(d.toString()));
}

void TestLigerCsv::unterminatedQuote()
{
    const QByteArray bytes
        = csvText({ ::seedRow() }) + "group_norm,liger,forward,speed,ms,C,x,32,1,1,1,\"{\"\"M\"\": 128";
    const LigerImport imported = kix::importLigerCsv(bytes, QStringLiteral("cut.csv"));
    QCOMPARE(imported.documents.size(), size_t(1));
    QCOMPARE(int(imported.diagnostics.size()), 1);
    QCOMPARE(imported.diagnostics.front().line, 3);
    QVERIFY(imported.diagnostics.front().message.contains(QLatin1String("never closed")));
}

void TestLigerCsv::missingColumn_data()
{
    QTest::addColumn<QString>("column");
    for (const char* name :
        { "kernel_name", "kernel_provider", "kernel_operation_mode", "metric_name", "metric_unit", "x_name", "x_value",
            "y_value_50", "y_value_20", "y_value_80", "extra_benchmark_config_str", "gpu_name", "timestamp" })
        QTest::newRow(name) << QString::fromLatin1(name);
}

void TestLigerCsv::missingColumn()
{
    QFETCH(QString, column);
    QByteArrayList header = kHeader.split(',');
    QByteArrayList fields = kSeedFields;
    const int index = int(header.indexOf(column.toLatin1()));
    header.removeAt(index);
    fields.removeAt(index);

    const LigerImport imported
        = kix::importLigerCsv(header.join(',') + '\n' + joinRow(fields) + '\n', QStringLiteral("cols.csv"));
    QVERIFY(imported.documents.empty());
    QCOMPARE(int(imported.diagnostics.size()), 1);
    QVERIFY(imported.diagnostics.front().isError());
    QCOMPARE(imported.diagnostics.front().line, 1);
    QVERIFY2(imported.diagnostics.front().message.contains(column), qPrintable(imported.diagnostics.front().message));
}

void TestLigerCsv::optionalColumns()
{
    // x_label is unused and liger_version only labels the run: older CSVs without them still import.
    QByteArrayList header = kHeader.split(',');
    QByteArrayList fields = kSeedFields;
    for (const int column : { Version, XLabel }) {
        header.removeAt(column);
        fields.removeAt(column);
    }
    const LigerImport imported
        = kix::importLigerCsv(header.join(',') + '\n' + joinRow(fields) + '\n', QStringLiteral("old.csv"));
    QVERIFY2(imported.diagnostics.isEmpty(), qPrintable(describeDiagnostics(imported.diagnostics)));
    QCOMPARE(imported.documents.size(), size_t(1));
    QCOMPARE(externalId(imported.documents.front()), QLatin1String(kSeedId));
    // no liger_version: no labels at all (an empty labels object says nothing the format needs)
    QVERIFY(get(imported.documents.front(), "/run/metadata/labels").is_null());
}

void TestLigerCsv::emptyInput()
{
    const LigerImport empty = kix::importLigerCsv(QByteArray(), QStringLiteral("empty.csv"));
    QVERIFY(empty.documents.empty());
    QCOMPARE(int(empty.diagnostics.size()), 1);
    QVERIFY(empty.diagnostics.front().isError());

    const LigerImport headerOnly = kix::importLigerCsv(kHeader + "\r\n", QStringLiteral("header.csv"));
    QVERIFY(headerOnly.documents.empty());
    QVERIFY(headerOnly.diagnostics.isEmpty());
}

void TestLigerCsv::memoryRow()
{
    const QByteArray bytes = csvText({ ::seedRow(),
        ::seedRow({ { Metric, "memory" }, { Unit, "MB" }, { Y50, "20.5" }, { Y20, "20.25" }, { Y80, "21" } }) });
    const LigerImport imported = kix::importLigerCsv(bytes, QStringLiteral("memory.csv"));
    QVERIFY2(imported.diagnostics.isEmpty(), qPrintable(describeDiagnostics(imported.diagnostics)));
    QCOMPARE(imported.documents.size(), size_t(2));
    const json& speed = imported.documents[0];
    const json& memory = imported.documents[1];

    QCOMPARE(externalId(memory), QString(QLatin1String(kSeedId) + QStringLiteral("/memory")));
    QVERIFY(get(memory, "/run/spec/timing").is_null());
    QCOMPARE(get(memory, "/run/spec/measurements").size(), size_t(3));
    const std::pair<const char*, double> statistics[] = { { "median", 20.5 }, { "p20", 20.25 }, { "p80", 21.0 } };
    for (const auto& [statistic, value] : statistics) {
        COMPARE_JSON(measurementEntry(memory, "memory", statistic),
            json({ { "unit", "mb" }, { "value", value }, { "metric", "memory" }, { "statistic", statistic } }));
    }
    COMPARE_JSON(get(memory, "/run/spec/sourceNative/metrics/mb_50"), json(20.5));
    QVERIFY(get(memory, "/run/spec/sourceNative/metrics/ms_50").is_null());
    QCOMPARE(str(memory, "/run/metadata/title"),
        QStringLiteral("GroupNorm \u00b7 huggingface \u00b7 backward \u00b7 memory"));
    QCOMPARE(str(memory, "/protocol/spec/comparability/family"), QStringLiteral("liger_kernel_bench_memory"));
    QVERIFY(str(memory, "/protocol/spec/comparability/notes").contains(QLatin1String("peak memory")));
    QVERIFY(str(memory, "/protocol/metadata/name") != str(speed, "/protocol/metadata/name"));
    QVERIFY(str(memory, "/run/metadata/name") != str(speed, "/run/metadata/name"));
    // Same workload, environment and implementation as the latency run; another protocol.
    COMPARE_JSON(get(memory, "/run/spec/workloadDigest"), get(speed, "/run/spec/workloadDigest"));
    COMPARE_JSON(get(memory, "/run/spec/environmentDigest"), get(speed, "/run/spec/environmentDigest"));
    COMPARE_JSON(get(memory, "/run/spec/implementationDigest"), get(speed, "/run/spec/implementationDigest"));
    QVERIFY(get(memory, "/run/spec/protocolDigest") != get(speed, "/run/spec/protocolDigest"));
}

void TestLigerCsv::nonNumericX()
{
    const json doc = importOne({ { Kernel, "fused_linear_cross_entropy" }, { XName, "model" }, { XValue, "llama_2_7b" },
        { Config, R"({"hidden_act": "gelu tanh", "dtype": "torch.bfloat16"})" } });
    QCOMPARE(workloadSlug(doc), QStringLiteral("hidden_actgelu_tanh-modelllama_2_7b-bf16"));
}

void TestLigerCsv::workloadSlugRules_data()
{
    QTest::addColumn<QByteArray>("config");
    QTest::addColumn<QByteArray>("xName");
    QTest::addColumn<QByteArray>("xValue");
    QTest::addColumn<QString>("slug");

    QTest::newRow("seed") << kSeedFields[Config] << QByteArray("C") << QByteArray("2048")
                          << QStringLiteral("batch128-channels2048-channels_per_group4-hidden512-fp32");
    QTest::newRow("other keys kept, case-insensitive order") << QByteArray(R"({"B": 8, "T": 2048})") << QByteArray("V")
                                                             << QByteArray("4096") << QStringLiteral("B8-T2048-V4096");
    QTest::newRow("H renamed, lower-case keys sort among upper-case")
        << QByteArray(R"({"T": 1024, "H": 4096, "V": 128256, "mode": "forward", "dtype": "torch.bfloat16"})")
        << QByteArray("BT") << QByteArray("4096") << QStringLiteral("BT4096-hidden4096-modeforward-T1024-V128256-bf16");
    QTest::newRow("fp16, eps dropped") << QByteArray(R"({"M": 2048, "eps": 1e-05, "dtype": "torch.float16"})")
                                       << QByteArray("N") << QByteArray("512") << QStringLiteral("batch2048-N512-fp16");
    QTest::newRow("unknown dtype") << QByteArray(R"({"dtype": "torch.int8"})") << QByteArray("N") << QByteArray("512")
                                   << QStringLiteral("N512-int8");
    QTest::newRow("swept eps kept") << QByteArray(R"({"eps": 1e-06})") << QByteArray("eps") << QByteArray("0.001")
                                    << QStringLiteral("eps0.001");
    QTest::newRow("swept dtype") << QByteArray(R"({"M": 8})") << QByteArray("dtype") << QByteArray("torch.bfloat16")
                                 << QStringLiteral("batch8-bf16");
    QTest::newRow("negative, bool, float")
        << QByteArray(R"({"ignore_index": -100, "bias": false, "beta": 0.1, "dim": -1})") << QByteArray("T")
        << QByteArray("512") << QStringLiteral("beta0.1-biasfalse-dimneg1-ignore_indexneg100-T512");
    QTest::newRow("null placeholder replaced by x")
        << QByteArray(R"({"sweep_dim": "T", "T": null, "E": 128})") << QByteArray("T") << QByteArray("8192")
        << QStringLiteral("E128-sweep_dimT-T8192");
    QTest::newRow("null kept") << QByteArray(R"({"E": null})") << QByteArray("T") << QByteArray("8")
                               << QStringLiteral("Enone-T8");
    QTest::newRow("unsafe characters") << QByteArray(R"({"a/b": "x-y z", "list": [1, 2]})") << QByteArray("n")
                                       << QByteArray(" 7 ") << QStringLiteral("a_bx_y_z-list_1_2_-n7");
    QTest::newRow("empty config") << QByteArray() << QByteArray("B") << QByteArray("4") << QStringLiteral("B4");
}

void TestLigerCsv::workloadSlugRules()
{
    QFETCH(QByteArray, config);
    QFETCH(QByteArray, xName);
    QFETCH(QByteArray, xValue);
    QFETCH(QString, slug);
    const json doc = importOne({ { Config, config }, { XName, xName }, { XValue, xValue } });
    QCOMPARE(workloadSlug(doc), slug);
}

void TestLigerCsv::gpuRules_data()
{
    QTest::addColumn<QByteArray>("gpu");
    QTest::addColumn<QString>("slug");
    QTest::addColumn<QString>("vendor");
    QTest::addColumn<QString>("architecture");

    const auto add = [](const char* name, const char* gpu, const char* slug, const char* vendor, const char* arch) {
        QTest::newRow(name) << QByteArray(gpu) << QString::fromLatin1(slug) << QString::fromLatin1(vendor)
                            << QString::fromLatin1(arch);
    };
    add("B200", "NVIDIA B200", "nvidia-b200", "nvidia", "sm_100");
    add("H100 SXM", "NVIDIA H100 80GB HBM3", "nvidia-h100-80gb-hbm3", "nvidia", "sm_90");
    add("H100 PCIe", "NVIDIA H100 PCIe", "nvidia-h100-pcie", "nvidia", "sm_90");
    add("A100", "NVIDIA A100-SXM4-80GB", "nvidia-a100-sxm4-80gb", "nvidia", "sm_80");
    add("RTX 3090", "  NVIDIA  GeForce RTX 3090 ", "nvidia-geforce-rtx-3090", "nvidia", "sm_86");
    add("RTX 4090", "NVIDIA GeForce RTX 4090", "nvidia-geforce-rtx-4090", "nvidia", "sm_89");
    // vendor and architecture are required names in the format: "unknown" when kix cannot tell
    add("unknown NVIDIA", "Tesla T4", "tesla-t4", "nvidia", "unknown");
    add("AMD", "AMD Instinct MI300X", "amd-instinct-mi300x", "amd", "unknown");
    add("punctuation", "--Some GPU (rev. 2)--", "some-gpu-rev-2", "unknown", "unknown");
}

void TestLigerCsv::gpuRules()
{
    QFETCH(QByteArray, gpu);
    QFETCH(QString, slug);
    QFETCH(QString, vendor);
    QFETCH(QString, architecture);
    const json doc = importOne({ { Gpu, gpu } });
    QCOMPARE(externalId(doc).section(QLatin1Char('/'), 3, 3), slug);
    QCOMPARE(str(doc, "/environment/spec/hardware/product"), QString::fromUtf8(gpu).simplified());
    QCOMPARE(str(doc, "/environment/spec/hardware/vendor"), vendor);
    QCOMPARE(str(doc, "/environment/spec/hardware/architecture"), architecture);
    QCOMPARE(str(doc, "/environment/metadata/name"), QString(QStringLiteral("liger-bench-") + slug));
    COMPARE_JSON(get(doc, "/environment/spec/software"), json::object());
}

void TestLigerCsv::titles_data()
{
    QTest::addColumn<QByteArray>("kernel");
    QTest::addColumn<QByteArray>("provider");
    QTest::addColumn<QByteArray>("pass");
    QTest::addColumn<QString>("title");

    QTest::newRow("group_norm") << QByteArray("group_norm") << QByteArray("huggingface") << QByteArray("backward")
                                << QStringLiteral("GroupNorm \u00b7 huggingface \u00b7 backward");
    QTest::newRow("title-cased words") << QByteArray("fused_linear_cross_entropy") << QByteArray("liger")
                                       << QByteArray("full")
                                       << QStringLiteral("FusedLinearCrossEntropy \u00b7 liger \u00b7 full");
    QTest::newRow("abbreviations") << QByteArray("fused_add_rms_norm") << QByteArray("torch") << QByteArray("forward")
                                   << QStringLiteral("FusedAddRMSNorm \u00b7 torch \u00b7 forward");
    QTest::newRow("single word") << QByteArray("embedding") << QByteArray("torch_compile") << QByteArray("forward")
                                 << QStringLiteral("Embedding \u00b7 torch_compile \u00b7 forward");
}

void TestLigerCsv::titles()
{
    QFETCH(QByteArray, kernel);
    QFETCH(QByteArray, provider);
    QFETCH(QByteArray, pass);
    QFETCH(QString, title);
    const json doc = importOne({ { Kernel, kernel }, { Provider, provider }, { Mode, pass } });
    QCOMPARE(str(doc, "/run/metadata/title"), title);
    QCOMPARE(str(doc, "/protocol/metadata/name"),
        QString(QStringLiteral("liger-bench-do-bench-") + QString::fromUtf8(pass)));
    QVERIFY(str(doc, "/protocol/spec/comparability/notes").startsWith(QStringLiteral("Timed: the ")));
    QVERIFY(str(doc, "/run/metadata/name").size() <= 100);
}

void TestLigerCsv::looksLikeLigerCsv_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<bool>("expected");
    QTest::newRow("header") << QByteArray(kHeader + '\n') << true;
    QTest::newRow("header and rows") << csvText({ ::seedRow() }) << true;
    QTest::newRow("BOM, CRLF") << QByteArray("\xEF\xBB\xBF" + kHeader + "\r\n") << true;
    QTest::newRow("quoted names") << QByteArray("\"kernel_name\",\"metric_name\",\"y_value_50\"\n") << true;
    QTest::newRow("other CSV") << QByteArray("name,value\nkernel_name,metric_name\n") << false;
    QTest::newRow("names on line two") << QByteArray("x\n" + kHeader) << false;
    QTest::newRow("JSON") << QByteArray(R"({"run": {"kernel_name": 1, "metric_name": 2, "y_value_50": 3}})") << false;
    QTest::newRow("empty") << QByteArray() << false;
    QTest::newRow("BOM only") << QByteArray("\xEF\xBB\xBF") << false;
}

void TestLigerCsv::looksLikeLigerCsv()
{
    QFETCH(QByteArray, bytes);
    QFETCH(bool, expected);
    QCOMPARE(kix::looksLikeLigerCsv(bytes), expected);
}

void TestLigerCsv::arbitraryBytes()
{
    // Every prefix of a small valid file, then noise made of CSV's special characters: no crash, and the two
    // result vectors always stay in step.
    const QByteArray valid
        = "\xEF\xBB\xBF" + csvText({ ::seedRow(), ::seedRow({ { Metric, "memory" }, { Unit, "MB" } }) });
    for (qsizetype n = 0; n <= valid.size(); ++n) {
        const LigerImport imported = kix::importLigerCsv(valid.left(n), QStringLiteral("cut.csv"));
        QCOMPARE(imported.documents.size(), imported.documentLines.size());
        kix::looksLikeLigerCsv(valid.left(n));
    }
    QRandomGenerator random(20260228);
    const char alphabet[] = ",\"\r\n{}[]:-.0123456789abcdeMBms \xEF\xBB\xBF\xFF";
    for (int round = 0; round < 200; ++round) {
        QByteArray noise(int(random.bounded(1, 400)), '\0');
        for (char& c : noise)
            c = alphabet[random.bounded(int(sizeof(alphabet)) - 1)];
        const LigerImport imported = kix::importLigerCsv(kHeader + '\n' + noise, QStringLiteral("noise.csv"));
        QCOMPARE(imported.documents.size(), imported.documentLines.size());
        for (const json& doc : imported.documents)
            QVERIFY(!doc.dump(-1, ' ', false, json::error_handler_t::strict).empty()); // valid UTF-8 throughout
        kix::importLigerCsv(noise, QStringLiteral("noise.csv"));
    }
    // Invalid UTF-8 in text fields still gives a document whose JSON dumps cleanly.
    const json doc = importOne({ { Provider, "hugging\xFF\xFE" }, { Gpu, "NVIDIA \xC3" } });
    QVERIFY(!doc.dump().empty());
    // A NUL byte never reaches an identifier.
    const json nul = importOne({ { Provider, QByteArray("hug\0face", 8) } });
    QCOMPARE(externalId(nul).section(QLatin1Char('/'), 2, 2), QStringLiteral("hug_face"));
    // A file of bad rows lists a bounded number of problems.
    QByteArrayList bad(5000, "x,y");
    const LigerImport flood = kix::importLigerCsv(csvText(bad), QStringLiteral("flood.csv"));
    QVERIFY(flood.documents.empty());
    QVERIFY(flood.diagnostics.size() > 100 && flood.diagnostics.size() < 5000);
}

void TestLigerCsv::sharedCsv()
{
    const QString shared = qEnvironmentVariable("KIX_SHARED_DIR");
    const QString path = shared + QStringLiteral("/data/liger/all_benchmark_data.csv");
    if (shared.isEmpty() || !QFile::exists(path))
        QSKIP("the shared Liger CSV is not available (set KIX_SHARED_DIR to the project's shared/ folder)");
    QFile file(path);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
    const QByteArray bytes = file.readAll();
    QVERIFY(kix::looksLikeLigerCsv(bytes));

    const LigerImport imported = kix::importLigerCsv(bytes, path);
    QVERIFY2(imported.diagnostics.isEmpty(), qPrintable(describeDiagnostics(imported.diagnostics.mid(0, 10))));
    QCOMPARE(imported.documents.size(), size_t(2448));
    QCOMPARE(imported.documentLines.size(), size_t(2448));
    QCOMPARE(imported.documentLines.front(), 2);
    QCOMPARE(imported.documentLines.back(), 2449);

    std::set<QString> ids;
    int seedIndex = -1;
    int memoryRuns = 0;
    for (size_t i = 0; i < imported.documents.size(); ++i) {
        const json& doc = imported.documents[i];
        const QString id = externalId(doc);
        QVERIFY2(ids.insert(id).second, qPrintable(QStringLiteral("duplicate externalId ") + id));
        if (id == QLatin1String(kSeedId))
            seedIndex = int(i);

        kix::Diagnostics diagnostics;
        const QString pointer = QStringLiteral("/rows/%1").arg(i);
        const kix::RunPtr run = kix::runFromDocument(doc, path, pointer, diagnostics);
        for (const Diagnostic& d : diagnostics)
            QVERIFY2(!d.isError(), qPrintable(d.toString()));
        QVERIFY2(run, qPrintable(id));
        QCOMPARE(run->externalId, id);
        if (id.endsWith(QLatin1String("/memory"))) {
            ++memoryRuns;
            QVERIFY(run->metric == kix::Run::Metric::Memory);
            QCOMPARE(run->unit, QStringLiteral("MB"));
        } else {
            QVERIFY(run->metric == kix::Run::Metric::Latency);
        }
    }
    QCOMPARE(memoryRuns, 799);

    QVERIFY2(seedIndex >= 0, "the seed row is missing");
    const json& seed = imported.documents[size_t(seedIndex)];
    QCOMPARE(imported.documentLines[size_t(seedIndex)], 1843);
    COMPARE_JSON(get(seed, "/run/spec/timing/latencyNs/median"), json(1315872));
    COMPARE_JSON(get(measurementEntry(seed, "latency", "p20"), "/value"), json(1315744));
    COMPARE_JSON(get(measurementEntry(seed, "latency", "p80"), "/value"), json(1317760));
    QCOMPARE(str(seed, "/run/spec/observedAt"), QStringLiteral("2026-02-28T00:23:31.000Z"));

    kix::Diagnostics diagnostics;
    const kix::RunPtr run = kix::runFromDocument(seed, path, QString(), diagnostics);
    QVERIFY(run);
    QCOMPARE(run->median, 1315872.0);
    QCOMPARE(run->p20, 1315744.0);
    QCOMPARE(run->p80, 1317760.0);
    QCOMPARE(run->observedAt, QDateTime(QDate(2026, 2, 28), QTime(0, 23, 31), Qt::UTC));

    // The same file through the generic entry point.
    const kix::ParseResult parsed = kix::parseBytes(bytes, path);
    QVERIFY2(!parsed.hasErrors(), qPrintable(describeDiagnostics(parsed.diagnostics.mid(0, 10))));
    QCOMPARE(int(parsed.runs.size()), 2448);
}

KIX_TEST_GUILESS_MAIN(TestLigerCsv)
#include "tst_ligercsv.moc"
