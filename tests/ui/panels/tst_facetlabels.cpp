// SPDX-License-Identifier: Apache-2.0
// The facets dock is narrow: kernel names (Liger's six fused_linear_* losses) are drawn whole where they fit and cut
// at their end only where they do not, at 1280x720 and 1600x1000, with the whole name a hover away; the box above
// the lists narrows the values, and values no run matches are hidden until asked for.
#include "model/filter/runfilter.h"
#include "model/filter/runfilterproxy.h"
#include "ui/mainwindow.h"
#include "ui/models/facetmodel.h"
#include "ui/panels/facetspanel.h"
#include "ui/runsession.h"

#include "tests/model/runfactory.h"
#include "tests/ui/uitestsupport.h"

#include "tests/support/testmain.h"

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
        auto* model = qobject_cast<FacetModel*>(view->model());
        QVERIFY(model);
        QTRY_VERIFY(model->valueIndex(Facet::Kernel, kKernels.front()).isValid());
        QCoreApplication::processEvents();

        bool anyElided = false;
        for (const QString& kernel : kKernels) {
            const QModelIndex index = model->valueIndex(Facet::Kernel, kernel);
            QVERIFY(index.isValid());
            const QString text = panel->shownName(index);
            QVERIFY2(!text.isEmpty(), qPrintable(kernel));
            // Whole, or cut at its end only: never "fused_…cpo_loss", never a word cut in the middle of the name.
            const qsizetype ellipsis = text.indexOf(QChar(0x2026));
            QVERIFY2(ellipsis < 0 || ellipsis == text.size() - 1, qPrintable(text));
            QVERIFY2(kernel.startsWith(text.left(ellipsis < 0 ? text.size() : ellipsis)), qPrintable(text));
            if (ellipsis < 0)
                QCOMPARE(text, kernel);
            anyElided = anyElided || text != kernel;
            // The whole name a hover away, first in the tooltip.
            QVERIFY2(index.data(Qt::ToolTipRole).toString().startsWith(kernel + QLatin1Char('\n')), qPrintable(kernel));
        }
        // The count column leaves the names their room: no wider than the largest possible count needs.
        const int countWidth = view->header()->sectionSize(FacetModel::CountColumn);
        QVERIFY2(countWidth <= view->fontMetrics().horizontalAdvance(QStringLiteral("0000")) + 12,
            qPrintable(QString::number(countWidth)));
        // The view draws what shownName() says: cut at the end by the view itself, no delegate cutting the middle.
        QCOMPARE(view->textElideMode(), Qt::ElideRight);
        QVERIFY(!view->itemDelegateForColumn(FacetModel::NameColumn));
        // A short name that fits is whole, a long one is cut: the test shows both cases.
        QCOMPARE(panel->shownName(model->valueIndex(Facet::Kernel, QStringLiteral("fused_linear_jsd"))),
            QStringLiteral("fused_linear_jsd"));
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

private:
    QTemporaryDir m_settings;
};

KIX_TEST_MAIN(TestFacetLabels)
#include "tst_facetlabels.moc"
