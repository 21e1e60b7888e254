#include "ui/mainwindow.h"

#include "kix/config.h"
#include "model/runfilterproxy.h"
#include "model/runtablemodel.h"
#include "ui/chartpanel.h"
#include "ui/detailspane.h"
#include "ui/diagnosticsmodel.h"
#include "ui/facetspanel.h"
#include "ui/issuespanel.h"
#include "ui/loadstatus.h"
#include "ui/recentfiles.h"
#include "ui/regressionspanel.h"
#include "ui/runexportdialog.h"
#include "ui/runsession.h"
#include "ui/runtableview.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
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
    setWindowTitle(QStringLiteral("kix"));
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

    m_table->setRunModel(m_session->proxy());
    m_splitter->addWidget(m_table);
    m_splitter->addWidget(m_charts);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);
    setCentralWidget(m_splitter);

    m_search->setPlaceholderText(QStringLiteral("Filter runs: every word must match, e.g. group_norm backward b200"));
    m_search->setClearButtonEnabled(true);
    m_search->setAccessibleName(QStringLiteral("Filter runs"));
    QToolBar* toolbar = addToolBar(QStringLiteral("Filter"));
    toolbar->setObjectName(QStringLiteral("filterToolBar"));
    toolbar->setMovable(false);
    toolbar->addWidget(m_search);
    statusBar()->addPermanentWidget(m_status);

    createDock(QStringLiteral("Facets"), QStringLiteral("facetsDock"), m_facets, Qt::LeftDockWidgetArea);
    createDock(QStringLiteral("Details"), QStringLiteral("detailsDock"), m_details, Qt::RightDockWidgetArea);
    m_issuesDock
        = createDock(QStringLiteral("Issues"), QStringLiteral("issuesDock"), m_issues, Qt::BottomDockWidgetArea);
    m_issuesDock->hide();
    createMenus();

    // Filtering: the search box and the facets drive the proxy at once. The facet counts follow the text once
    // typing pauses: over 100k runs a recount costs as much as the refilter, and the table must answer each key.
    auto* facetTimer = new QTimer(this);
    facetTimer->setSingleShot(true);
    facetTimer->setInterval(120); // ms
    connect(facetTimer, &QTimer::timeout, this, [this] { m_facets->setFilterText(m_search->text()); });
    connect(m_search, &QLineEdit::textChanged, this, [this, facetTimer](const QString& text) {
        m_session->proxy()->setFilterText(text);
        facetTimer->start();
    });
    connect(m_facets, &FacetsPanel::facetChanged, m_session->proxy(), &RunFilterProxy::setFacet);

    // Scope (selection, or else the shown rows) -> charts and counts, coalesced: a filter change can emit many
    // row signals.
    m_scopeTimer->setSingleShot(true);
    m_scopeTimer->setInterval(150); // ms: charts follow once typing or a selection drag pauses
    connect(m_scopeTimer, &QTimer::timeout, this, &MainWindow::updateScope);
    connect(m_table, &RunTableView::scopeChanged, m_scopeTimer, qOverload<>(&QTimer::start));
    connect(m_table, &RunTableView::currentRunChanged, m_details, &DetailsPane::setRun);
    connect(m_table, &RunTableView::currentRunChanged, m_charts, &ChartPanel::setCurrentRun);

    // Loading.
    connect(m_session, &RunSession::loadStarted, m_status, &LoadStatus::setLoading);
    connect(m_session, &RunSession::loadProgress, m_status, &LoadStatus::setProgress);
    connect(m_session, &RunSession::loadFinished, this, &MainWindow::onLoadFinished);
    connect(m_session, &RunSession::runsChanged, this, [this] { m_facets->setRuns(m_session->model()->runs()); });
    connect(m_status, &LoadStatus::cancelRequested, m_session, &RunSession::cancel);

    installRegressionsPanel(*this); // history: every change of the loaded runs, largest first
    restoreLayout();
    updateScope();
}

MainWindow::~MainWindow() = default;

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
    addDockWidget(area, dock);
    m_viewMenu->addAction(dock->toggleViewAction());
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
    file->addSeparator();
    file->addAction(QStringLiteral("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(QStringLiteral("&Edit"));
    edit->addAction(QStringLiteral("&Find…"), QKeySequence::Find, this, [this] {
        m_search->setFocus(Qt::ShortcutFocusReason);
        m_search->selectAll();
    });
    edit->addAction(QStringLiteral("Select &All Runs"), QKeySequence::SelectAll, m_table, &QTableView::selectAll);
    edit->addAction(
        QStringLiteral("Clear Selection"), QKeySequence(Qt::Key_Escape), m_table, &QTableView::clearSelection);

    m_viewMenu = menuBar()->addMenu(QStringLiteral("&View"));
    for (QDockWidget* dock : findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly))
        m_viewMenu->addAction(dock->toggleViewAction());
    m_viewMenu->addSeparator();
    m_viewMenu->addMenu(m_table->columnMenu());

    QMenu* help = menuBar()->addMenu(QStringLiteral("&Help"));
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
    m_session->addRuns(runs);
}

void MainWindow::updateScope()
{
    bool fromSelection = false;
    const RunList runs = m_table->selectedOrVisibleRuns(&fromSelection);
    m_status->setCounts(m_session->model()->rowCount(), m_session->proxy()->rowCount(), m_table->selectedCount());
    const QString scope = fromSelection ? QStringLiteral("%1 selected runs").arg(runs.size())
                                        : QStringLiteral("all %1 shown runs").arg(runs.size());
    m_charts->setRuns(runs, scope);
}

void MainWindow::onLoadFinished(int added, int duplicates, int errors, bool cancelled)
{
    m_status->setIdle();
    QString message = cancelled ? QStringLiteral("Loading cancelled.") : QStringLiteral("Loaded %1 run(s).").arg(added);
    if (duplicates > 0)
        message += QStringLiteral(" %1 duplicate(s) skipped.").arg(duplicates);
    if (errors > 0) {
        message += QStringLiteral(" %1 problem(s): see Issues.").arg(errors);
        if (!m_issuesDock->isVisible()) { // non-modal: the issues are listed, nothing blocks
            m_issuesDock->show();
            resizeDocks({ m_issuesDock }, { 150 }, Qt::Vertical);
        }
        m_issuesDock->raise();
    }
    statusBar()->showMessage(message, 10000);
}

void MainWindow::openFilesDialog()
{
    QSettings settings;
    const QStringList files = QFileDialog::getOpenFileNames(this, QStringLiteral("Open Runs"),
        settings.value(QStringLiteral("files/lastFolder")).toString(),
        QStringLiteral("Runs (*.json *.jsonl *.ndjson *.csv);;All files (*)"));
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
    RunExportDialog::exportRuns(this, runs,
        fromSelection ? QStringLiteral("%1 Selected Runs").arg(runs.size())
                      : QStringLiteral("%1 Shown Runs").arg(runs.size()));
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
    settings.setValue(QStringLiteral("mainWindow/state"), saveState());
    settings.setValue(QStringLiteral("mainWindow/splitter"), m_splitter->saveState());
    m_table->saveState(QStringLiteral("runTable/header"));
}

void MainWindow::restoreLayout()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray()))
        resize(1500, 950);
    restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray());
    m_splitter->restoreState(settings.value(QStringLiteral("mainWindow/splitter")).toByteArray());
    m_table->restoreState(QStringLiteral("runTable/header"));
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
