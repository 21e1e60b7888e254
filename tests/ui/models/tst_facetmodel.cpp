// SPDX-License-Identifier: Apache-2.0
// FacetModel under QAbstractItemModelTester: values, drill-down counts, toggling, reset keeping selections.
#include "ui/models/facetmodel.h"

#include "tests/ui/uitestsupport.h"

#include "tests/support/testmain.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace kix;

class TestFacetModel : public QObject
{
    Q_OBJECT
private slots:
    void structure();
    void toggleAndCounts();
    void textFilterCounts();
    void resetKeepsSelection();
};

void TestFacetModel::structure()
{
    FacetModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), int(allFacets().size()));
    model.setRuns(kixtest::allRuns());
    const QModelIndex providers = model.facetIndex(Facet::Provider);
    QCOMPARE(model.rowCount(providers), 2);
    QCOMPARE(model.index(0, 0, providers).data().toString(), QStringLiteral("huggingface"));
    QCOMPARE(model.index(1, 0, providers).data().toString(), QStringLiteral("liger"));
    QCOMPARE(model.index(1, FacetModel::CountColumn, providers).data().toInt(), 14 + 2 + 1 + 1); // + 1 memory run
    QCOMPARE(model.index(0, 0, providers).data(Qt::CheckStateRole).toInt(), int(Qt::Unchecked));
    QCOMPARE(model.matchingCount(), 35);
    QCOMPARE(model.rowCount(model.facetIndex(Facet::Gpu)), 3);
}

void TestFacetModel::toggleAndCounts()
{
    FacetModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRuns(kixtest::allRuns());
    QSignalSpy spy(&model, &FacetModel::selectionChanged);

    model.toggle(model.valueIndex(Facet::Provider, QStringLiteral("liger")));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.last().at(1).value<QSet<QString>>(), QSet<QString> { QStringLiteral("liger") });
    QCOMPARE(model.matchingCount(), 18);
    QCOMPARE(
        model.valueIndex(Facet::Provider, QStringLiteral("liger")).data(Qt::CheckStateRole).toInt(), int(Qt::Checked));
    // Other facets count within the selection; the provider facet still shows what selecting more would add.
    const QModelIndex b200 = model.valueIndex(Facet::Gpu, QStringLiteral("NVIDIA B200"));
    QCOMPARE(b200.siblingAtColumn(FacetModel::CountColumn).data().toInt(), 7 + 2 + 1);
    QCOMPARE(model.valueIndex(Facet::Provider, QStringLiteral("huggingface"))
                 .siblingAtColumn(FacetModel::CountColumn)
                 .data()
                 .toInt(),
        17);

    // Several values of a facet select any of them.
    model.toggle(model.valueIndex(Facet::Provider, QStringLiteral("huggingface")));
    QCOMPARE(model.matchingCount(), 35);
    QCOMPARE(model.selection(Facet::Provider).size(), 2);
    model.toggle(b200);
    QCOMPARE(model.matchingCount(), 14 + 4 + 2);
    model.clearSelection();
    QCOMPARE(model.matchingCount(), 35);
    QVERIFY(model.selection(Facet::Provider).isEmpty());
}

void TestFacetModel::textFilterCounts()
{
    FacetModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRuns(kixtest::allRuns());
    model.setFilterText(QStringLiteral("group_norm backward b200"));
    QCOMPARE(model.matchingCount(), 14);
    QCOMPARE(model.valueIndex(Facet::Pass, QStringLiteral("forward")).siblingAtColumn(1).data().toInt(), 0);
}

void TestFacetModel::resetKeepsSelection()
{
    FacetModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRuns(kixtest::allRuns());
    model.setSelected(Facet::Gpu, QStringLiteral("NVIDIA A100-SXM4-80GB"), true);
    model.setSelected(Facet::Provider, QStringLiteral("liger"), true);
    QSignalSpy spy(&model, &FacetModel::selectionChanged);
    model.setRuns(kixtest::sweepRuns()); // no A100 there: that selection goes, liger stays
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.last().at(1).value<QSet<QString>>(), QSet<QString>());
    QCOMPARE(model.selection(Facet::Provider), QSet<QString> { QStringLiteral("liger") });
    QCOMPARE(model.matchingCount(), 14);
}

KIX_TEST_MAIN(TestFacetModel)
#include "tst_facetmodel.moc"
