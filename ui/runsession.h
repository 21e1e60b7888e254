// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/run.h"

#include <QObject>
#include <QStringList>

namespace kix {

class DiagnosticsModel;
class RunFilterProxy;
class RunLoader;
class RunTableModel;
struct LoadResult;

// The explorer's data: the run table model and its filter proxy, the issues found while loading, and the paths
// opened so far. Opening adds to what is loaded; a load started while another runs waits for it (RunLoader would
// cancel it); Reload reads every opened path again.
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

signals:
    void loadStarted(int fileCount);
    void loadProgress(int done, int total);
    // After a load: runs added, duplicates skipped, errors, whether it was cancelled.
    void loadFinished(int added, int duplicates, int errors, bool cancelled);
    // After the model's runs changed (load, addRuns, reload, clear).
    void runsChanged();

private:
    void startNext();
    void onFinished(int jobId, const LoadResult& result);

    RunTableModel* m_model;
    RunFilterProxy* m_proxy;
    DiagnosticsModel* m_diagnostics;
    RunLoader* m_loader;
    QStringList m_opened;
    QStringList m_pending;
    int m_job = 0;
};

} // namespace kix
