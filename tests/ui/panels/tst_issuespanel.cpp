// SPDX-License-Identifier: Apache-2.0
// The Issues panel (issue 20, point 7): the status bar, the dock's title and the panel's header count alike
// ("N errors, M warnings"); a compressed file gets a hint naming its compression; thousands of issues are grouped
// by file and by problem with counts, newest file first, each JSON Lines issue at its line ("a.jsonl:31"), and a
// filter narrows them.
#include "model/filter/runtablemodel.h"
#include "ui/models/diagnosticsmodel.h"
#include "ui/models/issuetreemodel.h"
#include "ui/panels/issuespanel.h"
#include "ui/panels/loadstatus.h"

#include "tests/ui/windowtestsupport.h"

#include "tests/support/testmain.h"

#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStatusBar>
#include <QTreeView>

using namespace kix;
using namespace kixtest;

namespace {

// The good bare run of the model fixtures, on one line, with its externalId made unique by `n`.
QJsonObject goodRun(int n)
{
    QFile f(QStringLiteral(KIX_TEST_DATA_DIR "/model/good/bare_run.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QJsonObject run = QJsonDocument::fromJson(f.readAll()).object();
    QJsonObject spec = run.value(QStringLiteral("spec")).toObject();
    QJsonObject native = spec.value(QStringLiteral("sourceNative")).toObject();
    native.insert(QStringLiteral("externalId"),
        QString(native.value(QStringLiteral("externalId")).toString() + QString::number(n)));
    spec.insert(QStringLiteral("sourceNative"), native);
    run.insert(QStringLiteral("spec"), spec);
    return run;
}

QByteArray line(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

// A run whose median is negative (an error; the value differs from line to line).
QJsonObject negativeMedian(int n)
{
    QJsonObject run = goodRun(n);
    QJsonObject spec = run.value(QStringLiteral("spec")).toObject();
    QJsonObject timing = spec.value(QStringLiteral("timing")).toObject();
    timing.insert(QStringLiteral("latencyNs"), QJsonObject { { QStringLiteral("median"), -1 - n } });
    spec.insert(QStringLiteral("timing"), timing);
    run.insert(QStringLiteral("spec"), spec);
    return run;
}

// A run of an apiVersion kix does not know (a warning; the run loads).
QJsonObject unknownApiVersion(int n)
{
    QJsonObject run = goodRun(n);
    run.insert(QStringLiteral("apiVersion"), QStringLiteral("kernelindex.dev/v2"));
    return run;
}

bool write(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QModelIndex findIssueRow(const QAbstractItemModel* model, const QString& text, const QModelIndex& parent = {})
{
    for (int row = 0; row < model->rowCount(parent); ++row)
        if (model->index(row, 0, parent).data().toString() == text)
            return model->index(row, 0, parent);
    return {};
}

int intRole(const QModelIndex& index, int role)
{
    return index.data(role).toInt();
}

} // namespace

class TestIssuesPanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(m_settings); }
    void countWording();
    void oneCountEverywhere_data();
    void oneCountEverywhere();
    void groupedNewestFirst_data();
    void groupedNewestFirst();
    void jsonLinesLineNumbers();
    void patterns();

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
    QCOMPARE(w.loadStatus()->issuesText(), expected); // the status bar's lasting count
    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("issuesDock"));
    QVERIFY(dock);
    QCOMPARE(dock->windowTitle(), QStringLiteral("Issues (%1)").arg(expected));
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

void TestIssuesPanel::groupedNewestFirst_data()
{
    oneCountEverywhere_data();
}

// Two files with many problems, loaded one after the other: a.jsonl (30 negative medians on lines 1-30, 12 lines
// of broken JSON on lines 31-42, 5 good runs) and then b.jsonl (20 runs of an unknown apiVersion).
void TestIssuesPanel::groupedNewestFirst()
{
    QFETCH(QSize, size);
    QTemporaryDir dir;
    QByteArray a;
    for (int i = 0; i < 30; ++i)
        a += line(negativeMedian(i));
    for (int i = 0; i < 12; ++i)
        a += "{\"kind\": \"BenchmarkRun\", \"spec\": [\n";
    for (int i = 0; i < 5; ++i)
        a += line(goodRun(100 + i));
    QByteArray b;
    for (int i = 0; i < 20; ++i)
        b += line(unknownApiVersion(200 + i));
    QVERIFY(write(dir.filePath(QStringLiteral("a.jsonl")), a));
    QVERIFY(write(dir.filePath(QStringLiteral("b.jsonl")), b));

    MainWindow w;
    w.resize(size);
    w.show();
    w.openPaths({ dir.filePath(QStringLiteral("a.jsonl")) });
    QTRY_VERIFY_WITH_TIMEOUT(!w.session()->isLoading() && w.session()->model()->rowCount() == 5, 10000);
    w.openPaths({ dir.filePath(QStringLiteral("b.jsonl")) });
    QTRY_VERIFY_WITH_TIMEOUT(!w.session()->isLoading() && w.session()->model()->rowCount() == 25, 10000);
    DiagnosticsModel* flat = w.session()->diagnostics();
    QCOMPARE(flat->errorCount(), 42);
    QCOMPARE(flat->warningCount(), 20);

    // One count everywhere.
    const QString expected = QStringLiteral("42 errors, 20 warnings");
    QVERIFY2(w.issuesPanel()->summaryText().startsWith(expected), qPrintable(w.issuesPanel()->summaryText()));
    QCOMPARE(w.loadStatus()->issuesText(), expected);
    QCOMPARE(w.findChild<QDockWidget*>(QStringLiteral("issuesDock"))->windowTitle(),
        QStringLiteral("Issues (42 errors, 20 warnings)"));

    // By file, newest first: b.jsonl (loaded last) on top, with its one problem; then a.jsonl, errors by count.
    IssueTreeModel* tree = w.issuesPanel()->tree();
    QCOMPARE(w.issuesPanel()->view()->model(), tree);
    QCOMPARE(tree->rowCount(), 2);
    const QModelIndex bFile = tree->index(0, 0);
    const QModelIndex aFile = tree->index(1, 0);
    QCOMPARE(bFile.data().toString(), QStringLiteral("b.jsonl"));
    QCOMPARE(aFile.data().toString(), QStringLiteral("a.jsonl"));
    QCOMPARE(intRole(bFile, IssueTreeModel::WarningsRole), 20);
    QCOMPARE(intRole(bFile, IssueTreeModel::ErrorsRole), 0);
    QCOMPARE(tree->index(0, IssueTreeModel::CountColumn).data().toString(), QStringLiteral("20 warnings"));
    QCOMPARE(intRole(aFile, IssueTreeModel::ErrorsRole), 42);
    QCOMPARE(tree->rowCount(bFile), 1);
    QCOMPARE(tree->rowCount(tree->index(0, 0, bFile)), 20);
    QCOMPARE(tree->rowCount(aFile), 2);
    const QModelIndex negative = tree->index(0, 0, aFile); // the commoner problem first
    const QModelIndex broken = tree->index(1, 0, aFile);
    QCOMPARE(tree->rowCount(negative), 30);
    QCOMPARE(intRole(negative, IssueTreeModel::ErrorsRole), 30);
    QVERIFY2(negative.data().toString().contains(QStringLiteral("cannot be negative")),
        qPrintable(negative.data().toString()));
    QCOMPARE(tree->rowCount(broken), 12);
    QVERIFY(broken.data().toString().contains(QStringLiteral("not valid JSON")));
    // each occurrence at its line: the broken ones are lines 31 to 42, in file order
    QVERIFY2(tree->index(0, 0, broken).data().toString().startsWith(QStringLiteral("a.jsonl:31")),
        qPrintable(tree->index(0, 0, broken).data().toString()));
    QVERIFY(tree->index(11, 0, broken).data().toString().startsWith(QStringLiteral("a.jsonl:42")));
    QVERIFY(tree->index(29, 0, negative).data().toString().startsWith(QStringLiteral("a.jsonl:30 · /spec/timing")));

    // By problem: three problems, newest first, each with its count across files.
    w.issuesPanel()->groupingBox()->setCurrentIndex(1);
    QCOMPARE(tree->grouping(), IssueTreeModel::Grouping::ByProblem);
    QCOMPARE(tree->rowCount(), 3);
    QVERIFY(tree->index(0, 0).data().toString().contains(QStringLiteral("apiVersion")));
    QList<int> counts;
    for (int row = 0; row < 3; ++row) {
        const QModelIndex problem = tree->index(row, 0);
        counts << intRole(problem, IssueTreeModel::ErrorsRole) + intRole(problem, IssueTreeModel::WarningsRole);
        QCOMPARE(tree->rowCount(problem), 1); // one file each
    }
    std::sort(counts.begin(), counts.end());
    QCOMPARE(counts, QList<int>({ 12, 20, 30 }));

    // The filter narrows the rows (and says how many it keeps); the header keeps the totals.
    w.issuesPanel()->groupingBox()->setCurrentIndex(0);
    w.issuesPanel()->filterEdit()->setText(QStringLiteral("NEGATIVE a.jsonl"));
    QTRY_COMPARE(tree->filterText(), QStringLiteral("NEGATIVE a.jsonl"));
    QCOMPARE(tree->rowCount(), 1);
    QCOMPARE(tree->shownErrors(), 30);
    QCOMPARE(tree->shownWarnings(), 0);
    QVERIFY(w.issuesPanel()->summaryText().startsWith(expected));
    QVERIFY2(w.issuesPanel()->summaryText().endsWith(QStringLiteral("30 shown")),
        qPrintable(w.issuesPanel()->summaryText()));
    w.issuesPanel()->filterEdit()->setText(QStringLiteral("a.jsonl:31"));
    QTRY_COMPARE(tree->shownErrors() + tree->shownWarnings(), 1);
    w.issuesPanel()->filterEdit()->setText(QStringLiteral("no such problem"));
    QTRY_COMPARE(tree->rowCount(), 0);
    w.issuesPanel()->filterEdit()->clear();
    QTRY_COMPARE(tree->rowCount(), 2);
    QCOMPARE(tree->shownErrors() + tree->shownWarnings(), 62);
}

// A JSON Lines file with a bad line 3 says line 3 (1-based), not the array index 2.
void TestIssuesPanel::jsonLinesLineNumbers()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("three.jsonl"));
    QVERIFY(write(path, line(goodRun(1)) + line(goodRun(2)) + line(negativeMedian(3))));
    const QString broken = dir.filePath(QStringLiteral("syntax.jsonl"));
    QVERIFY(write(broken, line(goodRun(4)) + "\n" + "{\"kind\": oops}\n"));
    DiagnosticsModel flat;
    IssueTreeModel tree(&flat);
    flat.append(parseFile(path).diagnostics);
    flat.append(parseFile(broken).diagnostics);
    QCOMPARE(flat.rowCount(), 2);
    const Diagnostic& d = flat.diagnostics().front();
    QCOMPARE(d.line, 3);
    QCOMPARE(d.pointer, QStringLiteral("/2/spec/timing/latencyNs/median")); // the pointer stays as it was
    QCOMPARE(issueLocation(d), QStringLiteral("three.jsonl:3 · /spec/timing/latencyNs/median"));
    QVERIFY(d.toString().contains(QStringLiteral("(line 3)")));
    QCOMPARE(flat.diagnostics().back().line, 3); // a blank line keeps its place
    QVERIFY(issueLocation(flat.diagnostics().back()).startsWith(QStringLiteral("syntax.jsonl:3:")));
    tree.setGrouping(IssueTreeModel::Grouping::ByFile);
    const QModelIndex three = findIssueRow(&tree, QStringLiteral("three.jsonl"));
    QVERIFY(three.isValid());
    QCOMPARE(tree.index(0, 0, tree.index(0, 0, three)).data().toString(),
        QStringLiteral("three.jsonl:3 · /spec/timing/latencyNs/median"));
    QCOMPARE(tree.index(0, 0).data().toString(), QStringLiteral("syntax.jsonl")); // the newer file on top
}

void TestIssuesPanel::patterns()
{
    QCOMPARE(problemPattern(QStringLiteral("\"fast\" is not a duration")), QStringLiteral("\"…\" is not a duration"));
    QCOMPARE(problemPattern(QStringLiteral("-12 ns cannot be negative")),
        problemPattern(QStringLiteral("-7 ns cannot be negative")));
    QVERIFY(problemPattern(QStringLiteral("cannot be negative")) != problemPattern(QStringLiteral("not a duration")));
    QCOMPARE(problemPattern(QStringLiteral("the run's workload is unknown")),
        QStringLiteral("the run's workload is unknown"));
    Diagnostic whole = makeError(QStringLiteral("/x/a.json"), {}, QStringLiteral("the file is empty"));
    QCOMPARE(issueLocation(whole), QStringLiteral("a.json"));
    Diagnostic at = makeWarning(QStringLiteral("/x/a.json"), QStringLiteral("/run/spec"), QStringLiteral("odd"));
    QCOMPARE(issueLocation(at), QStringLiteral("a.json · /run/spec"));
    at.line = 18; // a syntax error in a whole-file document: line and column, the pointer is not a line index
    at.column = 3;
    QCOMPARE(issueLocation(at), QStringLiteral("a.json:18:3 · /run/spec"));
}

KIX_TEST_MAIN(TestIssuesPanel)
#include "tst_issuespanel.moc"
