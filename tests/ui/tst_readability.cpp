// SPDX-License-Identifier: Apache-2.0
// Readable at 1280×720 and up (issue 20, point 5), on the real window: after Reset Layout the chart keeps at least
// half of the height at every size from 1024×640; short category labels are drawn whole (never "…"); the
// Benchmark form wraps inside its panel instead of clipping "full", Cancel and "…".
#include "model/filter/runtablemodel.h"
#include "ui/charts/quantilechart.h"
#include "ui/charts/speedupchart.h"
#include "ui/runtableview.h"

#include "tests/ui/windowtestsupport.h"

#include <QAbstractButton>
#include <QDockWidget>
#include <QFile>
#include <QScrollArea>

using namespace kix;
using namespace kixtest;

class TestReadability : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(m_settings); }
    void chartKeepsHalfTheHeight_data();
    void chartKeepsHalfTheHeight();
    void shortLabelsAreWhole_data();
    void shortLabelsAreWhole();
    void benchmarkFormWraps_data();
    void benchmarkFormWraps();
    void ligerFirstViewLabelsAreWhole_data();
    void ligerFirstViewLabelsAreWhole();

private:
    QTemporaryDir m_settings;
};

namespace {

void addSizes(bool small)
{
    QTest::addColumn<QSize>("size");
    if (small)
        QTest::newRow("1024x640") << QSize(1024, 640);
    QTest::newRow("1280x720") << QSize(1280, 720);
    QTest::newRow("1600x1000") << QSize(1600, 1000);
}

QStringList elided(const QStringList& texts)
{
    QStringList out;
    for (const QString& text : texts)
        if (text.contains(QChar(0x2026)) || text.contains(QLatin1String("..."))) // Qt Charts elides with "..."
            out << text;
    return out;
}

} // namespace

void TestReadability::chartKeepsHalfTheHeight_data()
{
    addSizes(true);
}

void TestReadability::chartKeepsHalfTheHeight()
{
    QFETCH(QSize, size);
    std::unique_ptr<MainWindow> w(speedupWindow(size));
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QVERIFY(waitForCharts(*w));
    for (int round = 0; round < 2; ++round) { // as opened, then after View > Reset Layout
        const int central = w->centralWidget()->height();
        ChartPanel* charts = w->chartPanel();
        const double fraction = double(charts->height()) / central;
        QVERIFY2(fraction >= 0.5, qPrintable(QStringLiteral("chart %1 of %2 px").arg(charts->height()).arg(central)));
        QVERIFY2(charts->chartView()->height() >= w->runTable()->height(),
            qPrintable(QStringLiteral("plot view %1 px, table %2 px")
                           .arg(charts->chartView()->height())
                           .arg(w->runTable()->height())));
        w->resetLayout();
        QTest::qWait(50);
    }
}

void TestReadability::shortLabelsAreWhole_data()
{
    addSizes(true);
}

void TestReadability::shortLabelsAreWhole()
{
    QFETCH(QSize, size);
    std::unique_ptr<MainWindow> w(speedupWindow(size));
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QVERIFY(waitForCharts(*w));
    ChartPanel* charts = w->chartPanel();
    auto* speedup = dynamic_cast<SpeedupChart*>(charts->chart());
    QVERIFY(speedup);
    QCOMPARE(speedup->categories().size(), 7);
    QTest::qWait(50);
    const QStringList texts = sceneTexts(charts->chartView());
    for (const QString& category : speedup->categories())
        QVERIFY2(texts.contains(category), qPrintable(category + QStringLiteral(" not drawn whole")));
    // Nothing on the chart is elided, down to 1024x640: the title and the axis titles wrap.
    QVERIFY2(elided(texts).isEmpty(), qPrintable(elided(texts).join(QStringLiteral(" | "))));
    // The quantile chart of the same runs: its workload labels whole too.
    charts->setKind(ChartKind::Quantiles);
    QVERIFY(dynamic_cast<QuantileChart*>(charts->chart()));
    QTest::qWait(50);
    const QStringList boxes = sceneTexts(charts->chartView());
    QVERIFY2(elided(boxes).isEmpty(), qPrintable(elided(boxes).join(QStringLiteral(" | "))));
}

void TestReadability::benchmarkFormWraps_data()
{
    addSizes(true);
}

void TestReadability::benchmarkFormWraps()
{
    QFETCH(QSize, size);
    std::unique_ptr<MainWindow> w(speedupWindow(size));
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    auto* bench = w->findChild<QDockWidget*>(QStringLiteral("benchmarkPanel"));
    QVERIFY(bench);
    bench->raise();
    QTRY_VERIFY(bench->widget()->isVisible());
    QTest::qWait(50);
    // Every control the form shows lies whole inside the panel's width: none past its right edge (the panel
    // scrolls vertically, so below the fold is fine).
    int checked = 0;

    for (QAbstractButton* button : bench->widget()->findChildren<QAbstractButton*>()) {
        if (!button->isVisible() || button->text().isEmpty())
            continue;
        const QRect r(button->mapTo(bench, QPoint()), button->size());
        QVERIFY2(r.left() >= 0 && r.right() < bench->width(),
            qPrintable(QStringLiteral("%1 at %2..%3 in a panel %4 px wide")
                           .arg(button->text())
                           .arg(r.left())
                           .arg(r.right())
                           .arg(bench->width())));
        ++checked;
    }
    QVERIFY2(checked >= 8, qPrintable(QString::number(checked))); // passes, dtypes, …, Run, Cancel
}

void TestReadability::ligerFirstViewLabelsAreWhole_data()
{
    addSizes(false);
}

void TestReadability::ligerFirstViewLabelsAreWhole()
{
    QFETCH(QSize, size);
    const QString shared = qEnvironmentVariable("KIX_SHARED_DIR");
    const QString path = shared + QStringLiteral("/data/liger/all_benchmark_data.csv");
    if (shared.isEmpty() || !QFile::exists(path))
        QSKIP("the shared Liger CSV is not available (set KIX_SHARED_DIR to the project's shared/ folder)");
    MainWindow w;
    w.resize(size);
    w.show();
    w.openPaths({ path });
    QTRY_VERIFY_WITH_TIMEOUT(w.session()->model()->rowCount() > 2000, 20000);
    QVERIFY(waitForCharts(w));
    w.searchBox()->setText(QStringLiteral("groupnorm backward gpu:b200")); // short labels: channels
    QVERIFY(waitForCharts(w));
    for (ChartKind kind : { ChartKind::Quantiles, ChartKind::Speedup }) {
        w.chartPanel()->setKind(kind);
        QTest::qWait(50);
        const QStringList texts = sceneTexts(w.chartPanel()->chartView());
        QVERIFY(texts.contains(QStringLiteral("2048")));
        QVERIFY2(elided(texts).isEmpty(), qPrintable(elided(texts).join(QStringLiteral(" | "))));
    }
}

QTEST_MAIN(TestReadability)
#include "tst_readability.moc"
