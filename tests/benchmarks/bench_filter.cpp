// SPDX-License-Identifier: Apache-2.0
// Where a filter keystroke's time goes over many runs, phase by phase (CPU time of the process, so that other work
// on a shared machine counts less than in wall time; medians of --repeat): building the filter's index, the per-run
// test through the index and through RunFilter::matches, and the whole row mapping of a keystroke (first key, a key
// typed forward over every row).
//
//   bench_filter [--runs N] [--repeat R] [--variety]
//
// The runs have the shape of the 1M-run GroupNorm corpus (one kernel and GPU, 3 providers x 3 passes, 128
// workloads, unique ids and names, a label), or with --variety that of bench_stall's synthetic runs (300 kernels,
// 6 GPUs, 5 providers).
#include "app/processpolicy.h"
#include "model/filter/filterindex.h"
#include "model/filter/rowmapping.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>

#include <algorithm>
#include <ctime>
#include <functional>

using namespace kix;

namespace {

double cpuMs()
{
    timespec t {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

RunList makeRuns(int count, bool variety)
{
    QStringList kernels = { QStringLiteral("group_norm") };
    if (variety)
        while (kernels.size() < 300)
            kernels << QStringLiteral("kernel_%1").arg(kernels.size(), 3, 10, QLatin1Char('0'));
    const QStringList passes = { QStringLiteral("forward"), QStringLiteral("backward"), QStringLiteral("full") };
    QStringList providers = { QStringLiteral("liger"), QStringLiteral("huggingface"), QStringLiteral("torch") };
    QStringList gpus = { QStringLiteral("NVIDIA B200") };
    if (variety) {
        providers << QStringLiteral("torch_compile") << QStringLiteral("triton");
        gpus << QStringLiteral("NVIDIA H100 80GB HBM3") << QStringLiteral("NVIDIA A100-SXM4-80GB")
             << QStringLiteral("NVIDIA GeForce RTX 4090") << QStringLiteral("AMD Instinct MI300X")
             << QStringLiteral("NVIDIA H100 PCIe");
    }
    QStringList slugs;
    for (const QString& g : gpus)
        slugs << g.toLower().replace(QLatin1Char(' '), QLatin1Char('-'));
    QStringList workloads;
    for (int b = 0; b < 4; ++b)
        for (int c = 0; c < 8; ++c)
            for (int h = 0; h < 4; ++h)
                workloads << QStringLiteral("batch%1-channels%2-channels_per_group4-hidden%3-fp32")
                                 .arg(8 << (2 * b))
                                 .arg(32 << c)
                                 .arg(512 << h);
    QStringList titles;
    for (const QString& v : providers)
        for (const QString& p : passes)
            titles << QStringLiteral("GroupNorm · %1 · %2").arg(v, p);
    const QString passed = QStringLiteral("passed");
    const QString source = QStringLiteral("liger-kernel-bench");
    const QString file = QStringLiteral("/tmp/kl/c1000000.jsonl");
    const QString arch = QStringLiteral("sm_100");
    const QVector<KeyValue> labels = { { QStringLiteral("liger_version"), QStringLiteral("0.7.0") } };
    QStringList benchmarks;
    for (const QString& k : kernels)
        for (const QString& p : passes)
            benchmarks << k + QLatin1Char('/') + p;
    RunList runs;
    runs.reserve(count);
    for (int i = 0; i < count; ++i) {
        const quint32 mix = quint32(i) * 2654435761u;
        const int k = i % int(kernels.size());
        const int p = int(mix >> 4) % 3;
        const int v = int(mix >> 8) % int(providers.size());
        const int g = int(mix >> 12) % int(gpus.size());
        const int w = int(mix >> 16) % int(workloads.size());
        auto run = std::make_shared<Run>();
        run->kernel = kernels[k];
        run->pass = passes[p];
        run->provider = providers[v];
        run->gpuProduct = gpus[g];
        run->gpuSlug = slugs[g];
        run->gpuArchitecture = arch;
        run->dtype = QStringLiteral("fp32");
        run->workloadSlug = workloads[w];
        run->title = titles[(v * 3 + p) % titles.size()];
        run->benchmark = benchmarks[k * 3 + (p + 1) % 3];
        run->externalId = QStringLiteral("%1/%2/%3/%4/%5/2026-02-28-00-%6")
                              .arg(run->kernel, passes[(p + 2) % 3], run->provider, run->gpuSlug, run->workloadSlug)
                              .arg(i);
        run->name = QStringLiteral("liger-%1-backward-%2-%3-%4-%5")
                        .arg(QString(run->kernel).replace(QLatin1Char('_'), QLatin1Char('-')), run->provider,
                            run->gpuSlug, run->workloadSlug)
                        .arg(i);
        run->status = passed;
        run->source = source;
        run->file = file;
        run->labels = labels;
        run->median = 1000 + i % 977;
        runs.append(run);
    }
    return runs;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    kix::applyProcessPolicy();
    QCoreApplication app(argc, argv);
    int count = 1'000'000;
    int repeat = 5;
    bool variety = false;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--variety"))
            variety = true;
        else if (args[i] == QLatin1String("--runs") && i + 1 < args.size())
            count = args[++i].toInt();
        else if (args[i] == QLatin1String("--repeat") && i + 1 < args.size())
            repeat = args[++i].toInt();
    }
    QTextStream out(stdout);
    const RunList runs = makeRuns(count, variety);
    out << runs.size() << " runs" << (variety ? " (variety)" : "") << "; CPU ms, median of " << repeat << "\n";
    auto time = [&](const QString& name, const std::function<qsizetype()>& body) {
        std::vector<double> cpu;
        std::vector<double> wall;
        qsizetype result = 0;
        for (int r = 0; r < repeat; ++r) {
            QElapsedTimer t;
            t.start();
            const double c = cpuMs();
            result = body();
            cpu.push_back(cpuMs() - c);
            wall.push_back(t.nsecsElapsed() / 1e6);
        }
        out << QStringLiteral("%1 %2 cpu %3 wall  (%4)\n")
                   .arg(name, -52)
                   .arg(median(cpu), 8, 'f', 1)
                   .arg(median(wall), 8, 'f', 1)
                   .arg(result);
        out.flush();
    };
    std::shared_ptr<const FilterIndex> index;
    time(QStringLiteral("index: build"), [&] {
        index = FilterIndex::extend(nullptr, runs);
        return index->size();
    });
    for (const QString& text : { QStringLiteral("g"), QStringLiteral("group_norm backward b200"), QStringLiteral("zzz"),
             QStringLiteral("channels=2048 liger") }) {
        RunFilter filter;
        filter.setText(text);
        time(QStringLiteral("test, RunFilter::matches, 1 thread: ") + text, [&] {
            qsizetype n = 0;
            for (const RunPtr& run : runs)
                n += filter.matches(*run) ? 1 : 0;
            return n;
        });
        time(QStringLiteral("test, index, 1 thread: ") + text, [&] {
            const FilterIndex::Matcher matcher(*index, filter);
            qsizetype n = 0;
            for (qsizetype i = 0; i < runs.size(); ++i)
                n += matcher.matches(i, runs) ? 1 : 0;
            return n;
        });
    }
    RowMappingInput in;
    in.runs = runs;
    in.index = index;
    in.filter.setText(QStringLiteral("g"));
    time(QStringLiteral("row mapping: first key \"g\""),
        [&] { return qsizetype(computeRowMapping(in).toSource.size()); });
    const RowMapping before = [&] {
        in.filter.setText(QStringLiteral("group_norm backward b20"));
        return computeRowMapping(in);
    }();
    in.filter.setText(QStringLiteral("group_norm backward b200"));
    in.narrowFrom = std::make_shared<const std::vector<int>>(before.fromSource);
    time(QStringLiteral("row mapping: key typed forward (\"...b20\" -> \"...b200\")"),
        [&] { return qsizetype(computeRowMapping(in).toSource.size()); });
    in.index.reset();
    time(QStringLiteral("row mapping: the same, building its index first"),
        [&] { return qsizetype(computeRowMapping(in).toSource.size()); });
    // Typing "group_norm backward b200" a key at a time, as the proxy computes each keystroke's rows (narrowing
    // from the previous rows while the text grows): the CPU time of each key, then the median and the worst.
    {
        RowMappingInput typing;
        typing.runs = runs;
        typing.index = index;
        const QString text = QStringLiteral("group_norm backward b200");
        std::vector<double> keys;
        QStringList perKey;
        RunFilter shown;
        std::vector<int> fromSource;
        for (int k = 1; k <= text.size(); ++k) {
            typing.filter.setText(text.left(k));
            typing.narrowFrom.reset();
            if (!shown.isEmpty() && filterTextNarrows(shown, typing.filter))
                typing.narrowFrom = std::make_shared<const std::vector<int>>(fromSource);
            const double c = cpuMs();
            RowMapping m = computeRowMapping(typing);
            keys.push_back(cpuMs() - c);
            perKey << QStringLiteral("%1:%2").arg(text[k - 1]).arg(keys.back(), 0, 'f', 0);
            fromSource = std::move(m.fromSource);
            shown = typing.filter;
        }
        out << "typing, CPU ms per key: " << perKey.join(QLatin1Char(' ')) << "\n";
        out << QStringLiteral("typing: median %1, worst %2 CPU ms per key\n")
                   .arg(median(keys), 0, 'f', 1)
                   .arg(*std::max_element(keys.begin(), keys.end()), 0, 'f', 1);
    }
    out.flush();
    std::_Exit(0); // the runs are not freed one by one
}
