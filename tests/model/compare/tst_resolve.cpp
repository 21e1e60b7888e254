// SPDX-License-Identifier: Apache-2.0
// resolveWorkload: one test per kind of answer (exact, between two measured values, beyond the range, suites) on
// fixtures in tests/data/model/resolve (a Liger CSV sweep, a catalog-shaped leaderboard of suites), the operation's
// names, the mismatches named, and the real data (Liger's CSV, the format's catalog) when KIX_SHARED_DIR has it.
#include "model/compare/resolve.h"
#include "model/compare/resolvereport.h"
#include "model/read/documentparser.h"

#include "../../support/catalogexport.h"

#include "tests/support/testmain.h"

#include <QFile>
#include <QSet>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix;

namespace {

QString resolveDataPath(const char* name)
{
    return QStringLiteral(KIX_TEST_DATA_DIR "/model/resolve/") + QLatin1String(name);
}

RunList loadResolveCase(const char* name)
{
    const ParseResult r = parseFile(resolveDataPath(name));
    for (const Diagnostic& d : r.diagnostics)
        if (d.isError())
            qWarning().noquote() << d.toString();
    return r.runs;
}

ResolveRequest request(
    const QString& operation, const QVector<KeyValue>& axes, const QString& gpu = {}, const QString& dtype = {})
{
    ResolveRequest r;
    r.operation = operation;
    r.axes = axes;
    r.gpu = gpu;
    r.dtype = dtype;
    return r;
}

QStringList mismatches(const ResolveCase& c)
{
    QStringList out;
    for (const ResolveMismatch& m : c.mismatches)
        out << m.text();
    return out;
}

double channelsOf(const ResolveCase& c)
{
    return c.best().bestRun->paramNumber(QStringLiteral("channels"));
}

} // namespace

class TestResolve : public QObject
{
    Q_OBJECT

private slots:
    void exactIsRankedAsItsCohort();
    void betweenTwoMeasuredValues();
    void beyondTheRange();
    void otherGpuIsNamed();
    void suiteWorkloads();
    void operationNames();
    void unknownAxisAndTextValues();
    void reports();
    void ligerCsv();
    void catalogExport();
};

void TestResolve::exactIsRankedAsItsCohort()
{
    const RunList runs = loadResolveCase("groupnorm-sweep.csv");
    QCOMPARE(runs.size(), 8);
    const Resolution r = resolveWorkload(
        runs, request(QStringLiteral("group_norm"), { { "channels", "2048" } }, QStringLiteral("b200")));
    QVERIFY(r.exact());
    QCOMPARE(r.cases.size(), 1);
    const ResolveCase& c = r.cases.front();
    QCOMPARE(c.kind, ResolveKind::Exact);
    QVERIFY(c.mismatches.isEmpty());
    // ranked as its cohort: liger (0.18 ms) first, huggingface second
    QCOMPARE(c.cohort.entries.size(), 2);
    QCOMPARE(c.cohort.entries[0].implementation, QStringLiteral("liger"));
    QCOMPARE(c.cohort.entries[0].rank, 1);
    QCOMPARE(c.cohort.entries[1].implementation, QStringLiteral("huggingface"));
    QCOMPARE(c.cohort.entries[1].rank, 2);
    QCOMPARE(c.cohort.entries[0].best, 180000.0); // ns
    QCOMPARE(channelsOf(c), 2048.0);
    // "2048.0" is the number 2048
    QVERIFY(resolveWorkload(runs, request(QStringLiteral("group_norm"), { { "channels", "2048.0" } }, "B200")).exact());
}

void TestResolve::betweenTwoMeasuredValues()
{
    const RunList runs = loadResolveCase("groupnorm-sweep.csv");
    const Resolution r = resolveWorkload(
        runs, request(QStringLiteral("group_norm"), { { "channels", "3000" } }, QStringLiteral("B200")));
    QVERIFY(!r.exact());
    QCOMPARE(r.cases.size(), 2);
    // nearest first by ratio on a log scale: 4096/3000 = 1.365 is nearer than 3000/2048 = 1.465
    QCOMPARE(r.cases[0].kind, ResolveKind::Above);
    QCOMPARE(channelsOf(r.cases[0]), 4096.0);
    QCOMPARE(r.cases[1].kind, ResolveKind::Below);
    QCOMPARE(channelsOf(r.cases[1]), 2048.0);
    QCOMPARE(r.cases[0].axis, QStringLiteral("channels"));
    QVERIFY(qAbs(r.cases[0].ratio - 4096.0 / 3000.0) < 1e-12);
    QCOMPARE(mismatches(r.cases[0]), QStringList { QStringLiteral("channels: 3000 → 4096") });
    QCOMPARE(mismatches(r.cases[1]), QStringList { QStringLiteral("channels: 3000 → 2048") });
    // each with its best implementation
    QCOMPARE(r.cases[1].best().implementation, QStringLiteral("liger"));
    QCOMPARE(r.cases[1].best().best, 180000.0);
    // 1024 on the H100 is not nearer than what the B200 measured; the GPU was asked
    for (const ResolveCase& c : r.cases)
        QCOMPARE(c.best().bestRun->gpuProduct, QStringLiteral("NVIDIA B200"));
    QVERIFY(!r.notes.isEmpty());
}

void TestResolve::beyondTheRange()
{
    const RunList runs = loadResolveCase("groupnorm-sweep.csv");
    Resolution r = resolveWorkload(runs, request(QStringLiteral("group_norm"), { { "channels", "16384" } }, "B200"));
    QCOMPARE(r.cases.size(), 1);
    QCOMPARE(r.cases[0].kind, ResolveKind::Below);
    QCOMPARE(channelsOf(r.cases[0]), 4096.0);
    QVERIFY(!r.exact());

    r = resolveWorkload(runs, request(QStringLiteral("group_norm"), { { "channels", "256" } }, "B200"));
    QCOMPARE(r.cases.size(), 1);
    QCOMPARE(r.cases[0].kind, ResolveKind::Above);
    QCOMPARE(channelsOf(r.cases[0]), 1024.0);

    // On the H100 only 1024 was measured: only a neighbour below, not the B200's 4096 above.
    r = resolveWorkload(runs, request(QStringLiteral("group_norm"), { { "channels", "3000" } }, "H100"));
    QCOMPARE(r.cases.size(), 1);
    QCOMPARE(r.cases[0].kind, ResolveKind::Below);
    QCOMPARE(channelsOf(r.cases[0]), 1024.0);
    QCOMPARE(r.cases[0].best().bestRun->gpuProduct, QStringLiteral("NVIDIA H100 80GB HBM3"));
}

void TestResolve::otherGpuIsNamed()
{
    const RunList runs = loadResolveCase("groupnorm-sweep.csv");
    // nobody measured an A100: the nearest cases are on other GPUs, the GPU named as a mismatch
    const Resolution r
        = resolveWorkload(runs, request(QStringLiteral("group_norm"), { { "channels", "2048" } }, "A100"));
    QVERIFY(!r.exact());
    QCOMPARE(r.cases.size(), 1);
    QCOMPARE(r.cases[0].kind, ResolveKind::OtherContext);
    QCOMPARE(mismatches(r.cases[0]), QStringList { QStringLiteral("gpu: A100 → NVIDIA B200") });
    // a dtype spelled another way is the same dtype; another dtype is a mismatch
    QVERIFY(resolveWorkload(runs, request("group_norm", { { "channels", "2048" } }, "B200", "float32")).exact());
    const Resolution bf = resolveWorkload(runs, request("group_norm", { { "channels", "2048" } }, "B200", "bf16"));
    QVERIFY(!bf.exact());
    QCOMPARE(mismatches(bf.cases[0]), QStringList { QStringLiteral("dtype: bf16 → fp32") });
    // fields left open that vary among the cases are listed, not matched
    const Resolution open = resolveWorkload(runs, request("group_norm", { { "channels", "1024" } }));
    QCOMPARE(open.cases.size(), 2);
    QVERIFY(open.exact());
    QCOMPARE(open.unconstrained.size(), 1);
    QVERIFY(open.unconstrained[0].startsWith(QLatin1String("gpu (")));
    QCOMPARE(open.cases[0].unconstrained.size(), 1);
    QCOMPARE(open.cases[0].unconstrained[0].key, QStringLiteral("gpu"));
}

void TestResolve::suiteWorkloads()
{
    const RunList runs = loadResolveCase("conv1d-suites.jsonl");
    QCOMPARE(runs.size(), 3);
    // by title, any case; the suites are aggregates of cases, never an exact answer for one case
    Resolution r = resolveWorkload(runs, request(QStringLiteral("causal DEPTHWISE conv1d"), { { "d", "2560" } }));
    QCOMPARE(r.matchedBy, QStringList { QStringLiteral("operation title \"Causal depthwise conv1d\"") });
    QVERIFY(!r.exact());
    QCOMPARE(r.caseCount, 2);
    QCOMPARE(r.cases.size(), 2);
    for (const ResolveCase& c : r.cases)
        QCOMPARE(c.kind, ResolveKind::Suite);
    QCOMPARE(r.cases[0].workload, QStringLiteral("suite of 2 cases"));
    QCOMPARE(mismatches(r.cases[0]),
        (QStringList { QStringLiteral("workload: one case → suite of 2 cases (one aggregate)"),
            QStringLiteral("d: 2560 → covered inside the suite aggregate") }));
    QVERIFY(r.cases[0].best().implementation.startsWith(QLatin1String("alice"))); // "alice · submission alice"
    QCOMPARE(r.cases[0].cohort.entries.size(), 2);
    QCOMPARE(mismatches(r.cases[1]),
        (QStringList { QStringLiteral("workload: one case → suite of 1 cases (one aggregate)"),
            QStringLiteral("d: 2560 → not in the suite (4096)") }));
    // without axes a suite is what was asked for
    r = resolveWorkload(runs, request(QStringLiteral("conv1d_causal"), {}));
    QCOMPARE(r.matchedBy, QStringList { QStringLiteral("alias \"conv1d_causal\"") });
    QVERIFY(r.exact());
    QCOMPARE(r.cases.size(), 2);
    // an axis no suite holds finds nothing
    r = resolveWorkload(runs, request(QStringLiteral("causal_conv1d"), { { "k", "3" } }));
    QVERIFY(!r.found());
    QCOMPARE(r.unknownAxes.size(), 1);
}

void TestResolve::operationNames()
{
    const RunList runs = loadResolveCase("groupnorm-sweep.csv") + loadResolveCase("conv1d-suites.jsonl");
    Resolution r = resolveWorkload(runs, request(QStringLiteral("GROUP_NORM"), {}));
    QCOMPARE(r.matchedBy, QStringList { QStringLiteral("kernel name \"group_norm\"") });
    QCOMPARE(r.runCount, 8);
    r = resolveWorkload(runs, request(QStringLiteral("groupnorm"), {}));
    QVERIFY(r.matchedBy.isEmpty());
    QVERIFY(!r.found());
    QCOMPARE(r.suggestions.value(0), QStringLiteral("group_norm"));
    r = resolveWorkload(runs, request(QStringLiteral("conv1d"), {}));
    QVERIFY(r.matchedBy.isEmpty());
    QVERIFY(r.suggestions.contains(QStringLiteral("causal_conv1d")));
}

void TestResolve::unknownAxisAndTextValues()
{
    const RunList runs = loadResolveCase("groupnorm-sweep.csv");
    // an axis spelled in another case is read as the runs spell it, and said so
    Resolution r = resolveWorkload(runs, request(QStringLiteral("group_norm"), { { "CHANNELS", "2048" } }, "B200"));
    QVERIFY(r.exact());
    QVERIFY(r.notes.join(QLatin1Char(' ')).contains(QLatin1String("\"CHANNELS\" read as \"channels\"")));
    // an axis no case has: nothing, and the axes that exist are listed
    r = resolveWorkload(runs, request(QStringLiteral("group_norm"), { { "groups", "32" } }));
    QVERIFY(!r.found());
    QCOMPARE(r.unknownAxes.size(), 1);
    QVERIFY(r.unknownAxes[0].contains(QLatin1String("channels")));
    // a text value is never near a number
    r = resolveWorkload(runs, request(QStringLiteral("group_norm"), { { "channels", "many" } }, "B200"));
    QVERIFY(!r.found());
    KeyValue kv;
    QString error;
    QVERIFY(ResolveRequest::parseAxis(QStringLiteral(" m = 3000 "), &kv, &error));
    QCOMPARE(kv.key, QStringLiteral("m"));
    QCOMPARE(kv.value, QStringLiteral("3000"));
    QVERIFY(!ResolveRequest::parseAxis(QStringLiteral("m3000"), &kv, &error));
    QVERIFY(error.contains(QLatin1String("m3000")));
    QVERIFY(!ResolveRequest::parseAxis(QStringLiteral("=3"), &kv, &error));
}

void TestResolve::reports()
{
    const RunList runs = loadResolveCase("groupnorm-sweep.csv");
    const Resolution r
        = resolveWorkload(runs, request(QStringLiteral("group_norm"), { { "channels", "3000" } }, "B200"));
    const QString table = QString::fromUtf8(resolutionToTable(r));
    QVERIFY(table.contains(QLatin1String("none exact")));
    QVERIFY(table.contains(QStringLiteral("above channels ×1.37")));
    QVERIFY(table.contains(QStringLiteral("channels: 3000 → 2048")));
    const nlohmann::json j = nlohmann::json::parse(resolutionToJson(r).toStdString());
    QCOMPARE(j["exact"].get<bool>(), false);
    QCOMPARE(j["cases"].size(), std::size_t(2));
    QCOMPARE(j["cases"][0]["kind"].get<std::string>(), std::string("above"));
    QCOMPARE(j["cases"][0]["mismatches"][0]["observed"].get<std::string>(), std::string("4096"));
    QCOMPARE(j["cases"][0]["implementations"].size(), std::size_t(1)); // the best of a near case
    const QStringList csv = QString::fromUtf8(resolutionToCsv(r)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(csv.size(), 3);
    QVERIFY(csv[1].startsWith(QLatin1String("above,channels,1.365")));
    // an exact case lists every implementation, ranked
    const Resolution exact = resolveWorkload(runs, request("group_norm", { { "channels", "1024" } }, "H100"));
    QCOMPARE(QString::fromUtf8(resolutionToCsv(exact)).count(QLatin1String("\nexact,")), 2);
}

void TestResolve::ligerCsv()
{
    const QString path = qEnvironmentVariable("KIX_SHARED_DIR") + QStringLiteral("/data/liger/all_benchmark_data.csv");
    if (qEnvironmentVariableIsEmpty("KIX_SHARED_DIR") || !QFile::exists(path))
        QSKIP("Liger-Kernel's CSV is not available (set KIX_SHARED_DIR to the project's shared/ folder)");
    const RunList runs = parseFile(path).runs;
    // GroupNorm's channels 32 ... 2048 (powers of two) on a B200: 1500 was not measured
    const Resolution r
        = resolveWorkload(runs, request(QStringLiteral("group_norm"), { { "channels", "1500" } }, "B200"));
    QVERIFY2(!r.matchedBy.isEmpty(), qPrintable(r.suggestions.join(QLatin1Char(','))));
    QVERIFY(!r.exact());
    QVERIFY(r.found());
    QSet<double> seen;
    for (const ResolveCase& c : r.cases) {
        QVERIFY(c.kind == ResolveKind::Below || c.kind == ResolveKind::Above);
        QCOMPARE(c.mismatches.size(), 1);
        QCOMPARE(c.mismatches[0].field, QStringLiteral("channels"));
        QVERIFY(c.mismatches[0].text().startsWith(QStringLiteral("channels: 1500 → ")));
        seen.insert(channelsOf(c));
    }
    QCOMPARE(seen, (QSet<double> { 1024.0, 2048.0 }));
    // beyond the range: 2048 below, nothing above
    const Resolution beyond
        = resolveWorkload(runs, request(QStringLiteral("group_norm"), { { "channels", "3000" } }, "B200"));
    QVERIFY(beyond.found());
    for (const ResolveCase& c : beyond.cases) {
        QCOMPARE(c.kind, ResolveKind::Below);
        QCOMPARE(channelsOf(c), 2048.0);
    }
    // pass and metric vary among GroupNorm's cases and were not asked: listed as unconstrained
    QVERIFY(r.unconstrained.join(QLatin1Char(' ')).contains(QLatin1String("pass (")));
}

void TestResolve::catalogExport()
{
    const QString path = kixtest::sharedCatalogPath();
    if (path.isEmpty())
        QSKIP("the format's catalog export is not available (set KIX_SHARED_DIR to the project's shared/ folder)");
    const RunList runs = parseFile(path).runs;
    // FlashInfer's GEMM with n = k = 4096, m swept: 3000 lies between two measured values
    const Resolution r = resolveWorkload(runs, request(QStringLiteral("gemm_n4096_k4096"), { { "m", "3000" } }));
    QVERIFY(!r.matchedBy.isEmpty());
    QVERIFY(!r.exact());
    QVERIFY(r.found());
    bool below = false, above = false;
    for (const ResolveCase& c : r.cases) {
        QVERIFY(c.kind != ResolveKind::Exact);
        const double m = c.best().bestRun->paramNumber(QStringLiteral("m"));
        below = below || (c.kind == ResolveKind::Below && m < 3000);
        above = above || (c.kind == ResolveKind::Above && m > 3000);
        QVERIFY(c.mismatchText().contains(QStringLiteral("m: 3000 → ")));
    }
    QVERIFY(below && above);
}

KIX_TEST_GUILESS_MAIN(TestResolve)
#include "tst_resolve.moc"
