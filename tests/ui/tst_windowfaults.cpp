// The window under abuse: a second load while the first is running, closing while a load or a benchmark runs.
// Nothing crashes or hangs, nothing partial is written, and what the window shows afterwards is consistent.
#include "model/filter/runtablemodel.h"
#include "ui/mainwindow.h"
#include "ui/panelinstall.h"
#include "ui/panels/benchmarkpanel.h"
#include "ui/runsession.h"

#include "tests/ui/uitestsupport.h"

#include "kix/config.h"

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

void TestWindowFaults::closeDuringALoad()
{
    for (int delayMs : { 0, 5, 50 }) {
        auto* window = new MainWindow;
        window->show();
        window->openPaths({ m_data.filePath(QStringLiteral("big")) });
        QTest::qWait(delayMs);
        QElapsedTimer timer;
        timer.start();
        window->close();
        delete window; // waits for the cancelled load
        QVERIFY2(timer.elapsed() < 60000, "closing waited on the whole load");
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

QTEST_MAIN(TestWindowFaults)
#include "tst_windowfaults.moc"
