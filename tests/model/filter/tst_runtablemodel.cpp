// SPDX-License-Identifier: Apache-2.0
// The run table model and its sort/filter proxy, under QAbstractItemModelTester.
#include "model/filter/runfilterproxy.h"
#include "model/filter/runtablemodel.h"
#include "model/read/documentparser.h"

#include "tests/model/runfactory.h"

#include "tests/support/testfiles.h"
#include "tests/support/testmain.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace kix;

namespace {
RunList fixtureRuns()
{
    RunList runs;
    for (const QString& f : { QStringLiteral("good/array.json"), QStringLiteral("good/bundle.jsonl"),
             QStringLiteral("good/bom_crlf.json"), QStringLiteral("good/bare_run.json") })
        runs += parseFile(kixtest::modelDataPath(f)).runs;
    return runs;
}

// A headline of another metric than latency: memory in MB, or a leaderboard's geomean score.
std::shared_ptr<Run> otherRun(const QString& provider, Run::Metric metric, double value)
{
    auto run = kixtest::makeRun(provider, QStringLiteral("NVIDIA B200"), 64, value);
    run->metric = metric;
    run->headlineMetric = metric == Run::Metric::Other ? QStringLiteral("score") : QString();
    run->unit = metric == Run::Metric::Memory ? QStringLiteral("MB") : QString();
    run->headlineStatistic = metric == Run::Metric::Other ? QStringLiteral("geomean") : QStringLiteral("median");
    run->externalId += run->metricName();
    run->finalize();
    return run;
}

// The runs sorted by `column` are grouped by metric (each metric's rows contiguous), ordered by value within each.
void verifyGroupedByMetric(const RunFilterProxy& proxy, int column, Qt::SortOrder order)
{
    QStringList seen;
    QString previous;
    double last = 0;
    for (int row = 0; row < proxy.rowCount(); ++row) {
        const RunPtr run = proxy.index(row, 0).data(RunTableModel::RunRole).value<RunPtr>();
        const QString metric = run->metricName() + QLatin1Char('/') + run->unit;
        const double value = proxy.index(row, column).data(RunTableModel::SortRole).toDouble();
        if (metric != previous) {
            QVERIFY2(
                !seen.contains(metric), qPrintable(QStringLiteral("%1 interleaves at row %2").arg(metric).arg(row)));
            seen << metric;
            previous = metric;
        } else if (!std::isnan(value) && !std::isnan(last)) {
            QVERIFY2(order == Qt::AscendingOrder ? last <= value : last >= value, qPrintable(metric));
        }
        last = value;
    }
    QVERIFY(seen.size() >= 3);
}
} // namespace

class TestRunTableModel : public QObject
{
    Q_OBJECT
private slots:
    void modelUnderTester();
    void duplicatesKeptOnce();
    void proxyFiltersAndSorts();
    void oneUnitPerFigure_data();
    void oneUnitPerFigure();
    void headlineColumnIsNamedForWhatItHolds();
    void headlineSortKeepsMetricsApart();
    void namesShownWhereTheFormatHasThem();
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
    // Duplicates within one batch too, into room reserved beforehand: each run once, in the order first seen.
    model.clear();
    model.reserve(2 * runs.size());
    QCOMPARE(model.appendRuns(runs.mid(0, 2) + runs.mid(0, 2)), 2);
    QCOMPARE(model.appendRuns(runs + runs.mid(1, 1)), 3);
    QCOMPARE(model.rowCount(), runs.size());
    for (int row = 0; row < runs.size(); ++row)
        QCOMPARE(model.runAt(row), runs[row]);
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

void TestRunTableModel::oneUnitPerFigure_data()
{
    QTest::addColumn<double>("median"); // ns
    QTest::addColumn<QString>("medianText");
    QTest::addColumn<QString>("p20Text");
    QTest::addColumn<QString>("p80Text");
    // p20/p80 1% either side; each row reads in its headline's unit, even where p20 alone would read in another
    QTest::newRow("µs (Liger CSV 0.425856 ms)")
        << 425856.0 << QStringLiteral("425.856 µs") << QStringLiteral("421.597 µs") << QStringLiteral("430.115 µs");
    QTest::newRow("ms, p20 below 1 ms") << 1000000.0 << QStringLiteral("1 ms") << QStringLiteral("0.99 ms")
                                        << QStringLiteral("1.01 ms");
    QTest::newRow("µs, p80 above 1 ms") << 999000.0 << QStringLiteral("999 µs") << QStringLiteral("989.01 µs")
                                        << QStringLiteral("1008.99 µs");
    QTest::newRow("ns") << 950.0 << QStringLiteral("950 ns") << QStringLiteral("940.5 ns")
                        << QStringLiteral("959.5 ns");
}

void TestRunTableModel::oneUnitPerFigure()
{
    QFETCH(double, median);
    QFETCH(QString, medianText);
    QFETCH(QString, p20Text);
    QFETCH(QString, p80Text);
    const RunPtr run = kixtest::makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 64, median);
    RunTableModel model;
    model.setRuns({ run });
    QCOMPARE(model.index(0, RunTableModel::MedianColumn).data().toString(), medianText);
    QCOMPARE(model.index(0, RunTableModel::P20Column).data().toString(), p20Text);
    QCOMPARE(model.index(0, RunTableModel::P80Column).data().toString(), p80Text);
    QCOMPARE(formatValue(*run, run->median), model.index(0, RunTableModel::MedianColumn).data().toString());
    QCOMPARE(runTimeScale(*run, run->p80).unit, medianText.section(QLatin1Char(' '), 1));
    QCOMPARE(formatValue(*run, std::numeric_limits<double>::quiet_NaN()), QString());
    // other metrics: their own unit, or none
    QCOMPARE(
        formatValue(*otherRun(QStringLiteral("liger"), Run::Metric::Memory, 2048), 2048), QStringLiteral("2048 MB"));
    QCOMPARE(formatValue(*otherRun(QStringLiteral("a"), Run::Metric::Other, 0.00123456789), 0.00123456789),
        QStringLiteral("0.00123457"));
}

void TestRunTableModel::headlineColumnIsNamedForWhatItHolds()
{
    RunTableModel model;
    model.setRuns({ otherRun(QStringLiteral("alice"), Run::Metric::Other, 11.43),
        otherRun(QStringLiteral("liger"), Run::Metric::Memory, 100.5) });
    QCOMPARE(model.headerData(RunTableModel::MedianColumn, Qt::Horizontal).toString(), QStringLiteral("Headline"));
    QVERIFY(model.headerData(RunTableModel::MedianColumn, Qt::Horizontal, Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("geomean")));
    // the statistic in the cell when it is not a median, metric and statistic in the tooltip
    QCOMPARE(model.index(0, RunTableModel::MedianColumn).data().toString(), QStringLiteral("11.43 (geomean)"));
    QCOMPARE(model.index(0, RunTableModel::MedianColumn).data(Qt::ToolTipRole).toString(),
        QStringLiteral("11.43 (score geomean)"));
    QCOMPARE(model.index(1, RunTableModel::MedianColumn).data().toString(), QStringLiteral("100.5 MB"));
    QCOMPARE(model.index(1, RunTableModel::MedianColumn).data(Qt::ToolTipRole).toString(),
        QStringLiteral("100.5 MB (memory median)"));
    // a leaderboard's geomean time in seconds reads as a time, in its headline's unit
    const auto seconds = otherRun(QStringLiteral("bob"), Run::Metric::Other, 1.0048658277929109e-05);
    seconds->unit = QStringLiteral("s");
    seconds->finalize();
    model.setRuns({ seconds });
    QCOMPARE(model.index(0, RunTableModel::MedianColumn).data().toString(), QStringLiteral("10.0487 µs (geomean)"));
    QCOMPARE(formatValue(*seconds, 2e-6), QStringLiteral("2 µs")); // in the headline's unit
    QCOMPARE(figureUnit(*seconds), QStringLiteral("µs"));
    QCOMPARE(figureUnit(*otherRun(QStringLiteral("liger"), Run::Metric::Memory, 100.5)), QStringLiteral("MB"));
}

void TestRunTableModel::headlineSortKeepsMetricsApart()
{
    // Raw values that interleave across metrics: 120 MB between 110 and 130 ns, a score of 125 among them.
    RunList runs;
    for (double v : { 130.0, 110.0, 2e6, 900.0 })
        runs << kixtest::makeRun(QStringLiteral("p%1").arg(v), QStringLiteral("NVIDIA B200"), v, v);
    for (double v : { 120.0, 3000.0, 1.0 })
        runs << otherRun(QStringLiteral("m%1").arg(v), Run::Metric::Memory, v);
    for (double v : { 125.0, 0.5, 1e4 })
        runs << otherRun(QStringLiteral("s%1").arg(v), Run::Metric::Other, v);
    // and the fixtures of the formats: Liger's latency and memory rows, the catalog's scores and throughput
    runs += parseFile(QStringLiteral(KIX_TEST_DATA_DIR "/ui/liger-mini.csv")).runs;
    runs += parseFile(QStringLiteral(KIX_TEST_DATA_DIR "/model/catalog/catalog-fixture.jsonl")).runs;
    RunTableModel model;
    RunFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRuns(runs);
    for (int column :
        { int(RunTableModel::MedianColumn), int(RunTableModel::P20Column), int(RunTableModel::P80Column) }) {
        for (Qt::SortOrder order : { Qt::AscendingOrder, Qt::DescendingOrder }) {
            proxy.sort(column, order);
            verifyGroupedByMetric(proxy, column, order);
            if (QTest::currentTestFailed())
                return;
        }
    }
    proxy.sort(RunTableModel::MedianColumn, Qt::AscendingOrder);
    QCOMPARE(proxy.index(0, 0).data(RunTableModel::RunRole).value<RunPtr>()->metricName(), QStringLiteral("latency"));
    QCOMPARE(proxy.index(0, RunTableModel::MedianColumn).data().toString(), QStringLiteral("110 ns"));
}

// A leaderboard submission as the catalog links it: the table shows the operation's title (slug on hover), the
// author, and the suite's title where the run has no workload slug.
void TestRunTableModel::namesShownWhereTheFormatHasThem()
{
    auto run = otherRun(QStringLiteral("kernelbot-submission-555004"), Run::Metric::Other, 1.0e-5);
    run->kernel = QStringLiteral("gpumode-causal-conv1d");
    run->workloadSlug.clear();
    RunLinks links;
    links.operationTitle = QStringLiteral("Causal depthwise conv1d");
    links.authors = QStringList { QStringLiteral("brandonin") };
    links.workloadTitle = QStringLiteral("suite of 4 cases");
    run->linked = RunLinks::share(links);
    RunTableModel model;
    model.setRuns({ run });
    auto text = [&](int column, int role = Qt::DisplayRole) { return model.index(0, column).data(role).toString(); };
    QCOMPARE(text(RunTableModel::KernelColumn), QStringLiteral("Causal depthwise conv1d"));
    QCOMPARE(text(RunTableModel::KernelColumn, Qt::ToolTipRole), QStringLiteral("gpumode-causal-conv1d"));
    QCOMPARE(text(RunTableModel::AuthorColumn), QStringLiteral("brandonin"));
    QCOMPARE(text(RunTableModel::WorkloadColumn), QStringLiteral("suite of 4 cases"));
    QCOMPARE(text(RunTableModel::WorkloadColumn, Qt::ToolTipRole), QStringLiteral("suite of 4 cases"));
    model.setWorkloadKeys({ QStringLiteral("channels") }); // the table's workload keys (a sweep in view)
    QCOMPARE(text(RunTableModel::WorkloadColumn), QStringLiteral("suite of 4 cases"));
    QCOMPARE(model.headerData(RunTableModel::AuthorColumn, Qt::Horizontal).toString(), QStringLiteral("Author"));

    run->workloadSlug = QStringLiteral("batch4-seq2048"); // a slug wins over the title
    QCOMPARE(RunTableModel::displayText(*run, RunTableModel::WorkloadColumn), QStringLiteral("batch4-seq2048"));
}

KIX_TEST_GUILESS_MAIN(TestRunTableModel)
#include "tst_runtablemodel.moc"
