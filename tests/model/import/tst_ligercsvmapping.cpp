// SPDX-License-Identifier: Apache-2.0
// The Liger CSV import's mapping of a row's fields into the document: memory rows, non-numeric x, workload slugs,
// GPUs and titles (tests/model/import/ligercsvrows.h holds the rows; tst_ligercsv the CSV reading).
#include "model/import/ligercsv.h"

#include "tests/model/import/ligercsvrows.h"
#include "tests/support/testmain.h"

#include <QTest>

#include <utility>

using kix::LigerImport;
using nlohmann::json;
using namespace kixtest::ligercsv;

class TestLigerCsvMapping : public QObject
{
    Q_OBJECT

private slots:
    void memoryRow();
    void nonNumericX();
    void workloadSlugRules_data();
    void workloadSlugRules();
    void gpuRules_data();
    void gpuRules();
    void titles_data();
    void titles();
};

void TestLigerCsvMapping::memoryRow()
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

void TestLigerCsvMapping::nonNumericX()
{
    const json doc = importOne({ { Kernel, "fused_linear_cross_entropy" }, { XName, "model" }, { XValue, "llama_2_7b" },
        { Config, R"({"hidden_act": "gelu tanh", "dtype": "torch.bfloat16"})" } });
    QCOMPARE(workloadSlug(doc), QStringLiteral("hidden_actgelu_tanh-modelllama_2_7b-bf16"));
}

void TestLigerCsvMapping::workloadSlugRules_data()
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

void TestLigerCsvMapping::workloadSlugRules()
{
    QFETCH(QByteArray, config);
    QFETCH(QByteArray, xName);
    QFETCH(QByteArray, xValue);
    QFETCH(QString, slug);
    const json doc = importOne({ { Config, config }, { XName, xName }, { XValue, xValue } });
    QCOMPARE(workloadSlug(doc), slug);
}

void TestLigerCsvMapping::gpuRules_data()
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

void TestLigerCsvMapping::gpuRules()
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

void TestLigerCsvMapping::titles_data()
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

void TestLigerCsvMapping::titles()
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

KIX_TEST_GUILESS_MAIN(TestLigerCsvMapping)
#include "tst_ligercsvmapping.moc"
