// SPDX-License-Identifier: Apache-2.0
// The overview: kernels × GPUs counted (runs, distinct implementations, failed runs), totals counted from the runs
// rather than summed, and filter clauses that select exactly a row's or a column's runs.
#include "model/chartdata/overviewdata.h"
#include "model/filter/runfilter.h"

#include "../runfactory.h"

#include "tests/support/testmain.h"

#include <QTest>

#include <thread>

using namespace kix;
using kixtest::makeRun;

namespace {

RunPtr run(const QString& kernel, const QString& provider, const QString& gpu, bool failed = false,
    const QString& slug = QString())
{
    auto r = makeRun(provider, gpu, 1024, 1000);
    r->kernel = kernel;
    if (!slug.isNull())
        r->gpuSlug = slug;
    if (failed)
        r->status = QStringLiteral("runtime_error");
    r->finalize();
    return r;
}

// cross_entropy: 5 runs (liger and torch on B200, liger twice on H100, one of them failed), rms_norm: 3 runs on
// B200 (liger, triton, triton), swiglu: 1 run on an AMD GPU whose product has spaces only.
RunList fixture()
{
    const QString b200 = QStringLiteral("NVIDIA B200");
    const QString h100 = QStringLiteral("NVIDIA H100 80GB HBM3");
    const QString mi300 = QStringLiteral("AMD Instinct MI300X");
    const QString ce = QStringLiteral("cross_entropy");
    const QString rms = QStringLiteral("rms_norm");
    const QString liger = QStringLiteral("liger");
    const QString torch = QStringLiteral("torch");
    const QString triton = QStringLiteral("triton");
    return { run(ce, liger, b200), run(ce, torch, b200), run(ce, liger, h100), run(ce, liger, h100, true),
        run(ce, torch, b200), run(rms, liger, b200), run(rms, triton, b200), run(rms, triton, b200, true),
        run(QStringLiteral("swiglu"), liger, mi300, false, QStringLiteral("mi300x")) };
}

RunList matching(const RunList& runs, const QString& text)
{
    RunFilter filter;
    filter.setText(text);
    return filter.apply(runs);
}

} // namespace

class TestOverviewData : public QObject
{
    Q_OBJECT
private slots:
    void countsKernelsByGpu();
    void totalsCountImplementationsOnce();
    void clausesSelectExactlyTheirRuns();
    void ambiguousNamesGetNoClause();
    void firstViewRule();
    void buildsOnAnyThread();
};

void TestOverviewData::countsKernelsByGpu()
{
    const OverviewData data = buildOverview(fixture());
    QCOMPARE(data.kernels, (QStringList { "cross_entropy", "rms_norm", "swiglu" }));
    QCOMPARE(data.gpus, (QStringList { "NVIDIA B200", "NVIDIA H100 80GB HBM3", "AMD Instinct MI300X" }));
    QCOMPARE(data.cells.size(), 9);
    // cross_entropy on B200: 3 runs of 2 implementations; on H100: 2 runs of 1 implementation, 1 failed
    QCOMPARE(data.cell(0, 0).runs, 3);
    QCOMPARE(data.cell(0, 0).implementations, 2);
    QCOMPARE(data.cell(0, 0).failed, 0);
    QCOMPARE(data.cell(0, 1).runs, 2);
    QCOMPARE(data.cell(0, 1).implementations, 1);
    QCOMPARE(data.cell(0, 1).failed, 1);
    QCOMPARE(data.cell(0, 2).runs, 0);
    QCOMPARE(data.cell(1, 0).runs, 3);
    QCOMPARE(data.cell(1, 0).implementations, 2);
    QCOMPARE(data.cell(1, 0).failed, 1);
    QCOMPARE(data.cell(1, 1).runs, 0);
    QCOMPARE(data.cell(2, 2).runs, 1);
    QCOMPARE(data.cell(2, 2).implementations, 1);
    QCOMPARE(data.total.runs, 9);
    QCOMPARE(data.total.failed, 2);
}

void TestOverviewData::totalsCountImplementationsOnce()
{
    const OverviewData data = buildOverview(fixture());
    // liger on B200 and on H100 is one implementation of cross_entropy: 2, not 2 + 1
    QCOMPARE(data.kernelTotals[0].runs, 5);
    QCOMPARE(data.kernelTotals[0].implementations, 2);
    QCOMPARE(data.kernelTotals[0].failed, 1);
    // B200: liger, torch, triton across two kernels
    QCOMPARE(data.gpuTotals[0].runs, 6);
    QCOMPARE(data.gpuTotals[0].implementations, 3);
    QCOMPARE(data.gpuTotals[0].failed, 1);
    QCOMPARE(data.gpuTotals[1].runs, 2);
    QCOMPARE(data.total.implementations, 3);
}

void TestOverviewData::clausesSelectExactlyTheirRuns()
{
    const RunList runs = fixture();
    const OverviewData data = buildOverview(runs);
    QCOMPARE(data.kernelClauses.value(0), QStringLiteral("kernel=cross_entropy"));
    QCOMPARE(data.gpuClauses.value(0), QStringLiteral("gpu=B200"));
    // "H100 80GB HBM3" has spaces: the slug says it in one word
    QCOMPARE(data.gpuClauses.value(1), QStringLiteral("gpu=nvidia-h100-80gb-hbm3"));
    QCOMPARE(data.gpuClauses.value(2), QStringLiteral("gpu=mi300x"));
    for (int k = 0; k < data.kernels.size(); ++k) {
        for (int g = 0; g < data.gpus.size(); ++g) {
            const QString clause = data.cellClause(k, g);
            QVERIFY2(!clause.isEmpty(), qPrintable(data.kernels[k] + " " + data.gpus[g]));
            const RunList hit = matching(runs, clause);
            QCOMPARE(hit.size(), data.cell(k, g).runs);
            for (const RunPtr& r : hit) {
                QCOMPARE(r->kernel, data.kernels[k]);
                QCOMPARE(r->gpuDisplayName(), data.gpus[g]);
            }
        }
        QCOMPARE(matching(runs, data.kernelClauses[k]).size(), data.kernelTotals[k].runs);
    }
    for (int g = 0; g < data.gpus.size(); ++g)
        QCOMPARE(matching(runs, data.gpuClauses[g]).size(), data.gpuTotals[g].runs);
}

void TestOverviewData::ambiguousNamesGetNoClause()
{
    // The filter ignores '_' and '-': layer_norm and layernorm cannot be told apart, so neither row offers a
    // clause that would show the other's runs too. A GPU without a space-free name gets a contains clause only when
    // it is exact.
    RunList runs { run(QStringLiteral("layer_norm"), QStringLiteral("a"), QStringLiteral("NVIDIA B200")),
        run(QStringLiteral("layernorm"), QStringLiteral("a"), QStringLiteral("NVIDIA B200")),
        run(QStringLiteral("softmax"), QStringLiteral("a"), QStringLiteral("Big GPU"), false,
            QStringLiteral("big gpu")),
        run(QStringLiteral("softmax"), QStringLiteral("a"), QStringLiteral("Big GPU Pro"), false,
            QStringLiteral("big gpu pro")) };
    const OverviewData data = buildOverview(runs);
    QCOMPARE(data.kernels.size(), 3);
    for (int k = 0; k < data.kernels.size(); ++k) {
        if (data.kernels[k] == QLatin1String("softmax"))
            QCOMPARE(data.kernelClauses[k], QStringLiteral("kernel=softmax"));
        else
            QVERIFY2(data.kernelClauses[k].isEmpty(), qPrintable(data.kernelClauses[k]));
    }
    const int big = int(data.gpus.indexOf(QStringLiteral("Big GPU")));
    const int pro = int(data.gpus.indexOf(QStringLiteral("Big GPU Pro")));
    QVERIFY(big >= 0 && pro >= 0);
    QCOMPARE(data.gpuClauses[big], QStringLiteral("gpu=GPU")); // the product after its first word
    QCOMPARE(matching(runs, data.gpuClauses[big]).size(), 1);
    QCOMPARE(data.gpuClauses[pro], QStringLiteral("gpu:Pro")); // every name has a space; gpu:GPU matches both
    QCOMPARE(matching(runs, data.gpuClauses[pro]).size(), 1);
}

void TestOverviewData::firstViewRule()
{
    const RunList runs = fixture();
    QVERIFY(overviewIsFirstView(runs)); // 3 kernels
    QVERIFY(!overviewIsFirstView(matching(runs, QStringLiteral("kernel=cross_entropy"))));
    QVERIFY(!overviewIsFirstView(runs.mid(0, 8))); // two kernels, two GPUs: the chart
    RunList gpus;
    for (int i = 0; i < 5; ++i)
        gpus << run(QStringLiteral("k"), QStringLiteral("p"), QStringLiteral("GPU %1").arg(i));
    QVERIFY(overviewIsFirstView(gpus)); // one kernel on five GPUs
    QVERIFY(!overviewIsFirstView(gpus.mid(0, 4)));
    QVERIFY(!overviewIsFirstView({}));
    QVERIFY(buildOverview({}).isEmpty());
}

void TestOverviewData::buildsOnAnyThread()
{
    const RunList runs = fixture();
    OverviewData a;
    OverviewData b;
    std::thread ta([&] { a = buildOverview(runs); });
    std::thread tb([&] { b = buildOverview(runs); });
    ta.join();
    tb.join();
    QCOMPARE(a.kernels, b.kernels);
    QCOMPARE(a.gpuClauses, b.gpuClauses);
    QCOMPARE(a.cell(0, 1).failed, 1);
    QCOMPARE(b.cell(1, 0).implementations, 2);
}

KIX_TEST_GUILESS_MAIN(TestOverviewData)
#include "tst_overviewdata.moc"
