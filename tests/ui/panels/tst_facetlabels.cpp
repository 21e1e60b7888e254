// SPDX-License-Identifier: Apache-2.0
// The facets dock is narrow: kernel names that share a long prefix (Liger's six fused_linear_* losses) must still
// read as six different names at 1280x720 and 1600x1000, as the view draws them, with the whole name a hover away.
#include "model/filter/runfilter.h"
#include "model/filter/runfilterproxy.h"
#include "ui/mainwindow.h"
#include "ui/models/facetmodel.h"
#include "ui/panels/facetspanel.h"
#include "ui/runsession.h"

#include "tests/model/runfactory.h"
#include "tests/ui/uitestsupport.h"

#include <QCheckBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QSet>
#include <QStyle>
#include <QStyleOptionViewItem>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace kix;

namespace {

const QStringList kKernels = { QStringLiteral("fused_linear_cross_entropy"), QStringLiteral("fused_linear_jsd"),
    QStringLiteral("fused_linear_orpo_loss"), QStringLiteral("fused_linear_simpo_loss"),
    QStringLiteral("fused_linear_dpo_loss"), QStringLiteral("fused_linear_cpo_loss"),
    QStringLiteral("fused_neighborhood_attention") };

RunList runsOfEveryKernel()
{
    RunList runs;
    int i = 0;
    for (const QString& kernel : kKernels) {
        for (int c : { 1024, 2048 }) {
            auto run = kixtest::makeRun(QStringLiteral("liger"), QStringLiteral("NVIDIA H100"), c, 1000 + 10 * ++i);
            run->kernel = kernel;
            run->externalId = kernel + QStringLiteral("/forward/liger/h100/") + QString::number(c);
            run->finalize();
            runs << run;
        }
    }
    return runs;
}

} // namespace

class TestFacetLabels : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { kixtest::isolateSettings(m_settings); }
    void namesStayApart_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x720") << QSize(1280, 720);
        QTest::newRow("1600x1000") << QSize(1600, 1000);
    }
    void namesStayApart()
    {
        QFETCH(QSize, size);
        MainWindow w;
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.addRuns(runsOfEveryKernel());
        auto* panel = w.findChild<FacetsPanel*>();
        QVERIFY(panel);
        QTreeView* view = panel->view();
        QVERIFY2(view->itemDelegateForColumn(FacetModel::NameColumn), "the names are drawn as shownName() says");
        auto* model = qobject_cast<FacetModel*>(view->model());
        QVERIFY(model);
        QTRY_VERIFY(model->valueIndex(Facet::Kernel, kKernels.front()).isValid());
        QCoreApplication::processEvents();

        QSet<QString> drawn;
        bool anyElided = false;
        for (const QString& kernel : kKernels) {
            const QModelIndex index = model->valueIndex(Facet::Kernel, kernel);
            QVERIFY(index.isValid());
            const QString text = panel->shownName(index);
            QVERIFY2(!text.isEmpty(), qPrintable(kernel));
            anyElided = anyElided || text != kernel;
            drawn << text;
            QVERIFY2(index.data(Qt::ToolTipRole).toString().contains(kernel), qPrintable(kernel));
        }
        // Seven names, seven different texts on screen: none reads as another.
        QCOMPARE(drawn.size(), kKernels.size());
        // The count column leaves the names their room: no wider than the largest possible count needs.
        const int countWidth = view->header()->sectionSize(FacetModel::CountColumn);
        QVERIFY2(countWidth <= view->fontMetrics().horizontalAdvance(QStringLiteral("0000")) + 12,
            qPrintable(QString::number(countWidth)));
        if (size.width() <= 1280)
            QVERIFY2(anyElided, "the dock is wide enough for every name: the test no longer shows the narrow case");
    }

    void valueFilterAndEmptyValues()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        RunList runs = runsOfEveryKernel();
        auto swiglu = kixtest::makeRun(QStringLiteral("triton"), QStringLiteral("NVIDIA B200"), 1024, 900);
        swiglu->kernel = QStringLiteral("swiglu");
        swiglu->finalize();
        runs << swiglu;
        w.addRuns(runs);
        auto* panel = w.findChild<FacetsPanel*>();
        QVERIFY(panel);
        FacetModel* model = panel->model();
        QTRY_VERIFY(model->valueIndex(Facet::Kernel, QStringLiteral("swiglu")).isValid());
        QVERIFY(panel->valueFilter()->isVisible()); // above the lists
        QVERIFY(panel->valueFilter()->geometry().bottom() <= panel->view()->geometry().top());
        const QModelIndex swigluRow = model->valueIndex(Facet::Kernel, QStringLiteral("swiglu"));
        const QModelIndex cpoRow = model->valueIndex(Facet::Kernel, QStringLiteral("fused_linear_cpo_loss"));
        const QModelIndex b200Row = model->valueIndex(Facet::Gpu, QStringLiteral("NVIDIA B200"));
        QVERIFY(b200Row.isValid());
        QVERIFY(panel->isValueListed(swigluRow));
        QVERIFY(!panel->view()->isRowHidden(swigluRow.row(), swigluRow.parent()));

        // Values no run matches (swiglu, B200, triton under "h100") are hidden, and the summary says how many.
        w.searchBox()->setText(QStringLiteral("h100"));
        QTRY_COMPARE(model->matchingCount(), 14);
        QCOMPARE(swigluRow.siblingAtColumn(FacetModel::CountColumn).data(FacetModel::CountRole).toInt(), 0);
        QVERIFY(panel->view()->isRowHidden(swigluRow.row(), swigluRow.parent()));
        QVERIFY(panel->view()->isRowHidden(b200Row.row(), b200Row.parent()));
        QVERIFY(!panel->view()->isRowHidden(cpoRow.row(), cpoRow.parent()));
        // The toggle brings them back.
        panel->showEmptyBox()->click();
        QVERIFY(!panel->view()->isRowHidden(swigluRow.row(), swigluRow.parent()));
        QVERIFY(!panel->view()->isRowHidden(b200Row.row(), b200Row.parent()));
        panel->showEmptyBox()->click();
        QVERIFY(panel->view()->isRowHidden(swigluRow.row(), swigluRow.parent()));
        // A selected value stays listed though empty: it must be clearable.
        model->setSelected(Facet::Kernel, QStringLiteral("swiglu"), true);
        QVERIFY(!panel->view()->isRowHidden(swigluRow.row(), swigluRow.parent()));
        model->clearSelection();
        w.searchBox()->clear();
        QTRY_COMPARE(model->matchingCount(), 15);
        QVERIFY(!panel->view()->isRowHidden(swigluRow.row(), swigluRow.parent()));

        // The box narrows the values listed (any case, every word), and facets with nothing left go.
        QTest::keyClicks(panel->valueFilter(), QStringLiteral("CPO"));
        QVERIFY(!panel->view()->isRowHidden(cpoRow.row(), cpoRow.parent()));
        QVERIFY(panel->view()->isRowHidden(swigluRow.row(), swigluRow.parent()));
        int listedKernels = 0;
        for (int row = 0; row < model->rowCount(cpoRow.parent()); ++row)
            listedKernels += panel->view()->isRowHidden(row, cpoRow.parent()) ? 0 : 1;
        QCOMPARE(listedKernels, 1);
        const QModelIndex gpuFacet = model->facetIndex(Facet::Gpu);
        QVERIFY(panel->view()->isRowHidden(gpuFacet.row(), {}));
        QCOMPARE(w.session()->proxy()->rowCount(), 15); // the runs shown do not change
        panel->valueFilter()->clear();
        QVERIFY(!panel->view()->isRowHidden(gpuFacet.row(), {}));
        QVERIFY(!panel->view()->isRowHidden(swigluRow.row(), swigluRow.parent()));
    }

    void sharedStartShrinks()
    {
        const QFontMetrics fm(QFont(QStringLiteral("DejaVu Sans"), 9));
        const QString cpo = QStringLiteral("fused_linear_cpo_loss");
        // Room for all of it: unchanged.
        QCOMPARE(FacetsPanel::shownName(cpo, QStringLiteral("fused_linear_a"), {}, fm, 1000), cpo);
        // Too narrow: the start it shares with its neighbours shrinks to its first word.
        QCOMPARE(FacetsPanel::shownName(cpo, QStringLiteral("fused_linear_cross_entropy"),
                     QStringLiteral("fused_linear_dpo_loss"), fm, 60),
            QStringLiteral("fused_\u2026cpo_loss"));
        // Nothing shared beyond the first word: unchanged (the view elides it at the right).
        QCOMPARE(FacetsPanel::shownName(QStringLiteral("fused_neighborhood_attention"), QStringLiteral("fused_moe"),
                     QStringLiteral("geglu"), fm, 60),
            QStringLiteral("fused_neighborhood_attention"));
    }

private:
    QTemporaryDir m_settings;
};

QTEST_MAIN(TestFacetLabels)
#include "tst_facetlabels.moc"
