// SPDX-License-Identifier: Apache-2.0
#include "ui/mainwindow.h"

#include "kix/config.h"
#include "model/filter/runfilter.h"
#include "model/filter/runfilterproxy.h"
#include "model/filter/runtablemodel.h"
#include "model/workerpool.h"
#include "model/workload.h"
#include "ui/models/diagnosticsmodel.h"
#include "ui/models/facetmodel.h"
#include "ui/panels/chartpanel.h"
#include "ui/panels/detailspane.h"
#include "ui/panels/facetspanel.h"
#include "ui/panels/helpguide.h"
#include "ui/panels/issuespanel.h"
#include "ui/panels/loadstatus.h"
#include "ui/panels/overviewtable.h"
#include "ui/recentfiles.h"
#include "ui/report/htmlreport.h"
#include "ui/runexportdialog.h"
#include "ui/runsession.h"
#include "ui/runtableview.h"

#include <QAction>
#include <QApplication>
#include <QChartView>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScrollArea>
#include <QSet>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QtConcurrent>

namespace kix {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_session(new RunSession(this))
    , m_table(new RunTableView(this))
    , m_facets(new FacetsPanel(this))
    , m_details(new DetailsPane(this))
    , m_issues(new IssuesPanel(m_session->diagnostics(), this))
    , m_charts(new ChartPanel(this))
    , m_status(new LoadStatus(this))
    , m_search(new QLineEdit(this))
    , m_splitter(new QSplitter(Qt::Vertical, this))
    , m_scopeTimer(new QTimer(this))
{
    setWindowTitle(QStringLiteral("kix"));
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

    m_table->setRunModel(m_session->proxy());
    m_splitter->addWidget(m_table);
    m_splitter->addWidget(m_charts);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 2); // the chart is the main thing
    m_splitter->setChildrenCollapsible(false);
    setCentralWidget(m_splitter);

    m_search->setPlaceholderText(
        QStringLiteral("Filter runs, e.g. groupnorm backward gpu:b200 channels>=1024 (F1: the grammar)"));
    m_search->setToolTip(filterGrammarHelp());
    m_search->setClearButtonEnabled(true);
    m_search->setAccessibleName(QStringLiteral("Filter runs"));
    QToolBar* toolbar = addToolBar(QStringLiteral("Filter"));
    toolbar->setObjectName(QStringLiteral("filterToolBar"));
    toolbar->setMovable(false);
    toolbar->addWidget(m_search);
    statusBar()->addPermanentWidget(m_status);
    m_hiddenNotice = new QLabel(this);
    m_hiddenNotice->setObjectName(QStringLiteral("hiddenRunsNotice"));
    m_hiddenNotice->setTextFormat(Qt::RichText);
    m_hiddenNotice->setToolTip(QStringLiteral("Clear the filter box and the facets to show every run"));
    m_hiddenNotice->hide();
    statusBar()->addPermanentWidget(m_hiddenNotice);
    connect(m_hiddenNotice, &QLabel::linkActivated, this, &MainWindow::clearFilter);

    createDock(QStringLiteral("Facets"), QStringLiteral("facetsDock"), m_facets, Qt::LeftDockWidgetArea);
    m_detailsDock
        = createDock(QStringLiteral("Details"), QStringLiteral("detailsDock"), m_details, Qt::RightDockWidgetArea);
    m_issuesDock
        = createDock(QStringLiteral("Issues"), QStringLiteral("issuesDock"), m_issues, Qt::BottomDockWidgetArea);
    m_issuesDock->hide();
    m_chartHeightTimer = new QTimer(this);
    m_chartHeightTimer->setSingleShot(true);
    m_chartHeightTimer->setInterval(0);
    connect(m_chartHeightTimer, &QTimer::timeout, this, &MainWindow::keepChartHeight);
    // A chart of another kind may show the speed-up's pairs table below it (or hide it): its least height is kept then
    // too. Not after every chart: the speed-up redraws itself when its height changes (more rows, or fewer), and a
    // look after each of those would give and take the same pixels for ever.
    connect(m_charts, &ChartPanel::rebuilt, this, [this] {
        if (m_charts->kind() == m_keptKind)
            return;
        m_keptKind = m_charts->kind();
        scheduleKeepChartHeight();
    });
    connect(m_issuesDock, &QDockWidget::visibilityChanged, this, &MainWindow::scheduleKeepChartHeight);
    createMenus();
    connect(m_charts, &ChartPanel::statusMessage, this, [this](const QString& text) {
        statusBar()->showMessage(text, 10000); // ms
    });
    connect(m_charts, &ChartPanel::filterRequested, this, &MainWindow::applyFilterClause);
    connect(m_charts, &ChartPanel::maximizeRequested, this, &MainWindow::toggleMaximizedChart);
    connect(m_charts, &ChartPanel::selectionDismissed, m_table, &QTableView::clearSelection);

    // Filtering: the search box and the facets drive the proxy at once. The facet counts follow the text once
    // typing pauses: over 100k runs a recount costs as much as the refilter, and the table must answer each key.
    auto* facetTimer = new QTimer(this);
    facetTimer->setObjectName(QStringLiteral("facetTimer"));
    facetTimer->setSingleShot(true);
    facetTimer->setInterval(120); // ms
    connect(facetTimer, &QTimer::timeout, this, [this] { m_facets->setFilterText(m_search->text()); });
    connect(m_search, &QLineEdit::textChanged, this, [this, facetTimer](const QString& text) {
        m_session->proxy()->setFilterText(text);
        facetTimer->start();
        m_hiddenNotice->hide(); // a new filter: what it hides is another matter
    });
    connect(m_facets, &FacetsPanel::facetChanged, m_session->proxy(), &RunFilterProxy::setFacet);

    // Scope (selection, or else the shown rows) -> charts and counts, coalesced: a filter change can emit many
    // row signals.
    m_scopeTimer->setObjectName(QStringLiteral("scopeTimer"));
    m_scopeTimer->setSingleShot(true);
    m_scopeTimer->setInterval(150); // ms: charts follow once typing or a selection drag pauses
    connect(m_scopeTimer, &QTimer::timeout, this, &MainWindow::updateScope);
    connect(m_table, &RunTableView::scopeChanged, m_scopeTimer, qOverload<>(&QTimer::start));
    // Details shows the current row of the selection, at once (no coalescing): never a run deselected or filtered out.
    connect(m_table, &RunTableView::currentRunChanged, this, &MainWindow::updateDetails);
    connect(m_table, &RunTableView::scopeChanged, this, &MainWindow::updateDetails);
    // The charts ring the run Details shows: the current row of the selection, none where nothing is selected (a
    // current row the user never picked, the first after a load, is no run of theirs).
    const auto markCurrent = [this] { m_charts->setCurrentRun(m_table->selectedCurrentRun()); };
    connect(m_table, &RunTableView::currentRunChanged, this, markCurrent);
    connect(m_table, &RunTableView::scopeChanged, this, markCurrent);

    // Loading.
    connect(m_session, &RunSession::loadStarted, m_status, &LoadStatus::setLoading);
    connect(m_session, &RunSession::loadProgress, m_status, &LoadStatus::setProgress);
    connect(m_session, &RunSession::loadFinished, this, &MainWindow::onLoadFinished);
    connect(m_session, &RunSession::runsChanged, this, [this] {
        m_facets->setRuns(m_session->model()->runs());
        m_scopeTimer->start(); // counts follow runs the filter hides too (a benchmark adds runs)
    });
    connect(m_status, &LoadStatus::cancelRequested, m_session, &RunSession::cancel);
    // One count everywhere: the Issues panel's header, its dock's title and the status bar.
    connect(m_issues, &IssuesPanel::countsChanged, this, [this](int errors, int warnings) {
        m_issuesDock->setWindowTitle(m_issues->titleText());
        m_status->setIssueCounts(errors, warnings);
    });
    connect(m_status, &LoadStatus::issuesRequested, this, [this] {
        m_issuesDock->show();
        m_issuesDock->raise();
    });

    m_defaultState = saveState();
    restoreLayout();
    updateScope();
}

MainWindow::~MainWindow()
{
    // ~QWidget closes the window and hides the docks, which emit visibilityChanged after this object is no longer a
    // MainWindow: the slots connected to them must be gone by then.
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        dock->disconnect(this);
}

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

void MainWindow::applyFilterClause(const QString& clauses)
{
    // Each clause replaces a clause of the same key ("kernel=..."), else it is appended: "kernel=x gpu=y" (a click
    // in the overview) replaces both.
    const QStringList added = clauses.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    QSet<QByteArray> keys;
    for (const QString& part : added) {
        const FilterClause c = RunFilter::parseClause(part);
        if (!c.key.isEmpty())
            keys.insert(c.key);
    }
    QStringList kept;
    for (const QString& part : m_search->text().split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const FilterClause c = RunFilter::parseClause(part);
        if (c.key.isEmpty() || !keys.contains(c.key))
            kept << part;
    }
    kept += added;
    m_search->setText(kept.join(QLatin1Char(' ')));
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(QStringLiteral("&File"));
    file->addAction(QStringLiteral("&Open Files…"), QKeySequence::Open, this, &MainWindow::openFilesDialog);
    file->addAction(QStringLiteral("Open &Folder…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this,
        &MainWindow::openFolderDialog);
    QMenu* recent = file->addMenu(QStringLiteral("Open &Recent"));
    m_recent = new RecentFiles(recent, this);
    connect(m_recent, &RecentFiles::openRequested, this, [this](const QString& path) { openPaths({ path }); });
    file->addAction(QStringLiteral("Re&load"), QKeySequence::Refresh, m_session, &RunSession::reload);
    file->addSeparator();
    file->addAction(
        QStringLiteral("&Export Chart…"), QKeySequence(Qt::CTRL | Qt::Key_E), m_charts, &ChartPanel::exportChart);
    file->addAction(QStringLiteral("&Copy Chart"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), m_charts,
        &ChartPanel::copyChart);
    file->addAction(
        QStringLiteral("Export &Runs…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), this, &MainWindow::exportRuns);
    file->addAction(QStringLiteral("Export Re&port…"), this, &MainWindow::exportReport);
    file->addSeparator();
    file->addAction(QStringLiteral("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(QStringLiteral("&Edit"));
    edit->addAction(QStringLiteral("&Find…"), QKeySequence::Find, this, [this] {
        m_search->setFocus(Qt::ShortcutFocusReason);
        m_search->selectAll();
    });
    edit->addAction(QStringLiteral("Select &All Runs"), QKeySequence::SelectAll, m_table, &QTableView::selectAll);
    // Esc undoes the last sticky thing: a pinned read-out first, then the selection.
    edit->addAction(QStringLiteral("Unpin / Clear Selection"), QKeySequence(Qt::Key_Escape), this, [this] {
        if (m_charts->isReadoutPinned())
            m_charts->unpinReadout();
        else
            m_table->clearSelection();
    });

    m_viewMenu = menuBar()->addMenu(QStringLiteral("&View"));
    for (QDockWidget* dock : findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly))
        m_viewMenu->addAction(dock->toggleViewAction());
    m_panelsEnd = m_viewMenu->addSeparator(); // panels added later go above it
    m_viewMenu->addMenu(m_table->columnMenu());
    m_viewMenu->addMenu(QStringLiteral("C&hart"))->addActions(m_charts->kindActions());
    m_viewMenu->addAction(
        QStringLiteral("&Maximize Chart"), QKeySequence(Qt::CTRL | Qt::Key_M), this, &MainWindow::toggleMaximizedChart);
    m_viewMenu->addAction(QStringLiteral("&Reset Layout"), this, &MainWindow::resetLayout);

    QMenu* help = menuBar()->addMenu(QStringLiteral("&Help"));
    help->addAction(QStringLiteral("&Guide and Shortcuts"), QKeySequence::HelpContents, this,
        [this] { showHelpGuide(this, menuBar()); });
    help->addAction(QStringLiteral("&About kix"), this, [this] {
        QMessageBox::about(this, QStringLiteral("About kix"),
            QStringLiteral("<b>kix %1</b><p>An explorer for kernelindex GPU kernel benchmark runs.</p>")
                .arg(QStringLiteral(KIX_VERSION)));
    });
}

void MainWindow::openPaths(const QStringList& paths)
{
    if (paths.isEmpty())
        return;
    m_session->open(paths);
    m_recent->add(paths);
}

void MainWindow::addRuns(const RunList& runs)
{
    const int before = m_session->model()->rowCount();
    m_session->addRuns(runs);
    // Fresh runs the filter hides would look like a benchmark that produced nothing: say so, with one click to show
    // them. (Appended at once below the session's chunk threshold; a larger batch is appended in chunks: not told.)
    const int after = m_session->model()->rowCount();
    int hidden = 0;
    for (int row = before; row < after; ++row) {
        if (!m_session->proxy()->mapFromSource(m_session->model()->index(row, 0)).isValid())
            ++hidden;
    }
    if (hidden == 0)
        return;
    m_hiddenNotice->setText(QStringLiteral("%1 new run%2 hidden by the filter — <a href=\"show\">show</a>")
                                .arg(QLocale().toString(hidden), hidden == 1 ? QString() : QStringLiteral("s")));
    m_hiddenNotice->show();
}

void MainWindow::clearFilter()
{
    m_search->clear();
    m_facets->model()->clearSelection();
    m_hiddenNotice->hide();
}

void MainWindow::updateScope()
{
    m_scopeTimer->stop(); // a change queued before this one is in it (a load's last chunk, then its end)
    m_status->setCounts(m_session->model()->rowCount(), m_session->proxy()->rowCount(), m_table->selectedCount());
    // While a large load is appended chunk by chunk, only the counts follow: the charts and the Workload column
    // follow once every run is in (onLoadFinished, runsChanged). Following each chunk would rebuild the chart over
    // the runs so far every 150 ms, and the chart's copy of the run list would make the next chunk copy it all.
    if (m_session->isAppending())
        return;
    bool fromSelection = false;
    const RunList runs = m_table->selectedOrVisibleRuns(&fromSelection);
    // The Workload column shows what varies among the shown runs ("channels=2048"); all parameters when none does.
    // Over many runs that is found off the GUI thread (the newest answer wins).
    const int generation = ++m_variationGeneration;
    auto apply = [this, generation](const ParamVariation& variation) {
        if (generation != m_variationGeneration)
            return;
        QStringList keys = variation.varying;
        if (keys.isEmpty())
            for (const KeyValue& kv : variation.fixed)
                keys << kv.key;
        m_session->model()->setWorkloadKeys(keys);
        // Columns follow what the filter shows ("group_norm" needs less room than every kernel's name).
        const int shown = m_session->proxy()->rowCount();
        if (shown > 0 && shown != m_fittedRows)
            m_table->fitColumns();
        m_fittedRows = shown;
    };
    const RunList shownRuns = fromSelection ? m_session->proxy()->visibleRuns() : runs;
    if (shownRuns.size() < 5'000) { // 25k runs: ~60 ms on the GUI thread
        apply(paramVariation(shownRuns));
    } else {
        auto* watcher = new QFutureWatcher<ParamVariation>(this);
        connect(watcher, &QFutureWatcher<ParamVariation>::finished, this, [watcher, apply] {
            watcher->deleteLater();
            apply(watcher->result());
        });
        watcher->setFuture(QtConcurrent::run(workerPool(), [shownRuns] { return paramVariation(shownRuns); }));
    }
    const QString scope = fromSelection ? QStringLiteral("%1 selected runs").arg(runs.size())
                                        : QStringLiteral("all %1 shown runs").arg(runs.size());
    m_charts->setSelectionScope(fromSelection ? int(runs.size()) : 0, m_session->proxy()->rowCount());
    m_charts->setRuns(runs, scope);
}

void MainWindow::updateDetails()
{
    const RunPtr run = m_table->selectedCurrentRun();
    if (run) {
        if (run != m_details->run())
            m_details->setRun(run);
        return;
    }
    m_details->clearRun(m_table->currentFilteredOut()
            ? QStringLiteral("The run shown before is hidden by the filter: select a run to see its details.")
            : QStringLiteral("Select a run to see its fields, digests, protocol notes and JSON."));
}

void MainWindow::onLoadFinished(int added, int duplicates, int errors, bool cancelled)
{
    if (cancelled)
        m_status->setCancelled(); // the count it got to stays in view
    else
        m_status->setIdle();
    m_fittedRows = -1;
    updateScope(); // the Workload column's keys, then the columns sized to it
    QString message = cancelled ? m_status->progressText() + QStringLiteral(": the runs read are not added.")
                                : QStringLiteral("Loaded %1 run(s).").arg(added);
    if (duplicates > 0)
        message += QStringLiteral(" %1 duplicate(s) skipped.").arg(duplicates);
    const DiagnosticsModel* issues = m_session->diagnostics();
    if (errors > 0 || issues->warningCount() > 0) // the panel's counts, in the panel's words
        message += QStringLiteral(" %1: see Issues.").arg(issueCountText(issues->errorCount(), issues->warningCount()));
    if (errors > 0) {
        if (!m_issuesDock->isVisible()) { // non-modal: the issues are listed, nothing blocks
            m_issuesDock->show();
            resizeDocks({ m_issuesDock }, { 150 }, Qt::Vertical);
            scheduleKeepChartHeight(); // (after the 150 px: the chart keeps its least height)
        }
        m_issuesDock->raise();
    }
    statusBar()->showMessage(message, 10000);
}

QString MainWindow::openFilesFilter()
{
    // Every suffix the reader takes (expandPaths), the catalog's compressed JSON Lines included.
    return QStringLiteral("Runs (*.json *.jsonl *.ndjson *.csv *.yaml *.yml *.jsonl.zst *.zst);;All files (*)");
}

void MainWindow::openFilesDialog()
{
    QSettings settings;
    const QStringList files = QFileDialog::getOpenFileNames(this, QStringLiteral("Open Runs"),
        settings.value(QStringLiteral("files/lastFolder")).toString(), openFilesFilter());
    if (files.isEmpty())
        return;
    settings.setValue(QStringLiteral("files/lastFolder"), QFileInfo(files.front()).absolutePath());
    openPaths(files);
}

void MainWindow::openFolderDialog()
{
    QSettings settings;
    const QString folder = QFileDialog::getExistingDirectory(
        this, QStringLiteral("Open Folder of Runs"), settings.value(QStringLiteral("files/lastFolder")).toString());
    if (folder.isEmpty())
        return;
    settings.setValue(QStringLiteral("files/lastFolder"), folder);
    openPaths({ folder });
}

void MainWindow::exportRuns()
{
    bool fromSelection = false;
    const RunList runs = m_table->selectedOrVisibleRuns(&fromSelection);
    QString path;
    if (RunExportDialog::exportRuns(this, runs,
            fromSelection ? QStringLiteral("%1 Selected Runs").arg(runs.size())
                          : QStringLiteral("%1 Shown Runs").arg(runs.size()),
            &path))
        statusBar()->showMessage(
            QStringLiteral("Exported %1 runs to %2").arg(runs.size()).arg(QDir::toNativeSeparators(path)), 10000);
}

void MainWindow::exportReport()
{
    const int shown = int(m_session->proxy()->visibleRuns().size());
    if (shown == 0) {
        QMessageBox::information(
            this, QStringLiteral("Export Report"), QStringLiteral("No run is shown: nothing to report."));
        return;
    }
    QSettings settings;
    const QString folder = settings.value(QStringLiteral("files/lastReportFolder"), QDir::homePath()).toString();
    QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Export Report of %1 Shown Runs").arg(shown),
        QDir(folder).filePath(QStringLiteral("kix-report.html")), QStringLiteral("HTML report (*.html *.htm)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".html");
    settings.setValue(QStringLiteral("files/lastReportFolder"), QFileInfo(path).absolutePath());
    QString error;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const bool ok = writeReport(path, &error);
    QApplication::restoreOverrideCursor();
    if (!ok)
        QMessageBox::warning(this, QStringLiteral("Export Report"), error);
    else
        statusBar()->showMessage(
            QStringLiteral("Exported a report of %1 runs to %2").arg(shown).arg(QDir::toNativeSeparators(path)), 10000);
}

bool MainWindow::writeReport(const QString& path, QString* error)
{
    ReportInput input;
    input.runs = m_session->proxy()->visibleRuns();
    input.loaded = m_session->model()->runs();
    input.diagnostics = m_session->diagnostics()->diagnostics();
    // The filter box, then each facet narrowed ("provider: liger or torch").
    QStringList filter;
    if (!m_search->text().trimmed().isEmpty())
        filter << m_search->text().trimmed();
    for (Facet facet : allFacets()) {
        const QSet<QString> values = m_session->proxy()->runFilter().facet(facet);
        QStringList names(values.cbegin(), values.cend());
        names.sort();
        if (!names.isEmpty())
            filter << facetName(facet) + QStringLiteral(": ") + names.join(QStringLiteral(" or "));
    }
    input.filter = filter.join(QStringLiteral(" · "));
    input.madeBy = QStringLiteral("the kix window, File > Export Report…, on %1 (%2 of %3 runs shown)")
                       .arg(m_session->openedPaths().join(QStringLiteral(", ")))
                       .arg(input.runs.size())
                       .arg(input.loaded.size());
    input.generatedAt = QDateTime::currentDateTimeUtc();
    return writeHtmlReport(input, path, error);
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

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile()) {
            event->acceptProposedAction();
            return;
        }
    }
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile())
            paths << url.toLocalFile();
    }
    if (!paths.isEmpty()) {
        event->acceptProposedAction();
        openPaths(paths);
    }
}

} // namespace kix
