// SPDX-License-Identifier: Apache-2.0
// The run table model and its sort/filter proxy, under QAbstractItemModelTester.
#include "model/filter/runfilterproxy.h"
#include "model/filter/runtablemodel.h"
#include "model/read/documentparser.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace kix;

namespace {
QString dataPath(const QString& relative)
{
    return QStringLiteral(KIX_TEST_DATA_DIR "/model/") + relative;
}

RunList fixtureRuns()
{
    RunList runs;
    for (const QString& f : { QStringLiteral("good/array.json"), QStringLiteral("good/bundle.jsonl"),
             QStringLiteral("good/bom_crlf.json"), QStringLiteral("good/bare_run.json") })
        runs += parseFile(dataPath(f)).runs;
    return runs;
}
} // namespace

class TestRunTableModel : public QObject
{
    Q_OBJECT
private slots:
    void modelUnderTester();
    void duplicatesKeptOnce();
    void proxyFiltersAndSorts();
};

void TestRunTableModel::modelUnderTester()
{
    RunTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const RunList runs = fixtureRuns();
    QCOMPARE(runs.size(), 6);
    model.setRuns(runs.mid(0, 3));
    QCOMPARE(model.rowCount(), 3);
    model.appendRuns(runs.mid(3));
    QCOMPARE(model.rowCount(), 6);
    QCOMPARE(model.columnCount(), int(RunTableModel::ColumnCount));
    const QModelIndex median = model.index(0, RunTableModel::MedianColumn);
    QCOMPARE(median.data().toString(), QStringLiteral("425.856 µs"));
    QCOMPARE(median.data(RunTableModel::SortRole).toDouble(), 425856.0);
    QCOMPARE(model.index(0, RunTableModel::ProviderColumn).data().toString(), QStringLiteral("liger"));
    QCOMPARE(model.index(0, RunTableModel::SpreadColumn).data().toString(), QStringLiteral("0.05%"));
    QCOMPARE(model.index(0, 0).data(RunTableModel::RunRole).value<RunPtr>(), runs.first());
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestRunTableModel::duplicatesKeptOnce()
{
    RunTableModel model;
    const RunList runs = fixtureRuns();
    model.setRuns(runs);
    QCOMPARE(model.appendRuns(runs), runs.size());
    QCOMPARE(model.rowCount(), runs.size());
}

void TestRunTableModel::proxyFiltersAndSorts()
{
    RunTableModel model;
    RunFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRuns(fixtureRuns());
    proxy.setFilterText(QStringLiteral("channels1024"));
    QCOMPARE(proxy.rowCount(), 2);
    proxy.setFacet(Facet::Provider, { QStringLiteral("liger") });
    QCOMPARE(proxy.rowCount(), 1);
    QCOMPARE(proxy.visibleRuns().first()->median, 225344.0);
    proxy.clearFacets();
    // (not "HUGGINGFACE": words search names too, and these fixtures' liger runs carry a huggingface run's name)
    proxy.setFilterText(QStringLiteral("CHANNELS1024"));
    QCOMPARE(proxy.rowCount(), 2); // case-insensitive
    proxy.setFilterText(QString());
    proxy.setFacet(Facet::Provider, { QStringLiteral("huggingface") });
    QCOMPARE(proxy.rowCount(), 2);
    proxy.clearFacets();
    QCOMPARE(proxy.rowCount(), 6);
    proxy.sort(RunTableModel::MedianColumn, Qt::AscendingOrder);
    const RunList sorted = proxy.visibleRuns();
    for (int i = 1; i < sorted.size(); ++i)
        QVERIFY(sorted[i - 1]->median <= sorted[i]->median);
    QCOMPARE(sorted.first()->median, 71712.0);
}

QTEST_GUILESS_MAIN(TestRunTableModel)
#include "tst_runtablemodel.moc"
