// SPDX-License-Identifier: Apache-2.0
// The Issues panel and the status bar count alike (issue 20, point 7): after loading broken files and files with
// warnings, both say "N errors, M warnings" with the panel's figures; a compressed file gets a hint naming its
// compression and the command that opens it.
#include "ui/models/diagnosticsmodel.h"
#include "ui/panels/issuespanel.h"

#include "tests/ui/windowtestsupport.h"

#include <QDir>
#include <QStatusBar>

using namespace kix;
using namespace kixtest;

class TestIssuesPanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(m_settings); }
    void countWording();
    void oneCountEverywhere_data();
    void oneCountEverywhere();

private:
    QTemporaryDir m_settings;
};

void TestIssuesPanel::countWording()
{
    QCOMPARE(issueCountText(26, 12), QStringLiteral("26 errors, 12 warnings"));
    QCOMPARE(issueCountText(1, 0), QStringLiteral("1 error, 0 warnings"));
    QCOMPARE(issueCountText(0, 1), QStringLiteral("0 errors, 1 warning"));
}

void TestIssuesPanel::oneCountEverywhere_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("1280x720") << QSize(1280, 720);
    QTest::newRow("1600x1000") << QSize(1600, 1000);
}

void TestIssuesPanel::oneCountEverywhere()
{
    QFETCH(QSize, size);
    const QString data = QStringLiteral(KIX_TEST_DATA_DIR "/model/");
    QStringList paths;
    for (const QString& name : QDir(data + QStringLiteral("warnings")).entryList(QDir::Files))
        paths << data + QStringLiteral("warnings/") + name;
    paths << data + QStringLiteral("malformed/not_json.json") << data + QStringLiteral("malformed/compressed.json.gz")
          << data + QStringLiteral("malformed/empty.json");
    MainWindow w;
    w.resize(size);
    w.show();
    w.openPaths(paths);
    QTRY_VERIFY_WITH_TIMEOUT(!w.session()->isLoading() && w.session()->diagnostics()->rowCount() > 0, 10000);
    DiagnosticsModel* model = w.session()->diagnostics();
    QCOMPARE(model->errorCount(), 3);
    QVERIFY(model->warningCount() >= 3);
    const QString expected = issueCountText(model->errorCount(), model->warningCount());
    QTRY_VERIFY2(w.statusBar()->currentMessage().contains(expected), qPrintable(w.statusBar()->currentMessage()));
    QVERIFY2(w.issuesPanel()->summaryText().startsWith(expected), qPrintable(w.issuesPanel()->summaryText()));
    QVERIFY(w.issuesPanel()->isVisible());
    // The compressed file: its compression and the command, not "binary data".
    bool hinted = false;
    for (int row = 0; row < model->rowCount(); ++row)
        for (int column = 0; column < model->columnCount(); ++column)
            hinted = hinted
                || model->index(row, column)
                       .data()
                       .toString()
                       .contains(QStringLiteral("gzip-compressed file: kix reads plain and Zstandard"));
    QVERIFY(hinted);
}

QTEST_MAIN(TestIssuesPanel)
#include "tst_issuespanel.moc"
