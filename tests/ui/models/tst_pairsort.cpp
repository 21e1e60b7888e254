// SPDX-License-Identifier: Apache-2.0
// The speed-up pairs sort themselves (ComparisonModel::sort, no proxy over them): a header click in the chart panel
// orders the rows by a column, ascending, then descending; a missing number is last either way and ties keep the
// comparison's order; a new comparison keeps the column; many pairs are sorted off the GUI thread, where a newer
// sort drops an older one and the selection follows its pairs.
#include "model/jobs/pools.h"
#include "ui/models/comparisonmodel.h"
#include "ui/panels/chartpanel.h"

#include "tests/ui/uitestsupport.h"

#include "tests/support/testmain.h"

#include <QAbstractItemModelTester>
#include <QFutureWatcherBase>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QThreadPool>

#include <cmath>

using namespace kix;

namespace {

void clickHeader(QTableView* view, int column)
{
    QHeaderView* header = view->horizontalHeader();
    const int x = header->sectionViewportPosition(column) + header->sectionSize(column) / 2;
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
}

// Rows in `order` by the numbers of `column`: a NaN only after every number, equal numbers in the comparison's order.
bool sortedByNumber(const ComparisonModel& model, int column, Qt::SortOrder order, int* finite = nullptr)
{
    int numbers = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        const double value = model.index(row, column).data(ComparisonModel::SortRole).toDouble();
        numbers += std::isnan(value) ? 0 : 1;
        if (row == 0)
            continue;
        const double before = model.index(row - 1, column).data(ComparisonModel::SortRole).toDouble();
        if (std::isnan(before)) {
            if (!std::isnan(value))
                return false; // a number after a missing one
            continue;
        }
        if (std::isnan(value))
            continue;
        if (order == Qt::AscendingOrder ? value < before : value > before)
            return false;
        if (value == before && model.pairIndex(row) < model.pairIndex(row - 1))
            return false; // a tie out of the comparison's order
    }
    if (finite)
        *finite = numbers;
    return true;
}

bool sortedByText(const ComparisonModel& model, int column, Qt::SortOrder order)
{
    for (int row = 1; row < model.rowCount(); ++row) {
        const int c = QString::compare(model.index(row - 1, column).data().toString(),
            model.index(row, column).data().toString(), Qt::CaseSensitive);
        if (order == Qt::AscendingOrder ? c > 0 : c < 0)
            return false;
        if (c == 0 && model.pairIndex(row) < model.pairIndex(row - 1))
            return false;
    }
    return true;
}

// Every pair shown once.
bool isPermutation(const ComparisonModel& model)
{
    QVector<bool> seen(model.rowCount(), false);
    for (int row = 0; row < model.rowCount(); ++row) {
        const int pair = model.pairIndex(row);
        if (pair < 0 || pair >= model.rowCount() || seen[pair])
            return false;
        seen[pair] = true;
    }
    return true;
}

bool inComparisonOrder(const ComparisonModel& model)
{
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.pairIndex(row) != row)
            return false;
    return true;
}

} // namespace

class TestPairSort : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void headerClickSorts();
    void offThreadSortDropsStale();
    void offThreadBuildFillsPairsBeforeRebuilt();

private:
    QTemporaryDir m_settings;
};

void TestPairSort::initTestCase()
{
    kixtest::isolateSettings(m_settings);
}

void TestPairSort::headerClickSorts()
{
    const RunList runs = kixtest::allRuns();
    ChartPanel panel;
    panel.resize(1000, 700);
    panel.setKind(ChartKind::Speedup);
    panel.setRuns(runs, QStringLiteral("all"));
    panel.rebuildNow();
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTableView* view = panel.pairsView();
    auto* model = qobject_cast<ComparisonModel*>(view->model());
    QVERIFY(model);
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(model->rowCount() >= 10);
    QVERIFY(inComparisonOrder(*model)); // until the user sorts
    QCOMPARE(view->horizontalHeader()->sortIndicatorSection(), -1);

    clickHeader(view, ComparisonModel::SpeedupColumn);
    QHeaderView* header = view->horizontalHeader();
    QCOMPARE(header->sortIndicatorSection(), int(ComparisonModel::SpeedupColumn));
    const Qt::SortOrder first = header->sortIndicatorOrder();
    QCOMPARE(model->sortColumn(), int(ComparisonModel::SpeedupColumn));
    QCOMPARE(model->sortOrder(), first);
    QVERIFY(!inComparisonOrder(*model)); // the pairs' ratios are not already in order
    QVERIFY(isPermutation(*model));
    QVERIFY(sortedByNumber(*model, ComparisonModel::SpeedupColumn, first));
    // What a row shows is its pair's: the top row's ratio is the extreme one.
    double extreme = first == Qt::AscendingOrder ? INFINITY : -INFINITY;
    for (const ComparisonPair& p : panel.info().comparison.pairs)
        if (std::isfinite(p.ratio))
            extreme = first == Qt::AscendingOrder ? std::min(extreme, p.ratio) : std::max(extreme, p.ratio);
    QCOMPARE(model->index(0, ComparisonModel::SpeedupColumn).data().toString(),
        QString::number(extreme, 'f', 3) + QStringLiteral("×"));

    clickHeader(view, ComparisonModel::SpeedupColumn); // the other way
    const Qt::SortOrder second = first == Qt::AscendingOrder ? Qt::DescendingOrder : Qt::AscendingOrder;
    QCOMPARE(header->sortIndicatorOrder(), second);
    QVERIFY(sortedByNumber(*model, ComparisonModel::SpeedupColumn, second));
    QVERIFY(!sortedByNumber(*model, ComparisonModel::SpeedupColumn, first));

    clickHeader(view, ComparisonModel::ProviderColumn);
    QCOMPARE(model->sortColumn(), int(ComparisonModel::ProviderColumn));
    QVERIFY(sortedByText(*model, ComparisonModel::ProviderColumn, header->sortIndicatorOrder()));
    QVERIFY(isPermutation(*model));

    // A new comparison (another scope) is shown in the same column's order.
    clickHeader(view, ComparisonModel::MedianColumn);
    const Qt::SortOrder medians = header->sortIndicatorOrder();
    QVERIFY(sortedByNumber(*model, ComparisonModel::MedianColumn, medians));
    const int before = model->rowCount();
    panel.setRuns(kixtest::sweepRuns(), QStringLiteral("the sweep"));
    panel.rebuildNow();
    QVERIFY(model->rowCount() != before);
    QVERIFY(sortedByNumber(*model, ComparisonModel::MedianColumn, medians));
    QVERIFY(!inComparisonOrder(*model));

    // Back to the comparison's own order (what the Workload column sorts by, ascending).
    view->sortByColumn(ComparisonModel::WorkloadColumn, Qt::AscendingOrder);
    QVERIFY(inComparisonOrder(*model));
    view->sortByColumn(-1, Qt::AscendingOrder);
    QVERIFY(inComparisonOrder(*model));
}

void TestPairSort::offThreadSortDropsStale()
{
    const RunList runs = kixtest::allRuns();
    ComparisonModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setAsyncSortThreshold(0); // every sort off the GUI thread
    model.setComparison(compareRuns(runs, Baseline::defaultFor(runs)));
    const int n = model.rowCount();
    QVERIFY(n >= 10);
    QSignalSpy sorted(&model, &ComparisonModel::sorted);
    QSignalSpy layouts(&model, &QAbstractItemModel::layoutChanged);
    auto settle = [&model] { // every job ended and its watcher gone: a dropped result has had its chance to land
        workerPool()->waitForDone();
        return QTest::qWaitFor([&model] { return model.findChildren<QFutureWatcherBase*>().isEmpty(); }, 10000);
    };

    // The selection follows its pair.
    QItemSelectionModel selection(&model);
    const int pair = 3;
    selection.setCurrentIndex(model.index(pair, ComparisonModel::SpeedupColumn),
        QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);

    model.sort(ComparisonModel::SpeedupColumn, Qt::AscendingOrder);
    QVERIFY(model.isSortPending());
    QVERIFY(inComparisonOrder(model)); // the old order until the new one is ready
    model.sort(ComparisonModel::GpuColumn, Qt::DescendingOrder); // supersedes the first
    QVERIFY(model.isSortPending());
    QVERIFY(settle());
    QVERIFY(!model.isSortPending());
    QCOMPARE(sorted.size(), 1); // the first sort's result was dropped
    QCOMPARE(layouts.size(), 1);
    QVERIFY(isPermutation(model));
    QVERIFY(sortedByText(model, ComparisonModel::GpuColumn, Qt::DescendingOrder));
    QVERIFY(!sortedByText(model, ComparisonModel::GpuColumn, Qt::AscendingOrder));
    QCOMPARE(model.pairIndex(selection.currentIndex().row()), pair);
    QCOMPARE(selection.selectedRows().size(), 1);
    QCOMPARE(model.pairIndex(selection.selectedRows().constFirst().row()), pair);

    // Missing numbers last in both orders (p: only Mann-Whitney pairs have one).
    int finite = 0;
    for (Qt::SortOrder order : { Qt::AscendingOrder, Qt::DescendingOrder }) {
        model.sort(ComparisonModel::PValueColumn, order);
        QVERIFY(settle());
        QVERIFY(sortedByNumber(model, ComparisonModel::PValueColumn, order, &finite));
        QVERIFY(finite > 1 && finite < n);
        QVERIFY(
            std::isnan(model.index(n - 1, ComparisonModel::PValueColumn).data(ComparisonModel::SortRole).toDouble()));
    }
    QCOMPARE(model.pairIndex(selection.currentIndex().row()), pair);

    // A new comparison: its own order at once, then the column's, off the GUI thread; one that follows at once drops
    // the sort of the one before.
    sorted.clear();
    const Comparison again = compareRuns(runs, Baseline::defaultFor(runs));
    model.sort(ComparisonModel::SpeedupColumn, Qt::DescendingOrder);
    model.setComparison(again);
    QVERIFY(model.isSortPending());
    QVERIFY(inComparisonOrder(model));
    model.setComparison(again);
    QVERIFY(settle());
    QCOMPARE(sorted.size(), 1);
    QVERIFY(sortedByNumber(model, ComparisonModel::SpeedupColumn, Qt::DescendingOrder));
    QVERIFY(!inComparisonOrder(model));

    // The comparison's order again: at once, whatever the number of pairs.
    model.sort(-1);
    QVERIFY(!model.isSortPending());
    QVERIFY(inComparisonOrder(model));
    model.setComparison({});
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.isSortPending()); // no sort column: nothing to find
}

void TestPairSort::offThreadBuildFillsPairsBeforeRebuilt()
{
    // A chart built off the GUI thread fills its pairs' table in a later event: rebuilt() and the end of
    // isRebuildPending() wait for it, and the table keeps the user's sort.
    const RunList runs = kixtest::allRuns();
    ChartPanel panel;
    panel.resize(1000, 700);
    panel.setAsyncThreshold(0);
    panel.setKind(ChartKind::Speedup);
    QTRY_VERIFY(!panel.isRebuildPending());
    auto* model = qobject_cast<ComparisonModel*>(panel.pairsView()->model());
    QVERIFY(model);
    panel.pairsView()->sortByColumn(ComparisonModel::SpeedupColumn, Qt::DescendingOrder);
    int landed = 0;
    int filled = 0;
    connect(&panel, &ChartPanel::rebuilt, this, [&] {
        ++landed;
        if (model->rowCount() == panel.info().comparison.pairs.size() && model->rowCount() > 0)
            ++filled;
    });
    panel.setRuns(runs, QStringLiteral("all"));
    panel.rebuildNow();
    QVERIFY(panel.isRebuildPending());
    QTRY_VERIFY(!panel.isRebuildPending());
    QCOMPARE(landed, 1);
    QCOMPARE(filled, 1);
    QVERIFY(panel.pairsView()->isVisibleTo(&panel));
    QVERIFY(sortedByNumber(*model, ComparisonModel::SpeedupColumn, Qt::DescendingOrder));
    QVERIFY(!inComparisonOrder(*model));
    // Another kind: the table goes, and holds no pairs.
    panel.setKind(ChartKind::Quantiles);
    QTRY_VERIFY(!panel.isRebuildPending());
    QVERIFY(!panel.pairsView()->isVisibleTo(&panel));
    QCOMPARE(model->rowCount(), 0);
}

KIX_TEST_MAIN(TestPairSort)
#include "tst_pairsort.moc"
