// SPDX-License-Identifier: Apache-2.0
// MainWindow: the views made and wired together, and the scope (selection or filter) they follow.
#include "ui/mainwindow.h"

#include "model/filter/runfilter.h"
#include "model/filter/runfilterproxy.h"
#include "model/filter/runtablemodel.h"
#include "model/jobs/pools.h"
#include "model/workload.h"
#include "ui/models/diagnosticsmodel.h"
#include "ui/models/facetmodel.h"
#include "ui/panels/chartpanel.h"
#include "ui/panels/detailspane.h"
#include "ui/panels/facetspanel.h"
#include "ui/panels/issuespanel.h"
#include "ui/panels/loadstatus.h"
#include "ui/recentfiles.h"
#include "ui/runsession.h"
#include "ui/runtableview.h"

#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QSet>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

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
    setUpCentralWidget();
    setUpFilterBar();
    setUpDocks();
    createMenus();
    connectCharts();
    connectFilter();
    connectScope();
    connectLoading();

    m_defaultState = saveState();
    restoreLayout();
    updateScope();
}

void MainWindow::setUpCentralWidget()
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
}

void MainWindow::setUpFilterBar()
{
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
}

void MainWindow::setUpDocks()
{
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
}

void MainWindow::connectCharts()
{
    connect(m_charts, &ChartPanel::statusMessage, this, [this](const QString& text) {
        statusBar()->showMessage(text, 10000); // ms
    });
    connect(m_charts, &ChartPanel::filterRequested, this, &MainWindow::applyFilterClause);
    connect(m_charts, &ChartPanel::maximizeRequested, this, &MainWindow::toggleMaximizedChart);
    connect(m_charts, &ChartPanel::selectionDismissed, m_table, &QTableView::clearSelection);
}

void MainWindow::connectFilter()
{
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
}

void MainWindow::connectScope()
{
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
}

void MainWindow::connectLoading()
{
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
}

MainWindow::~MainWindow()
{
    // ~QWidget closes the window and hides the docks, which emit visibilityChanged after this object is no longer a
    // MainWindow: the slots connected to them must be gone by then.
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        dock->disconnect(this);
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
    auto apply = [this](const ParamVariation& variation) {
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
        m_variation.cancel(); // an answer in flight for older runs is dropped
        apply(paramVariation(shownRuns));
    } else {
        m_variation.run(
            workerPool(), [shownRuns](const CancelToken&) { return paramVariation(shownRuns); },
            [apply](ParamVariation&& variation) { apply(variation); });
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

} // namespace kix
