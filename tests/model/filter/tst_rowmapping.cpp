// SPDX-License-Identifier: Apache-2.0
// The run table's rows built off the GUI thread (computeRowMapping, RunFilterProxy over a worker) equal a plain
// synchronous computation: a QSortFilterProxyModel with the comparison the table sorted by before (kix 0.x's
// RunFilterProxy::lessThan), for several filters and every sort column, both directions; a result for an older
// request never lands.
#include "model/filter/rowmapping.h"
#include "model/filter/runfilterproxy.h"
#include "model/filter/runtablemodel.h"
#include "model/read/documentparser.h"
#include "model/workload.h"

#include "tests/model/runfactory.h"

#include "tests/support/testmain.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>
#include <QThread>

using namespace kix;

namespace {

// The reference: Qt's own sort/filter proxy, sorting stably with the table's comparison as it was written for it.
class ReferenceProxy : public QSortFilterProxyModel
{
public:
    ReferenceProxy() { setSortRole(RunTableModel::SortRole); }
    void setRunFilter(const RunFilter& filter)
    {
        m_filter = filter;
        invalidate();
    }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex&) const override
    {
        const RunPtr run = sourceModel()->index(sourceRow, 0).data(RunTableModel::RunRole).value<RunPtr>();
        return run && m_filter.matches(*run);
    }
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override
    {
        const RunPtr a = left.data(RunTableModel::RunRole).value<RunPtr>();
        const RunPtr b = right.data(RunTableModel::RunRole).value<RunPtr>();
        const int column = left.column();
        if (column == RunTableModel::WorkloadColumn)
            return compareWorkloads(*a, *b) < 0;
        if (column == RunTableModel::MedianColumn || column == RunTableModel::P20Column
            || column == RunTableModel::P80Column) {
            if (a->isLatency() != b->isLatency())
                return a->isLatency();
            int c = QString::compare(a->metricName(), b->metricName(), Qt::CaseInsensitive);
            if (c == 0)
                c = QString::compare(a->unit, b->unit, Qt::CaseInsensitive);
            if (c != 0)
                return c < 0;
        }
        const QVariant l = left.data(sortRole());
        const QVariant r = right.data(sortRole());
        if (l.typeId() == QMetaType::Double && r.typeId() == QMetaType::Double) {
            const double x = l.toDouble();
            const double y = r.toDouble();
            if (std::isnan(x) || std::isnan(y))
                return !std::isnan(x) && std::isnan(y);
            return x < y;
        }
        if (l.typeId() == QMetaType::QDateTime && r.typeId() == QMetaType::QDateTime)
            return l.toDateTime() < r.toDateTime();
        return QString::compare(l.toString(), r.toString(), Qt::CaseInsensitive) < 0;
    }

private:
    RunFilter m_filter;
};

// Runs with ties, empty cells, mixed case, three metrics and unparsed workloads, in an order unrelated to any key.
RunList variedRuns()
{
    const QStringList providers
        = { QStringLiteral("liger"), QStringLiteral("Liger"), QStringLiteral("torch"), QStringLiteral("TRITON") };
    const QStringList gpus = { QStringLiteral("NVIDIA B200"), QStringLiteral("NVIDIA H100 80GB HBM3"), QString() };
    const QStringList passes = { QStringLiteral("forward"), QStringLiteral("backward"), QStringLiteral("full") };
    RunList runs;
    for (int i = 0; i < 1500; ++i) {
        const quint32 mix = quint32(i) * 2654435761u;
        const double channels = 32 << ((mix >> 5) % 6);
        const double median = (mix >> 9) % 7 == 0 ? std::nan("") : double((mix >> 11) % 40) * 100; // ties, NaN
        auto run = kixtest::makeRun(providers[int(mix % 4)], gpus[int((mix >> 3) % 3)], channels, median,
            (mix >> 14) % 5 == 0 ? -1 : 0.01 * double((mix >> 16) % 9), passes[int((mix >> 19) % 3)]);
        if (run->gpuProduct.isEmpty())
            run->gpuSlug = QStringLiteral("gpu-%1").arg(mix % 3); // the GPU column falls back to the slug
        if ((mix >> 21) % 10 == 0) {
            run->metric = Run::Metric::Memory;
            run->unit = (mix >> 24) % 2 ? QStringLiteral("MB") : QStringLiteral("mb");
        } else if ((mix >> 21) % 10 == 1) {
            run->metric = Run::Metric::Other;
            run->headlineMetric = QStringLiteral("score");
            run->unit = QStringLiteral("s");
        }
        if ((mix >> 23) % 4 == 0)
            run->workload.append(
                { QStringLiteral("mode"), (mix >> 25) % 2 ? QStringLiteral("a") : QStringLiteral("B") });
        if ((mix >> 26) % 3 != 0)
            run->observedAt = QDateTime(QDate(2026, 1, 1 + int((mix >> 27) % 5)), QTime(0, 0), Qt::UTC);
        if ((mix >> 28) % 3 == 0)
            run->measurements.append({ QStringLiteral("bandwidth"), QStringLiteral("mean"), QStringLiteral("GB/s"),
                double((mix >> 10) % 13) * 100 });
        run->dtype = (mix >> 29) % 2 ? QStringLiteral("fp32") : QStringLiteral("BF16");
        run->status = (mix >> 30) % 2 ? QStringLiteral("passed") : QStringLiteral("timeout");
        run->file = QStringLiteral("f%1.json").arg(i % 17);
        run->externalId += QStringLiteral("/%1").arg(i);
        run->finalize();
        runs << run;
    }
    runs += parseFile(QStringLiteral(KIX_TEST_DATA_DIR "/ui/liger-mini.csv")).runs;
    runs += parseFile(QStringLiteral(KIX_TEST_DATA_DIR "/model/catalog/catalog-fixture.jsonl")).runs;
    return runs;
}

RunList referenceRows(RunTableModel& model, const RunFilter& filter, int column, Qt::SortOrder order)
{
    ReferenceProxy reference;
    reference.setSourceModel(&model);
    reference.setRunFilter(filter);
    reference.sort(column, order);
    RunList out;
    for (int row = 0; row < reference.rowCount(); ++row)
        out << reference.index(row, 0).data(RunTableModel::RunRole).value<RunPtr>();
    return out;
}

RunList rowsOf(const QAbstractItemModel& proxy)
{
    RunList out;
    for (int row = 0; row < proxy.rowCount(); ++row)
        out << proxy.index(row, 0).data(RunTableModel::RunRole).value<RunPtr>();
    return out;
}

RunFilter filterOf(const QString& text, const QSet<QString>& providers = {})
{
    RunFilter filter;
    filter.setText(text);
    if (!providers.isEmpty())
        filter.setFacet(Facet::Provider, providers);
    return filter;
}

} // namespace

class TestRowMapping : public QObject
{
    Q_OBJECT
private slots:
    void equalsSynchronousReference();
    void narrowingAndKeptSortAreExact();
    void proxyOffThreadEqualsReference();
    void olderRequestNeverLands();
    void appendedRowsAreSortedIn();
    void indexFollowsAppendsAndResets();
};

void TestRowMapping::equalsSynchronousReference()
{
    const RunList runs = variedRuns();
    RunTableModel model;
    model.setRuns(runs);
    QVERIFY(model.rowCount() > 1500);
    const QList<RunFilter> filters = { RunFilter(), filterOf(QStringLiteral("backward")),
        filterOf(QStringLiteral("liger b200")), filterOf(QString(), { QStringLiteral("torch") }) };
    for (const RunFilter& filter : filters) {
        for (int column = -1; column < RunTableModel::ColumnCount; ++column) {
            for (Qt::SortOrder order : { Qt::AscendingOrder, Qt::DescendingOrder }) {
                RowMappingInput in;
                in.runs = model.runs();
                in.filter = filter;
                in.sortColumn = column;
                in.order = order;
                const RowMapping mapping = computeRowMapping(in);
                const RunList expected = referenceRows(model, filter, column, order);
                QVERIFY(mapping.complete);
                const QString what
                    = QStringLiteral("filter \"%1\" column %2 order %3").arg(filter.text()).arg(column).arg(int(order));
                QVERIFY2(mapping.visible == expected, qPrintable(what));
                QCOMPARE(mapping.toSource.size(), size_t(expected.size()));
                for (size_t p = 0; p < mapping.toSource.size(); ++p)
                    QCOMPARE(mapping.fromSource[size_t(mapping.toSource[p])], int(p));
                QCOMPARE(std::count(mapping.fromSource.begin(), mapping.fromSource.end(), -1),
                    std::ptrdiff_t(runs.size() - expected.size()));
            }
        }
    }
    // The filters tell the rows apart, and the sorts reorder them (else the comparisons above prove little).
    QVERIFY(referenceRows(model, filters[1], -1, Qt::AscendingOrder).size() < model.rowCount());
    QVERIFY(referenceRows(model, filters[2], -1, Qt::AscendingOrder).size() > 10);
    QVERIFY(referenceRows(model, {}, RunTableModel::MedianColumn, Qt::DescendingOrder) != model.runs());
}

void TestRowMapping::narrowingAndKeptSortAreExact()
{
    RunTableModel model;
    model.setRuns(variedRuns());
    for (int column : { int(RunTableModel::ProviderColumn), int(RunTableModel::MedianColumn),
             int(RunTableModel::WorkloadColumn), int(RunTableModel::ObservedAtColumn) }) {
        RowMappingInput all;
        all.runs = model.runs();
        all.sortColumn = column;
        all.order = Qt::DescendingOrder;
        const RowMapping sortedAll = computeRowMapping(all);
        QVERIFY(sortedAll.sortedAll); // every row sorted: kept for the next filter change
        RowMappingInput wide = all;
        wide.filter = filterOf(QStringLiteral("b"));
        const RowMapping first = computeRowMapping(wide);
        RowMappingInput narrow = all;
        narrow.filter = filterOf(QStringLiteral("backward b200"));
        narrow.narrowFrom = std::make_shared<const std::vector<int>>(first.fromSource);
        narrow.sortedAll = sortedAll.sortedAll;
        const RunList expected = referenceRows(model, narrow.filter, column, Qt::DescendingOrder);
        QVERIFY(expected.size() > 0);
        QCOMPARE(computeRowMapping(narrow).visible, expected);
    }
    // A cancelled build says so.
    RowMappingInput in;
    in.runs = model.runs();
    in.filter = filterOf(QStringLiteral("liger"));
    in.sortColumn = RunTableModel::KernelColumn;
    QVERIFY(!computeRowMapping(in, [] { return true; }).complete);
}

void TestRowMapping::proxyOffThreadEqualsReference()
{
    RunTableModel model;
    RunFilterProxy proxy;
    proxy.setAsyncThreshold(0); // every change in a worker
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRuns(variedRuns());
    for (const QString& text :
        { QStringLiteral("back"), QStringLiteral("backward"), QStringLiteral("backward b200"), QString() }) {
        for (int column :
            { -1, int(RunTableModel::KernelColumn), int(RunTableModel::GpuColumn), int(RunTableModel::MedianColumn),
                int(RunTableModel::SpreadColumn), int(RunTableModel::WorkloadColumn) }) {
            proxy.setFilterText(text);
            proxy.sort(column, Qt::DescendingOrder);
            if (!text.isEmpty() || column >= 0)
                QVERIFY(proxy.isFilterPending());
            QTRY_VERIFY(!proxy.isFilterPending());
            const RunList expected = referenceRows(model, filterOf(text), column, Qt::DescendingOrder);
            QCOMPARE(rowsOf(proxy), expected);
            QCOMPARE(proxy.visibleRuns(), expected);
            if (!expected.isEmpty()) { // mapped both ways
                const QModelIndex source = proxy.mapToSource(proxy.index(expected.size() - 1, 2));
                QCOMPARE(model.runAt(source.row()), expected.last());
                QCOMPARE(proxy.mapFromSource(source), proxy.index(expected.size() - 1, 2));
            }
        }
    }
}

void TestRowMapping::olderRequestNeverLands()
{
    RunTableModel model;
    RunFilterProxy proxy;
    proxy.setAsyncThreshold(0);
    proxy.setSourceModel(&model);
    model.setRuns(variedRuns());
    // Whenever the rows change and nothing is pending, they are the latest request's: never an older one's.
    int checked = 0;
    QString failure;
    auto check = [&] {
        if (proxy.isFilterPending() || !failure.isEmpty())
            return;
        ++checked;
        if (rowsOf(proxy) != referenceRows(model, proxy.runFilter(), proxy.sortColumn(), proxy.sortOrder()))
            failure = QStringLiteral("rows of another request for \"%1\"").arg(proxy.runFilter().text());
    };
    connect(&proxy, &QAbstractItemModel::modelReset, this, check);
    const int forward = referenceRows(model, filterOf(QStringLiteral("forward")), -1, Qt::AscendingOrder).size();
    const int liger = referenceRows(model, filterOf(QStringLiteral("backward liger")), -1, Qt::AscendingOrder).size();
    QVERIFY(forward != liger);
    int forwardShown = 0;
    connect(&proxy, &QAbstractItemModel::modelReset, this, [&] { forwardShown += proxy.rowCount() == forward; });
    QSignalSpy applied(&proxy, &RunFilterProxy::filterApplied);
    proxy.setFilterText(QStringLiteral("forward"));
    proxy.setFilterText(QStringLiteral("backward liger")); // before the first result is handled
    QTRY_VERIFY(!proxy.isFilterPending());
    QCOMPARE(forwardShown, 0);
    QCOMPARE(applied.count(), 1);
    QCOMPARE(proxy.rowCount(), liger);
    // A result the worker finished but the GUI thread has not handled yet when a newer request comes: dropped too.
    proxy.setFilterText(QStringLiteral("forward"));
    QThread::msleep(300); // (if the worker is slower, the newer request cancels it: dropped either way)
    proxy.setFilterText(QStringLiteral("backward"));
    QTRY_VERIFY(!proxy.isFilterPending());
    QCOMPARE(forwardShown, 0);
    QCOMPARE(applied.count(), 2);
    QCOMPARE(rowsOf(proxy), referenceRows(model, filterOf(QStringLiteral("backward")), -1, Qt::AscendingOrder));
    // Typing with the event loop turning at every pace: each key may land or be superseded, the last one wins.
    const QString text = QStringLiteral("group_norm backward b200");
    for (int i = 1; i <= text.size(); ++i) {
        proxy.setFilterText(text.left(i));
        if (i % 3 == 0)
            proxy.sort(i % 2 ? RunTableModel::MedianColumn : RunTableModel::ProviderColumn, Qt::SortOrder(i % 2));
        for (int k = 0; k < i % 4; ++k)
            QCoreApplication::processEvents();
        if (i % 5 == 0)
            QTRY_VERIFY(!proxy.isFilterPending());
    }
    QTRY_VERIFY(!proxy.isFilterPending());
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QVERIFY(checked >= 5);
    QCOMPARE(proxy.runFilter().text(), text);
    QCOMPARE(rowsOf(proxy), referenceRows(model, filterOf(text), proxy.sortColumn(), proxy.sortOrder()));
}

void TestRowMapping::appendedRowsAreSortedIn()
{
    const RunList runs = variedRuns();
    for (int threshold : { 0, 1'000'000 }) { // off the thread, and at once
        RunTableModel model;
        RunFilterProxy proxy;
        proxy.setAsyncThreshold(threshold);
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setFilterText(QStringLiteral("backward"));
        proxy.sort(RunTableModel::MedianColumn, Qt::AscendingOrder);
        QTRY_VERIFY(!proxy.isFilterPending());
        for (qsizetype at = 0; at < runs.size(); at += 200) { // chunks, as a load appends them
            model.appendRuns(runs.mid(at, 200));
            if (threshold > 0)
                QVERIFY(!proxy.isFilterPending());
            QCoreApplication::processEvents();
        }
        QTRY_VERIFY(!proxy.isFilterPending());
        QCOMPARE(rowsOf(proxy),
            referenceRows(
                model, filterOf(QStringLiteral("backward")), RunTableModel::MedianColumn, Qt::AscendingOrder));
    }
}

void TestRowMapping::indexFollowsAppendsAndResets()
{
    // The proxy's filter index is built ahead, extended after appends and dropped on a reset, whenever those come
    // relative to the filter changes: the rows are always the reference's.
    const RunList runs = variedRuns();
    RunTableModel model;
    RunFilterProxy proxy;
    proxy.setAsyncThreshold(0);
    proxy.setSourceModel(&model);
    model.setRuns(runs.mid(0, runs.size() / 3));
    QTest::qWait(500); // (the index may or may not be built ahead by now: the rows are right either way)
    const QStringList texts = { QStringLiteral("backward"), QStringLiteral("b200"), QStringLiteral("liger b200"),
        QStringLiteral("channels>=1024"), QString() };
    for (int step = 0; step < 6; ++step) {
        if (step == 3)
            model.setRuns(runs.mid(runs.size() / 2)); // other rows: an index of the old ones must not be used
        else
            model.appendRuns(runs.mid(step * 50, 50));
        if (step % 2)
            QCoreApplication::processEvents();
        for (const QString& text : texts) {
            proxy.setFilterText(text);
            QTRY_VERIFY(!proxy.isFilterPending());
            QCOMPARE(rowsOf(proxy), referenceRows(model, filterOf(text), -1, Qt::AscendingOrder));
        }
        if (step == 4)
            QTest::qWait(500);
    }
}

KIX_TEST_GUILESS_MAIN(TestRowMapping)
#include "tst_rowmapping.moc"
