// SPDX-License-Identifier: Apache-2.0
// MainWindow: its menus, and the files they open (dialogs, drag and drop) and export (runs, the HTML report).
#include "ui/mainwindow.h"

#include "kix/config.h"
#include "model/filter/runfilter.h"
#include "model/filter/runfilterproxy.h"
#include "model/filter/runtablemodel.h"
#include "ui/models/diagnosticsmodel.h"
#include "ui/panels/chartpanel.h"
#include "ui/panels/helpguide.h"
#include "ui/recentfiles.h"
#include "ui/report/htmlreport.h"
#include "ui/runexportdialog.h"
#include "ui/runsession.h"
#include "ui/runtableview.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSet>
#include <QSettings>
#include <QStatusBar>

namespace kix {

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
