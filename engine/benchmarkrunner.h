// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/benchmarkresult.h"

#include <QFuture>
#include <QObject>
#include <QVector>

#include <atomic>
#include <memory>

namespace kix {

class BackendRegistry;

// The engine's one QObject front: runs a list of specs on a worker thread and reports through signals,
// all emitted on the thread that owns the runner (the GUI thread). One job at a time; every signal carries
// its job id so that a consumer can drop what a job it no longer waits for still reports.
//
//   runner.start(specs, outDir)  -> started(job, total)
//                                -> progress(job, index, total, fraction, label)   throttled (~10 per second)
//                                -> resultReady(job, result)                       once per spec, in order
//                                -> failed(job, message)                           for a spec that could not run
//                                -> finished(job, cancelled)                       last
//   runner.cancel()              stops between repetitions; the current spec's result is Cancelled and no
//                                file is written for it (files are written whole, through QSaveFile).
class BenchmarkRunner : public QObject
{
    Q_OBJECT

public:
    explicit BenchmarkRunner(QObject* parent = nullptr); // every built-in backend
    BenchmarkRunner(std::unique_ptr<BackendRegistry> registry, QObject* parent = nullptr);
    ~BenchmarkRunner() override; // cancels a running job and waits for it

    QVector<DeviceInfo> devices() const;
    QStringList implementations(const QString& deviceId) const;
    // Why `device` ("cuda", "cuda:1") cannot run, in words for the user (the CUDA error, or a build without the
    // CUDA backend); empty when it can.
    QString deviceProblem(const QString& device) const;
    bool isRunning() const { return m_running; }

    // Starts a job; documents go to outputDirectory (empty: not written). Specs are checked first (device,
    // implementation, validateSpec): when one is refused, failed() names it and nothing runs (the job id
    // is still returned and finished() follows). Returns 0 when a job is already running.
    int start(const QVector<BenchmarkSpec>& specs, const QString& outputDirectory);

    // Blocks until the running job has finished and its signals were delivered (tests, shutdown).
    void waitForFinished();

public slots:
    void cancel();

signals:
    void started(int jobId, int total);
    void progress(int jobId, int index, int total, double fraction, const QString& label);
    void resultReady(int jobId, const kix::BenchmarkResult& result);
    void failed(int jobId, const QString& message);
    void finished(int jobId, bool cancelled);

private:
    void work(int jobId, QVector<BenchmarkSpec> specs, QString outputDirectory);

    std::unique_ptr<BackendRegistry> m_registry;
    std::atomic<bool> m_cancel { false };
    bool m_running = false;
    int m_lastJob = 0;
    QFuture<void> m_future;
};

} // namespace kix
