// SPDX-License-Identifier: Apache-2.0
// Chart benchmark: prepares each chart kind's data (prepareChart: everything the chart panel does off the GUI
// thread) from the runs of a file and prints the median time of R repetitions per kind, over every run and over
// the runs of one provider. Also times how soon a build stops once cancelled (the chart panel's stale builds).
//   bench_charts [--reps R] [--kinds K,K] [--provider P] [--cancel] [--draw] [--limit S] [--dump OUT] FILE...
// FILE: anything the loader reads (a .jsonl bundle, a folder). Kinds: quantiles, sweep, speedup, history, rank,
// overview (default: all). --provider: also time the runs of that provider (default liger; "" = skip). --limit S:
// a build not done after S seconds is reported and the benchmark ends there (it cannot be stopped). --draw: also
// times what the GUI thread does with a prepared chart: drawChart (the QChart made) and its first layout and paint
// in a 1200x700 antialiased QChartView (offscreen: QT_QPA_PLATFORM=offscreen).
#include "app/processpolicy.h"
#include "model/jobs/jobtracker.h"
#include "model/read/runloader.h"
#include "ui/charts/chartfactory.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QElapsedTimer>
#include <QFile>
#include <QTextStream>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <memory>
#include <vector>

using namespace kix;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

bool drawToo = false; // --draw
int limitS = 0; // --limit: a build still running after this many seconds ends the benchmark
QFile* dumpFile = nullptr; // --dump: every kind's prepared data as text, to compare two builds of kix

// CPU time of the calling thread: the machine is shared, wall time says little.
double threadCpuMs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

QString n17(double x)
{
    return QString::number(x, 'g', 17);
}

// What a prepared chart holds, one line per item (runs by externalId).
void dump(const char* scope, ChartKind kind, const PreparedChart& p)
{
    QStringList out;
    out << QStringLiteral("== %1 %2").arg(QLatin1String(scope), chartKindName(kind));
    const ChartInfo& i = p.info;
    out << i.title << i.notes.join(QLatin1Char('|')) << i.warnings.join(QLatin1Char('|'))
        << i.providers.join(QLatin1Char('|')) << i.xCandidates.join(QLatin1Char('|')) << i.focusKernel
        << i.kernels.join(QLatin1Char('|')) << QString::number(p.scope.runs.size()) << p.scope.note
        << p.defaultBaseline.describe();
    switch (kind) {
    case ChartKind::Quantiles:
        out << p.quantiles.groups.join(QLatin1Char('|')) << p.quantiles.series.join(QLatin1Char('|'));
        for (const QuantileBox& b : p.quantiles.boxes)
            out << QStringLiteral("%1 %2 %3 %4").arg(b.group).arg(b.series).arg(b.run->externalId, n17(b.p20));
        break;
    case ChartKind::Sweep:
        for (const SweepSeries& s : p.sweep.series) {
            out << s.label;
            for (const SweepPoint& pt : s.points)
                out << n17(pt.x) + QLatin1Char(' ') + pt.run->externalId;
        }
        break;
    case ChartKind::Speedup: {
        const SpeedupData& d = p.speedup;
        out << d.categories.join(QLatin1Char('|')) << d.axisLabels.join(QLatin1Char('|'))
            << d.subtitles.join(QLatin1Char('|')) << d.pairWarnings.join(QLatin1Char('|')) << d.chartTitle
            << p.pairWorkloadKeys.join(QLatin1Char('|'));
        for (const SpeedupSet& s : d.sets)
            out << s.label;
        for (const SpeedupBar& b : d.bars)
            out << QStringLiteral("%1 %2 %3 %4").arg(b.set).arg(b.category).arg(b.pair).arg(n17(b.ratio));
        for (const ComparisonPair& c : d.comparison.pairs)
            out << QStringLiteral("%1 %2 %3 %4 %5 [%6] [%7] %8")
                       .arg(c.baseline->externalId, c.run->externalId, n17(c.ratio))
                       .arg(int(c.verdict))
                       .arg(int(c.method))
                       .arg(c.warnings.join(QLatin1Char('|')), c.notes.join(QLatin1Char('|')), c.reason);
        break;
    }
    case ChartKind::History:
        for (const HistorySeries& s : p.history.history.series) {
            out << s.key.id() + QLatin1Char(' ') + s.title;
            for (const HistoryPoint& pt : s.points)
                out << pt.run->externalId + QLatin1Char(' ') + pt.label;
        }
        for (const HistoryChange& c : p.history.history.changes)
            out << QStringLiteral("%1 %2 %3").arg(c.series).arg(c.change.index).arg(c.change.evidence);
        for (const HistoryLineData& l : p.history.lines) {
            QStringList xs;
            for (int k = 0; k < l.x.size(); ++k)
                xs << n17(l.x[k]) + QLatin1Char(':') + n17(l.median[k]);
            out << QStringLiteral("line %1 %2 %3").arg(l.series).arg(l.name, xs.join(QLatin1Char(',')));
        }
        break;
    case ChartKind::Rank:
        out << QString::number(p.rankCohort) << i.cohorts.join(QLatin1Char('|'));
        for (const RankCohort& c : p.ranking.cohorts) {
            out << c.key.id();
            for (const RankEntry& e : c.entries) {
                QStringList runs;
                for (const RunPtr& r : e.runs)
                    runs << r->externalId;
                out << QStringLiteral("%1 %2 %3 %4 %5")
                           .arg(e.implementation)
                           .arg(e.rank)
                           .arg(n17(e.median), e.evidence, runs.join(QLatin1Char(',')));
            }
            out << QStringLiteral("failed %1 unranked %2").arg(c.failed.size()).arg(c.unranked.size());
        }
        break;
    case ChartKind::Records:
        for (const RecordTimeline& t : p.records.timelines)
            out << QStringLiteral("%1 %2").arg(t.key.id()).arg(t.steps.size());
        break;
    case ChartKind::Compare:
        break;
    case ChartKind::Overview:
        out << p.overview.kernels.join(QLatin1Char('|')) << p.overview.gpus.join(QLatin1Char('|'))
            << p.overview.kernelClauses.join(QLatin1Char('|')) << p.overview.gpuClauses.join(QLatin1Char('|'));
        for (const OverviewCell& c : p.overview.cells)
            out << QStringLiteral("%1/%2/%3").arg(c.runs).arg(c.implementations).arg(c.failed);
        break;
    }
    dumpFile->write(out.join(QLatin1Char('\n')).toUtf8() + '\n');
}

void timeKinds(const char* scope, const RunList& runs, const QList<ChartKind>& kinds, int reps, bool cancel)
{
    for (ChartKind kind : kinds) {
        std::vector<double> ms, cpu;
        PreparedChart kept;
        for (int r = 0; r < reps; ++r) {
            QElapsedTimer t;
            t.start();
            PreparedChart p;
            double threadMs = 0;
            QThread* worker = QThread::create([&] {
                const double before = threadCpuMs();
                p = prepareChart(kind, runs, ChartOptions {});
                threadMs = threadCpuMs() - before;
            });
            worker->start();
            if (!worker->wait(limitS > 0 ? QDeadlineTimer(limitS * 1000) : QDeadlineTimer(QDeadlineTimer::Forever))) {
                std::printf("%-10s %-9s %8lld runs  > %d s: not finished, benchmark ends\n", scope,
                    qPrintable(chartKindName(kind)), static_cast<long long>(runs.size()), limitS);
                std::fflush(stdout);
                std::_Exit(0);
            }
            ms.push_back(t.nsecsElapsed() / 1e6);
            cpu.push_back(threadMs);
            delete worker;
            if (r == 0 && dumpFile)
                dump(scope, kind, p);
            if (r == 0)
                kept = std::move(p); // freed after the timings (freeing is not the build's time)
        }
        std::printf("%-10s %-9s %8lld runs  %10.1f ms wall %10.1f ms CPU (medians of %d)  %s\n", scope,
            qPrintable(chartKindName(kind)), static_cast<long long>(runs.size()), median(ms), median(cpu), reps,
            qPrintable(kept.info.title.left(40)));
        std::fflush(stdout);
        if (drawToo) {
            std::vector<double> make, show;
            for (int r = 0; r < reps; ++r) {
                PreparedChart copy = kept;
                QElapsedTimer d;
                d.start();
                std::unique_ptr<QChart> chart = drawChart(std::move(copy), ChartOptions {});
                make.push_back(d.nsecsElapsed() / 1e6);
                QChartView view;
                view.setRenderHint(QPainter::Antialiasing);
                view.resize(1200, 700);
                d.restart();
                view.setChart(chart.release()); // the view's scene owns it
                QCoreApplication::sendPostedEvents(); // its layout
                static_cast<void>(view.grab()); // its paint
                show.push_back(d.nsecsElapsed() / 1e6);
            }
            std::printf("%-10s %-9s drawChart %.1f ms, layout and first paint %.1f ms (medians of %d)\n", scope,
                qPrintable(chartKindName(kind)), median(make), median(show), reps);
            std::fflush(stdout);
        }
        if (!cancel)
            continue;
        // Cancelled 50 ms in: how long until prepareChart returns.
        QObject owner;
        JobTracker tracker(&owner);
        const CancelToken token = tracker.start();
        QElapsedTimer t;
        double stopped = -1;
        QThread* worker = QThread::create([&] { static_cast<void>(prepareChart(kind, runs, ChartOptions {}, token)); });
        worker->start();
        QThread::msleep(50);
        t.start();
        tracker.cancel();
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
    kix::applyProcessPolicy();
    for (int i = 1; i < argc; ++i)
        drawToo = drawToo || std::strcmp(argv[i], "--draw") == 0;
    std::unique_ptr<QCoreApplication> app
        = drawToo ? std::make_unique<QApplication>(argc, argv) : std::make_unique<QCoreApplication>(argc, argv);
    QStringList args = QCoreApplication::arguments().mid(1);
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
        else if (args[i] == QLatin1String("--dump") && i + 1 < args.size()) {
            dumpFile = new QFile(args[++i]);
            if (!dumpFile->open(QIODevice::WriteOnly))
                return 2;
        } else if (args[i] == QLatin1String("--cancel"))
            cancel = true;
        else if (args[i] == QLatin1String("--draw"))
            continue; // read above
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
        std::fprintf(stderr,
            "usage: bench_charts [--reps R] [--kinds K,K] [--provider P] [--cancel] [--draw] [--limit S] "
            "[--dump OUT] FILE...\n");
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
    if (dumpFile)
        dumpFile->close();
    std::fflush(stdout);
    std::_Exit(0); // the runs are not freed one by one
}
