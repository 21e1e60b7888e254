// SPDX-License-Identifier: Apache-2.0
// Chart benchmark: prepares each chart kind's data (prepareChart: everything the chart panel does off the GUI
// thread) from the runs of a file and prints the median time of R repetitions per kind, over every run and over
// the runs of one provider. Also times how soon a build stops once cancelled (the chart panel's stale builds).
//   bench_charts [--reps R] [--kinds K,K] [--provider P] [--cancel] [--limit S] FILE...
// FILE: anything the loader reads (a .jsonl bundle, a folder). Kinds: quantiles, sweep, speedup, history, rank,
// overview (default: all). --provider: also time the runs of that provider (default liger; "" = skip). --limit S:
// a build not done after S seconds is reported and the benchmark ends there (it cannot be stopped).
#include "model/read/runloader.h"
#include "ui/charts/chartfactory.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <vector>

using namespace kix;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

int limitS = 0; // --limit: a build still running after this many seconds ends the benchmark

void timeKinds(const char* scope, const RunList& runs, const QList<ChartKind>& kinds, int reps, bool cancel)
{
    for (ChartKind kind : kinds) {
        std::vector<double> ms;
        PreparedChart kept;
        for (int r = 0; r < reps; ++r) {
            QElapsedTimer t;
            t.start();
            PreparedChart p;
            QThread* worker = QThread::create([&] { p = prepareChart(kind, runs, ChartOptions {}); });
            worker->start();
            if (!worker->wait(limitS > 0 ? QDeadlineTimer(limitS * 1000) : QDeadlineTimer(QDeadlineTimer::Forever))) {
                std::printf("%-10s %-9s %8lld runs  > %d s: not finished, benchmark ends\n", scope,
                    qPrintable(chartKindName(kind)), static_cast<long long>(runs.size()), limitS);
                std::fflush(stdout);
                std::_Exit(0);
            }
            ms.push_back(t.nsecsElapsed() / 1e6);
            delete worker;
            if (r == 0)
                kept = std::move(p); // freed after the timings (freeing is not the build's time)
        }
        std::printf("%-10s %-9s %8lld runs  %10.1f ms (median of %d)  %s\n", scope, qPrintable(chartKindName(kind)),
            static_cast<long long>(runs.size()), median(ms), reps, qPrintable(kept.info.title.left(60)));
        std::fflush(stdout);
        if (!cancel)
            continue;
        // Cancelled 50 ms in: how long until prepareChart returns.
        std::atomic<bool> flag { false };
        QElapsedTimer t;
        double stopped = -1;
        QThread* worker = QThread::create([&] {
            ChartOptions o;
            o.cancel = &flag;
            static_cast<void>(prepareChart(kind, runs, o));
        });
        worker->start();
        QThread::msleep(50);
        t.start();
        flag = true;
        worker->wait();
        stopped = t.nsecsElapsed() / 1e6;
        delete worker;
        std::printf("%-10s %-9s cancelled after 50 ms: returned %.1f ms later\n", scope,
            qPrintable(chartKindName(kind)), stopped);
        std::fflush(stdout);
    }
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    int reps = 3;
    bool cancel = false;
    QString provider = QStringLiteral("liger");
    QList<ChartKind> kinds = { ChartKind::Quantiles, ChartKind::Sweep, ChartKind::Speedup, ChartKind::History,
        ChartKind::Rank, ChartKind::Overview };
    QStringList paths;
    for (int i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--reps") && i + 1 < args.size())
            reps = std::max(1, args[++i].toInt());
        else if (args[i] == QLatin1String("--provider") && i + 1 < args.size())
            provider = args[++i];
        else if (args[i] == QLatin1String("--limit") && i + 1 < args.size())
            limitS = args[++i].toInt();
        else if (args[i] == QLatin1String("--cancel"))
            cancel = true;
        else if (args[i] == QLatin1String("--kinds") && i + 1 < args.size()) {
            kinds.clear();
            for (const QString& name : args[++i].split(QLatin1Char(','))) {
                if (name == QLatin1String("overview"))
                    kinds << ChartKind::Overview;
                else if (auto k = chartKindFromName(name))
                    kinds << *k;
            }
        } else
            paths << args[i];
    }
    if (paths.isEmpty()) {
        std::fprintf(
            stderr, "usage: bench_charts [--reps R] [--kinds K,K] [--provider P] [--cancel] [--limit S] FILE...\n");
        return 2;
    }
    QElapsedTimer t;
    t.start();
    LoadResult loaded = loadPaths(paths);
    std::printf("loaded %lld runs in %.0f ms\n", static_cast<long long>(loaded.runs.size()), t.nsecsElapsed() / 1e6);
    t.restart();
    const ChartKind first = firstViewKind(loaded.runs);
    std::printf("firstViewKind %s: %.1f ms\n", qPrintable(chartKindName(first)), t.nsecsElapsed() / 1e6);
    timeKinds("all", loaded.runs, kinds, reps, cancel);
    if (!provider.isEmpty()) {
        RunList some;
        for (const RunPtr& run : std::as_const(loaded.runs)) {
            if (run->provider == provider)
                some << run;
        }
        timeKinds(qPrintable(provider), some, kinds, reps, cancel);
    }
    std::fflush(stdout);
    std::_Exit(0); // the runs are not freed one by one
}
