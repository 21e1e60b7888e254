// SPDX-License-Identifier: Apache-2.0
// The stall probe's synthetic runs, heartbeat and actions (bench_stall_probe.h): what bench_stall drives the real
// window through, each action's latency recorded.
#include "tests/benchmarks/bench_stall_probe.h"

#include "model/filter/runfilterproxy.h"
#include "model/filter/runtablemodel.h"
#include "ui/mainwindow.h"
#include "ui/models/comparisonmodel.h"
#include "ui/models/facetmodel.h"
#include "ui/panels/chartpanel.h"
#include "ui/panels/facetspanel.h"
#include "ui/runsession.h"
#include "ui/runtableview.h"

#include <QCoreApplication>
#include <QLineEdit>
#include <QTableView>
#include <QTest>
#include <QTreeView>

#include <algorithm>

using namespace kix;

namespace stallprobe {

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

void Heartbeat::tick()
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

void Heartbeat::begin(const QString& name)
{
    tick(); // the gap so far belongs to what came before
    action = name;
}

double median(QVector<double> v)
{
    if (v.isEmpty())
        return 0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

void Probe::record(const QString& action, double ms)
{
    auto it = std::find_if(latencies.begin(), latencies.end(), [&](const Latency& l) { return l.action == action; });
    if (it == latencies.end())
        latencies.push_back({ action, { ms } });
    else
        it->ms << ms;
}

bool Probe::waitUntil(const std::function<bool()>& done, int ms)
{
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 5);
    return done();
}

void Probe::pause(int ms)
{
    waitUntil([] { return false; }, ms);
}

bool Probe::tableSettled() const
{
    return !proxy->isFilterPending();
}

void Probe::settle(const QString& action, QElapsedTimer& since)
{
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
}

void Probe::load(const QString& jsonl, const RunList& runs)
{
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
}

void Probe::chartKinds(const QString& when)
{
    for (int k = 0; k <= int(ChartKind::Overview); ++k) {
        if (!kinds.contains(chartKindName(ChartKind(k))))
            continue;
        const QString name = QStringLiteral("chart Ctrl+%1 %2 %3").arg(k + 1).arg(chartKindName(ChartKind(k)), when);
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
}

// Typing, one key at a time, a key every 150 ms at most (a fast typist).
void Probe::typeInFilter(bool typeFilter)
{
    search = w.searchBox();
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
        waitUntil([this] { return tableSettled(); }, timeoutMs);
        record(QStringLiteral("keystroke -> table"), t.nsecsElapsed() / 1e6);
        keys << QStringLiteral("%1:%2").arg(c).arg(t.nsecsElapsed() / 1e6, 0, 'f', 0);
        pause(int(std::max<qint64>(0, 150 - t.elapsed())));
    }
    beat.begin(QStringLiteral("after typing (facets, charts)"));
    settle(QStringLiteral("typing 24 keys"), typing);
    out << "keystrokes (ms): " << keys.join(QLatin1Char(' ')) << "\n";
    out << "filter \"" << text << "\": " << proxy->rowCount() << " shown\n";
}

// A facet click: provider = liger, through the facets' view.
void Probe::facetClick()
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
    waitUntil([this] { return tableSettled(); }, timeoutMs);
    record(QStringLiteral("facet click -> table"), t.nsecsElapsed() / 1e6);
    settle(QStringLiteral("facet click"), t);
    out << "facet provider=liger: " << proxy->rowCount() << " shown\n";
}

// Selecting runs: a click on the first row, a shift-click on the fifth (the charts follow the selection).
void Probe::selectRuns()
{
    RunTableView* table = w.runTable();
    beat.begin(QStringLiteral("select runs"));
    QElapsedTimer t;
    t.start();
    const int last = std::min(4, proxy->rowCount() - 1);
    if (last >= 1) {
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(proxy->index(0, 0)).center());
        QTest::mouseClick(
            table->viewport(), Qt::LeftButton, Qt::ShiftModifier, table->visualRect(proxy->index(last, 0)).center());
    }
    record(QStringLiteral("select runs (clicks)"), t.nsecsElapsed() / 1e6);
    settle(QStringLiteral("select runs"), t);
    out << "selected " << table->selectedCount() << "\n";
    table->clearSelection();
}

// Clearing the facet and the filter (Ctrl+A, Backspace): every run is shown again.
void Probe::clearFilter()
{
    beat.begin(QStringLiteral("clear filter"));
    QElapsedTimer t;
    t.start();
    facets->clearSelection();
    search->setFocus();
    QTest::keyClick(search, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClick(search, Qt::Key_Backspace);
    waitUntil([this] { return tableSettled(); }, timeoutMs);
    record(QStringLiteral("clear filter -> table"), t.nsecsElapsed() / 1e6);
    settle(QStringLiteral("clear filter"), t);
    out << "cleared: " << proxy->rowCount() << " shown\n";
}

// Sorting, as a header click does: by the headline, by kernel, a key typed while sorted, file order again.
void Probe::sortTable()
{
    RunTableView* table = w.runTable();
    auto step = [&](const QString& action, const std::function<void()>& act) {
        beat.begin(action);
        QElapsedTimer t;
        t.start();
        act();
        waitUntil([this] { return tableSettled(); }, timeoutMs);
        record(action + QStringLiteral(" -> table"), t.nsecsElapsed() / 1e6);
        settle(action, t);
    };
    step(
        QStringLiteral("sort headline"), [&] { table->sortByColumn(RunTableModel::MedianColumn, Qt::AscendingOrder); });
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
void Probe::sortPairs()
{
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
    out << "pairs: " << (model ? model->rowCount() : -1) << ", sorted by column " << (model ? model->sortColumn() : -1)
        << "\n";
}

} // namespace stallprobe
