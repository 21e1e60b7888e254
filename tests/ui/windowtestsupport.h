// SPDX-License-Identifier: Apache-2.0
// Helpers for tests of the whole window: waiting for its coalesced charts, reading what a chart draws, and
// mouse events delivered as the window system would.
#pragma once

#include "model/filter/runfilterproxy.h"
#include "ui/mainwindow.h"
#include "ui/panelinstall.h"
#include "ui/panels/chartpanel.h"
#include "ui/runsession.h"

#include "tests/ui/uitestsupport.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLineEdit>
#include <QMouseEvent>
#include <QTest>

namespace kixtest {

// The window sizes the readability tests run at (1024x640 too when `small`), as a QSize column "size".
inline void addSizes(bool small = false)
{
    QTest::addColumn<QSize>("size");
    if (small)
        QTest::newRow("1024x640") << QSize(1024, 640);
    QTest::newRow("1280x720") << QSize(1280, 720);
    QTest::newRow("1600x1000") << QSize(1600, 1000);
}

// The texts of `texts` that are elided (Qt Charts elides with "...", Qt's widgets with "…").
inline QStringList elided(const QStringList& texts)
{
    QStringList out;
    for (const QString& text : texts)
        if (text.contains(QChar(0x2026)) || text.contains(QLatin1String("...")))
            out << text;
    return out;
}

// Waits until the charts show what the table shows (the window coalesces scope changes) and are built.
inline bool waitForCharts(kix::MainWindow& w)
{
    return QTest::qWaitFor(
        [&] {
            return w.chartPanel()->runs().size() == w.session()->proxy()->rowCount()
                && !w.chartPanel()->isRebuildPending();
        },
        20000); // a loaded CI machine (CI's dev suite ran tst_readability 10 times slower than here)
}

// Waits until the chart shown stays: no rebuild pending, and none started within 50 ms (the window's scope timer can
// fire after the load; a rebuild frees the chart it replaces, so a test takes chart() only once this holds). The
// wait is repeated, never trusted: a slow machine only takes more rounds.
inline bool settleChart(kix::ChartPanel* charts)
{
    for (int round = 0; round < 50; ++round) {
        if (!QTest::qWaitFor([&] { return !charts->isRebuildPending(); }, 20000))
            return false;
        QTest::qWait(50); // laid out: labels turned or shrunk
        if (!charts->isRebuildPending())
            return true;
    }
    return false;
}

// Every text the chart's scene draws (axis labels, title, legend), as plain text.
inline QStringList sceneTexts(QChartView* view)
{
    QStringList out;
    for (QGraphicsItem* item : view->scene()->items()) {
        if (!item->isVisible())
            continue;
        if (auto* text = dynamic_cast<QGraphicsTextItem*>(item))
            out << text->toPlainText();
        else if (auto* simple = dynamic_cast<QGraphicsSimpleTextItem*>(item))
            out << simple->text();
    }
    return out;
}

// A synthetic mouse move, as the window system would deliver it to the chart's viewport.
inline void moveMouse(QChartView* view, const QPoint& at)
{
    QMouseEvent move(QEvent::MouseMove, QPointF(at), QPointF(view->viewport()->mapToGlobal(at)), Qt::NoButton,
        Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(view->viewport(), &move);
}

inline QPoint viewPoint(QChartView* view, QChart* chart, const QPointF& chartPos)
{
    return view->mapFromScene(chart->mapToScene(chartPos));
}

// The window with the fixture runs, filtered to group_norm backward on B200, on the speed-up chart.
inline kix::MainWindow* speedupWindow(const QSize& size)
{
    auto* w = new kix::MainWindow;
    kix::installBenchmarkPanel(*w);
    w->resize(size);
    w->show();
    w->addRuns(allRuns());
    w->searchBox()->setText(QStringLiteral("groupnorm backward gpu:b200"));
    w->chartPanel()->setKind(kix::ChartKind::Speedup);
    return w;
}

} // namespace kixtest
