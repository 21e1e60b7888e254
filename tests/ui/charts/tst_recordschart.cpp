// SPDX-License-Identifier: Apache-2.0
// The Records chart: a cohort's record ledger (recordTimelines) drawn as a staircase over time, one marker per
// record, hover naming who set it, the cohort chosen like Rank's, standings beside the plot, a log axis when the
// records span decades, and the export; in the chart panel as the Records kind (Ctrl+7).
#include "ui/charts/chartexporter.h"
#include "ui/charts/chartfactory.h"
#include "ui/charts/charthover.h"
#include "ui/charts/recordschart.h"
#include "ui/panels/chartpanel.h"

#include "tests/model/runfactory.h"

#include "tests/support/testmain.h"

#include <QAction>
#include <QComboBox>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace kix;

namespace {

RunPtr dated(std::shared_ptr<Run> run, int day, const char* author, const char* project = "")
{
    run->observedAt = QDateTime(QDate(2026, 5, day), QTime(12, 0), Qt::UTC);
    RunLinks links;
    links.authors = QStringList { QString::fromLatin1(author) };
    links.project = QString::fromLatin1(project);
    run->linked = RunLinks::share(links);
    run->finalize();
    return run;
}

// Two cohorts (channels 2048 and 4096 on a B200): in the first, ann sets 1000 on day 1, bo is slower, cy takes it
// with 800 on day 3, dee only equals it on day 4; in the second ann alone.
RunList ledgerRuns()
{
    const QString gpu = QStringLiteral("NVIDIA B200");
    return { dated(kixtest::makeRun(QStringLiteral("c"), gpu, 2048, 800), 3, "cy", "cyproj"),
        dated(kixtest::makeRun(QStringLiteral("a"), gpu, 2048, 1000), 1, "ann", "annproj"),
        dated(kixtest::makeRun(QStringLiteral("b"), gpu, 2048, 1200), 2, "bo"),
        dated(kixtest::makeRun(QStringLiteral("d"), gpu, 2048, 800), 4, "dee"),
        dated(kixtest::makeRun(QStringLiteral("a"), gpu, 4096, 500), 5, "ann", "annproj") };
}

double ms(int day)
{
    return double(QDateTime(QDate(2026, 5, day), QTime(12, 0), Qt::UTC).toMSecsSinceEpoch());
}

} // namespace

class TestRecordsChart : public QObject
{
    Q_OBJECT
private slots:
    void staircaseIsTheTimeline();
    void hoverNamesTheHolder();
    void cohortIsChosen();
    void logAxisAcrossDecades();
    void standingsBesideThePlot();
    void exports();
    void exportLedgerDisagreementShown();
    void panelKind();
};

void TestRecordsChart::staircaseIsTheTimeline()
{
    const RunList runs = ledgerRuns();
    ChartOptions options;
    options.cohort = QStringLiteral("channels2048");
    ChartInfo info;
    std::unique_ptr<QChart> chart = buildChart(ChartKind::Records, runs, options, &info);
    auto* records = dynamic_cast<RecordsChart*>(chart.get());
    QVERIFY(records);
    QVERIFY(!info.isEmpty);
    // The chart draws the ledger recordTimelines makes for that cohort, step for step.
    const Records ledger = recordTimelines(runs);
    const RecordTimeline* expected = nullptr;
    for (const RecordTimeline& t : ledger.timelines)
        if (t.key.id() == records->timeline().key.id())
            expected = &t;
    QVERIFY(expected);
    QCOMPARE(expected->steps.size(), 2);
    QCOMPARE(records->markers()->count(), int(expected->steps.size()));
    for (int i = 0; i < expected->steps.size(); ++i)
        QCOMPARE(records->markers()->at(i),
            QPointF(double(expected->steps[i].at.toMSecsSinceEpoch()), records->plotted(expected->steps[i].value)));
    // Drawn in the unit that suits the values, as the run table reads them: 1000 ns is 1 µs.
    QCOMPARE(records->plotted(1000), 1.0);
    QVERIFY(records->valueAxis()->titleText().contains(QStringLiteral("(µs)")));
    // The staircase: ann's 1000 holds until cy's 800 on day 3, which holds until the cohort's last run (day 4).
    const QList<QPointF> stairs = records->staircase()->points();
    const QList<QPointF> want { { ms(1), 1.0 }, { ms(3), 1.0 }, { ms(3), 0.8 }, { ms(4), 0.8 } };
    QCOMPARE(stairs, want);
    QVERIFY(!records->isLogY());
    QVERIFY(records->title().contains(QStringLiteral("held now by cy")));
}

void TestRecordsChart::hoverNamesTheHolder()
{
    ChartOptions options;
    options.cohort = QStringLiteral("channels2048");
    std::unique_ptr<QChart> chart = buildChart(ChartKind::Records, ledgerRuns(), options);
    auto* records = dynamic_cast<RecordsChart*>(chart.get());
    QVERIFY(records);
    QSignalSpy hovered(ChartHover::of(records), &ChartHover::hovered);
    emit records->markers()->hovered(records->markers()->at(1), true);
    QCOMPARE(hovered.size(), 1);
    const QString text = hovered.front().front().toString();
    QVERIFY2(text.contains(QStringLiteral("Record 2 of 2: cy")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("800 ns")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("2026-05-03")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("1.250× (20.0% better) over ann")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("holds the record now")), qPrintable(text));
    // On the line between two records: the record in effect there (ann's, on day 2).
    emit records->staircase()->hovered(QPointF(ms(2), 1000), true);
    const QString between = hovered.back().front().toString();
    QVERIFY2(between.startsWith(QStringLiteral("Record 1 of 2: ann")), qPrintable(between));
    QVERIFY2(between.contains(QStringLiteral("held until 2026-05-03")), qPrintable(between));
    emit records->markers()->hovered(records->markers()->at(0), false);
    QVERIFY(hovered.back().front().toString().isEmpty());
}

void TestRecordsChart::cohortIsChosen()
{
    const RunList runs = ledgerRuns();
    ChartInfo info;
    std::unique_ptr<QChart> chart = buildChart(ChartKind::Records, runs, ChartOptions {}, &info);
    QCOMPARE(info.cohortIds.size(), 2);
    // The default: the cohort with the most records (2048: two), listed first.
    QCOMPARE(info.cohort, info.cohortIds.front());
    QVERIFY(info.cohorts.front().contains(QStringLiteral("(2 records)")));
    ChartOptions second;
    second.cohort = info.cohortIds.back();
    ChartInfo info2;
    chart = buildChart(ChartKind::Records, runs, second, &info2);
    QCOMPARE(info2.cohort, info.cohortIds.back());
    QCOMPARE(dynamic_cast<RecordsChart*>(chart.get())->timeline().steps.size(), 1);
    // The current run's cohort when none is chosen.
    ChartOptions current;
    current.cohortRun = runs.back(); // ann's 4096
    ChartInfo info3;
    buildChart(ChartKind::Records, runs, current, &info3);
    QCOMPARE(info3.cohort, CohortKey::of(*runs.back()).id());
    // Nothing ranked: nothing to draw, said so.
    ChartInfo none;
    buildChart(ChartKind::Records, {}, ChartOptions {}, &none);
    QVERIFY(none.isEmpty);
}

void TestRecordsChart::logAxisAcrossDecades()
{
    const QString gpu = QStringLiteral("NVIDIA B200");
    const RunList runs { dated(kixtest::makeRun(QStringLiteral("a"), gpu, 2048, 50'000), 1, "ann"),
        dated(kixtest::makeRun(QStringLiteral("b"), gpu, 2048, 2'000), 2, "bo"),
        dated(kixtest::makeRun(QStringLiteral("c"), gpu, 2048, 90), 3, "cy") };
    std::unique_ptr<QChart> chart = buildChart(ChartKind::Records, runs, ChartOptions {});
    auto* records = dynamic_cast<RecordsChart*>(chart.get());
    QVERIFY(records->isLogY());
    QVERIFY(qobject_cast<QLogValueAxis*>(records->valueAxis()));
    QCOMPARE(records->markers()->count(), 3);
}

void TestRecordsChart::standingsBesideThePlot()
{
    std::unique_ptr<QChart> chart = buildChart(ChartKind::Records, ledgerRuns(), ChartOptions {});
    auto* records = dynamic_cast<RecordsChart*>(chart.get());
    const QString text = records->standingsText();
    // Over both cohorts: ann holds one record now (4096) and set two; cy holds one and set one.
    QVERIFY2(text.contains(QStringLiteral("ann now 1 ever 2")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("cy now 1 ever 1")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("per project")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("annproj now 1 ever 2")), qPrintable(text));
    // Drawn right of the plot, inside the chart (an export carries it).
    records->resize(1200, 700);
    QTRY_VERIFY(records->plotArea().width() > 0);
    QVERIFY(records->standingsItem()->pos().x() > records->plotArea().right());
    QVERIFY(records->standingsItem()->pos().x() + records->standingsItem()->boundingRect().width() <= 1200 + 1);
}

void TestRecordsChart::exports()
{
    QTemporaryDir dir;
    for (const QString& name : { QStringLiteral("records.png"), QStringLiteral("records.svg") }) {
        QString error;
        const QString path = dir.filePath(name);
        QVERIFY2(ChartExporter::exportChart(
                     buildChart(ChartKind::Records, ledgerRuns(), ChartOptions {}), path, QSize(1200, 800), 96, &error),
            qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(bytes.size() > 1000);
        if (name.endsWith(QLatin1String(".svg")))
            QVERIFY(bytes.contains("annproj")); // the standings are in the export
    }
}

void TestRecordsChart::exportLedgerDisagreementShown()
{
    // One strict cohort whose runs carry the export's ledger (record_events): it credits bo, kix cy.
    RunList runs;
    std::vector<std::shared_ptr<Run>> own; // the runs, to give them the export's ledger
    const char* authors[] = { "ann", "bo", "cy" };
    const double values[] = { 1000, 1200, 800 };
    for (int i = 0; i < 3; ++i) {
        auto run = kixtest::makeRun(QString::fromLatin1(authors[i]), QStringLiteral("NVIDIA B200"), 2048, values[i]);
        run->observedAt = QDateTime(QDate(2026, 5, i + 1), QTime(12, 0), Qt::UTC);
        run->runDigest = QStringLiteral("sha256:%1").arg(i + 1, 64, 10, QLatin1Char('0'));
        RunLinks links;
        links.authors = QStringList { QString::fromLatin1(authors[i]) };
        links.comparisonKey = QStringLiteral("sha256:%1").arg(QStringLiteral("cd").repeated(32));
        run->linked = RunLinks::share(links);
        run->finalize();
        runs << run;
        own.push_back(run);
    }
    const QString key = runs[0]->links().comparisonKey.toString();
    auto first = std::make_shared<QVector<ExportedRecord>>();
    first->append({ key, QStringLiteral("2026-05-01T12:00:00.000Z"), QString() });
    own[0]->exportedRecords = first;
    auto second = std::make_shared<QVector<ExportedRecord>>();
    second->append({ key, QStringLiteral("2026-05-02T12:00:00.000Z"), runs[0]->runDigest.toString() });
    own[1]->exportedRecords = second;
    ChartInfo info;
    std::unique_ptr<QChart> chart = buildChart(ChartKind::Records, runs, ChartOptions {}, &info);
    QVERIFY(!info.warnings.isEmpty());
    QVERIFY2(info.warnings.front().contains(QStringLiteral("disagrees with the export's record_events: record 2: "
                                                           "the export credits bo")),
        qPrintable(info.warnings.join(QLatin1Char('\n'))));
    QVERIFY(chart->title().contains(QStringLiteral("disagrees with the export")));
    // Agreeing: said in the subtitle, no warning.
    second->replace(0, { key, QStringLiteral("2026-05-03T12:00:00.000Z"), runs[0]->runDigest.toString() });
    own[1]->exportedRecords.reset();
    own[2]->exportedRecords = second;
    ChartInfo agreeing;
    chart = buildChart(ChartKind::Records, runs, ChartOptions {}, &agreeing);
    QVERIFY(agreeing.warnings.isEmpty());
    QVERIFY(chart->title().contains(QStringLiteral("the same ledger as the export's record_events")));
}

void TestRecordsChart::panelKind()
{
    ChartPanel panel;
    panel.resize(1200, 800);
    panel.show();
    const RunList runs = ledgerRuns();
    panel.setRuns(runs, QStringLiteral("5 runs"));
    QCOMPARE(panel.kindActions().size(), chartKindCount);
    QCOMPARE(panel.kindActions().at(int(ChartKind::Records))->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_7));
    panel.kindActions().at(int(ChartKind::Records))->trigger();
    QCOMPARE(panel.kind(), ChartKind::Records);
    QTRY_VERIFY(!panel.isRebuildPending());
    auto* records = dynamic_cast<RecordsChart*>(panel.chart());
    QVERIFY(records);
    QVERIFY(panel.cohortChooser()->isVisible()); // two cohorts
    QCOMPARE(panel.cohortChooser()->count(), 2);
    // Another cohort from the chooser, as the user picks it.
    panel.cohortChooser()->setCurrentIndex(1);
    emit panel.cohortChooser()->activated(1);
    QTRY_VERIFY(!panel.isRebuildPending());
    records = dynamic_cast<RecordsChart*>(panel.chart());
    QCOMPARE(records->timeline().steps.size(), 1);
    // The read-out names the holder under the mouse.
    emit records->markers()->hovered(records->markers()->at(0), true);
    QVERIFY2(panel.readoutText().contains(QStringLiteral("ann")), qPrintable(panel.readoutText()));
    QVERIFY(panel.readoutText().contains(QStringLiteral("the cohort's first record")));
}

KIX_TEST_MAIN(TestRecordsChart)
#include "tst_recordschart.moc"
