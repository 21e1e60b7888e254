// SPDX-License-Identifier: Apache-2.0
// Following a results folder: new files (watcher and periodic rescan), the baseline, rewritten and broken files,
// hidden staging folders, and the window's hooks (File > Follow Folder, the status label, runs in the table).
#include "ui/folderfollower.h"

#include "model/filter/runtablemodel.h"
#include "model/write/runwriter.h"
#include "tests/ui/uitestsupport.h"
#include "ui/mainwindow.h"
#include "ui/runsession.h"

#include "tests/support/testmain.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace kix;

namespace {

QByteArray fixture(const QString& name)
{
    QFile f(QStringLiteral(KIX_TEST_DATA_DIR "/model/good/") + name);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void land(const QString& path, const QByteArray& bytes)
{
    QString error;
    QVERIFY2(writeFileAtomically(path, bytes, &error), qPrintable(error));
}

} // namespace

class TestFolderFollower : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { kixtest::isolateSettings(m_settings); }

    void refusesWhatIsNotAFolder()
    {
        FolderFollower f;
        QString error;
        QVERIFY(!f.follow(QStringLiteral("/no/such/folder"), &error));
        QCOMPARE(error, QStringLiteral("/no/such/folder: not a readable folder"));
        QVERIFY(!f.isFollowing());
    }

    void newFilesArriveAndTheBaselineDoesNot()
    {
        QTemporaryDir dir;
        land(dir.filePath("before.json"), fixture("bare_run.json"));
        FolderFollower f;
        QSignalSpy arrived(&f, &FolderFollower::runsArrived);
        QString error;
        QVERIFY(f.follow(dir.path(), &error));
        f.rescan();
        QCOMPARE(f.newRuns(), 0);
        QCOMPARE(arrived.count(), 0);
        land(dir.filePath("after.json"), fixture("bare_run.json"));
        land(dir.filePath("bundle.jsonl"), fixture("bundle.jsonl"));
        QTRY_VERIFY_WITH_TIMEOUT(f.newRuns() >= 1 + 2, 10000); // the watcher (or the rescan) finds both
        QTRY_COMPARE(f.statusText(),
            QStringLiteral("Following %1: %2 new runs").arg(QDir::toNativeSeparators(dir.path())).arg(f.newRuns()));
        const int runs = f.newRuns();
        // Rewritten: loaded again (the window drops the duplicate).
        land(dir.filePath("after.json"), fixture("bare_run.json") + "\n");
        QTRY_COMPARE_WITH_TIMEOUT(f.newRuns(), runs + 1, 10000);
    }

    void periodicRescanFindsWhatTheWatcherCannotSee()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("node7/deep"));
        FolderFollower f;
        f.setRescanInterval(100);
        QString error;
        QVERIFY(f.follow(dir.path(), &error));
        // The watcher watches the top folder only, as on NFS where it sees nothing at all.
        land(dir.filePath("node7/deep/run.json"), fixture("bare_run.json"));
        QTRY_COMPARE_WITH_TIMEOUT(f.newRuns(), 1, 10000);
    }

    void brokenAndHiddenFiles()
    {
        QTemporaryDir dir;
        FolderFollower f;
        f.setRescanInterval(100);
        QSignalSpy arrived(&f, &FolderFollower::runsArrived);
        QString error;
        QVERIFY(f.follow(dir.path(), &error));
        QVERIFY(QDir(dir.path()).mkpath(".kix-fleet/staging/1_0"));
        land(dir.filePath(".kix-fleet/staging/1_0/half.json"), fixture("bare_run.json"));
        land(dir.filePath("broken.json"), "{\"kind\": \"BenchmarkRun\", ");
        QTRY_VERIFY_WITH_TIMEOUT(!arrived.isEmpty(), 10000);
        const auto diagnostics = arrived.first().at(1).value<Diagnostics>();
        QVERIFY(!diagnostics.isEmpty());
        QVERIFY(diagnostics.first().toString().contains("broken.json"));
        QCOMPARE(f.newRuns(), 0); // neither the broken file nor the staged one
    }

    void stopForgetsTheFolder()
    {
        QTemporaryDir dir;
        FolderFollower f;
        QString error;
        QVERIFY(f.follow(dir.path(), &error));
        f.stop();
        land(dir.filePath("late.json"), fixture("bare_run.json"));
        f.rescan();
        QTest::qWait(200);
        QCOMPARE(f.newRuns(), 0);
        QVERIFY(f.statusText().isEmpty());
    }

    void windowFollowsAFolder()
    {
        QTemporaryDir dir;
        land(dir.filePath("first.json"), fixture("bare_run.json"));
        MainWindow window;
        FolderFollower* follower = installFolderFollower(window);
        QVERIFY(window.findChild<QAction*>("followFolderAction"));
        QVERIFY(!window.findChild<QAction*>("stopFollowingAction")->isEnabled());
        QString error;
        QVERIFY(followFolder(window, follower, dir.path(), &error));
        QTRY_COMPARE_WITH_TIMEOUT(window.session()->model()->rowCount(), 1, 10000);
        QVERIFY(window.findChild<QAction*>("stopFollowingAction")->isEnabled());
        land(dir.filePath("second.json"), fixture("bom_crlf.json"));
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->model()->rowCount() > 1, 10000);
        auto* label = window.findChild<QLabel*>("followStatus");
        QVERIFY(label);
        QVERIFY2(
            label->text().contains(QStringLiteral("%1 new run").arg(follower->newRuns())), qPrintable(label->text()));
        QVERIFY(follower->newRuns() >= 1);
    }

private:
    QTemporaryDir m_settings;
};

KIX_TEST_MAIN(TestFolderFollower)
#include "tst_folderfollower.moc"
