// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/diagnostic.h"
#include "model/run.h"

#include <QFuture>
#include <QHash>
#include <QObject>
#include <QStringList>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>

namespace kix {

struct LoadResult
{
    RunList runs; // duplicates removed, in file order
    Diagnostics diagnostics;
    int files = 0; // files read
    int refusedFiles = 0; // files with at least one error
    int duplicates = 0;
    bool cancelled = false;
};

// Expands files and folders (recursively: *.json, *.jsonl, *.ndjson, *.csv, *.yaml, *.yml, *.zst) into a sorted
// file list.
QStringList expandPaths(const QStringList& paths, Diagnostics* diagnostics = nullptr);

// How far one long file is read (a streamed catalog export): bytes of `file` read, bytes in all.
using FileProgress = std::function<void(const QString& file, qint64 done, qint64 total)>;

// Loads paths on all cores and blocks until done. `progress(done, total)` (files) and `fileProgress` are called
// from worker threads; `cancel` also stops a long file part way.
LoadResult loadPaths(const QStringList& paths, const std::atomic<bool>* cancel = nullptr,
    const std::function<void(int, int)>& progress = {}, const FileProgress& fileProgress = {});

// Removes runs whose identityHash() is already in `seen` (and adds the others); reports each duplicate with the
// place of the run kept. Only an identical run resource is a duplicate: repeated observations are all kept. The
// runs `seen` points at are those kept: the caller keeps them alive as long as `seen`.
RunList removeDuplicates(
    const RunList& runs, QHash<RunIdentity, const Run*>& seen, Diagnostics& diagnostics, int* duplicates);

// The one QObject front for loading off the GUI thread. A new load() cancels the previous one; results of a
// cancelled or superseded job are dropped.
class RunLoader : public QObject
{
    Q_OBJECT
public:
    explicit RunLoader(QObject* parent = nullptr);
    ~RunLoader() override;

    int load(const QStringList& paths); // returns the job id
    void cancel();
    bool isRunning() const { return m_running; }

    // Called on a loading thread after every file, unthrottled, with the job's files done so far and in all: a
    // probe for tests and benchmark programs (the window reads progress through the throttled signal). Set it
    // before load(); it applies to later jobs.
    using ProgressProbe = std::function<void(int done, int total)>;
    void setProgressProbe(ProgressProbe probe) { m_probe = std::move(probe); }

signals:
    void started(int jobId, int fileCount);
    void progress(int jobId, int done, int total); // throttled
    // Within one long file (a streamed .zst catalog export): bytes read of it, throttled.
    void fileProgress(int jobId, const QString& file, qint64 done, qint64 total);
    void finished(int jobId, const kix::LoadResult& result);
    void failed(int jobId, const QString& message);

private:
    int m_nextJob = 1;
    int m_currentJob = 0;
    bool m_running = false;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QFuture<void> m_future;
    ProgressProbe m_probe;
    // Jobs run one at a time here; their parsing fans out on fileBatchPool() (model/jobs/pools.h): a job waiting
    // on the pool that it occupies could deadlock it.
    QThreadPool m_jobs;
};

} // namespace kix

Q_DECLARE_METATYPE(kix::LoadResult)
