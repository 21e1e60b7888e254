// SPDX-License-Identifier: Apache-2.0
// The Compare view: the chart panel's selection of 2 to 8 runs compared field by field (model/compare/rundiff.h),
// one column per run, rows grouped by document, material differences marked in words, equal fields folded until
// the user asks for them, and the comparison copied or saved as Markdown, CSV or JSON.
#include "ui/models/rundiffmodel.h"
#include "ui/panels/chartpanel.h"
#include "ui/panels/compareview.h"

#include "tests/model/runfactory.h"

#include "tests/support/testmain.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QStackedWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <nlohmann/json.hpp>

using namespace kix;

namespace {

// Three runs of one workload: two on a B200 (liger and torch, different medians), one on an H100.
RunList threeRuns()
{
    return { kixtest::makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA B200"), 2048, 1000),
        kixtest::makeRun(QStringLiteral("torch"), QStringLiteral("NVIDIA B200"), 2048, 1500),
        kixtest::makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA H100"), 2048, 1200) };
}

int findDiffRowIndex(const RunDiffModel& model, const QString& section, const QString& path)
{
    for (int r = 0; r < model.rowCount(); ++r) {
        if (const DiffRow* row = model.diffRow(r); row && row->section == section && row->path == path)
            return r;
    }
    return -1;
}

bool waitFilled(const CompareView& view)
{
    return QTest::qWaitFor([&] { return !view.isPending(); }, 10'000);
}

} // namespace

class TestCompareView : public QObject
{
    Q_OBJECT
private slots:
    void fillsFromTheSelection();
    void materialMarkedInWords();
    void equalFieldsFoldAndUnfold();
    void exportsAsKixDiff();
    void countOutOfRangeSaysWhatToDo();
    void panelKindAndShortcut();
};

void TestCompareView::fillsFromTheSelection()
{
    ChartPanel panel;
    panel.resize(1400, 800);
    panel.show();
    const RunList runs = threeRuns();
    panel.setRuns(runs, QStringLiteral("3 selected runs"));
    panel.setKind(ChartKind::Compare);
    CompareView* view = panel.compareView();
    QVERIFY(view->isVisible());
    QVERIFY(waitFilled(*view));
    QAbstractItemModelTester tester(view->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(view->model()->runCount(), 3);
    QCOMPARE(view->model()->columnCount(), RunDiffModel::FirstRunColumn + 3);
    QCOMPARE(view->model()->diff().runs, runs);
    // Headers: the number, the run's label, then its short digest.
    const QString header = view->model()->headerData(RunDiffModel::FirstRunColumn + 1, Qt::Horizontal).toString();
    QVERIFY2(header.startsWith(QStringLiteral("2. torch")), qPrintable(header));
    QVERIFY2(header.contains(runs[1]->runDigest.toString().mid(7, 10)), qPrintable(header));
    QVERIFY(view->table()->isVisible());
    QVERIFY(view->message().isEmpty());
    // Grouped by document: a section row before the fields of its section.
    const int gpu = findDiffRowIndex(*view->model(), QStringLiteral("environment"), QStringLiteral("gpuProduct"));
    QVERIFY(gpu > 0);
    int sectionRow = gpu;
    while (sectionRow >= 0
        && view->model()->index(sectionRow, 0).data(RunDiffModel::RowTypeRole).toInt() != RunDiffModel::SectionRow)
        --sectionRow;
    QVERIFY(view->model()->index(sectionRow, 0).data().toString().startsWith(QStringLiteral("Environment — ")));
    QCOMPARE(view->table()->columnSpan(sectionRow, 0), view->model()->columnCount());
    // A new selection replaces the comparison.
    panel.setRuns(RunList { runs[0], runs[1] }, QStringLiteral("2 selected runs"));
    panel.rebuildNow();
    QVERIFY(waitFilled(*view));
    QCOMPARE(view->model()->runCount(), 2);
}

void TestCompareView::materialMarkedInWords()
{
    CompareView view;
    view.setRuns(threeRuns());
    QVERIFY(waitFilled(view));
    const RunDiffModel& m = *view.model();
    const int gpu = findDiffRowIndex(m, QStringLiteral("environment"), QStringLiteral("gpuProduct"));
    QVERIFY(gpu >= 0);
    QCOMPARE(m.index(gpu, RunDiffModel::KindColumn).data().toString(), QStringLiteral("! material"));
    QVERIFY(m.index(gpu, RunDiffModel::KindColumn).data(Qt::BackgroundRole).isValid()); // colour repeats it
    QCOMPARE(m.index(gpu, RunDiffModel::FirstRunColumn + 2).data().toString(), QStringLiteral("NVIDIA H100"));
    // The median differs: a measurement, not material; the provider (what is compared) is cosmetic.
    const int value = findDiffRowIndex(m, QStringLiteral("headline"), QStringLiteral("value"));
    QVERIFY(value >= 0);
    QCOMPARE(m.index(value, RunDiffModel::KindColumn).data().toString(), QStringLiteral("measurement"));
    const int provider = findDiffRowIndex(m, QStringLiteral("run"), QStringLiteral("provider"));
    QVERIFY(provider >= 0);
    QCOMPARE(m.index(provider, RunDiffModel::KindColumn).data().toString(), QStringLiteral("cosmetic"));
    QVERIFY(!m.index(provider, RunDiffModel::KindColumn).data(Qt::BackgroundRole).isValid());
    // Within its group a material row comes before the cosmetic ones.
    QVERIFY(view.verdictText().startsWith(QStringLiteral("not comparable")));
}

void TestCompareView::equalFieldsFoldAndUnfold()
{
    CompareView view;
    view.show();
    view.setRuns(threeRuns());
    QVERIFY(waitFilled(view));
    RunDiffModel& m = *view.model();
    const int folded = m.rowCount();
    auto count = [&](int type, bool equalOnly) {
        int n = 0;
        for (int r = 0; r < m.rowCount(); ++r)
            if (m.index(r, 0).data(RunDiffModel::RowTypeRole).toInt() == type
                && (!equalOnly || m.index(r, 0).data(RunDiffModel::EqualRole).toBool()))
                ++n;
        return n;
    };
    QVERIFY(m.diff().equal > 0);
    QCOMPARE(count(RunDiffModel::FieldRow, true), 0); // folded: no equal field listed
    const int foldedRows = count(RunDiffModel::FoldedRow, false);
    QVERIFY(foldedRows > 0);
    QVERIFY(findDiffRowIndex(m, QStringLiteral("run"), QStringLiteral("kernel")) < 0); // group_norm in every run
    view.showEqualBox()->click();
    QVERIFY(m.showEqual());
    QCOMPARE(count(RunDiffModel::FieldRow, true), m.diff().equal);
    QCOMPARE(count(RunDiffModel::FoldedRow, false), 0);
    QCOMPARE(m.rowCount(), folded - foldedRows + m.diff().equal); // each folded line became its fields
    const int kernel = findDiffRowIndex(m, QStringLiteral("run"), QStringLiteral("kernel"));
    QVERIFY(kernel >= 0);
    QCOMPARE(m.index(kernel, RunDiffModel::KindColumn).data().toString(), QStringLiteral("= equal"));
    view.showEqualBox()->click();
    QCOMPARE(m.rowCount(), folded);
}

void TestCompareView::exportsAsKixDiff()
{
    CompareView view;
    view.setRuns(threeRuns());
    QVERIFY(waitFilled(view));
    const QString markdown = QString::fromUtf8(view.exportText(CompareView::Format::Markdown));
    QVERIFY(markdown.contains(QStringLiteral("| kind | section | path |")));
    QVERIFY(markdown.contains(QStringLiteral("| ! material | environment | `gpuProduct` |")));
    QVERIFY(markdown.contains(QStringLiteral("equal fields folded"))); // as the view shows it
    QVERIFY(!markdown.contains(QStringLiteral("| = | run | `kernel` |")));
    view.showEqualBox()->setChecked(true);
    QVERIFY(QString::fromUtf8(view.exportText(CompareView::Format::Markdown))
                .contains(QStringLiteral("| = | run | `kernel` |")));
    const QByteArray csv = view.exportText(CompareView::Format::Csv);
    QVERIFY(csv.startsWith("section,path,kind,equal,value1,value2,value3"));
    const nlohmann::json json = nlohmann::json::parse(view.exportText(CompareView::Format::Json).toStdString());
    QCOMPARE(json["runs"].size(), std::size_t(3));
    QCOMPARE(json["rows"].size(), std::size_t(view.model()->diff().rows.size()));
    QCOMPARE(json["comparable"].get<bool>(), false);

    // Copy as CSV from the button's menu, as the user does.
    const QList<QAction*> actions = view.copyButton()->menu()->actions();
    QCOMPARE(actions.size(), 3);
    actions.at(1)->trigger();
    QCOMPARE(QGuiApplication::clipboard()->text().toUtf8(), csv);

    // Saved by the name's suffix; another suffix is refused with the path named.
    QTemporaryDir dir;
    QString error;
    const QString path = dir.filePath(QStringLiteral("cmp.json"));
    QVERIFY2(view.exportTo(path, &error), qPrintable(error));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), view.exportText(CompareView::Format::Json));
    QVERIFY(!view.exportTo(dir.filePath(QStringLiteral("cmp.txt")), &error));
    QVERIFY2(error.contains(QStringLiteral("cmp.txt")) && error.contains(QStringLiteral(".md, .csv or .json")),
        qPrintable(error));
}

void TestCompareView::countOutOfRangeSaysWhatToDo()
{
    CompareView view;
    view.show();
    RunList runs = threeRuns();
    view.setRuns(RunList { runs[0] });
    QVERIFY(!view.isPending());
    QVERIFY2(view.message().startsWith(QStringLiteral("1 run in scope")), qPrintable(view.message()));
    QVERIFY(view.message().contains(QStringLiteral("Select 2 to 8 runs in the run table")));
    QVERIFY(!view.table()->isVisible());
    QVERIFY(view.findChild<QLabel*>(QStringLiteral("compareMessage"))->isVisible());
    QVERIFY(!view.copyButton()->isVisible());
    RunList nine;
    for (int i = 0; i < 9; ++i)
        nine << kixtest::makeRun(QStringLiteral("p%1").arg(i), QStringLiteral("NVIDIA B200"), 2048, 1000 + i);
    view.setRuns(nine);
    QVERIFY2(view.message().startsWith(QStringLiteral("9 runs in scope")), qPrintable(view.message()));
    QVERIFY(view.message().contains(QStringLiteral("narrow the filter")));
    QCOMPARE(view.model()->rowCount(), 0);
    QVERIFY(view.exportText(CompareView::Format::Csv).isEmpty());
    // Back to two: compared.
    view.setRuns(RunList { runs[0], runs[1] });
    QVERIFY(waitFilled(view));
    QVERIFY(view.message().isEmpty());
    QVERIFY(view.table()->isVisible());
}

void TestCompareView::panelKindAndShortcut()
{
    ChartPanel panel;
    panel.show();
    QCOMPARE(panel.kindActions().size(), 8);
    QCOMPARE(panel.kindActions().at(int(ChartKind::Compare))->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_8));
    QCOMPARE(panel.kindActions().at(int(ChartKind::Compare))->text(), QStringLiteral("Compare"));
    panel.setRuns(threeRuns(), QStringLiteral("3 selected runs"));
    panel.kindActions().at(int(ChartKind::Compare))->trigger();
    QCOMPARE(panel.kind(), ChartKind::Compare);
    QVERIFY(panel.compareView()->isVisible());
    QVERIFY(!panel.cohortChooser()->isVisible());
    QVERIFY(waitFilled(*panel.compareView()));
    // Copy in the panel's row copies the comparison as Markdown.
    panel.copyChart();
    QVERIFY(QGuiApplication::clipboard()->text().contains(QStringLiteral("! material")));
    // Another kind: the chart again.
    panel.kindActions().at(int(ChartKind::Quantiles))->trigger();
    QTRY_VERIFY(!panel.isRebuildPending());
    QVERIFY(!panel.compareView()->isVisible());
}

KIX_TEST_MAIN(TestCompareView)
#include "tst_compareview.moc"
