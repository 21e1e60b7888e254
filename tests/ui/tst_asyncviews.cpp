// SPDX-License-Identifier: Apache-2.0
// The paths that keep the window answering over many runs, forced on small fixtures (thresholds 0): the filter
// computed off the GUI thread, facet counts, charts prepared in a worker (the chart panel's own: tst_chartpanel),
// chunked appending. Each must deliver what the synchronous path delivers, and a newer request must win over one
// still in flight. No timing: the tests wait for the results (QTRY_*), never for a duration.
#include "model/filter/runfilterproxy.h"
#include "model/filter/runtablemodel.h"
#include "ui/disposal.h"
#include "ui/mainwindow.h"
#include "ui/models/facetmodel.h"
#include "ui/panels/chartpanel.h"
#include "ui/panels/detailspane.h"
#include "ui/panels/facetspanel.h"
#include "ui/runsession.h"
#include "ui/runtableview.h"

#include "tests/ui/uitestsupport.h"

#include "tests/support/testmain.h"

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QThreadPool>

#include <atomic>

using namespace kix;

namespace {

int expectedRows(
    const RunList& runs, const QString& text, Facet facet = Facet::Kernel, const QSet<QString>& values = {})
{
    RunFilter filter;
    filter.setText(text);
    filter.setFacet(facet, values);
    return int(filter.apply(runs).size());
}

} // namespace

class TestAsyncViews : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void proxyFiltersOffThread();
    void proxyLatestChangeWins();
    void proxyNarrowingIsExact();
    void facetIndexNarrowingIsExact();
    void facetCountsOffThread();
    void chartDataFreedOffThread();
    void windowChunkedAndAsync();
    void windowFollowsAChunkedLoadOnceItIsIn();
    void backgroundWorkNeedsNoGlobalPoolThread();
    void tableKeepsCurrentRunAndSelection();

private:
    QTemporaryDir m_settings;
};

void TestAsyncViews::initTestCase()
{
    kixtest::isolateSettings(m_settings);
}

void TestAsyncViews::proxyFiltersOffThread()
{
    RunTableModel model;
    RunFilterProxy proxy;
    proxy.setAsyncThreshold(0);
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const RunList runs = kixtest::allRuns();
    model.setRuns(runs);
    QCOMPARE(proxy.rowCount(), runs.size());
    QSignalSpy applied(&proxy, &RunFilterProxy::filterApplied);
    proxy.setFilterText(QStringLiteral("backward b200"));
    QVERIFY(proxy.isFilterPending());
    QTRY_VERIFY(!proxy.isFilterPending());
    QCOMPARE(applied.count(), 1);
    const int expected = expectedRows(runs, QStringLiteral("backward b200"));
    QVERIFY(expected > 0 && expected < runs.size());
    QCOMPARE(proxy.rowCount(), expected);
    // the rows shown are the filter's runs, in source order
    const RunList visible = proxy.visibleRuns();
    QCOMPARE(visible.size(), expected);
    RunFilter filter;
    filter.setText(QStringLiteral("backward b200"));
    QCOMPARE(visible, filter.apply(runs));
    for (int row = 0; row < proxy.rowCount(); ++row)
        QCOMPARE(proxy.index(row, 0).data(RunTableModel::RunRole).value<RunPtr>(), visible[row]);
    // a facet, off the thread too
    proxy.setFacet(Facet::Provider, { QStringLiteral("liger") });
    QTRY_VERIFY(!proxy.isFilterPending());
    QCOMPARE(proxy.rowCount(),
        expectedRows(runs, QStringLiteral("backward b200"), Facet::Provider, { QStringLiteral("liger") }));
    // rows appended later are filtered as they come
    proxy.clearFacets();
    QTRY_VERIFY(!proxy.isFilterPending());
    model.appendRuns(kixtest::loadUi({ QStringLiteral("groupnorm-sweep.json") }));
    QCOMPARE(proxy.rowCount(), expected); // all duplicates
    // and sorting still sorts (off the thread too)
    proxy.sort(RunTableModel::MedianColumn, Qt::AscendingOrder);
    QVERIFY(proxy.isFilterPending());
    QTRY_VERIFY(!proxy.isFilterPending());
    const RunList sorted = proxy.visibleRuns();
    QCOMPARE(sorted.size(), expected);
    for (int i = 1; i < sorted.size(); ++i)
        QVERIFY(sorted[i - 1]->median <= sorted[i]->median);
}

void TestAsyncViews::proxyLatestChangeWins()
{
    RunTableModel model;
    RunFilterProxy proxy;
    proxy.setAsyncThreshold(0);
    proxy.setSourceModel(&model);
    const RunList runs = kixtest::allRuns();
    model.setRuns(runs);
    // Two changes before the first result arrives: only the second is applied.
    proxy.setFilterText(QStringLiteral("forward"));
    proxy.setFilterText(QStringLiteral("backward liger"));
    QCOMPARE(proxy.runFilter().text(), QStringLiteral("backward liger"));
    QTRY_VERIFY(!proxy.isFilterPending());
    QCOMPARE(proxy.rowCount(), expectedRows(runs, QStringLiteral("backward liger")));
    QVERIFY(expectedRows(runs, QStringLiteral("backward liger")) != expectedRows(runs, QStringLiteral("forward")));
    // A reset of the source while a result is in flight: the result of the old rows is not applied.
    proxy.setFilterText(QStringLiteral("b200"));
    const RunList fewer = kixtest::sweepRuns();
    model.setRuns(fewer);
    QTRY_VERIFY(!proxy.isFilterPending());
    QCOMPARE(proxy.rowCount(), expectedRows(fewer, QStringLiteral("b200")));
}

void TestAsyncViews::proxyNarrowingIsExact()
{
    RunTableModel model;
    RunFilterProxy proxy;
    proxy.setAsyncThreshold(0);
    proxy.setSourceModel(&model);
    const RunList runs = kixtest::allRuns();
    model.setRuns(runs);
    // Typing forward through words and a key clause whose growth widens it (channels<1 -> channels<1000).
    for (const QString& text : { QStringLiteral("b"), QStringLiteral("b2"), QStringLiteral("b200"),
             QStringLiteral("b200 channels<1"), QStringLiteral("b200 channels<1000"),
             QStringLiteral("b200 channels<10000"), QStringLiteral("b200 channels=2"),
             QStringLiteral("b200 channels=20"), QStringLiteral("b200 channels=2048") }) {
        proxy.setFilterText(text);
        QTRY_VERIFY(!proxy.isFilterPending());
        QCOMPARE(proxy.rowCount(), expectedRows(runs, text));
    }
    QVERIFY(expectedRows(runs, QStringLiteral("b200 channels<1000")) > 0);
    QVERIFY(expectedRows(runs, QStringLiteral("b200 channels=2048")) > 0);
}

void TestAsyncViews::facetIndexNarrowingIsExact()
{
    RunFilter a;
    RunFilter b;
    a.setText(QStringLiteral("b20"));
    b.setText(QStringLiteral("b200 forward"));
    QVERIFY(filterTextNarrows(a, b));
    QVERIFY(!filterTextNarrows(b, a));
    a.setText(QStringLiteral("channels<1"));
    b.setText(QStringLiteral("channels<10"));
    QVERIFY(!filterTextNarrows(a, b)); // wider, though its text grew
    a.setText(QStringLiteral("channels=2"));
    b.setText(QStringLiteral("channels=20"));
    QVERIFY(!filterTextNarrows(a, b));
    b.setText(QStringLiteral("channels=2 b200"));
    QVERIFY(filterTextNarrows(a, b));

    // The facet counts, recounted while typing forward, equal a fresh count.
    const RunList runs = kixtest::allRuns();
    FacetIndex typed;
    typed.setRuns(runs);
    for (const QString& text : { QStringLiteral("channels<1"), QStringLiteral("channels<1000") }) {
        RunFilter filter;
        filter.setText(text);
        const FacetIndex::Counts counts = typed.count(filter);
        FacetIndex fresh;
        fresh.setRuns(runs);
        QCOMPARE(counts.matching, fresh.count(filter).matching);
        QCOMPARE(counts.matching, expectedRows(runs, text));
    }
}

void TestAsyncViews::facetCountsOffThread()
{
    const RunList runs = kixtest::allRuns();
    FacetModel sync;
    sync.setRuns(runs);
    FacetModel async;
    QAbstractItemModelTester tester(&async, QAbstractItemModelTester::FailureReportingMode::QtTest);
    async.setAsyncThreshold(0);
    async.setRuns(runs);
    QVERIFY(async.isCountPending());
    QTRY_VERIFY(!async.isCountPending());
    QCOMPARE(async.matchingCount(), sync.matchingCount());
    QCOMPARE(async.rowCount(async.facetIndex(Facet::Provider)), sync.rowCount(sync.facetIndex(Facet::Provider)));
    // Two texts in quick succession and a selection: the counts end on the latest state.
    async.setFilterText(QStringLiteral("forward"));
    async.setFilterText(QStringLiteral("backward"));
    async.setSelected(Facet::Provider, QStringLiteral("liger"), true);
    sync.setFilterText(QStringLiteral("backward"));
    sync.setSelected(Facet::Provider, QStringLiteral("liger"), true);
    QTRY_VERIFY(!async.isCountPending());
    QCOMPARE(async.matchingCount(), sync.matchingCount());
    for (Facet facet : allFacets()) {
        const QModelIndex a = async.facetIndex(facet);
        const QModelIndex s = sync.facetIndex(facet);
        QCOMPARE(async.rowCount(a), sync.rowCount(s));
        for (int row = 0; row < sync.rowCount(s); ++row)
            QCOMPARE(async.index(row, FacetModel::CountColumn, a).data(FacetModel::CountRole),
                sync.index(row, FacetModel::CountColumn, s).data(FacetModel::CountRole));
    }
}

void TestAsyncViews::chartDataFreedOffThread()
{
    // A value whose freeing is recorded: a large one is freed on a pool thread, a small one at once, here.
    struct Probe
    {
        explicit Probe(std::shared_ptr<std::atomic<QThread*>> on)
            : freedOn(std::move(on))
        {
        }
        Probe(Probe&& other) noexcept
            : freedOn(std::move(other.freedOn)) // a moved-from probe records nothing
        {
        }
        Probe(const Probe&) = delete;
        std::shared_ptr<std::atomic<QThread*>> freedOn;
        ~Probe()
        {
            if (freedOn)
                freedOn->store(QThread::currentThread());
        }
    };
    auto large = std::make_shared<std::atomic<QThread*>>(nullptr);
    disposeOffThread(Probe { large });
    QTRY_VERIFY(large->load() != nullptr);
    QVERIFY(large->load() != QThread::currentThread());
    auto small = std::make_shared<std::atomic<QThread*>>(nullptr);
    disposeOffThread(Probe { small }, false);
    QCOMPARE(small->load(), QThread::currentThread());
}

void TestAsyncViews::windowChunkedAndAsync()
{
    MainWindow w;
    w.session()->setChunkThreshold(1); // every batch in chunks
    w.session()->proxy()->setAsyncThreshold(0);
    w.facetsPanel()->model()->setAsyncThreshold(0);
    w.chartPanel()->setAsyncThreshold(0);
    w.show();
    const RunList runs = kixtest::allRuns();
    w.addRuns(runs);
    QVERIFY(w.session()->isLoading());
    QTRY_VERIFY(!w.session()->isLoading());
    QCOMPARE(w.session()->model()->rowCount(), runs.size());
    // Typing, one key at a time: the table ends on the whole text, the facets and charts follow.
    w.searchBox()->setFocus();
    QTest::keyClicks(w.searchBox(), QStringLiteral("backward b200"));
    const int expected = expectedRows(runs, QStringLiteral("backward b200"));
    QTRY_COMPARE(w.session()->proxy()->rowCount(), expected);
    QTRY_VERIFY(!w.session()->proxy()->isFilterPending());
    QTRY_COMPARE(w.facetsPanel()->model()->matchingCount(), expected);
    QTRY_VERIFY(w.chartPanel()->runs().size() == expected && !w.chartPanel()->isRebuildPending());
    QCOMPARE(w.chartPanel()->info().isEmpty, false);
    w.searchBox()->clear();
    QTRY_COMPARE(w.session()->proxy()->rowCount(), runs.size());
    QTRY_VERIFY(w.chartPanel()->runs().size() == runs.size() && !w.chartPanel()->isRebuildPending());
}

void TestAsyncViews::windowFollowsAChunkedLoadOnceItIsIn()
{
    // While a large batch goes in chunk by chunk, the charts keep what they had: following each chunk would rebuild
    // them over the runs so far, again and again, and make the next chunk copy every run appended before it.
    const RunList fixture = kixtest::allRuns();
    QVERIFY(!fixture.isEmpty());
    RunList runs;
    for (int i = 0; runs.size() < 6000; ++i) { // more than the first chunk (5000): two chunks at least
        auto run = std::make_shared<Run>(*fixture[i % fixture.size()]);
        run->externalId = QStringLiteral("copy-%1").arg(i);
        run->runDigest = CompactDigest(); // the identity is the run digest where there is one
        run->finalize();
        runs << run;
    }
    MainWindow w;
    w.session()->setChunkThreshold(1);
    w.show();
    QList<qsizetype> chartedDuringAppend;
    connect(w.session()->model(), &QAbstractItemModel::rowsInserted, this, [&] {
        if (!w.session()->isAppending())
            return;
        QTest::qWait(300); // past the window's 150 ms coalescing of scope changes: it fires while appending
        chartedDuringAppend << w.chartPanel()->runs().size();
    });
    w.addRuns(runs);
    QTRY_VERIFY(!w.session()->isLoading());
    QCOMPARE(w.session()->model()->rowCount(), runs.size());
    QVERIFY(chartedDuringAppend.size() >= 1);
    QCOMPARE(chartedDuringAppend, QList<qsizetype>(chartedDuringAppend.size(), 0));
    QTRY_VERIFY(w.chartPanel()->runs().size() == runs.size() && !w.chartPanel()->isRebuildPending());
}

void TestAsyncViews::backgroundWorkNeedsNoGlobalPoolThread()
{
    // Qt's raster engine (Qt 6.4) paints large fills on the global pool's threads and the GUI thread waits for
    // them: kix's jobs must never be what keeps those threads busy. With every global thread held, filtering,
    // counting facets and the charts still finish. (The window is not shown: a paint
    // would wait for the held threads.)
    QThreadPool* global = QThreadPool::globalInstance();
    const int held = global->maxThreadCount();
    QSemaphore gate;
    std::atomic<int> holding { 0 };
    struct Release
    {
        QSemaphore& gate;
        int count;
        ~Release() { gate.release(count); } // on failure too: the held threads end before the test does
    } release { gate, held };
    for (int i = 0; i < held; ++i)
        global->start([&gate, &holding] {
            ++holding;
            gate.acquire();
        });
    QTRY_COMPARE(holding.load(), held);
    MainWindow w;
    w.session()->proxy()->setAsyncThreshold(0);
    w.facetsPanel()->model()->setAsyncThreshold(0);
    w.chartPanel()->setAsyncThreshold(0);
    const RunList runs = kixtest::allRuns();
    w.addRuns(runs);
    QTRY_VERIFY(!w.session()->isLoading());
    w.searchBox()->setText(QStringLiteral("backward b200"));
    const int expected = expectedRows(runs, QStringLiteral("backward b200"));
    QTRY_VERIFY(w.session()->proxy()->rowCount() == expected && !w.session()->proxy()->isFilterPending());
    QTRY_COMPARE(w.facetsPanel()->model()->matchingCount(), expected);
    QTRY_VERIFY(w.chartPanel()->runs().size() == expected && !w.chartPanel()->isRebuildPending());
    QCOMPARE(holding.load(), held); // nothing of ours ran on, or waited for, the global pool
}

void TestAsyncViews::tableKeepsCurrentRunAndSelection()
{
    MainWindow w;
    RunFilterProxy* proxy = w.session()->proxy();
    proxy->setAsyncThreshold(0); // each filter and sort lands in one reset of the rows
    w.show();
    w.addRuns(kixtest::allRuns());
    QTRY_VERIFY(!w.session()->isLoading());
    RunTableView* table = w.runTable();
    const RunList runs = w.session()->model()->runs();
    auto rowOf = [&](const RunPtr& run) {
        for (int row = 0; row < proxy->rowCount(); ++row) {
            if (proxy->index(row, 0).data(RunTableModel::RunRole).value<RunPtr>() == run)
                return row;
        }
        return -1;
    };
    auto sortedByAddress = [](RunList list) {
        std::sort(list.begin(), list.end(), [](const RunPtr& a, const RunPtr& b) { return a.get() < b.get(); });
        return list;
    };
    // Three backward runs and a forward one selected, the current one among the backward ones.
    RunList backward;
    RunPtr forward;
    for (const RunPtr& run : runs) {
        if (run->pass == QLatin1String("backward") && backward.size() < 3)
            backward << run;
        else if (run->pass == QLatin1String("forward") && !forward)
            forward = run;
    }
    QVERIFY(backward.size() == 3 && forward);
    const int columns = proxy->columnCount();
    RunList selected = backward;
    selected << forward;
    for (const RunPtr& run : std::as_const(selected)) {
        const int row = rowOf(run);
        table->selectionModel()->select(
            QItemSelection(proxy->index(row, 0), proxy->index(row, columns - 1)), QItemSelectionModel::Select);
    }
    table->selectionModel()->setCurrentIndex(proxy->index(rowOf(backward[1]), 2), QItemSelectionModel::NoUpdate);
    QCOMPARE(table->currentRun(), backward[1]);
    QSignalSpy currentChanged(table, &RunTableView::currentRunChanged);
    // The filter keeps the backward runs: they stay selected, the current run stays current (not re-announced).
    w.searchBox()->setText(QStringLiteral("backward"));
    QVERIFY(proxy->isFilterPending());
    QTRY_VERIFY(!proxy->isFilterPending());
    QCOMPARE(table->currentRun(), backward[1]);
    QCOMPARE(table->currentIndex().column(), 2);
    QCOMPARE(sortedByAddress(table->selectedRuns()), sortedByAddress(backward));
    // A sort moves the rows: the same runs, in their new rows.
    auto rows = [&] { return QList<int> { rowOf(backward[0]), rowOf(backward[1]), rowOf(backward[2]) }; };
    const QList<int> before = rows();
    table->sortByColumn(RunTableModel::MedianColumn, Qt::DescendingOrder);
    QTRY_VERIFY(!proxy->isFilterPending());
    QVERIFY(rows() != before);
    QCOMPARE(table->currentRun(), backward[1]);
    QCOMPARE(table->currentIndex().row(), rowOf(backward[1]));
    QCOMPARE(sortedByAddress(table->selectedRuns()), sortedByAddress(backward));
    QCOMPARE(currentChanged.count(), 0);
    // A filter that hides them: nothing selected, no other run made current in their place; the current run is let
    // go of, once (Details and the charts' marker no longer show a run the filter hides).
    w.searchBox()->setText(QStringLiteral("forward"));
    QTRY_VERIFY(!proxy->isFilterPending());
    QVERIFY(!table->currentIndex().isValid());
    QCOMPARE(table->selectedCount(), 0);
    QCOMPARE(currentChanged.count(), 1);
    QVERIFY(!currentChanged.back().front().value<RunPtr>());
    QVERIFY(!w.detailsPane()->run());
    // Clicking a run makes it current, as before.
    table->setCurrentIndex(proxy->index(0, 0));
    QCOMPARE(currentChanged.count(), 2);
}

KIX_TEST_MAIN(TestAsyncViews)
#include "tst_asyncviews.moc"
