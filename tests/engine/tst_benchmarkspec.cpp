// SPDX-License-Identifier: Apache-2.0
// BenchmarkSpec: names, the workload slug exactly as in the seed, the byte floors, and the refusals.

#include "engine/benchmarkspec.h"

#include "tests/support/testmain.h"

#include <QTest>

using namespace kix;

class TestBenchmarkSpec : public QObject
{
    Q_OBJECT

private slots:
    void workloadSlugMatchesTheSeed();
    void names();
    void minimumBytes();
    void validSpecPasses();
    void refusals_data();
    void refusals();
    void tensorsMustFitTheDevice();
};

void TestBenchmarkSpec::workloadSlugMatchesTheSeed()
{
    BenchmarkSpec spec; // defaults are the seed's workload
    QCOMPARE(spec.workloadSlug(), QStringLiteral("batch128-channels2048-channels_per_group4-hidden512-fp32"));
    spec.dtype = DType::BF16;
    spec.channels = 64;
    QCOMPARE(spec.workloadSlug(), QStringLiteral("batch128-channels64-channels_per_group4-hidden512-bf16"));
}

void TestBenchmarkSpec::names()
{
    Pass pass = Pass::Forward;
    QVERIFY(parsePass(QStringLiteral("backward"), pass));
    QCOMPARE(pass, Pass::Backward);
    QVERIFY(parsePass(QStringLiteral("FULL"), pass));
    QCOMPARE(passName(pass), QStringLiteral("full"));
    QVERIFY(!parsePass(QStringLiteral("sideways"), pass));
    DType dtype = DType::F32;
    QVERIFY(parseDType(QStringLiteral("fp16"), dtype));
    QCOMPARE(dtype, DType::F16);
    QCOMPARE(dtypeName(DType::BF16), QStringLiteral("bf16"));
    QVERIFY(!parseDType(QStringLiteral("fp8"), dtype));
}

void TestBenchmarkSpec::minimumBytes()
{
    BenchmarkSpec spec;
    const qint64 tensor = qint64(128) * 2048 * 512 * 4; // 536870912 B, as in groupnorm-notes.md
    const qint64 params = 2048 * 4;
    const qint64 stats = 128 * 512 * 4;
    spec.pass = Pass::Forward;
    QCOMPARE(spec.minimumBytes(), 2 * tensor + 2 * params + 2 * stats);
    spec.pass = Pass::Backward;
    QCOMPARE(spec.minimumBytes(), 3 * tensor + 3 * params + 2 * stats);
    spec.pass = Pass::Full;
    QCOMPARE(spec.minimumBytes(), 5 * tensor + 5 * params + 4 * stats); // forward's + backward's
    spec.pass = Pass::Forward;
    spec.dtype = DType::BF16;
    QCOMPARE(spec.minimumBytes(), tensor + 2 * params + 2 * stats);
}

void TestBenchmarkSpec::validSpecPasses()
{
    QCOMPARE(validateSpec(BenchmarkSpec(), nullptr), QString());
}

void TestBenchmarkSpec::refusals_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("message");
    QTest::newRow("channels not divisible") << "channels" << 2050.0 << "not divisible by channels_per_group";
    QTest::newRow("zero batch") << "batch" << 0.0 << "batch (M) must be positive";
    QTest::newRow("zero hidden") << "hidden" << 0.0 << "hidden (H) must be positive";
    QTest::newRow("negative channels") << "channels" << -4.0 << "channels (C) must be positive";
    QTest::newRow("zero channels_per_group") << "cpg" << 0.0 << "channels_per_group must be positive";
    QTest::newRow("huge shape") << "batch" << 1e15 << "too large";
    QTest::newRow("zero eps") << "eps" << 0.0 << "eps must be a positive number";
    QTest::newRow("negative warm-up") << "warmup" << -1.0 << "warm-up time";
    QTest::newRow("zero repetition time") << "rep" << 0.0 << "repetition time";
}

void TestBenchmarkSpec::refusals()
{
    QFETCH(QString, field);
    QFETCH(double, value);
    QFETCH(QString, message);
    BenchmarkSpec spec;
    const auto count = static_cast<qint64>(value);
    if (field == QStringLiteral("channels"))
        spec.channels = count;
    else if (field == QStringLiteral("batch"))
        spec.batch = count;
    else if (field == QStringLiteral("hidden"))
        spec.hidden = count;
    else if (field == QStringLiteral("cpg"))
        spec.channelsPerGroup = count;
    else if (field == QStringLiteral("eps"))
        spec.eps = value;
    else if (field == QStringLiteral("warmup"))
        spec.timing.warmupMs = value;
    else if (field == QStringLiteral("rep"))
        spec.timing.repMs = value;
    const QString error = validateSpec(spec, nullptr);
    QVERIFY2(error.contains(message), qPrintable(error));
}

void TestBenchmarkSpec::tensorsMustFitTheDevice()
{
    DeviceInfo device;
    device.id = QStringLiteral("cpu");
    device.memoryBytes = qint64(1) << 30; // 1 GiB
    BenchmarkSpec spec; // forward fp32 needs 2 x 512 MiB and a little more
    spec.device = device.id;
    const QString error = validateSpec(spec, &device);
    QVERIFY2(error.contains(QStringLiteral("do not fit in the memory of cpu")), qPrintable(error));
    spec.batch = 16;
    QCOMPARE(validateSpec(spec, &device), QString());
    spec.device = QStringLiteral("cuda:0");
    QVERIFY(validateSpec(spec, &device).contains(QStringLiteral("not cpu")));
}

KIX_TEST_GUILESS_MAIN(TestBenchmarkSpec)
#include "tst_benchmarkspec.moc"
