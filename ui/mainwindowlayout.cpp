// SPDX-License-Identifier: Apache-2.0
// MainWindow: its docks and panels placed, the chart's least height kept, the layout maximized, reset, saved, restored.
#include "ui/mainwindow.h"

#include "ui/panels/chartpanel.h"
#include "ui/panels/overviewtable.h"
#include "ui/runsession.h"
#include "ui/runtableview.h"

#include <QChartView>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDockWidget>
#include <QHeaderView>
#include <QMenu>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>

#include <algorithm>

namespace kix {

QDockWidget* MainWindow::createDock(const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    dock->setWidget(widget);
    addDockWidget(area, dock);
    return dock;
}

void MainWindow::addPanel(QDockWidget* dock, Qt::DockWidgetArea area)
{
    // A panel scrolls rather than making the window refuse to be narrower (or shorter: 1024×640 must work).
    QWidget* content = dock->widget();
    if (content) {
        auto* scroll = new QScrollArea(dock);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidget(content);
        dock->setWidget(scroll);
    }
    addDockWidget(area, dock);
    m_viewMenu->insertAction(m_panelsEnd, dock->toggleViewAction());
    if (area == Qt::RightDockWidgetArea)
        m_sidePanels << dock;
    if (area == Qt::BottomDockWidgetArea) {
        m_bottomPanels << dock;
        connect(dock, &QDockWidget::visibilityChanged, this, &MainWindow::scheduleKeepChartHeight);
        connect(dock, &QDockWidget::topLevelChanged, this, &MainWindow::scheduleKeepChartHeight);
    }
    placeSidePanel(dock);
    placeBottomPanel(dock);
    restoreDockWidget(dock); // where the user left it last time, if anywhere
}

void MainWindow::placeBottomPanel(QDockWidget* dock)
{
    // A panel below the chart shares a tab with Issues: two panels stacked would leave the chart no height.
    if (!m_bottomPanels.contains(dock) || !m_issuesDock)
        return;
    dock->setFloating(false);
    tabifyDockWidget(m_issuesDock, dock);
}

void MainWindow::scheduleKeepChartHeight()
{
    m_chartHeightTimer->start();
}

void MainWindow::keepChartHeight()
{
    if (m_maximized || !isVisible())
        return;
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest); // the heights as laid out now, not before
    QWidget* chart = m_charts->chartView()->isVisible() ? static_cast<QWidget*>(m_charts->chartView())
                                                        : static_cast<QWidget*>(m_charts->overviewTable());
    int deficit = kMinChartHeight - chart->height();
    if (deficit <= 0 || !chart->isVisible()) {
        m_chartHeightPasses = 0;
        return;
    }
    const int wanted = deficit;
    // The table gives room first, down to a few rows.
    QList<int> sizes = m_splitter->sizes();
    if (sizes.size() == 2 && m_table->isVisible()) {
        const int tableLeast = std::max(m_table->minimumSizeHint().height(),
            m_table->horizontalHeader()->height() + 3 * m_table->verticalHeader()->defaultSectionSize() + 4);
        const int given = std::clamp(sizes[0] - tableLeast, 0, deficit);
        sizes[0] -= given;
        sizes[1] += given;
        m_splitter->setSizes(sizes);
        deficit -= given;
    }
    // Then the speed-up's pairs table, down to its header and a row (it scrolls; the chart is the answer).
    if (deficit > 0)
        deficit -= m_charts->yieldPairsHeight(deficit, false);
    // Then the panels below. Tabbed docks share one height (the shown tab's; a hidden tab keeps a stale one): all are
    // given the same, the shown one's less the deficit, never under the tallest least height among them.
    if (deficit > 0) {
        QList<QDockWidget*> docks;
        int least = 0;
        int shown = 0;
        for (QDockWidget* dock : findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
            if (dock->isVisible() && !dock->isFloating() && dockWidgetArea(dock) == Qt::BottomDockWidgetArea) {
                docks << dock;
                least = std::max(least, dock->minimumSizeHint().height());
                if (!dock->visibleRegion().isEmpty())
                    shown = std::max(shown, dock->height());
            }
        }
        const int target = std::max(least, shown - deficit);
        if (!docks.isEmpty() && target < shown) {
            resizeDocks(docks, QList<int>(docks.size(), target), Qt::Vertical);
            deficit -= shown - target;
        }
    }
    // Last, the pairs table folds away (its splitter handle stays at the chart's foot: drag it up to see the pairs).
    if (deficit > 0)
        deficit -= m_charts->yieldPairsHeight(deficit, true);
    // Space freed is shared out by the layouts, not all of it to the chart: look again once they have run, for as long
    // as something gives.
    if (deficit < wanted && ++m_chartHeightPasses < 4)
        scheduleKeepChartHeight();
    else
        m_chartHeightPasses = 0;
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    if (m_chartHeightTimer)
        scheduleKeepChartHeight();
}

void MainWindow::placeSidePanel(QDockWidget* dock)
{
    // A panel on the right shares a tab with Details rather than narrowing the chart; Details stays in front.
    if (!m_sidePanels.contains(dock) || !m_detailsDock)
        return;
    dock->setFloating(false);
    tabifyDockWidget(m_detailsDock, dock);
    m_detailsDock->raise();
}

void MainWindow::resetLayout()
{
    m_maximized = false;
    restoreState(m_defaultState);
    for (QDockWidget* dock : findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly))
        dock->setFloating(false);
    m_table->show();
    for (QDockWidget* dock : std::as_const(m_sidePanels))
        placeSidePanel(dock);
    for (QDockWidget* dock : std::as_const(m_bottomPanels))
        placeBottomPanel(dock);
    applyDefaultSizes();
    scheduleKeepChartHeight();
    statusBar()->showMessage(QStringLiteral("Layout reset."), 5000);
}

void MainWindow::applyDefaultSizes()
{
    // Facets and Details narrow (Facets wide enough for most kernel names), the chart at least half of
    // the height.
    const int facetsWidth = 240;
    QList<QDockWidget*> side;
    QList<int> widths;
    for (QDockWidget* dock : findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
        const Qt::DockWidgetArea area = dockWidgetArea(dock);
        if (area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea) {
            side << dock;
            widths << (area == Qt::LeftDockWidgetArea ? facetsWidth : 280);
        }
    }
    resizeDocks(side, widths, Qt::Horizontal);
    const int height = std::max(400, m_splitter->height());
    m_splitter->setSizes({ height / 3, height - height / 3 });
}

void MainWindow::toggleMaximizedChart()
{
    m_maximized = !m_maximized;
    if (m_maximized) {
        m_stateBeforeMaximize = saveState();
        for (QDockWidget* dock : findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly))
            dock->hide();
        m_table->hide();
        statusBar()->showMessage(QStringLiteral("Chart maximized: Ctrl+M restores the layout."), 5000);
    } else {
        m_table->show();
        restoreState(m_stateBeforeMaximize);
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    m_session->cancel();
    saveLayout();
    QMainWindow::closeEvent(event);
}

void MainWindow::saveLayout() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("mainWindow/state2"), m_maximized ? m_stateBeforeMaximize : saveState());
    settings.setValue(QStringLiteral("mainWindow/splitter2"), m_splitter->saveState());
    m_table->saveState(QStringLiteral("runTable/header2"));
}

void MainWindow::restoreLayout()
{
    // "2" keys: the layout of this version (chart first, columns by what decides); an older one is not restored.
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray()))
        resize(1500, 950);
    if (!restoreState(settings.value(QStringLiteral("mainWindow/state2")).toByteArray()))
        applyDefaultSizes();
    if (!m_splitter->restoreState(settings.value(QStringLiteral("mainWindow/splitter2")).toByteArray()))
        m_splitter->setSizes({ 1, 2 });
    m_table->restoreState(QStringLiteral("runTable/header2"));
}

} // namespace kix
