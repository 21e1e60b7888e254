// SPDX-License-Identifier: Apache-2.0
// Stall probe: drives the real MainWindow (offscreen) holding N synthetic runs and measures how long the GUI thread
// is blocked. A 5 ms heartbeat timer on the GUI thread records the longest gap between its ticks, attributed to
// the action being driven; each action's latency (input -> table/charts updated) is timed too. Actions: loading
// (a .jsonl through the real loader with --jsonl, and N runs added in memory), every chart kind over every run,
// typing a filter one key at a time (QTest::keyClick on the filter box), a facet click, every chart kind again
// (Ctrl+1..6, the Overview's table included), selecting runs, clearing the filter, sorting the table; with the
// speed-up among the kinds, last, its pairs sorted by a header click and a key typed while they are sorted.
//
//   QT_QPA_PLATFORM=offscreen bench_stall [--runs N] [--jsonl FILE] [--timeout S] [--no-charts] [--kinds K,K]
//           [--no-typing]
//
// N defaults to 1,000,000 (0: only the --jsonl file). --timeout bounds each wait (default 120 s). --kinds names the
// chart kinds switched to (chartKindName: "speedup,history"; default every kind); --no-typing skips typing the
// filter (a quicker run that still clicks a facet).
//
// bench_stall_probe.cpp holds the synthetic runs and the actions; this file the command line, the event timing and
// the report.
#include "app/processpolicy.h"
#include "model/filter/runfilterproxy.h"
#include "model/filter/runtablemodel.h"
#include "ui/mainwindow.h"
#include "ui/panels/chartpanel.h"
#include "ui/panels/facetspanel.h"
#include "ui/runsession.h"

#include "tests/benchmarks/bench_stall_probe.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTest>
#include <QTextStream>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <utility>

using namespace kix;
using namespace stallprobe;

namespace {

// Every event that keeps the GUI thread longer than 40 ms (KIX_STALL_EVENT_MS: another bound), with its receiver:
// what a stall was doing.
class TimedApplication : public QApplication
{
public:
    using QApplication::QApplication;
    QStringList slow;
    QStringList nested; // the events inside the current outermost one that took 2 ms or more
    QString* action = nullptr;
    int depth = 0;
    bool notify(QObject* receiver, QEvent* event) override
    {
        if (depth > 0) {
            // An event inside a slow one is listed under it when it took 2 ms or more (what the slow one did).
            QElapsedTimer inner;
            inner.start();
            const int type = event->type();
            const char* name = receiver->metaObject()->className();
            ++depth;
            const bool r = QApplication::notify(receiver, event);
            --depth;
            if (inner.nsecsElapsed() >= 2'000'000)
                nested << QStringLiteral("    %1%2 ms: event %3 to %4")
                              .arg(QString(2 * (depth - 1), QLatin1Char(' ')))
                              .arg(inner.nsecsElapsed() / 1e6, 0, 'f', 1)
                              .arg(type)
                              .arg(QLatin1String(name));
            return r;
        }
        nested.clear();
        ++depth;
        QElapsedTimer t;
        t.start();
        timespec cpu0 {};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu0);
        const int type = event->type();
        // The receiver may be gone after the event (a deferred delete). A timer is named by its owner too.
        QString name
            = QString::fromLatin1(receiver->metaObject()->className()) + QLatin1Char(' ') + receiver->objectName();
        if (receiver->parent())
            name += QStringLiteral(" (of %1 %2)")
                        .arg(QString::fromLatin1(receiver->parent()->metaObject()->className()),
                            receiver->parent()->objectName());
        const bool r = QApplication::notify(receiver, event);
        const double ms = t.nsecsElapsed() / 1e6;
        timespec cpu1 {};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu1);
        const double cpuMs = (cpu1.tv_sec - cpu0.tv_sec) * 1e3 + (cpu1.tv_nsec - cpu0.tv_nsec) / 1e6;
        --depth;
        static const double bound = qEnvironmentVariableIsSet("KIX_STALL_EVENT_MS")
            ? qEnvironmentVariable("KIX_STALL_EVENT_MS").toDouble()
            : 40.0;
        if (ms > bound && action)
            slow << QStringLiteral("%1 ms (GUI thread CPU %2 ms)  %3: event %4 to %5")
                        .arg(ms, 0, 'f', 0)
                        .arg(cpuMs, 0, 'f', 0)
                        .arg(*action)
                        .arg(type)
                        .arg(name);
        if (ms > bound && action) {
            std::reverse(nested.begin(), nested.end()); // an event ends after the ones inside it: outer first
            slow << nested;
        }
        return r;
    }
};

void quietHandler(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (message.contains(QLatin1String("propagateSizeHints"))) // the offscreen platform says so for every dock
        return;
    qt_message_output(type, context, message);
}

// The process's resident memory now and at its peak, in MB, from /proc/self/status (Linux); -1 elsewhere.
std::pair<double, double> residentMb()
{
    QFile status(QStringLiteral("/proc/self/status"));
    double now = -1, peak = -1;
    if (!status.open(QIODevice::ReadOnly))
        return { now, peak };
    for (const QByteArray& line : status.readAll().split('\n')) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (f.size() >= 2 && (f[0] == "VmRSS:" || f[0] == "VmHWM:"))
            (f[0] == "VmRSS:" ? now : peak) = f[1].toDouble() / 1024.0; // kB
    }
    return { now, peak };
}

// The command line (the usage above).
struct Options
{
    int count = 1'000'000;
    QString jsonl;
    int timeoutMs = 120'000;
    bool switchCharts = true;
    bool typeFilter = true;
    QStringList kinds;
};

Options parseOptions(const QStringList& args)
{
    Options o;
    for (int k = 0; k <= int(ChartKind::Overview); ++k)
        o.kinds << chartKindName(ChartKind(k));
    for (int i = 1; i < args.size(); i += 2) {
        if (args[i] == QLatin1String("--no-charts")) { // skips switching chart kinds (a quicker run)
            o.switchCharts = false;
            --i;
        } else if (args[i] == QLatin1String("--no-typing")) {
            o.typeFilter = false;
            --i;
        } else if (i + 1 >= args.size()) {
            break;
        } else if (args[i] == QLatin1String("--runs"))
            o.count = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--jsonl"))
            o.jsonl = args[i + 1];
        else if (args[i] == QLatin1String("--kinds"))
            o.kinds = args[i + 1].split(QLatin1Char(','));
        else if (args[i] == QLatin1String("--timeout"))
            o.timeoutMs = args[i + 1].toInt() * 1000;
    }
    return o;
}

// The latencies, the worst heartbeat gap per action, the slow events, the memory and the worst stall.
void report(QTextStream& out, const std::vector<Latency>& latencies, Heartbeat& beat, const TimedApplication& app,
    int all, const QElapsedTimer& total)
{
    out << "\nlatency (ms)                               n   median      max\n";
    for (const Latency& l : latencies)
        out << QStringLiteral("%1 %2 %3 %4\n")
                   .arg(l.action, -40)
                   .arg(l.ms.size(), 3)
                   .arg(median(l.ms), 8, 'f', 1)
                   .arg(*std::max_element(l.ms.begin(), l.ms.end()), 8, 'f', 1);
    out << "\nworst heartbeat gap per action (ms)\n";
    for (const QString& a : std::as_const(beat.order))
        out << QStringLiteral("%1 %2\n").arg(a, -40).arg(beat.worst[a], 8, 'f', 1);
    out << "\nevents over " << qEnvironmentVariable("KIX_STALL_EVENT_MS", QStringLiteral("40"))
        << " ms on the GUI thread (outermost; indented under each, the events inside it of 2 ms or more)\n";
    for (const QString& line : std::as_const(app.slow))
        out << "  " << line << "\n";
    const auto [endRss, endPeak] = residentMb();
    out << "\nresident " << qRound(endRss) << " MB at the end, peak " << qRound(endPeak) << " MB\n";
    out << QStringLiteral("\nWORST STALL %1 ms during \"%2\" (%3 runs; total %4 s)\n")
               .arg(beat.worstGap, 0, 'f', 1)
               .arg(beat.worstAction)
               .arg(all)
               .arg(total.elapsed() / 1000.0, 0, 'f', 1);
    out.flush();
}

} // namespace

int main(int argc, char** argv)
{
    kix::applyProcessPolicy();
    qInstallMessageHandler(quietHandler);
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    TimedApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("kix-bench")); // keeps the user's settings untouched
    const Options options = parseOptions(app.arguments());
    QTextStream out(stdout);
    QElapsedTimer total;
    total.start();
    const RunList runs = options.count > 0 ? makeRuns(options.count) : RunList();
    out << "made " << runs.size() << " runs in " << total.elapsed() << " ms\n";
    out.flush();

    MainWindow w;
    w.resize(1500, 950);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return 1;
    w.activateWindow();
    if (!QTest::qWaitForWindowActive(&w, 1000))
        std::fprintf(stderr, "the window is not active: shortcuts go through the actions\n");
    RunFilterProxy* proxy = w.session()->proxy();
    ChartPanel* charts = w.chartPanel();
    FacetModel* facets = w.facetsPanel()->model();

    Heartbeat beat;
    beat.clock.start();
    app.action = &beat.action;
    QTimer timer;
    timer.setTimerType(Qt::PreciseTimer);
    timer.setInterval(5);
    QObject::connect(&timer, &QTimer::timeout, [&beat] { beat.tick(); });
    timer.start();

    Probe probe { w, out, beat, options.timeoutMs, options.kinds, proxy, charts, facets };
    probe.load(options.jsonl, runs);
    const int all = w.session()->model()->rowCount();
    const auto [loadedRss, loadedPeak] = residentMb();
    out << "window holds " << all << " runs; resident " << qRound(loadedRss) << " MB, peak so far "
        << qRound(loadedPeak) << " MB\n";
    out.flush();

    if (options.switchCharts)
        probe.chartKinds(QStringLiteral("(all runs)"));
    probe.typeInFilter(options.typeFilter);
    probe.facetClick();
    if (options.switchCharts)
        probe.chartKinds(QStringLiteral("(filtered)"));
    probe.selectRuns();
    probe.clearFilter();
    probe.sortTable();
    if (options.switchCharts && options.kinds.contains(chartKindName(ChartKind::Speedup)))
        probe.sortPairs();
    beat.begin(QStringLiteral("end"));
    timer.stop();

    report(out, probe.latencies, beat, app, all, total);
    std::fflush(stdout);
    std::_Exit(0); // the runs are not freed one by one
}
