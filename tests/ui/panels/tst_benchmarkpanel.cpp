// SPDX-License-Identifier: Apache-2.0
// The Benchmark panel runs a tiny CPU benchmark offscreen, the run shows in the window's table, and a cancelled
// job leaves no file behind.
#include "engine/benchmarkrequest.h"
#include "engine/benchmarkrunner.h"
#include "model/filter/runtablemodel.h"
#include "model/read/documentparser.h"
#include "ui/mainwindow.h"
#include "ui/models/diagnosticsmodel.h"
#include "ui/panelinstall.h"
#include "ui/panels/benchmarkpanel.h"
#include "ui/panels/issuespanel.h"
#include "ui/runsession.h"

#include "tests/engine/smallcpu.h"

#include "tests/support/testmain.h"

#include <QCheckBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace kix;

class TestBenchmarkPanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void formMakesSpecs();
    void badFormSaysWhy();
    void sweepIsTheBenchGrammar();
    void emptyCudaListSaysWhy();
    void runShowsInTheTable();
    void refusedDocumentReachesIssues();
    void cancelLeavesNothing();
    void cancelAtEveryStageLeavesAUsablePanel_data();
    void cancelAtEveryStageLeavesAUsablePanel();
};

namespace {
void tinyForm(BenchmarkPanel& panel, const QString& folder)
{
    panel.shapeEdit()->setText(QStringLiteral("2,16,8"));
    panel.channelsPerGroupBox()->setValue(4);
    panel.passBox(1)->setChecked(false);
    panel.passBox(2)->setChecked(false);
    panel.warmupBox()->setValue(0);
    panel.repBox()->setValue(1);
    panel.setResultsFolder(folder);
}
} // namespace

void TestBenchmarkPanel::formMakesSpecs()
{
    BenchmarkRunner runner;
    BenchmarkPanel panel(&runner);
    panel.sweepEdit()->setText(QStringLiteral("32,64,128"));
    panel.dtypeBox(1)->setChecked(true);
    QString error;
    const QVector<BenchmarkSpec> specs = panel.specs(&error);
    QVERIFY(error.isEmpty());
    QCOMPARE(specs.size(), 3 * 2 * 3); // passes × dtypes × channels
    QCOMPARE(specs.first().batch, qint64(128));
    QCOMPARE(specs.first().channels, qint64(32));
    QCOMPARE(specs.last().channels, qint64(128));
    QCOMPARE(specs.last().pass, Pass::Full);
    QCOMPARE(specs.last().dtype, DType::BF16);
}

// The panel and `kix bench --sweep` share one grammar and one expansion (engine/benchmarkrequest.h).
void TestBenchmarkPanel::sweepIsTheBenchGrammar()
{
    BenchmarkRunner runner;
    BenchmarkPanel panel(&runner);
    panel.passBox(1)->setChecked(false);
    panel.passBox(2)->setChecked(false);
    panel.dtypeBox(2)->setChecked(true);
    panel.sweepEdit()->setText(QStringLiteral("32,64,...,256 hidden=8,16"));
    QString error;
    const QVector<BenchmarkSpec> specs = panel.specs(&error);
    QVERIFY2(error.isEmpty(), qPrintable(error));

    BenchmarkRequest request;
    request.base = specs.first();
    request.base.channels = 2048; // the form's shape
    request.base.hidden = 512;
    request.passes = { Pass::Forward };
    request.dtypes = { DType::F32, DType::F16 };
    QString message;
    SweepAxis channels, hidden;
    QVERIFY(parseSweepAxis(QStringLiteral("channels=32,64,...,256"), channels, message));
    QVERIFY(parseSweepAxis(QStringLiteral("hidden=8,16"), hidden, message));
    request.sweeps = { channels, hidden };
    const QVector<BenchmarkSpec> expected = expandRequest(request);
    QCOMPARE(specs.size(), 4 * 2 * 2); // channels × hidden × dtypes
    QCOMPARE(specs.size(), expected.size());
    for (int i = 0; i < specs.size(); ++i) {
        QCOMPARE(specs[i].workloadSlug(), expected[i].workloadSlug());
        QCOMPARE(specs[i].pass, expected[i].pass);
    }

    panel.sweepEdit()->setText(QStringLiteral("32,x"));
    QVERIFY(panel.specs(&error).isEmpty());
    QVERIFY2(error.contains(QStringLiteral("'x' is not a positive integer")), qPrintable(error));
    panel.sweepEdit()->setText(QStringLiteral("depth=1,2"));
    QVERIFY(panel.specs(&error).isEmpty());
    QVERIFY2(error.contains(QStringLiteral("unknown key 'depth'")), qPrintable(error));
}

void TestBenchmarkPanel::badFormSaysWhy()
{
    BenchmarkRunner runner;
    BenchmarkPanel panel(&runner);
    panel.shapeEdit()->setText(QStringLiteral("128,abc,512"));
    QString error;
    QVERIFY(panel.specs(&error).isEmpty());
    QVERIFY(error.contains(QStringLiteral("M,C,H")));
    panel.start();
    QCOMPARE(panel.statusLabel()->text(), error);
    QVERIFY(panel.runButton()->isEnabled());
}

// Without a usable GPU (here, CI) the device list has no CUDA entry and the panel gives the reason.
void TestBenchmarkPanel::emptyCudaListSaysWhy()
{
    BenchmarkRunner runner;
    bool hasCuda = false;
    for (const DeviceInfo& d : runner.devices())
        hasCuda = hasCuda || d.backend == QLatin1String("cuda");
    BenchmarkPanel panel(&runner);
    if (hasCuda) {
        QVERIFY(!panel.cudaNote());
        QSKIP("a CUDA device is present: nothing to explain");
    }
    QVERIFY(panel.cudaNote());
    const QString reason = runner.deviceProblem(QStringLiteral("cuda"));
    QVERIFY(!reason.isEmpty());
    QVERIFY(panel.cudaNote()->text().contains(reason));
    QVERIFY(
        reason.contains(QStringLiteral("cudaError")) || reason.contains(QStringLiteral("without the CUDA backend")));
}

void TestBenchmarkPanel::runShowsInTheTable()
{
    QTemporaryDir dir;
    MainWindow window;
    BenchmarkPanel* panel = installBenchmarkPanel(window, new BenchmarkRunner(test::smallCpuRegistry()));
    tinyForm(*panel, dir.path());
    QSignalSpy ready(panel, &BenchmarkPanel::runsReady);
    panel->runButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(panel->runButton()->isEnabled(), 60000);
    QVERIFY2(ready.count() == 1, qPrintable(panel->statusLabel()->text()));
    const QStringList files = QDir(dir.path()).entryList({ QStringLiteral("*.json") }, QDir::Files);
    QCOMPARE(files.size(), 1);
    // the file on disk is a valid run, and the same run is in the window's table
    const ParseResult parsed = parseFile(QDir(dir.path()).filePath(files.first()));
    QCOMPARE(parsed.runs.size(), 1);
    QCOMPARE(parsed.runs.first()->source, QStringLiteral("kix-engine"));
    QCOMPARE(parsed.runs.first()->pass, QStringLiteral("forward"));
    QCOMPARE(parsed.runs.first()->workloadSlug, QStringLiteral("batch2-channels16-channels_per_group4-hidden8-fp32"));
    const RunList inTable = window.session()->model()->runs();
    QCOMPARE(inTable.size(), 1);
    QCOMPARE(inTable.first()->externalId, parsed.runs.first()->externalId);
    QVERIFY(panel->statusLabel()->text().startsWith(QStringLiteral("Done: 1 run(s)")));
}

// A document the engine wrote but the model refuses is an issue the user sees, not a run that silently vanishes.
void TestBenchmarkPanel::refusedDocumentReachesIssues()
{
    QTemporaryDir dir;
    MainWindow window;
    BenchmarkPanel* panel = installBenchmarkPanel(window, new BenchmarkRunner(test::smallCpuRegistry()));
    auto* runner = window.findChild<BenchmarkRunner*>();
    QVERIFY(runner);
    tinyForm(*panel, dir.path());
    QSignalSpy started(runner, &BenchmarkRunner::started);
    panel->runButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(panel->runButton()->isEnabled(), 60000);
    QCOMPARE(started.count(), 1);
    const int job = started.first().at(0).toInt();
    DiagnosticsModel* issues = window.session()->diagnostics();
    const int before = issues->rowCount();
    QCOMPARE(window.session()->model()->runs().size(), 1);

    QSignalSpy found(panel, &BenchmarkPanel::issuesFound);
    BenchmarkResult refused;
    refused.status = BenchmarkResult::Status::Passed;
    refused.document = nlohmann::json { { "apiVersion", "kernelindex/v1" }, { "run", { { "spec", 42 } } } };
    refused.filePath = dir.filePath(QStringLiteral("refused.json"));
    emit runner->resultReady(job, refused);

    QCOMPARE(found.count(), 1);
    const Diagnostics diagnostics = found.first().at(0).value<Diagnostics>();
    QVERIFY(!diagnostics.isEmpty());
    QVERIFY(diagnostics.first().isError());
    QCOMPARE(diagnostics.first().file, refused.filePath);
    QVERIFY(issues->rowCount() > before);
    QVERIFY(panel->statusLabel()->text().contains(QStringLiteral("refused")));
    QCOMPARE(window.session()->model()->runs().size(), 1); // nothing added
}

void TestBenchmarkPanel::cancelLeavesNothing()
{
    QTemporaryDir dir;
    BenchmarkRunner runner(test::smallCpuRegistry());
    BenchmarkPanel panel(&runner);
    tinyForm(panel, dir.path());
    panel.shapeEdit()->setText(QStringLiteral("16,2048,512"));
    panel.repBox()->setValue(60000); // a minute of repetitions: cancel stops it long before
    QSignalSpy finished(&runner, &BenchmarkRunner::finished);
    panel.start();
    QVERIFY(!panel.runButton()->isEnabled());
    QTest::qWait(200);
    panel.cancelButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    QCOMPARE(finished.first().at(1).toBool(), true);
    QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::NoDotAndDotDot).isEmpty());
    QVERIFY(panel.statusLabel()->text().startsWith(QStringLiteral("Cancelled")));
}

void TestBenchmarkPanel::cancelAtEveryStageLeavesAUsablePanel_data()
{
    QTest::addColumn<QString>("stage");
    for (const char* stage : { "correctness", "warm-up", "timing", "writing" })
        QTest::newRow(stage) << QString::fromLatin1(stage);
}

// The Cancel button pressed at each stage of a run (the backend presses it from the worker at that stage): the
// panel says cancelled, no partial or temporary file is left, and Run works again.
void TestBenchmarkPanel::cancelAtEveryStageLeavesAUsablePanel()
{
    QFETCH(QString, stage);
    QTemporaryDir dir;
    BenchmarkPanel* target = nullptr;
    auto backend = std::make_unique<test::StagedCpuBackend>(
        stage, [&target] { QMetaObject::invokeMethod(target->cancelButton(), "click", Qt::BlockingQueuedConnection); });
    BenchmarkRunner runner(test::smallCpuRegistry(std::move(backend)));
    BenchmarkPanel panel(&runner);
    target = &panel;
    tinyForm(panel, dir.path());
    panel.passBox(1)->setChecked(true); // two specs: the second must not run
    panel.warmupBox()->setValue(1); // a warm-up stage to cancel in
    QSignalSpy finished(&runner, &BenchmarkRunner::finished);
    QSignalSpy ready(&panel, &BenchmarkPanel::runsReady);
    panel.start();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    QCOMPARE(finished.first().at(1).toBool(), true);
    QTRY_VERIFY(panel.runButton()->isEnabled());
    QVERIFY(!panel.cancelButton()->isEnabled());
    QVERIFY2(
        panel.statusLabel()->text().startsWith(QStringLiteral("Cancelled")), qPrintable(panel.statusLabel()->text()));
    const QStringList left = QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
    // only a run that had finished measuring is kept, whole: its document and the raw-samples file it names
    const QStringList documents = QDir(dir.path()).entryList({ QStringLiteral("*.json") }, QDir::Files);
    QCOMPARE(documents.size(), stage == QLatin1String("writing") ? 1 : 0);
    QCOMPARE(left.size(), stage == QLatin1String("writing") ? 2 : 0);
    for (const QString& name : documents)
        QCOMPARE(parseFile(QDir(dir.path()).filePath(name)).runs.size(), 1);
    // usable: Run again goes to the end
    finished.clear();
    panel.passBox(1)->setChecked(false);
    panel.runButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    QCOMPARE(finished.first().at(1).toBool(), false);
    QTRY_VERIFY(panel.statusLabel()->text().startsWith(QStringLiteral("Done: 1 run(s)")));
}

KIX_TEST_MAIN(TestBenchmarkPanel)
#include "tst_benchmarkpanel.moc"
