// SPDX-License-Identifier: Apache-2.0
#include "ui/folderfollower.h"

#include "model/jobs/pools.h"
#include "model/read/runloader.h"
#include "ui/mainwindow.h"
#include "ui/models/diagnosticsmodel.h"
#include "ui/runsession.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTimer>

namespace kix {

FolderFollower::FolderFollower(QObject* parent)
    : QObject(parent)
    , m_watcher(new QFileSystemWatcher(this))
    , m_rescan(new QTimer(this))
    , m_debounce(new QTimer(this))
{
    m_rescan->setInterval(5000);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150); // a burst of files (one task's runs) becomes one load
    connect(m_rescan, &QTimer::timeout, this, &FolderFollower::rescan);
    connect(m_debounce, &QTimer::timeout, this, &FolderFollower::rescan);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, m_debounce, qOverload<>(&QTimer::start));
}

FolderFollower::~FolderFollower() = default;

bool FolderFollower::follow(const QString& folder, QString* error)
{
    const QFileInfo info(folder);
    if (!info.isDir() || !info.isReadable()) {
        *error = QStringLiteral("%1: not a readable folder").arg(folder);
        return false;
    }
    stop();
    m_folder = info.absoluteFilePath();
    m_known = scan();
    m_watcher->addPath(m_folder);
    m_rescan->start();
    emit statusChanged(statusText());
    return true;
}

void FolderFollower::stop()
{
    if (!m_watcher->directories().isEmpty())
        m_watcher->removePaths(m_watcher->directories());
    m_rescan->stop();
    m_debounce->stop();
    m_folder.clear();
    m_known.clear();
    m_newRuns = 0;
    m_again = false;
    m_loads.cancel();
    emit statusChanged(statusText());
}

void FolderFollower::setRescanInterval(int ms)
{
    m_rescan->setInterval(std::max(ms, 10));
}

int FolderFollower::rescanInterval() const
{
    return m_rescan->interval();
}

QString FolderFollower::statusText() const
{
    if (m_folder.isEmpty())
        return {};
    return QStringLiteral("Following %1: %2 new run%3")
        .arg(QDir::toNativeSeparators(m_folder))
        .arg(m_newRuns)
        .arg(m_newRuns == 1 ? QString() : QStringLiteral("s"));
}

QHash<QString, FolderFollower::Stamp> FolderFollower::scan() const
{
    QHash<QString, Stamp> files;
    for (const QString& path : expandPaths({ m_folder })) {
        const QFileInfo info(path);
        files.insert(path, { info.size(), info.lastModified() });
    }
    return files;
}

void FolderFollower::rescan()
{
    if (m_folder.isEmpty())
        return;
    if (m_loads.running() > 0) {
        m_again = true;
        return;
    }
    if (!QFileInfo(m_folder).isDir())
        return; // gone for now (an unmounted share): the next scan looks again
    const QHash<QString, Stamp> now = scan();
    QStringList fresh;
    for (auto it = now.cbegin(); it != now.cend(); ++it) {
        const auto known = m_known.constFind(it.key());
        if (known == m_known.cend() || !(known.value() == it.value()))
            fresh << it.key();
    }
    m_known = now;
    if (!fresh.isEmpty()) {
        std::sort(fresh.begin(), fresh.end());
        startLoad(fresh);
    }
}

void FolderFollower::startLoad(const QStringList& files)
{
    m_loads.run(
        workerPool(), [files](const CancelToken&) { return loadPaths(files); },
        [this](LoadResult&& result) {
            m_newRuns += result.runs.size();
            emit runsArrived(result.runs, result.diagnostics);
            emit statusChanged(statusText());
            if (m_again) {
                m_again = false;
                rescan();
            }
        });
}

FolderFollower* installFolderFollower(MainWindow& window)
{
    auto* follower = new FolderFollower(&window);
    auto* label = new QLabel(&window);
    label->setObjectName(QStringLiteral("followStatus"));
    label->hide();
    window.statusBar()->addWidget(label);
    QObject::connect(follower, &FolderFollower::statusChanged, label, [label](const QString& text) {
        label->setText(text);
        label->setVisible(!text.isEmpty());
    });
    QObject::connect(follower, &FolderFollower::runsArrived, &window,
        [&window](const RunList& runs, const Diagnostics& diagnostics) {
            if (!diagnostics.isEmpty())
                window.session()->diagnostics()->append(diagnostics);
            if (!runs.isEmpty())
                window.addRuns(runs);
        });

    QMenu* file = nullptr;
    for (QAction* action : window.menuBar()->actions())
        if (action->menu() && action->text().remove(QLatin1Char('&')) == QLatin1String("File"))
            file = action->menu();
    if (!file)
        file = window.menuBar()->addMenu(QStringLiteral("&File"));
    QAction* before = file->actions().value(2); // after Open Files / Open Folder
    auto* followAction = new QAction(QStringLiteral("&Follow Folder…"), file);
    followAction->setObjectName(QStringLiteral("followFolderAction"));
    followAction->setToolTip(QStringLiteral("Open a results folder and add every run that lands in it"));
    auto* stopAction = new QAction(QStringLiteral("Stop &Following"), file);
    stopAction->setObjectName(QStringLiteral("stopFollowingAction"));
    stopAction->setEnabled(false);
    file->insertAction(before, followAction);
    file->insertAction(before, stopAction);
    QObject::connect(followAction, &QAction::triggered, &window, [&window, follower] {
        const QString folder = QFileDialog::getExistingDirectory(&window, QStringLiteral("Follow Folder"));
        QString error;
        if (!folder.isEmpty() && !followFolder(window, follower, folder, &error))
            QMessageBox::warning(&window, QStringLiteral("Follow Folder"), error);
    });
    QObject::connect(stopAction, &QAction::triggered, follower, &FolderFollower::stop);
    QObject::connect(follower, &FolderFollower::statusChanged, stopAction,
        [stopAction, follower] { stopAction->setEnabled(follower->isFollowing()); });
    return follower;
}

bool followFolder(MainWindow& window, FolderFollower* follower, const QString& folder, QString* error)
{
    if (!follower->follow(folder, error))
        return false;
    window.openPaths({ follower->folder() });
    return true;
}

} // namespace kix
