// SPDX-License-Identifier: Apache-2.0
// Issue 20, point 8, on the real window at 1280×720 and 1600×1000: Details shows every value whole (wrapped, or
// elided with the full text as its tooltip) and copies it exactly; every chart kind marks the current run and none
// marks anything without one; a run's headline reads in one unit in the table, the chart's read-out and Details;
// Rank's title leaves no empty "· ·".
#include "model/read/documentparser.h"
#include "model/read/runloader.h"
#include "ui/charts/chartfactory.h"
#include "ui/charts/charthover.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/quantilechart.h"
#include "ui/charts/rankchart.h"
#include "ui/mainwindow.h"
#include "ui/panels/chartpanel.h"
#include "ui/panels/detailspane.h"
#include "ui/runsession.h"
#include "ui/runtableview.h"

#include "model/filter/runfilterproxy.h"
#include "model/filter/runtablemodel.h"
#include "tests/model/runfactory.h"
#include "tests/ui/uitestsupport.h"

#include "kix/config.h"

#include "tests/support/testmain.h"

#include <QAction>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChartView>
#include <QClipboard>
#include <QFile>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QLegendMarker>
#include <QPlainTextEdit>
#include <QScatterSeries>
#include <QStyle>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>

using namespace kix;

namespace {

const QString kLongNote = QStringLiteral(
    "measured on a shared node while another job held two of the eight GPUs, so the numbers of this run may read "
    "slower than the same kernel on an idle machine; rerun before trusting a verdict, and keep this note with it");
const QString kUnbroken = QStringLiteral("s3://benchmarks/") + QString(160, QLatin1Char('x')) + QStringLiteral("/end");

QTreeWidgetItem* fieldItem(QTreeWidget* tree, const QString& key)
{
    for (QTreeWidgetItemIterator it(tree); *it; ++it) {
        if ((*it)->parent() && (*it)->text(0) == key)
            return *it;
    }
    return nullptr;
}

RunList historyRuns()
{
    QStringList paths;
    for (const char* v : { "0.5.0", "0.6.0", "0.7.0", "0.8.0" })
        paths << QStringLiteral(KIX_TEST_DATA_DIR "/history/liger-%1.csv").arg(QLatin1String(v));
    return loadPaths(paths).runs;
}

RunList runsFor(ChartKind kind)
{
    return kind == ChartKind::History ? historyRuns() : kixtest::sweepRuns();
}

// A run every kind draws: a liger latency run (speed-up's default baseline is huggingface), the last one in time.
RunPtr drawnRun(const RunList& runs)
{
    RunPtr pick;
    for (const RunPtr& run : runs) {
        if (run->provider == QLatin1String("liger") && run->isLatency() && run->pass == QLatin1String("backward")
            && (!pick || pick->observedAt <= run->observedAt))
            pick = run;
    }
    return pick;
}

// Whether `at` is where the chart draws the run: a point of another series (line, verdict or rank marker), or for
// quantiles the median of the run's box, inside its category.
bool atTheRunsElement(QChart* chart, QScatterSeries* marker, const QPointF& at, const RunPtr& run)
{
    if (auto* q = dynamic_cast<QuantileChart*>(chart)) {
        for (QBoxPlotSeries* series : q->boxSeries()) {
            for (QBoxSet* set : series->boxSets()) {
                const QuantileBox* box = q->boxFor(set);
                if (box && box->run == run)
                    return qFuzzyCompare(set->at(QBoxSet::Median), at.y()) && std::abs(at.x() - box->group) < 0.5;
            }
        }
        return false;
    }
    for (QAbstractSeries* s : chart->series()) {
        auto* xy = qobject_cast<QXYSeries*>(s);
        if (!xy || xy == marker)
            continue;
        for (const QPointF& p : xy->points()) {
            if (qFuzzyCompare(p.x() + 1, at.x() + 1) && qFuzzyCompare(p.y() + 1, at.y() + 1))
                return true;
        }
    }
    return false;
}

} // namespace

class TestDetailsAndUnits : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { kixtest::isolateSettings(m_settings); }
    void detailsShowAndCopyWholeValues_data();
    void detailsShowAndCopyWholeValues();
    void currentRunMarkedInEveryChart_data();
    void currentRunMarkedInEveryChart();
    void oneUnitInTableReadoutAndDetails_data();
    void oneUnitInTableReadoutAndDetails();
    void rankTitleHasNoEmptySeparators();
    void jsonIsReadBackOrSaysWhyNot();

private:
    QTemporaryDir m_settings;
};

void TestDetailsAndUnits::detailsShowAndCopyWholeValues_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("1280x720") << QSize(1280, 720);
    QTest::newRow("1600x1000") << QSize(1600, 1000);
}

void TestDetailsAndUnits::detailsShowAndCopyWholeValues()
{
    QFETCH(QSize, size);
    auto run = std::make_shared<Run>(*kixtest::sweepRuns().front());
    run->labels << KeyValue { QStringLiteral("note"), kLongNote } << KeyValue { QStringLiteral("evidence"), kUnbroken };
    run->finalize();
    MainWindow w;
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.addRuns({ run });
    w.runTable()->setCurrentIndex(w.runTable()->model()->index(0, 0));
    DetailsPane* details = w.detailsPane();
    QCOMPARE(details->run(), RunPtr(run));
    QVERIFY(details->isVisible());
    QTreeWidget* tree = details->fields();
    QCoreApplication::processEvents(); // the tree lays out its rows

    // Every value: its full text in the item and as its tooltip; shown whole where its words wrap.
    const int margin = tree->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, tree) + 1;
    const int width = tree->header()->sectionSize(1) - 2 * margin;
    QVERIFY2(width > 100,
        qPrintable(QStringLiteral("%1 px of %2 (field %3)")
                       .arg(width)
                       .arg(tree->viewport()->width())
                       .arg(tree->header()->sectionSize(0))));
    int values = 0;
    for (QTreeWidgetItemIterator it(tree); *it; ++it) {
        QTreeWidgetItem* item = *it;
        if (!item->parent())
            continue;
        ++values;
        const QString full = item->toolTip(1);
        if (!full.isEmpty() && !full.contains(QStringLiteral(" ns)"))) // figures: the exact value in the tooltip
            QCOMPARE(item->text(1), full);
    }
    QVERIFY(values > 30);
    QTreeWidgetItem* note = fieldItem(tree, QStringLiteral("note"));
    QVERIFY(note);
    QCOMPARE(note->toolTip(1), kLongNote);
    const QRect rect = tree->visualItemRect(note);
    const QRect needed = tree->fontMetrics().boundingRect(QRect(0, 0, width, 100000), Qt::TextWordWrap, kLongNote);
    QVERIFY2(needed.height() > tree->fontMetrics().height(), "the note is longer than one line at this width");
    QVERIFY2(rect.height() >= needed.height(),
        qPrintable(QStringLiteral("row %1 px, wrapped note %2 px").arg(rect.height()).arg(needed.height())));
    // A long name without spaces (the external id) wraps after its / and - as drawn; the item keeps it exact.
    QTreeWidgetItem* id = fieldItem(tree, QStringLiteral("external id"));
    QVERIFY(id);
    QCOMPARE(id->text(1), run->externalId);
    const QRect idNeeded = tree->fontMetrics().boundingRect(
        QRect(0, 0, width, 100000), Qt::TextWordWrap, DetailsPane::breakable(run->externalId));
    QVERIFY(idNeeded.width() <= width);
    QVERIFY2(tree->visualItemRect(id).height() >= idNeeded.height(),
        qPrintable(QStringLiteral("row %1 px, wrapped id %2 px")
                       .arg(tree->visualItemRect(id).height())
                       .arg(idNeeded.height())));
    QTreeWidgetItem* evidence = fieldItem(tree, QStringLiteral("evidence"));
    QVERIFY(evidence);
    QCOMPARE(evidence->toolTip(1), kUnbroken); // too wide to wrap: elided in the view, whole a hover away
    QCOMPARE(tree->textElideMode(), Qt::ElideMiddle);

    // Copy: the exact value, Ctrl+C and the action alike; a digest copies alone; "Copy all" has every field.
    QClipboard* clipboard = QGuiApplication::clipboard();
    clipboard->clear();
    tree->setFocus();
    tree->setCurrentItem(note, 1, QItemSelectionModel::ClearAndSelect);
    details->copyAction()->trigger();
    QCOMPARE(clipboard->text(), kLongNote);
    tree->setCurrentItem(evidence, 1, QItemSelectionModel::ClearAndSelect);
    QTest::keySequence(tree, QKeySequence::Copy);
    QCOMPARE(clipboard->text(), kUnbroken);
    QTreeWidgetItem* digest = fieldItem(tree, QStringLiteral("workload"));
    QVERIFY(digest && digest->text(1).startsWith(run->workloadDigest + QStringLiteral(" — ")));
    tree->setCurrentItem(digest, 1, QItemSelectionModel::ClearAndSelect);
    details->copyAction()->trigger();
    QCOMPARE(clipboard->text(), run->workloadDigest);
    tree->setCurrentItem(note, 1, QItemSelectionModel::ClearAndSelect); // several rows: field and value a line
    tree->setCurrentItem(evidence, 1, QItemSelectionModel::Select);
    details->copyAction()->trigger();
    QCOMPARE(clipboard->text(), QStringLiteral("note\t") + kLongNote + QStringLiteral("\nevidence\t") + kUnbroken);
    details->copyAllAction()->trigger();
    const QString all = clipboard->text();
    for (const QString& part : { kLongNote, kUnbroken, run->externalId, run->workloadDigest, run->protocolNotes })
        QVERIFY2(all.contains(part), qPrintable(part));
    QVERIFY(all.contains(QStringLiteral("  note: ") + kLongNote));
}

void TestDetailsAndUnits::currentRunMarkedInEveryChart_data()
{
    QTest::addColumn<ChartKind>("kind");
    for (ChartKind kind :
        { ChartKind::Quantiles, ChartKind::Sweep, ChartKind::Speedup, ChartKind::History, ChartKind::Rank })
        QTest::newRow(qPrintable(chartKindName(kind))) << kind;
}

void TestDetailsAndUnits::currentRunMarkedInEveryChart()
{
    QFETCH(ChartKind, kind);
    const RunList runs = runsFor(kind);
    const RunPtr current = drawnRun(runs);
    QVERIFY(current);
    ChartOptions options;
    ChartInfo info;
    const std::unique_ptr<QChart> plain = buildChart(kind, runs, options, &info);
    QVERIFY(!info.isEmpty);
    QVERIFY(!ChartStyle::currentRunMarker(plain.get())); // no current run: no marker
    options.currentRun = kixtest::makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 64, 1000);
    QVERIFY(!ChartStyle::currentRunMarker(buildChart(kind, runs, options, nullptr).get())); // one not drawn: none

    options.currentRun = current;
    options.cohortRun = current;
    const std::unique_ptr<QChart> chart = buildChart(kind, runs, options, nullptr);
    QScatterSeries* marker = ChartStyle::currentRunMarker(chart.get());
    QVERIFY(marker);
    QCOMPARE(marker->count(), 1);
    QVERIFY2(atTheRunsElement(chart.get(), marker, marker->at(0), current),
        qPrintable(QStringLiteral("marker at %1, %2").arg(marker->at(0).x()).arg(marker->at(0).y())));
    // drawn over the run, named in the legend
    QCOMPARE(chart->series().back(), static_cast<QAbstractSeries*>(marker));
    const QList<QLegendMarker*> legend = chart->legend()->markers(marker);
    QCOMPARE(legend.size(), 1);
    QCOMPARE(legend.front()->label(), QStringLiteral("current run"));
    QCOMPARE(marker->property("runLabel").toString(), ChartStyle::currentRunLabel(*current));
    QVERIFY(marker->property("runLabel").toString().startsWith(QStringLiteral("current run: liger · ")));
    // hovering the ring reads out the run's element, as hovering the element would
    QString readout;
    connect(ChartHover::of(chart.get()), &ChartHover::hovered, this, [&](const QString& t) { readout = t; });
    emit marker->hovered(marker->at(0), true);
    QVERIFY2(readout.contains(formatValue(*current, current->median)), qPrintable(readout));
}

void TestDetailsAndUnits::oneUnitInTableReadoutAndDetails_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<ChartKind>("kind");
    for (const QSize& size : { QSize(1280, 720), QSize(1600, 1000) })
        for (ChartKind kind : { ChartKind::Quantiles, ChartKind::Sweep, ChartKind::Speedup, ChartKind::Rank })
            QTest::addRow("%dx%d %s", size.width(), size.height(), qPrintable(chartKindName(kind))) << size << kind;
}

void TestDetailsAndUnits::oneUnitInTableReadoutAndDetails()
{
    QFETCH(QSize, size);
    QFETCH(ChartKind, kind);
    // The chart's axis reads in ms (most medians are); the current run's headline is 950 µs.
    RunList runs;
    for (double channels : { 64.0, 128.0, 256.0 }) {
        runs << kixtest::makeRun(
            QStringLiteral("huggingface"), QStringLiteral("NVIDIA B200"), channels, 3e6 * channels / 64);
        runs << kixtest::makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), channels,
            channels == 128 ? 950000 : 2e6 * channels / 64);
    }
    const RunPtr current = runs[3];
    QCOMPARE(current->median, 950000.0);
    MainWindow w;
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.addRuns(runs);
    w.chartPanel()->setKind(kind);
    const QModelIndex row = w.session()
                                ->proxy()
                                ->match(w.session()->proxy()->index(0, 0), RunTableModel::RunRole,
                                    QVariant::fromValue(current), 1, Qt::MatchExactly)
                                .value(0);
    QVERIFY(row.isValid());
    w.runTable()->setCurrentIndex(row);
    QVERIFY(QTest::qWaitFor(
        [&] {
            return w.chartPanel()->runs().size() == w.session()->proxy()->rowCount()
                && !w.chartPanel()->isRebuildPending();
        },
        5000));
    w.chartPanel()->rebuildNow();

    const QString table = row.siblingAtColumn(RunTableModel::MedianColumn).data().toString();
    QCOMPARE(table, QStringLiteral("950 µs"));
    QTreeWidgetItem* details = fieldItem(w.detailsPane()->fields(), QStringLiteral("median"));
    QVERIFY(details);
    QCOMPARE(details->text(1), table);
    QVERIFY(details->parent()->text(0).contains(QStringLiteral("(µs)")));
    QVERIFY(!w.chartPanel()->chartView()->grab().isNull()); // the chart with its marker paints
    QScatterSeries* marker = ChartStyle::currentRunMarker(w.chartPanel()->chart());
    QVERIFY2(marker,
        qPrintable(
            QStringLiteral("%1 runs charted, current %2, details %3")
                .arg(w.chartPanel()->runs().size())
                .arg(w.chartPanel()->options().currentRun ? w.chartPanel()->options().currentRun->provider : QString())
                .arg(w.detailsPane()->run() == current)));
    // the read-out line names the current run while nothing is hovered
    QVERIFY2(w.chartPanel()
                 ->findChild<QLabel*>(QStringLiteral("chartReadout"))
                 ->text()
                 .contains(QStringLiteral("◎ current run: liger · B200 · backward")),
        qPrintable(w.chartPanel()->findChild<QLabel*>(QStringLiteral("chartReadout"))->text()));
    emit marker->hovered(marker->at(0), true); // the read-out of the current run's element
    const QString readout = w.chartPanel()->readoutText();
    QVERIFY2(readout.contains(table), qPrintable(readout));
    QVERIFY2(!readout.contains(QStringLiteral("0.95 ms")), qPrintable(readout));
}

void TestDetailsAndUnits::rankTitleHasNoEmptySeparators()
{
    // A leaderboard's runs: no pass, no workload slug.
    RunList runs;
    for (int i = 0; i < 3; ++i) {
        auto run = std::make_shared<Run>();
        run->kernel = QStringLiteral("nvfp4_group_gemm");
        run->provider = QStringLiteral("submission-%1").arg(i);
        run->gpuProduct = QStringLiteral("NVIDIA B200");
        run->protocolFamily = QStringLiteral("gpumode_kernelbot");
        run->metric = Run::Metric::Other;
        run->headlineMetric = QStringLiteral("score");
        run->headlineStatistic = QStringLiteral("geomean");
        run->unit = QStringLiteral("s");
        run->status = QStringLiteral("passed");
        run->median = 0.001 * (i + 1);
        run->externalId = QStringLiteral("submission/%1").arg(i);
        run->finalize();
        runs << run;
    }
    ChartInfo info;
    const std::unique_ptr<QChart> chart = buildChart(ChartKind::Rank, runs, {}, &info);
    auto* rank = dynamic_cast<RankChart*>(chart.get());
    QVERIFY(rank);
    QCOMPARE(rank->cohort().entries.size(), 3);
    const QString title = chart->title();
    QVERIFY2(title.startsWith(QStringLiteral("<b>Rank — nvfp4_group_gemm · B200</b>")), qPrintable(title));
    QVERIFY2(title.contains(QStringLiteral("best: submission-0 1 ms")), qPrintable(title)); // as the table reads it
    for (const QString& empty : { QStringLiteral("· ·"), QStringLiteral("·  ·"), QStringLiteral("— ·") })
        QVERIFY2(!title.contains(empty), qPrintable(title));
    // the latency charts' titles too: runs without a pass
    RunList passless;
    for (double channels : { 64.0, 128.0 })
        passless << kixtest::makeRun(
            QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), channels, 1000 * channels, 0.01, {});
    for (ChartKind kind : { ChartKind::Quantiles, ChartKind::Sweep }) {
        const QString latency = buildChart(kind, passless, {}, nullptr)->title();
        QVERIFY2(latency.contains(QStringLiteral("group_norm · B200")), qPrintable(latency));
        QVERIFY2(
            !latency.contains(QStringLiteral("· ·")) && !latency.contains(QStringLiteral("·  ·")), qPrintable(latency));
    }
}

void TestDetailsAndUnits::jsonIsReadBackOrSaysWhyNot()
{
    // a run of a file that is one document keeps no copy of its text: the pane reads it back, or names the file
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("run.json"));
    QVERIFY(QFile::copy(
        QStringLiteral(KIX_SOURCE_DIR "/resources/runs/group_norm-backward-huggingface-nvidia-b200.json"), path));
    const ParseResult first = parseFile(path);
    const ParseResult second = parseFile(path);
    QCOMPARE(first.runs.size(), 1);
    QCOMPARE(second.runs.size(), 1);
    QVERIFY(!second.runs[0]->raw.inMemory());
    DetailsPane pane;
    pane.setRun(first.runs[0]);
    const QString json = pane.rawJson()->toPlainText();
    QVERIFY2(json.startsWith(QStringLiteral("{\n  \"")) && json.contains(QStringLiteral("\"BenchmarkRun\"")),
        qPrintable(json.left(200)));
    QVERIFY(QFile::remove(path));
    pane.setRun(second.runs[0]); // not read back before the file went
    const QString why = pane.rawJson()->toPlainText();
    QVERIFY2(why.startsWith(path + QStringLiteral(": cannot read the run back")), qPrintable(why));
    pane.setRun(first.runs[0]); // read back before: kept
    QCOMPARE(pane.rawJson()->toPlainText(), json);
}

KIX_TEST_MAIN(TestDetailsAndUnits)
#include "tst_detailsandunits.moc"
