// SPDX-License-Identifier: Apache-2.0
// Explorer benchmarks on synthetic runs held in memory (10k and 100k): the response to a keystroke in the filter
// box and to a facet click (proxy refilter + facet recount, as the window does them), loading runs into the table,
// and building each chart from every run in scope (data preparation + Qt Charts objects; and with a first render).
//
//   bench_explorer --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include "app/processpolicy.h"
#include "model/filter/runfilterproxy.h"
#include "model/filter/runtablemodel.h"
#include "ui/charts/chartexporter.h"
#include "ui/charts/chartfactory.h"
#include "ui/mainwindow.h"
#include "ui/models/facetmodel.h"
#include "ui/panels/facetspanel.h"
#include "ui/runsession.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QLineEdit>

#include <benchmark/benchmark.h>

#include <map>

using namespace kix;

namespace {

// Synthetic runs shaped like the Liger data: kernels x passes x providers x GPUs x dtypes x a sweep of channels
// and batch; medians grow with the workload, p20/p80 at +-1..3%.
const RunList& syntheticRuns(int count)
{
    static std::map<int, RunList> cache;
    RunList& runs = cache[count];
    if (!runs.isEmpty())
        return runs;
    const QStringList kernels = { QStringLiteral("group_norm"), QStringLiteral("rms_norm"),
        QStringLiteral("layer_norm"), QStringLiteral("cross_entropy"), QStringLiteral("swiglu"),
        QStringLiteral("geglu"), QStringLiteral("rope"), QStringLiteral("softmax"), QStringLiteral("jsd"),
        QStringLiteral("kl_div"), QStringLiteral("embedding"), QStringLiteral("tvd"),
        QStringLiteral("fused_linear_cross_entropy"), QStringLiteral("sparsemax"), QStringLiteral("fused_moe"),
        QStringLiteral("dyt"), QStringLiteral("qwen2vl_mrope"), QStringLiteral("multi_token_attention"),
        QStringLiteral("fused_add_rms_norm"), QStringLiteral("llama4_rope") };
    const QStringList passes = { QStringLiteral("forward"), QStringLiteral("backward"), QStringLiteral("full") };
    const QStringList providers = { QStringLiteral("liger"), QStringLiteral("huggingface"), QStringLiteral("torch"),
        QStringLiteral("torch_compile") };
    const QStringList gpus = { QStringLiteral("NVIDIA B200"), QStringLiteral("NVIDIA H100 80GB HBM3"),
        QStringLiteral("NVIDIA A100-SXM4-80GB"), QStringLiteral("NVIDIA GeForce RTX 4090"),
        QStringLiteral("NVIDIA GeForce RTX 3090"), QStringLiteral("NVIDIA H100 PCIe") };
    const QStringList dtypes = { QStringLiteral("fp32"), QStringLiteral("bf16") };
    runs.reserve(count);
    int i = 0;
    for (int batch : { 8, 32, 128, 512 }) {
        for (int channels = 32; channels <= 4096; channels *= 2) {
            for (const QString& kernel : kernels) {
                for (const QString& pass : passes) {
                    for (const QString& provider : providers) {
                        for (const QString& gpu : gpus) {
                            for (const QString& dtype : dtypes) {
                                if (i++ >= count)
                                    return runs;
                                auto run = std::make_shared<Run>();
                                run->kernel = kernel;
                                run->pass = pass;
                                run->provider = provider;
                                run->gpuProduct = gpu;
                                run->gpuSlug = gpu.toLower().replace(QLatin1Char(' '), QLatin1Char('-'));
                                run->dtype = dtype;
                                run->workload = { { QStringLiteral("batch"), QString::number(batch), double(batch) },
                                    { QStringLiteral("channels"), QString::number(channels), double(channels) } };
                                run->workloadSlug
                                    = QStringLiteral("batch%1-channels%2-%3").arg(batch).arg(channels).arg(dtype);
                                run->externalId = QStringLiteral("%1/%2/%3/%4/%5/2026-01-01-00-00-00")
                                                      .arg(kernel, pass, provider, run->gpuSlug, run->workloadSlug);
                                run->name = run->externalId.left(100);
                                run->status = QStringLiteral("passed");
                                run->source = QStringLiteral("liger-kernel-bench");
                                run->protocolFamily = QStringLiteral("liger_kernel_bench");
                                run->median = 1000.0
                                    + batch * channels * (provider == QLatin1String("liger") ? 0.5 : 1.0)
                                        * (1 + (i % 7) * 0.1);
                                const double spread = 0.01 + (i % 3) * 0.01;
                                run->p20 = run->median * (1 - spread);
                                run->p80 = run->median * (1 + spread);
                                run->workloadDigest = QStringLiteral("sha256:w") + run->workloadSlug;
                                run->raw = std::string(300, ' ');
                                run->finalize();
                                runs.append(run);
                            }
                        }
                    }
                }
            }
        }
    }
    return runs;
}

// One keystroke in the filter box of a window holding `count` runs: alternately adding and removing the last
// character of "group_norm backward b200" (the proxy refilters; facet counts and charts wait for typing to pause).
void BM_FilterKeystroke(benchmark::State& state)
{
    MainWindow w;
    w.addRuns(syntheticRuns(int(state.range(0))));
    w.searchBox()->setText(QStringLiteral("group_norm backward b20"));
    QCoreApplication::sendPostedEvents();
    bool longer = true;
    for (auto _ : state) {
        w.searchBox()->setText(
            longer ? QStringLiteral("group_norm backward b200") : QStringLiteral("group_norm backward b20"));
        QCoreApplication::sendPostedEvents();
        longer = !longer;
    }
    state.counters["shown"] = w.session()->proxy()->rowCount();
}

// Typing "group_norm backward b200" from an empty box, one character at a time, then clearing it: 25 keystrokes
// per iteration (counters: the slowest keystroke and the clearing, in ms). The facet recount that follows once
// typing pauses is BM_FacetCountKeystroke.
void BM_TypeSearch(benchmark::State& state)
{
    MainWindow w;
    w.addRuns(syntheticRuns(int(state.range(0))));
    const QString text = QStringLiteral("group_norm backward b200");
    double slowest = 0;
    double clearing = 0;
    for (auto _ : state) {
        for (int i = 1; i <= text.size(); ++i) {
            QElapsedTimer timer;
            timer.start();
            w.searchBox()->setText(text.left(i));
            QCoreApplication::sendPostedEvents();
            slowest = std::max(slowest, timer.nsecsElapsed() / 1e6);
        }
        QElapsedTimer timer;
        timer.start();
        w.searchBox()->clear();
        QCoreApplication::sendPostedEvents();
        clearing = std::max(clearing, timer.nsecsElapsed() / 1e6);
    }
    state.counters["slowest_ms"] = slowest;
    state.counters["clear_ms"] = clearing;
}

// The first keystroke: from every run shown to "g" and back (the widest change a keystroke makes).
void BM_FirstKeystroke(benchmark::State& state)
{
    MainWindow w;
    w.addRuns(syntheticRuns(int(state.range(0))));
    bool typed = false;
    for (auto _ : state) {
        w.searchBox()->setText(typed ? QString() : QStringLiteral("g"));
        QCoreApplication::sendPostedEvents();
        typed = !typed;
    }
}

// A click on a facet value (provider = liger), on and off.
void BM_FacetClick(benchmark::State& state)
{
    MainWindow w;
    w.addRuns(syntheticRuns(int(state.range(0))));
    FacetModel* facets = w.facetsPanel()->model();
    const QModelIndex liger = facets->valueIndex(Facet::Provider, QStringLiteral("liger"));
    for (auto _ : state) {
        facets->toggle(liger);
        QCoreApplication::sendPostedEvents();
    }
}

// The same two steps without any view: what the proxy alone and the facet counting alone cost.
void BM_ProxyOnlyKeystroke(benchmark::State& state)
{
    RunTableModel model;
    RunFilterProxy proxy;
    proxy.setSourceModel(&model);
    model.setRuns(syntheticRuns(int(state.range(0))));
    proxy.rowCount(); // builds the proxy's mapping, as a view would
    bool longer = true;
    for (auto _ : state) {
        proxy.setFilterText(
            longer ? QStringLiteral("group_norm backward b200") : QStringLiteral("group_norm backward b20"));
        benchmark::DoNotOptimize(proxy.rowCount());
        longer = !longer;
    }
}

void BM_ProxyOnlyFacetClick(benchmark::State& state)
{
    RunTableModel model;
    RunFilterProxy proxy;
    proxy.setSourceModel(&model);
    model.setRuns(syntheticRuns(int(state.range(0))));
    proxy.rowCount();
    bool on = true;
    for (auto _ : state) {
        proxy.setFacet(Facet::Provider, on ? QSet<QString> { QStringLiteral("liger") } : QSet<QString> {});
        benchmark::DoNotOptimize(proxy.rowCount());
        on = !on;
    }
}

void BM_FacetCountKeystroke(benchmark::State& state)
{
    FacetModel facets;
    facets.setRuns(syntheticRuns(int(state.range(0))));
    bool longer = true;
    for (auto _ : state) {
        facets.setFilterText(
            longer ? QStringLiteral("group_norm backward b200") : QStringLiteral("group_norm backward b20"));
        longer = !longer;
    }
}

// Runs arriving from a load: appended to the table, facets recomputed.
void BM_TableLoad(benchmark::State& state)
{
    const RunList& runs = syntheticRuns(int(state.range(0)));
    for (auto _ : state) {
        state.PauseTiming();
        auto w = std::make_unique<MainWindow>();
        state.ResumeTiming();
        w->addRuns(runs);
        QCoreApplication::sendPostedEvents();
        state.PauseTiming();
        w.reset();
        state.ResumeTiming();
    }
}

// A chart of every run in scope: data preparation and the Qt Charts objects.
void BM_ChartBuild(benchmark::State& state)
{
    const RunList& runs = syntheticRuns(int(state.range(1)));
    const auto kind = static_cast<ChartKind>(state.range(0));
    for (auto _ : state) {
        std::unique_ptr<QChart> chart = buildChart(kind, runs, {});
        benchmark::DoNotOptimize(chart.get());
    }
    state.SetLabel(chartKindName(kind).toStdString());
}

// The same, laid out and drawn once at 1200x800 (what the user waits for before the chart appears).
void BM_ChartBuildAndRender(benchmark::State& state)
{
    const RunList& runs = syntheticRuns(int(state.range(1)));
    const auto kind = static_cast<ChartKind>(state.range(0));
    for (auto _ : state) {
        const QImage image = ChartExporter::renderImage(buildChart(kind, runs, {}), QSize(1200, 800));
        benchmark::DoNotOptimize(image.constBits());
    }
    state.SetLabel(chartKindName(kind).toStdString());
}

void sizes(benchmark::internal::Benchmark* b)
{
    b->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond)->MinTime(0.5);
}

void chartSizes(benchmark::internal::Benchmark* b)
{
    for (int kind : { int(ChartKind::Quantiles), int(ChartKind::Sweep), int(ChartKind::Speedup) })
        for (int n : { 10'000, 100'000 })
            b->Args({ kind, n });
    b->Unit(benchmark::kMillisecond)->MinTime(0.5);
}

} // namespace

// The filter grammar's matching alone (no proxy), against the plain substring test of every lower-case word that
// the filter did before the grammar (the baseline, measured in the same run): words with '_' take the folded path
// for runs that lack them.
void BM_FilterMatch(benchmark::State& state)
{
    const RunList& runs = syntheticRuns(int(state.range(0)));
    const QString text = state.range(1) == 0 ? QStringLiteral("group_norm backward b200")
                                             : QStringLiteral("groupnorm backward gpu:b200 channels>=1024");
    RunFilter filter;
    filter.setText(text);
    for (auto _ : state)
        benchmark::DoNotOptimize(filter.apply(runs).size());
    state.SetLabel(text.toStdString());
}

void BM_FilterMatchPlainBaseline(benchmark::State& state)
{
    const RunList& runs = syntheticRuns(int(state.range(0)));
    QList<QByteArray> terms;
    for (const QString& t : QStringLiteral("group_norm backward b200").split(QLatin1Char(' ')))
        terms << t.toUtf8();
    QList<QByteArray> texts; // each run's search text, as runs kept it before they made it on demand
    for (const RunPtr& run : runs)
        texts << run->searchText();
    for (auto _ : state) {
        int n = 0;
        for (const QByteArray& text : texts) {
            bool all = true;
            for (const QByteArray& t : terms)
                all = all && text.contains(t);
            n += all;
        }
        benchmark::DoNotOptimize(n);
    }
}

BENCHMARK(BM_FilterMatch)->Args({ 100'000, 0 })->Args({ 100'000, 1 })->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FilterMatchPlainBaseline)->Arg(100'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FilterKeystroke)->Apply(sizes);
BENCHMARK(BM_FirstKeystroke)->Apply(sizes);
BENCHMARK(BM_TypeSearch)->Apply(sizes);
BENCHMARK(BM_FacetClick)->Apply(sizes);
BENCHMARK(BM_ProxyOnlyKeystroke)->Apply(sizes);
BENCHMARK(BM_ProxyOnlyFacetClick)->Apply(sizes);
BENCHMARK(BM_FacetCountKeystroke)->Apply(sizes);
BENCHMARK(BM_TableLoad)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_ChartBuild)->Apply(chartSizes);
BENCHMARK(BM_ChartBuildAndRender)->Apply(chartSizes);

int main(int argc, char** argv)
{
    kix::applyProcessPolicy();
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("kix-bench")); // keeps the user's settings untouched
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
