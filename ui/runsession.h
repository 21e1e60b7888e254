// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/run.h"

#include <QObject>
#include <QStringList>

#include <memory>

QT_BEGIN_NAMESPACE
class QTimer;
QT_END_NAMESPACE

namespace kix {

class DiagnosticsModel;
class RunFilterProxy;
class RunLoader;
class RunTableModel;
struct LoadResult;

// The explorer's data: the run table model and its filter proxy, the issues found while loading, and the paths
// opened so far. Opening adds to what is loaded; a load started while another runs waits for it (RunLoader would
// cancel it); Reload reads every opened path again. Many runs at once (a large load, addRuns) are appended to
// the table in chunks, one per turn of the event loop, so that the window keeps answering; isLoading() holds until
// the last chunk is in.
class RunSession : public QObject
{
    Q_OBJECT
public:
    explicit RunSession(QObject* parent = nullptr);

    RunTableModel* model() const { return m_model; }
    RunFilterProxy* proxy() const { return m_proxy; }
    DiagnosticsModel* diagnostics() const { return m_diagnostics; }

    void open(const QStringList& paths);
    void reload();
    void cancel();
    // Runs from elsewhere (the benchmark panel): appended, duplicates dropped.
    void addRuns(const RunList& runs);
    void clear();

    QStringList openedPaths() const { return m_opened; }
    bool isLoading() const;
    // Runs are being appended to the model in chunks (the end of a large load, a large addRuns): the model grows
    // with every turn of the event loop until the last chunk is in and runsChanged or loadFinished says so.
    bool isAppending() const { return !m_appends.isEmpty(); }
    // Runs in one batch from which appending is chunked (default 50,000; 0: always). Tests use a small one.
    void setChunkThreshold(int runs) { m_chunkThreshold = runs; }

signals:
    void loadStarted(int fileCount);
    void loadProgress(int done, int total);
    // After a load: runs added, duplicates skipped, errors, whether it was cancelled.
    void loadFinished(int added, int duplicates, int errors, bool cancelled);
    // After the model's runs changed (load, addRuns, reload, clear).
    void runsChanged();

private:
    struct Append
    {
        RunList runs;
        qsizetype offset = 0;
        int before = 0; // rows before the first chunk
        int duplicates = 0;
        bool fromLoad = false;
        std::shared_ptr<LoadResult> result; // what the load said beside its runs; set when fromLoad
    };
    void appendChunk();
    void finishAppend(Append& append);
    void startNext();
    void onFinished(int jobId, const LoadResult& result);

    RunTableModel* m_model;
    RunFilterProxy* m_proxy;
    DiagnosticsModel* m_diagnostics;
    RunLoader* m_loader;
    QStringList m_opened;
    QStringList m_pending;
    int m_job = 0;
    int m_chunkThreshold = 50'000;
    qsizetype m_chunkRows = 5000; // rows per chunk, fitted to the time one takes
    QList<Append> m_appends;
    QTimer* m_appendTimer;
};

} // namespace kix
