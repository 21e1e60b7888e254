// SPDX-License-Identifier: Apache-2.0
// nvbench, Google Benchmark and pytest-benchmark JSON load like kernelindex runs, chosen by content. Fixtures in
// tests/data/interop/ are hand-written from each format's documentation; expected values are worked out by hand
// from the numbers in them.
#include "model/compare/comparability.h"
#include "model/filter/runtablemodel.h"
#include "model/format/digest.h"
#include "model/format/documentbuilder.h"
#include "model/import/interop.h"
#include "model/read/documentparser.h"
#include "model/read/runloader.h"

#include "tests/support/testfiles.h"
#include "tests/support/testmain.h"

#include <QFile>
#include <QFileInfo>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix;

namespace {

QByteArray readData(const QString& name)
{
    QFile f(kixtest::interopDataPath(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open fixture");
    return f.readAll();
}

QString label(const Run& run, const QString& key)
{
    for (const KeyValue& kv : run.labels) {
        if (kv.key == key)
            return kv.value;
    }
    return {};
}

QString errorsOf(const ParseResult& r)
{
    QStringList lines;
    for (const Diagnostic& d : r.diagnostics)
        lines << d.toString();
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class TestInterop : public QObject
{
    Q_OBJECT
private slots:
    void sniffsByContent_data();
    void sniffsByContent();
    void nvbenchStates();
    void nvbenchSkippedState();
    void tableSaysTheHeadlineIsAMean();
    void gbenchRepetitionsAreSamples();
    void gbenchSingleRepetitionAndErrors();
    void pytestBenchmark();
    void documentsLoadBackIdentically();
    void badInputNamesPointer();
    void crossFamilyWarning();
};

void TestInterop::sniffsByContent_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<int>("format");
    QTest::newRow("nvbench") << "nvbench_ref.json" << int(interop::Format::Nvbench);
    QTest::newRow("gbench") << "gbench_base.json" << int(interop::Format::GoogleBenchmark);
    QTest::newRow("pytest") << "pytest_benchmark.json" << int(interop::Format::PytestBenchmark);
    QTest::newRow("unknown") << "bad/unknown.json" << int(interop::Format::Unknown);
}

void TestInterop::sniffsByContent()
{
    QFETCH(QString, fixture);
    QFETCH(int, format);
    const QByteArray bytes = readData(fixture);
    QCOMPARE(int(interop::sniffFormat(nlohmann::json::parse(bytes.constData()))), format);
    // The file's name plays no part: the same bytes under a name without a .json extension load the same runs.
    const ParseResult parsed = parseBytes(bytes, QStringLiteral("results.dat"));
    QCOMPARE(parsed.runs.isEmpty(), format == int(interop::Format::Unknown));
    if (format != int(interop::Format::Unknown)) {
        QVERIFY2(!parsed.hasErrors(), qPrintable(errorsOf(parsed)));
        QCOMPARE(parsed.runs.first()->file, QStringLiteral("results.dat"));
    }
}

void TestInterop::nvbenchStates()
{
    const ParseResult parsed = parseFile(kixtest::interopDataPath(QStringLiteral("nvbench_ref.json")));
    QVERIFY2(!parsed.hasErrors(), qPrintable(errorsOf(parsed)));
    QCOMPARE(parsed.runs.size(), 4); // one run per state, the skipped one included
    const RunPtr run = kixtest::runByTitle(parsed.runs, QStringLiteral("copy · Device=0 T=I32 Elements{io}=2^24"));
    QVERIFY(run);
    QCOMPARE(run->pointer, QStringLiteral("/benchmarks/0/states/1"));
    QCOMPARE(run->kernel, QStringLiteral("copy"));
    QCOMPARE(run->pass, QStringLiteral("cold_gpu"));
    QCOMPARE(run->provider, QStringLiteral("nvbench_ref")); // one file per build: the file names it
    QCOMPARE(run->protocolFamily, QStringLiteral("nvbench_cold"));
    QVERIFY(run->protocolNotes.contains(QStringLiteral("MEAN cold GPU time")));
    // the headline is the cold GPU mean, 1.0e-04 s, and it is called a mean
    QCOMPARE(run->headlineStatistic, QStringLiteral("mean"));
    QCOMPARE(run->median, 100000.0);
    QCOMPARE(run->statistic(QStringLiteral("mean")), 100000.0);
    QVERIFY(std::isnan(run->p20));
    // environment: the device
    QCOMPARE(run->gpuProduct, QStringLiteral("NVIDIA H100 80GB HBM3"));
    QCOMPARE(run->gpuArchitecture, QStringLiteral("sm_90"));
    QCOMPARE(run->gpuVendor, QStringLiteral("nvidia"));
    // axes as workload parameters, numbers where they are numbers
    QCOMPARE(run->param(QStringLiteral("T")), QStringLiteral("I32"));
    QCOMPARE(run->param(QStringLiteral("Elements{io}")), QStringLiteral("16777216"));
    QCOMPARE(run->paramNumber(QStringLiteral("Elements{io}")), 16777216.0);
    // further measurements: noise 1% of 100 us = 1000 ns stdev, batch 9.5 us, CPU 12 us, 800 GB/s, 24% of peak
    QCOMPARE(kixtest::measurementValue(*run, QStringLiteral("latency_noise")), 0.01);
    QCOMPARE(run->statistic(QStringLiteral("stdev")), 1000.0);
    QCOMPARE(run->statistic(QStringLiteral("samples")), 1000.0);
    QCOMPARE(kixtest::measurementValue(*run, QStringLiteral("batch_time")), 9500.0);
    QCOMPARE(kixtest::measurementValue(*run, QStringLiteral("cpu_time")), 12000.0);
    QCOMPARE(kixtest::measurementValue(*run, QStringLiteral("bandwidth")), 800.0);
    QCOMPARE(kixtest::measurementValue(*run, QStringLiteral("bandwidth_peak_fraction")), 0.24);
    // device facts the environment schema has no field for ride as its labels (string values)
    QVERIFY(std::string_view(run->raw).find("\"hardware_sm_clock_hz\":\"1980000000\"") != std::string::npos);
    QVERIFY(std::string_view(run->raw).find("\"hardware_memory_bandwidth_bytes_per_second\":\"3352320000000\"")
        != std::string::npos);
}

void TestInterop::nvbenchSkippedState()
{
    const ParseResult parsed = parseFile(kixtest::interopDataPath(QStringLiteral("nvbench_ref.json")));
    const RunPtr run = kixtest::runByTitle(parsed.runs, QStringLiteral("copy · Device=0 T=F64 Elements{io}=2^24"));
    QVERIFY(run);
    QCOMPARE(run->status, QStringLiteral("incomplete_evidence")); // the format has no "skipped"
    QCOMPARE(label(*run, QStringLiteral("skip_reason")), QStringLiteral("Not enough device memory."));
    QVERIFY(std::isnan(run->median));
}

void TestInterop::tableSaysTheHeadlineIsAMean()
{
    RunTableModel model;
    model.setRuns(parseFile(kixtest::interopDataPath(QStringLiteral("nvbench_ref.json"))).runs
        + parseFile(kixtest::interopDataPath(QStringLiteral("pytest_benchmark.json"))).runs);
    const QString nvbench = model.index(0, RunTableModel::MedianColumn).data().toString();
    QVERIFY2(nvbench.endsWith(QStringLiteral(" (mean)")), qPrintable(nvbench));
    QVERIFY2(nvbench.startsWith(QStringLiteral("10")), qPrintable(nvbench)); // 10 us
    const QString tip = model.index(0, RunTableModel::MedianColumn).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.startsWith(QStringLiteral("10000 ns (mean)")), qPrintable(tip)); // the headline, not a NaN median
    const QString pytest = model.index(4, RunTableModel::MedianColumn).data().toString();
    QVERIFY2(!pytest.contains(QLatin1Char('(')), qPrintable(pytest)); // a true median needs no note
}

void TestInterop::gbenchRepetitionsAreSamples()
{
    const ParseResult parsed = parseFile(kixtest::interopDataPath(QStringLiteral("gbench_base.json")));
    QVERIFY2(!parsed.hasErrors(), qPrintable(errorsOf(parsed)));
    QCOMPARE(parsed.runs.size(), 3); // the _mean/_median/_stddev/_cv aggregates are not runs of their own
    const RunPtr run = kixtest::runByTitle(parsed.runs, QStringLiteral("BM_copy/8/64"));
    QVERIFY(run);
    QCOMPARE(run->kernel, QStringLiteral("BM_copy"));
    QCOMPARE(run->param(QStringLiteral("arg0")), QStringLiteral("8"));
    QCOMPARE(run->param(QStringLiteral("arg1")), QStringLiteral("64"));
    QCOMPARE(run->samples, (std::vector<double> { 100, 110, 120 }));
    QCOMPARE(run->headlineStatistic, QStringLiteral("median"));
    QCOMPARE(run->median, 110.0);
    QCOMPARE(kixtest::measurementValue(*run, QStringLiteral("cpu_time")), 109.0); // (99 + 109 + 119) / 3
    QCOMPARE(kixtest::measurementValue(*run, QStringLiteral("bandwidth")), 4.0); // 4e9 bytes/s
    QCOMPARE(run->protocolFamily, QStringLiteral("gbench"));
    QCOMPARE(run->gpuProduct, QStringLiteral("CPU · bench-host"));
    // context.date is +01:00: 10:00 there is 09:00 UTC
    QCOMPARE(run->observedAt, QDateTime(QDate(2026, 3, 1), QTime(9, 0), Qt::UTC));
    QVERIFY(run->externalId.endsWith(QStringLiteral("/2026-03-01-09-00-00")));
}

void TestInterop::gbenchSingleRepetitionAndErrors()
{
    const ParseResult parsed = parseFile(kixtest::interopDataPath(QStringLiteral("gbench_new.json")));
    QVERIFY2(!parsed.hasErrors(), qPrintable(errorsOf(parsed)));
    const RunPtr sort = kixtest::runByTitle(parsed.runs, QStringLiteral("BM_sort/size:1024"));
    QVERIFY(sort);
    QCOMPARE(sort->param(QStringLiteral("size")), QStringLiteral("1024"));
    QCOMPARE(sort->headlineStatistic, QStringLiteral("mean")); // one repetition: a per-iteration mean
    QCOMPARE(sort->median, 1500.0); // 1.5 us, the time unit honoured
    QVERIFY(sort->samples.empty());
    const RunPtr fail = kixtest::runByTitle(parsed.runs, QStringLiteral("BM_fail"));
    QVERIFY(fail);
    QCOMPARE(fail->status, QStringLiteral("runtime_error")); // the format's word for a run that errored
    QCOMPARE(label(*fail, QStringLiteral("error_message")), QStringLiteral("cudaMalloc failed"));
}

void TestInterop::pytestBenchmark()
{
    const ParseResult parsed = parseFile(kixtest::interopDataPath(QStringLiteral("pytest_benchmark.json")));
    QVERIFY2(!parsed.hasErrors(), qPrintable(errorsOf(parsed)));
    QCOMPARE(parsed.runs.size(), 2);
    const RunPtr run = kixtest::runByTitle(parsed.runs, QStringLiteral("test_softmax[triton-fp16-4096]"));
    QVERIFY(run);
    QCOMPARE(run->kernel, QStringLiteral("test_softmax"));
    QCOMPARE(run->provider, QStringLiteral("triton")); // the provider parameter names the implementation
    QCOMPARE(run->dtype, QStringLiteral("fp16"));
    QCOMPARE(run->param(QStringLiteral("n")), QStringLiteral("4096"));
    QCOMPARE(run->headlineStatistic, QStringLiteral("median"));
    QCOMPARE(run->median, 125000.0); // median 0.000125 s of the six rounds
    QCOMPARE(run->statistic(QStringLiteral("min")), 100000.0);
    QCOMPARE(run->statistic(QStringLiteral("q1")), 110000.0);
    QCOMPARE(run->statistic(QStringLiteral("q3")), 140000.0);
    QCOMPARE(run->statistic(QStringLiteral("rounds")), 6.0);
    QCOMPARE(run->samples.size(), std::size_t(6));
    QCOMPARE(run->samples.front(), 100000.0);
    QCOMPARE(run->gpuProduct, QStringLiteral("NVIDIA H100 80GB HBM3")); // from extra_info.gpu
    QCOMPARE(run->gpuArchitecture, QStringLiteral("sm_90"));
    QCOMPARE(label(*run, QStringLiteral("commit_id")), QStringLiteral("5f2c1e0d9b8a7c6d5e4f3a2b1c0d9e8f7a6b5c4d"));
    QCOMPARE(label(*run, QStringLiteral("commit_branch")), QStringLiteral("main"));
    QCOMPARE(run->protocolFamily, QStringLiteral("pytest_benchmark"));
    QCOMPARE(run->observedAt, QDateTime(QDate(2026, 3, 3), QTime(9, 15, 30, 123), Qt::UTC));
    bool python = false;
    for (const KeyValue& kv : run->software)
        python = python
            || (kv.key == QLatin1String("libraries") && kv.value.contains(QLatin1String("\"python\":\"3.11.2\"")));
    QVERIFY(python);
}

void TestInterop::documentsLoadBackIdentically()
{
    for (const QString& fixture : { QStringLiteral("nvbench_ref.json"), QStringLiteral("gbench_new.json"),
             QStringLiteral("pytest_benchmark.json") }) {
        const ParseResult parsed = parseFile(kixtest::interopDataPath(fixture));
        QVERIFY(!parsed.runs.isEmpty());
        for (const RunPtr& run : parsed.runs) {
            // the document as a plain kernelindex document, without the sniffers
            const QByteArray text = QByteArray::fromStdString(run->raw);
            const ParseResult again = parseBytes(text, QStringLiteral("again.json"));
            QVERIFY2(!again.hasErrors(), qPrintable(errorsOf(again)));
            QCOMPARE(again.runs.size(), 1);
            const Run& r = *again.runs.first();
            QCOMPARE(r.identityKey(), run->identityKey());
            QCOMPARE(r.raw, run->raw);
            QCOMPARE(r.headlineStatistic, run->headlineStatistic);
            QCOMPARE(r.status, run->status);
            QCOMPARE(std::isnan(r.median), std::isnan(run->median));
            if (!std::isnan(r.median))
                QCOMPARE(r.median, run->median);
            // Raw samples are not inline: the document names them by URI and digest, and the digest is that of
            // the evidence file kix writes beside it from the run's samples.
            QVERIFY(std::string_view(run->raw).find("samplesNs") == std::string_view::npos);
            if (!run->samples.empty()) {
                const auto doc = nlohmann::json::parse(run->raw.str());
                QCOMPARE(doc.at("/run/spec/timing/rawSamples/digest"_json_pointer).get<std::string>(),
                    kix::format::sha256Digest(kix::format::samplesArtifact(run->samples)));
            }
            QCOMPARE(r.workload.size(), run->workload.size());
        }
    }
}

void TestInterop::badInputNamesPointer()
{
    const LoadResult loaded = loadPaths({ kixtest::interopDataPath(QStringLiteral("bad")) });
    QCOMPARE(loaded.files, 5);
    QCOMPARE(loaded.refusedFiles, 4);
    auto find = [&](const QString& file, const QString& pointer) -> const Diagnostic* {
        for (const Diagnostic& d : loaded.diagnostics) {
            if (d.isError() && d.file.endsWith(file) && d.pointer == pointer)
                return &d;
        }
        return nullptr;
    };
    const Diagnostic* nv = find(
        QStringLiteral("nvbench_bad_value.json"), QStringLiteral("/benchmarks/0/states/1/summaries/1/data/0/value"));
    QVERIFY(nv);
    QVERIFY2(nv->message.contains(QStringLiteral("expected a number")), qPrintable(nv->message));
    const Diagnostic* gb = find(QStringLiteral("gbench_bad_type.json"), QStringLiteral("/benchmarks/1/real_time"));
    QVERIFY(gb);
    QVERIFY2(gb->message.contains(QStringLiteral("the string \"12\"")), qPrintable(gb->message));
    const Diagnostic* py
        = find(QStringLiteral("pytest_missing_median.json"), QStringLiteral("/benchmarks/1/stats/median"));
    QVERIFY(py);
    QVERIFY2(py->message.contains(QStringLiteral("missing")), qPrintable(py->message));
    bool unknown = false;
    for (const Diagnostic& d : loaded.diagnostics)
        unknown = unknown
            || (d.file.endsWith(QStringLiteral("unknown.json")) && d.message.contains(QStringLiteral("nvbench")));
    QVERIFY(unknown);
    // the good entries beside the bad ones load: nvbench state 0, gbench BM_copy, pytest triton, the good file
    QStringList titles;
    for (const RunPtr& r : loaded.runs)
        titles << QFileInfo(r->file).fileName() + QLatin1Char(':') + r->title;
    titles.sort();
    QCOMPARE(titles,
        QStringList({ QStringLiteral("gbench_bad_type.json:BM_copy/8/64"),
            QStringLiteral("good_pytest.json:test_softmax[triton-fp16-4096]"),
            QStringLiteral("nvbench_bad_value.json:copy · Device=0 T=I32 Elements{io}=2^20"),
            QStringLiteral("pytest_missing_median.json:test_softmax[triton-fp16-4096]") }));
}

void TestInterop::crossFamilyWarning()
{
    const RunPtr nv = kixtest::runByTitle(parseFile(kixtest::interopDataPath(QStringLiteral("nvbench_ref.json"))).runs,
        QStringLiteral("copy · Device=0 T=I32 Elements{io}=2^20"));
    const RunPtr py = parseFile(kixtest::interopDataPath(QStringLiteral("pytest_benchmark.json"))).runs.first();
    QVERIFY(nv && py);
    const Comparability c = assessComparability(*nv, *py);
    QVERIFY(
        c.warnings.contains(QStringLiteral("different protocol family: nvbench_cold (baseline) vs pytest_benchmark")));
}

KIX_TEST_GUILESS_MAIN(TestInterop)
#include "tst_interop.moc"
