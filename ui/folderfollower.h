// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/diagnostic.h"
#include "model/jobs/jobtracker.h"
#include "model/run.h"

#include <QDateTime>
#include <QHash>
#include <QObject>

QT_BEGIN_NAMESPACE
class QFileSystemWatcher;
class QLabel;
class QTimer;
QT_END_NAMESPACE

namespace kix {

class MainWindow;

// Follows a results folder: every run file that lands in it (or in a subfolder; hidden folders such as a fleet's
// .kix-fleet staging area are never read) is loaded off the GUI thread and handed on. A QFileSystemWatcher wakes
// it at once on local disks; a periodic rescan catches what network file systems (NFS, Lustre) never report.
// A file is new when its path is new or its size or modification time changed; files already there when
// following starts are the baseline, not new.
class FolderFollower : public QObject
{
    Q_OBJECT
public:
    explicit FolderFollower(QObject* parent = nullptr);
    ~FolderFollower() override;

    // Starts following `folder` (stopping any other); false and *error when it is not a readable folder.
    bool follow(const QString& folder, QString* error);
    void stop();
    QString folder() const { return m_folder; }
    bool isFollowing() const { return !m_folder.isEmpty(); }
    int newRuns() const { return m_newRuns; } // since follow()
    void setRescanInterval(int ms); // default 5000
    int rescanInterval() const;
    QString statusText() const; // "Following DIR: 3 new runs"

public slots:
    // Looks for new files now and loads them; a scan asked for during a load runs after it.
    void rescan();

signals:
    // Runs from the new files (duplicates not removed: the window does that), with their files' problems.
    void runsArrived(const kix::RunList& runs, const kix::Diagnostics& diagnostics);
    void statusChanged(const QString& text);

private:
    struct Stamp
    {
        qint64 size = -1;
        QDateTime modified;
        bool operator==(const Stamp& o) const { return size == o.size && modified == o.modified; }
    };
    QHash<QString, Stamp> scan() const;
    void startLoad(const QStringList& files);

    QString m_folder;
    QHash<QString, Stamp> m_known;
    QFileSystemWatcher* m_watcher;
    QTimer* m_rescan;
    QTimer* m_debounce;
    bool m_again = false;
    JobTracker m_loads { this }; // one load at a time; stop() drops the one for an earlier folder
    int m_newRuns = 0;
};

// The window's hooks: File > Follow Folder… (opens the folder and follows it), File > Stop Following, a status bar
// label with the count of new runs; new runs go to MainWindow::addRuns, their problems to the issues panel.
FolderFollower* installFolderFollower(MainWindow& window);
// What `kix --follow DIR` does once the window is shown: open DIR and follow it.
bool followFolder(MainWindow& window, FolderFollower* follower, const QString& folder, QString* error);

} // namespace kix
