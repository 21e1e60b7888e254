// SPDX-License-Identifier: Apache-2.0
// A chart replaced while one of its own signals is being handled must outlive the handler: Qt Charts' items go on
// using themselves after they emit (a scatter marker clears its pressed state after `clicked`, the scene finishes
// its mouse dispatch), so the panel frees the chart it replaces later (deleteLater), never at once. The tests
// click and hover the current run's ring and a quantile box through the view, as the mouse does, and rebuild the
// chart from the handler; under AddressSanitizer a chart freed at once is a heap-use-after-free.
#include "ui/charts/charthover.h"
#include "ui/charts/chartstyle.h"
#include "ui/panels/chartpanel.h"

#include "tests/ui/uitestsupport.h"

#include "tests/support/testmain.h"

#include <QChartView>
#include <QPointer>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTest>

using namespace kix;

namespace {

// Where `value` of `series` lies on the view's viewport.
QPoint viewportPoint(ChartPanel& panel, QAbstractSeries* series, const QPointF& value)
{
    QChart* chart = panel.chart();
    const QPointF inChart = chart->mapToPosition(value, series);
    return panel.chartView()->mapFromScene(chart->mapToScene(inChart));
}

} // namespace

class TestChartLifetime : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { kixtest::isolateSettings(m_settings); }
    void init();
    void cleanup() { m_panel.reset(); }
    void ringClickThatRebuildsKeepsTheOldChartAlive();
    void ringHoverThatRebuildsKeepsTheOldChartAlive();

private:
    QTemporaryDir m_settings;
    std::unique_ptr<ChartPanel> m_panel;
    RunList m_runs;
};

void TestChartLifetime::init()
{
    m_runs = kixtest::sweepRuns();
    QVERIFY(m_runs.size() > 2);
    m_panel = std::make_unique<ChartPanel>();
    m_panel->resize(1000, 700);
    m_panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
    m_panel->setRuns(m_runs, QStringLiteral("all"));
    m_panel->setCurrentRun(m_runs.front());
    m_panel->setKind(ChartKind::Quantiles);
    m_panel->rebuildNow(); // synchronous: few runs
    QVERIFY(!m_panel->isRebuildPending());
    QVERIFY(m_panel->chart());
    QVERIFY(ChartStyle::currentRunMarker(m_panel->chart()));
    QTest::qWait(0); // lay the chart out: the ring has a place on the plot
    QTRY_VERIFY(!m_panel->chart()->plotArea().isEmpty());
}

void TestChartLifetime::ringClickThatRebuildsKeepsTheOldChartAlive()
{
    QPointer<QChart> old = m_panel->chart();
    QScatterSeries* ring = ChartStyle::currentRunMarker(old);
    QVERIFY(ring && ring->count() == 1);
    // A handler of the ring's click that rebuilds at once: the chart whose marker is still handling the mouse is
    // replaced under it.
    bool handled = false;
    connect(ChartHover::of(old), &ChartHover::clicked, m_panel.get(), [&] {
        handled = true;
        m_panel->setKind(ChartKind::Sweep); // rebuildNow: a new chart replaces `old`
        QVERIFY(old); // still alive: its marker's code is on the stack
        QVERIFY(m_panel->chart() != old.data());
    });
    const QPoint at = viewportPoint(*m_panel, ring, ring->at(0));
    QTest::mouseMove(m_panel->chartView()->viewport(), at);
    QTest::mouseClick(m_panel->chartView()->viewport(), Qt::LeftButton, {}, at);
    QVERIFY(handled);
    QVERIFY(m_panel->chart() != old.data());
    QTRY_VERIFY(!old); // freed once the event loop is back
}

void TestChartLifetime::ringHoverThatRebuildsKeepsTheOldChartAlive()
{
    QPointer<QChart> old = m_panel->chart();
    QScatterSeries* ring = ChartStyle::currentRunMarker(old);
    QVERIFY(ring && ring->count() == 1);
    int hovers = 0;
    connect(ChartHover::of(old), &ChartHover::hovered, m_panel.get(), [&](const QString& text) {
        if (text.isEmpty())
            return;
        ++hovers;
        m_panel->setCurrentRun(m_runs.back()); // the ring moves: the chart is built again ...
        m_panel->rebuildNow(); // ... at once
        QVERIFY(old);
    });
    const QPoint at = viewportPoint(*m_panel, ring, ring->at(0));
    QTest::mouseMove(m_panel->chartView()->viewport(), at - QPoint(40, 40));
    QTest::mouseMove(m_panel->chartView()->viewport(), at);
    QTRY_COMPARE(hovers, 1);
    QVERIFY(m_panel->chart() != old.data());
    QTRY_VERIFY(!old);
    // the new chart marks the new current run, and the mouse over it is harmless
    QScatterSeries* moved = ChartStyle::currentRunMarker(m_panel->chart());
    QVERIFY(moved);
    QTest::mouseMove(m_panel->chartView()->viewport(), viewportPoint(*m_panel, moved, moved->at(0)));
    QTest::qWait(0);
}

KIX_TEST_MAIN(TestChartLifetime)
#include "tst_chartlifetime.moc"
