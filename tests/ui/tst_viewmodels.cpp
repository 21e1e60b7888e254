// SPDX-License-Identifier: Apache-2.0
// The other item models of the window under QAbstractItemModelTester: diagnostics, comparison pairs, and the
// run table's proxy as the window drives it.
#include "model/filter/runfilterproxy.h"
#include "model/filter/runtablemodel.h"
#include "ui/models/comparisonmodel.h"
#include "ui/models/diagnosticsmodel.h"
#include "ui/models/issuetreemodel.h"

#include "tests/ui/uitestsupport.h"

#include "tests/support/testmain.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace kix;

class TestViewModels : public QObject
{
    Q_OBJECT
private slots:
    void diagnostics();
    void comparison();
    void proxyAsDriven();
};

void TestViewModels::diagnostics()
{
    DiagnosticsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    IssueTreeModel tree(&model); // the Issues panel's tree over it, checked as it follows
    QAbstractItemModelTester treeTester(&tree, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const ParseResult broken = parseFile(kixtest::uiData(QStringLiteral("broken.json")));
    QVERIFY(broken.hasErrors());
    model.append(broken.diagnostics);
    model.append({ makeWarning(QStringLiteral("/x/a.json"), QStringLiteral("/run/spec"), QStringLiteral("odd")) });
    QCOMPARE(model.rowCount(), int(broken.diagnostics.size()) + 1);
    QCOMPARE(model.errorCount(), int(broken.diagnostics.size()));
    QCOMPARE(model.warningCount(), 1);
    QCOMPARE(model.index(0, DiagnosticsModel::FileColumn).data().toString(), QStringLiteral("broken.json"));
    QVERIFY(model.index(0, DiagnosticsModel::LocationColumn).data().toString().startsWith(QStringLiteral("line 1")));
    const int last = model.rowCount() - 1;
    QCOMPARE(model.index(last, DiagnosticsModel::SeverityColumn).data().toString(), QStringLiteral("warning"));
    QCOMPARE(model.index(last, DiagnosticsModel::LocationColumn).data().toString(), QStringLiteral("/run/spec"));
    QCOMPARE(tree.rowCount(), 2); // two files
    QCOMPARE(tree.shownErrors() + tree.shownWarnings(), model.rowCount());
    tree.setGrouping(IssueTreeModel::Grouping::ByProblem);
    tree.setFilterText(QStringLiteral("odd"));
    QCOMPARE(tree.rowCount(), 1);
    QCOMPARE(tree.rowCount(tree.index(0, 0)), 1);
    QCOMPARE(tree.index(0, 0, tree.index(0, 0, tree.index(0, 0))).data(IssueTreeModel::DiagnosticRole).toInt(), last);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(tree.rowCount(), 0);
}

void TestViewModels::comparison()
{
    ComparisonModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const RunList runs = kixtest::allRuns();
    model.setComparison(compareRuns(runs, Baseline::defaultFor(runs)));
    QCOMPARE(model.rowCount(), 17);
    int warned = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QString gpu = model.index(row, ComparisonModel::GpuColumn).data().toString();
        const QString warnings = model.index(row, ComparisonModel::WarningsColumn).data().toString();
        if (gpu.contains(QStringLiteral("A100"))) {
            ++warned;
            QVERIFY(warnings.contains(QStringLiteral("different GPU")));
            QCOMPARE(model.index(row, ComparisonModel::SpeedupColumn).data().toString(), QStringLiteral("1.160×"));
        }
        if (gpu == QLatin1String("NVIDIA B200")
            && model.index(row, ComparisonModel::WorkloadColumn).data().toString().contains(QStringLiteral("backward")))
            QCOMPARE(model.index(row, ComparisonModel::SpeedupColumn).data(ComparisonModel::SortRole).toDouble(), 2.0);
    }
    QCOMPARE(warned, 1);
    model.setComparison({});
    QCOMPARE(model.rowCount(), 0);
}

void TestViewModels::proxyAsDriven()
{
    RunTableModel model;
    RunFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRuns(kixtest::sweepRuns());
    proxy.sort(RunTableModel::MedianColumn);
    proxy.setFilterText(QStringLiteral("backward b200"));
    QCOMPARE(proxy.rowCount(), 14);
    proxy.setFacet(Facet::Provider, { QStringLiteral("liger") });
    QCOMPARE(proxy.rowCount(), 7);
    proxy.setFacet(Facet::Gpu, { QStringLiteral("NVIDIA H100 80GB HBM3") });
    QCOMPARE(proxy.rowCount(), 0);
    proxy.setFilterText(QString());
    proxy.setFacet(Facet::Provider, {});
    QCOMPARE(proxy.rowCount(), 14);
    model.appendRuns(kixtest::loadUi({ QStringLiteral("cross-gpu.json") }));
    QCOMPARE(proxy.rowCount(), 14);
    proxy.clearFacets();
    QCOMPARE(proxy.rowCount(), 29);
}

KIX_TEST_MAIN(TestViewModels)
#include "tst_viewmodels.moc"
