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
#include "app/processpolicy.h"
#include "model/filter/runfilterproxy.h"
#include "model/filter/runtablemodel.h"
#include "ui/mainwindow.h"
#include "ui/models/comparisonmodel.h"
#include "ui/models/facetmodel.h"
#include "ui/panels/chartpanel.h"
#include "ui/panels/facetspanel.h"
#include "ui/runsession.h"
#include "ui/runtableview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QTableView>
#include <QTest>
#include <QTextStream>
#include <QTimer>
#include <QTreeView>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <functional>
#include <map>
#include <utility>

using namespace kix;

namespace {

// Synthetic runs with the variety of a large corpus: 300 kernels (group_norm among them), 3 passes, 5 providers,
// 6 GPUs, 3 dtypes, 32 workloads, a year of observation times; 80% latency, 10% memory, 10% score runs; 2% failed.
RunList makeRuns(int count)
{
    QStringList kernels = { QStringLiteral("group_norm"), QStringLiteral("rms_norm"), QStringLiteral("layer_norm"),
        QStringLiteral("cross_entropy"), QStringLiteral("swiglu"), QStringLiteral("softmax") };
    while (kernels.size() < 300)
        kernels << QStringLiteral("kernel_%1").arg(kernels.size(), 3, 10, QLatin1Char('0'));
    const QStringList passes = { QStringLiteral("forward"), QStringLiteral("backward"), QStringLiteral("full") };
    const QStringList providers = { QStringLiteral("liger"), QStringLiteral("huggingface"), QStringLiteral("torch"),
        QStringLiteral("torch_compile"), QStringLiteral("triton") };
    const QStringList gpus = { QStringLiteral("NVIDIA B200"), QStringLiteral("NVIDIA H100 80GB HBM3"),
        QStringLiteral("NVIDIA A100-SXM4-80GB"), QStringLiteral("NVIDIA GeForce RTX 4090"),
        QStringLiteral("AMD Instinct MI300X"), QStringLiteral("NVIDIA H100 PCIe") };
    QStringList slugs;
    for (const QString& g : gpus)
        slugs << g.toLower().replace(QLatin1Char(' '), QLatin1Char('-'));
    const QStringList dtypes = { QStringLiteral("fp32"), QStringLiteral("bf16"), QStringLiteral("fp16") };
    const QStringList sources
        = { QStringLiteral("liger-kernel-bench"), QStringLiteral("kix-engine"), QStringLiteral("leaderboard") };
    const QString passed = QStringLiteral("passed");
    const QString timeout = QStringLiteral("timeout");
    const QString family = QStringLiteral("liger_kernel_bench");
    const QString mb = QStringLiteral("MB");
    const QString seconds = QStringLiteral("s");
    const QString score = QStringLiteral("score");
    const QDateTime epoch(QDate(2025, 12, 1), QTime(0, 0), Qt::UTC);
    const RawText raw(std::string("{}"));
    RunList runs;
    runs.reserve(count);
    for (int i = 0; i < count; ++i) {
        const int k = i % 300;
        const int p = (i / 300) % 3;
        const int v = (i / 900) % 5;
        const int g = (i / 4500) % 6;
        const int d = (i / 27000) % 3;
        const quint32 mix = quint32(i) * 2654435761u;
        const int batch = 8 << (2 * ((mix >> 8) % 4));
        const int channels = 32 << ((mix >> 12) % 8);
        auto run = std::make_shared<Run>();
        run->kernel = kernels[k];
        run->pass = passes[p];
        run->provider = providers[v];
        run->gpuProduct = gpus[g];
        run->gpuSlug = slugs[g];
        run->dtype = dtypes[d];
        run->workload = { { QStringLiteral("batch"), QString::number(batch), double(batch) },
            { QStringLiteral("channels"), QString::number(channels), double(channels) } };
        run->workloadSlug = QStringLiteral("batch%1-channels%2-%3").arg(batch).arg(channels).arg(dtypes[d]);
        run->observedAt = epoch.addSecs(qint64(mix % (365u * 86400u)));
        run->externalId = QStringLiteral("%1/%2/%3/%4/%5/%6")
                              .arg(run->kernel, run->pass, run->provider, run->gpuSlug, run->workloadSlug)
                              .arg(i);
        run->name = run->externalId;
        run->status = i % 50 == 0 ? timeout : passed;
        run->source = sources[(mix >> 20) % 3];
        run->protocolFamily = family;
        const int m = i % 10;
        if (m == 7) {
            run->metric = Run::Metric::Memory;
            run->unit = mb;
        } else if (m == 9) {
            run->metric = Run::Metric::Other;
            run->headlineMetric = score;
            run->unit = seconds;
        }
        run->median = 1000.0 + batch * channels * (v == 0 ? 0.5 : 1.0) * (1 + (mix >> 24) % 7 * 0.1);
        const double spread = 0.01 + (i % 3) * 0.01;
        run->p20 = run->median * (1 - spread);
        run->p80 = run->median * (1 + spread);
        run->workloadDigest = QStringLiteral("sha256:w") + run->kernel + run->workloadSlug;
        run->environmentDigest = QStringLiteral("sha256:e") + run->gpuSlug;
        run->protocolDigest = QStringLiteral("sha256:p") + family;
        run->implementationDigest = QStringLiteral("sha256:i") + run->provider + run->kernel;
        run->raw = raw;
        run->finalize();
        runs.append(run);
    }
    return runs;
}

// The heartbeat: the longest gap between ticks of a 5 ms timer on the GUI thread, per action.
struct Heartbeat
{
    QElapsedTimer clock;
    qint64 last = 0;
    QString action = QStringLiteral("start");
    std::map<QString, double> worst; // ms
    QStringList order;
    double worstGap = 0;
    QString worstAction;

    void tick()
    {
        const qint64 now = clock.nsecsElapsed();
        const double gap = (now - last) / 1e6;
        last = now;
        if (!worst.count(action))
            order << action;
        worst[action] = std::max(worst[action], gap);
        if (gap > worstGap) {
            worstGap = gap;
            worstAction = action;
        }
    }
    void begin(const QString& name)
    {
        tick(); // the gap so far belongs to what came before
        action = name;
    }
};

struct Latency
{
    QString action;
    QVector<double> ms;
};

double median(QVector<double> v)
{
    if (v.isEmpty())
        return 0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

} // namespace

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

} // namespace

int main(int argc, char** argv)
{
    kix::applyProcessPolicy();
    qInstallMessageHandler(quietHandler);
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    TimedApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("kix-bench")); // keeps the user's settings untouched
    int count = 1'000'000;
    QString jsonl;
    int timeoutMs = 120'000;
    bool switchCharts = true;
    bool typeFilter = true;
    QStringList kinds;
    for (int k = 0; k <= int(ChartKind::Overview); ++k)
        kinds << chartKindName(ChartKind(k));
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); i += 2) {
        if (args[i] == QLatin1String("--no-charts")) { // skips switching chart kinds (a quicker run)
            switchCharts = false;
            --i;
        } else if (args[i] == QLatin1String("--no-typing")) {
            typeFilter = false;
            --i;
        } else if (i + 1 >= args.size()) {
            break;
        } else if (args[i] == QLatin1String("--runs"))
            count = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--jsonl"))
            jsonl = args[i + 1];
        else if (args[i] == QLatin1String("--kinds"))
            kinds = args[i + 1].split(QLatin1Char(','));
        else if (args[i] == QLatin1String("--timeout"))
            timeoutMs = args[i + 1].toInt() * 1000;
    }
    QTextStream out(stdout);
    QElapsedTimer total;
    total.start();
    const RunList runs = count > 0 ? makeRuns(count) : RunList();
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

    std::vector<Latency> latencies;
    auto record = [&](const QString& action, double ms) {
        auto it
            = std::find_if(latencies.begin(), latencies.end(), [&](const Latency& l) { return l.action == action; });
        if (it == latencies.end())
            latencies.push_back({ action, { ms } });
        else
            it->ms << ms;
    };
    // Runs the event loop until `done` holds (or the timeout); the heartbeat keeps ticking.
    auto waitUntil = [&](const std::function<bool()>& done, int ms) {
        QElapsedTimer t;
        t.start();
        while (!done() && t.elapsed() < ms)
            QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 5);
        return done();
    };
    auto pause = [&](int ms) { waitUntil([] { return false; }, ms); };
    auto tableSettled = [&] { return !proxy->isFilterPending(); };
    // Settled: the window's coalescing timers have fired (>= 400 ms) and nothing is being rebuilt.
    auto settle = [&](const QString& action, QElapsedTimer& since) {
        pause(400);
        const bool ok = waitUntil(
            [&] {
                return !w.session()->isLoading() && tableSettled() && !facets->isCountPending()
                    && !charts->isRebuildPending();
            },
            timeoutMs);
        record(action + QStringLiteral(" (settled)"), since.nsecsElapsed() / 1e6 - (ok ? 0 : 0));
        if (!ok)
            out << "  timeout waiting for " << action << "\n";
    };

    if (!jsonl.isEmpty()) {
        beat.begin(QStringLiteral("load .jsonl"));
        QElapsedTimer t;
        t.start();
        w.openPaths({ jsonl });
        waitUntil([&] { return !w.session()->isLoading(); }, timeoutMs);
        record(QStringLiteral("load .jsonl (loader done)"), t.nsecsElapsed() / 1e6);
        settle(QStringLiteral("load .jsonl"), t);
        out << "loaded " << w.session()->model()->rowCount() << " runs from " << jsonl << "\n";
    }
    if (!runs.isEmpty()) {
        beat.begin(QStringLiteral("add runs"));
        QElapsedTimer t;
        t.start();
        w.addRuns(runs);
        record(QStringLiteral("add runs (call)"), t.nsecsElapsed() / 1e6);
        settle(QStringLiteral("add runs"), t);
    }
    const int all = w.session()->model()->rowCount();
    const auto [loadedRss, loadedPeak] = residentMb();
    out << "window holds " << all << " runs; resident " << qRound(loadedRss) << " MB, peak so far "
        << qRound(loadedPeak) << " MB\n";
    out.flush();

    auto chartKinds = [&](const QString& when) {
        for (int k = 0; k <= int(ChartKind::Overview); ++k) {
            if (!kinds.contains(chartKindName(ChartKind(k))))
                continue;
            const QString name
                = QStringLiteral("chart Ctrl+%1 %2 %3").arg(k + 1).arg(chartKindName(ChartKind(k)), when);
            beat.begin(name);
            QElapsedTimer t;
            t.start();
            QTest::keyClick(&w, Qt::Key(Qt::Key_1 + k), Qt::ControlModifier);
            if (charts->kind() != ChartKind(k))
                charts->kindActions()[k]->trigger(); // the shortcut did not reach the window
            waitUntil([&] { return !charts->isRebuildPending(); }, timeoutMs);
            record(QStringLiteral("chart %1 %2").arg(chartKindName(ChartKind(k)), when), t.nsecsElapsed() / 1e6);
            pause(100);
        }
    };
    if (switchCharts)
        chartKinds(QStringLiteral("(all runs)"));

    // Typing, one key at a time, a key every 150 ms at most (a fast typist).
    QLineEdit* search = w.searchBox();
    search->setFocus();
    const QString text = QStringLiteral("group_norm backward b200");
    QElapsedTimer typing;
    typing.start();
    QStringList keys;
    for (const QChar c : typeFilter ? text : QString()) {
        beat.begin(QStringLiteral("keystroke"));
        QElapsedTimer t;
        t.start();
        QTest::keyClick(search, c.toLatin1());
        waitUntil(tableSettled, timeoutMs);
        record(QStringLiteral("keystroke -> table"), t.nsecsElapsed() / 1e6);
        keys << QStringLiteral("%1:%2").arg(c).arg(t.nsecsElapsed() / 1e6, 0, 'f', 0);
        pause(int(std::max<qint64>(0, 150 - t.elapsed())));
    }
    beat.begin(QStringLiteral("after typing (facets, charts)"));
    settle(QStringLiteral("typing 24 keys"), typing);
    out << "keystrokes (ms): " << keys.join(QLatin1Char(' ')) << "\n";
    out << "filter \"" << text << "\": " << proxy->rowCount() << " shown\n";

    // A facet click: provider = liger, through the facets' view.
    {
        auto* tree = w.facetsPanel()->findChild<QTreeView*>();
        const QModelIndex liger = facets->valueIndex(Facet::Provider, QStringLiteral("liger"));
        tree->scrollTo(liger);
        const QRect rect = tree->visualRect(liger);
        beat.begin(QStringLiteral("facet click"));
        QElapsedTimer t;
        t.start();
        if (rect.isValid())
            QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, rect.center());
        else
            facets->toggle(liger);
        waitUntil(tableSettled, timeoutMs);
        record(QStringLiteral("facet click -> table"), t.nsecsElapsed() / 1e6);
        settle(QStringLiteral("facet click"), t);
        out << "facet provider=liger: " << proxy->rowCount() << " shown\n";
    }
    if (switchCharts)
        chartKinds(QStringLiteral("(filtered)"));

    // Selecting runs: a click on the first row, a shift-click on the fifth (the charts follow the selection).
    {
        RunTableView* table = w.runTable();
        beat.begin(QStringLiteral("select runs"));
        QElapsedTimer t;
        t.start();
        const int last = std::min(4, proxy->rowCount() - 1);
        if (last >= 1) {
            QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(proxy->index(0, 0)).center());
            QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::ShiftModifier,
                table->visualRect(proxy->index(last, 0)).center());
        }
        record(QStringLiteral("select runs (clicks)"), t.nsecsElapsed() / 1e6);
        settle(QStringLiteral("select runs"), t);
        out << "selected " << table->selectedCount() << "\n";
        table->clearSelection();
    }

    // Clearing the facet and the filter (Ctrl+A, Backspace): every run is shown again.
    {
        beat.begin(QStringLiteral("clear filter"));
        QElapsedTimer t;
        t.start();
        facets->clearSelection();
        search->setFocus();
        QTest::keyClick(search, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClick(search, Qt::Key_Backspace);
        waitUntil(tableSettled, timeoutMs);
        record(QStringLiteral("clear filter -> table"), t.nsecsElapsed() / 1e6);
        settle(QStringLiteral("clear filter"), t);
        out << "cleared: " << proxy->rowCount() << " shown\n";
    }

    // Sorting, as a header click does: by the headline, by kernel, a key typed while sorted, file order again.
    {
        RunTableView* table = w.runTable();
        auto step = [&](const QString& action, const std::function<void()>& act) {
            beat.begin(action);
            QElapsedTimer t;
            t.start();
            act();
            waitUntil(tableSettled, timeoutMs);
            record(action + QStringLiteral(" -> table"), t.nsecsElapsed() / 1e6);
            settle(action, t);
        };
        step(QStringLiteral("sort headline"),
            [&] { table->sortByColumn(RunTableModel::MedianColumn, Qt::AscendingOrder); });
        step(QStringLiteral("sort kernel desc"),
            [&] { table->sortByColumn(RunTableModel::KernelColumn, Qt::DescendingOrder); });
        step(QStringLiteral("keystroke while sorted"), [&] {
            search->setFocus();
            QTest::keyClick(search, 'b');
        });
        step(QStringLiteral("file order"), [&] { table->sortByColumn(-1, Qt::AscendingOrder); });
        out << "sorted, filtered \"b\": " << proxy->rowCount() << " shown\n";
    }

    // The speed-up's pairs sorted by a header click (their order found off the GUI thread), then a key typed while
    // they are sorted: the speed-up is built again and its pairs sorted again.
    if (switchCharts && kinds.contains(chartKindName(ChartKind::Speedup))) {
        QTableView* pairs = charts->pairsView();
        auto* model = qobject_cast<ComparisonModel*>(pairs->model());
        auto step = [&](const QString& action, const std::function<void()>& act) {
            beat.begin(action);
            QElapsedTimer t;
            t.start();
            act();
            waitUntil([&] { return !charts->isRebuildPending() && !(model && model->isSortPending()); }, timeoutMs);
            record(action, t.nsecsElapsed() / 1e6);
            pause(100);
        };
        step(QStringLiteral("chart Ctrl+3 speedup (again)"),
            [&] { charts->kindActions()[int(ChartKind::Speedup)]->trigger(); });
        step(QStringLiteral("sort pairs by speed-up"),
            [&] { pairs->sortByColumn(ComparisonModel::SpeedupColumn, Qt::DescendingOrder); });
        {
            beat.begin(QStringLiteral("keystroke, pairs sorted"));
            QElapsedTimer t;
            t.start();
            search->setFocus();
            QTest::keyClick(search, '2');
            settle(QStringLiteral("keystroke, pairs sorted"), t); // the filter, then the speed-up built again
            waitUntil([&] { return !(model && model->isSortPending()); }, timeoutMs);
            record(QStringLiteral("keystroke, pairs sorted (pairs sorted)"), t.nsecsElapsed() / 1e6);
        }
        out << "pairs: " << (model ? model->rowCount() : -1) << ", sorted by column "
            << (model ? model->sortColumn() : -1) << "\n";
    }
    beat.begin(QStringLiteral("end"));
    timer.stop();

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
    std::fflush(stdout);
    std::_Exit(0); // the runs are not freed one by one
}
