// SPDX-License-Identifier: Apache-2.0
// The window under abuse: a second load while the first is running, closing while a load or a benchmark runs.
// Nothing crashes or hangs, nothing partial is written, and what the window shows afterwards is consistent.
#include "model/filter/runtablemodel.h"
#include "ui/mainwindow.h"
#include "ui/panelinstall.h"
#include "ui/panels/benchmarkpanel.h"
#include "ui/runsession.h"

#include "tests/ui/uitestsupport.h"

#include "kix/config.h"
#include "model/read/runloader.h"

#include "tests/support/testmain.h"

#include <condition_variable>
#include <mutex>

#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

using namespace kix;

namespace {

// `count` distinct copies of the seed run in a folder: a load that takes a while.
void writeRunFolder(const QString& folder, int count, const QString& prefix)
{
    QFile seedFile(QStringLiteral(KIX_SOURCE_DIR "/resources/runs/group_norm-backward-huggingface-nvidia-b200.json"));
    QVERIFY(seedFile.open(QIODevice::ReadOnly));
    const QByteArray seed = seedFile.readAll();
    const QByteArray marker = "2026-02-28-00-23-31";
    QVERIFY(QDir().mkpath(folder));
    for (int i = 0; i < count; ++i) {
        QByteArray doc = seed;
        doc.replace(marker, QByteArray(marker + '-' + prefix.toUtf8() + QByteArray::number(i)));
        QFile f(QDir(folder).filePath(QStringLiteral("%1%2.json").arg(prefix).arg(i)));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(doc);
    }
}

} // namespace

class TestWindowFaults : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void openWhileLoading();
    void closeDuringALoad();
    void closeDuringABenchmark();

private:
    QTemporaryDir m_settings;
    QTemporaryDir m_data;
};

void TestWindowFaults::initTestCase()
{
    kixtest::isolateSettings(m_settings);
    writeRunFolder(m_data.filePath(QStringLiteral("big")), 1500, QStringLiteral("big"));
    writeRunFolder(m_data.filePath(QStringLiteral("small")), 3, QStringLiteral("small"));
}

// A second folder opened while the first still loads: the window ends with both, once each, and a third open
// after a cancel loads only what was asked after it.
void TestWindowFaults::openWhileLoading()
{
    MainWindow window;
    window.show();
    QSignalSpy finished(window.session(), &RunSession::loadFinished);
    window.openPaths({ m_data.filePath(QStringLiteral("big")) });
    QVERIFY(window.session()->isLoading());
    window.openPaths({ m_data.filePath(QStringLiteral("small")) });
    window.openPaths({ m_data.filePath(QStringLiteral("small")) }); // the same again: its runs are duplicates
    QTRY_VERIFY_WITH_TIMEOUT(!window.session()->isLoading(), 120000);
    QCOMPARE(window.session()->model()->rowCount(), 1500 + 3);

    window.session()->clear();
    window.openPaths({ m_data.filePath(QStringLiteral("big")) });
    window.session()->cancel();
    window.openPaths({ m_data.filePath(QStringLiteral("small")) });
    QTRY_VERIFY_WITH_TIMEOUT(!window.session()->isLoading(), 120000);
    QTest::qWait(50); // a stale result of the cancelled load would arrive now
    QCOMPARE(window.session()->model()->rowCount(), 3);
}

// Closing the window cancels its load instead of waiting for it. The loader's probe holds every loading thread
// once `heldAt` files are parsed, the window closes, then the threads go on: a cancelled load stops within a file
// per thread, a load that closing waited for would parse all 1,500 files.
void TestWindowFaults::closeDuringALoad()
{
    for (int heldAt : { 1, 100, 1000 }) {
        struct Gate
        {
            std::mutex mutex;
            std::condition_variable changed;
            bool held = false;
            bool released = false;
            int lastDone = 0;
            int total = 0;
        };
        auto gate = std::make_shared<Gate>();
        auto* window = new MainWindow;
        window->show();
        auto* loader = window->findChild<RunLoader*>();
        QVERIFY(loader);
        loader->setProgressProbe([gate, heldAt](int done, int total) {
            std::unique_lock<std::mutex> lock(gate->mutex);
            gate->lastDone = std::max(gate->lastDone, done);
            gate->total = total;
            if (done >= heldAt && !gate->released) {
                gate->held = true;
                gate->changed.notify_all();
                gate->changed.wait_for(lock, std::chrono::seconds(60), [&] { return gate->released; });
            }
        });
        window->openPaths({ m_data.filePath(QStringLiteral("big")) });
        {
            std::unique_lock<std::mutex> lock(gate->mutex);
            QVERIFY(gate->changed.wait_for(lock, std::chrono::seconds(60), [&] { return gate->held; }));
        }
        window->close();
        {
            std::lock_guard<std::mutex> lock(gate->mutex);
            gate->released = true;
            gate->changed.notify_all();
        }
        delete window; // waits for the cancelled load
        std::lock_guard<std::mutex> lock(gate->mutex);
        QCOMPARE(gate->total, 1500);
        QVERIFY2(gate->lastDone < gate->total,
            qPrintable(QStringLiteral("closing at %1 files waited until %2 of %3 were parsed")
                           .arg(heldAt)
                           .arg(gate->lastDone)
                           .arg(gate->total)));
    }
    QCoreApplication::processEvents(); // nothing queued for the deleted window may run into it
}

void TestWindowFaults::closeDuringABenchmark()
{
    QTemporaryDir results;
    auto* window = new MainWindow;
    window->show();
    BenchmarkPanel* panel = installBenchmarkPanel(*window);
    panel->shapeEdit()->setText(QStringLiteral("2,16,8"));
    panel->channelsPerGroupBox()->setValue(4);
    panel->warmupBox()->setValue(0);
    panel->repBox()->setValue(60000); // a minute per run: closing stops it long before
    panel->setResultsFolder(results.path());
    panel->runButton()->click();
    QVERIFY(!panel->runButton()->isEnabled());
    QTest::qWait(300);
    QElapsedTimer timer;
    timer.start();
    window->close();
    delete window;
    QVERIFY2(timer.elapsed() < 60000, "closing waited on the benchmark");
    QCoreApplication::processEvents();
    QVERIFY(QDir(results.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).isEmpty());
}

KIX_TEST_MAIN(TestWindowFaults)
#include "tst_windowfaults.moc"
