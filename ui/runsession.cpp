// SPDX-License-Identifier: Apache-2.0
#include "ui/runsession.h"

#include "model/filter/runfilterproxy.h"
#include "model/filter/runtablemodel.h"
#include "model/read/runloader.h"
#include "ui/disposal.h"
#include "ui/models/diagnosticsmodel.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QTimer>

#include <algorithm>

namespace kix {

RunSession::RunSession(QObject* parent)
    : QObject(parent)
    , m_model(new RunTableModel(this))
    , m_proxy(new RunFilterProxy(this))
    , m_diagnostics(new DiagnosticsModel(this))
    , m_loader(new RunLoader(this))
    , m_appendTimer(new QTimer(this))
{
    m_appendTimer->setSingleShot(true);
    m_appendTimer->setInterval(0);
    connect(m_appendTimer, &QTimer::timeout, this, &RunSession::appendChunk);
    qRegisterMetaType<kix::LoadResult>();
    m_proxy->setSourceModel(m_model);
    connect(m_loader, &RunLoader::started, this, [this](int job, int files) {
        if (job == m_job)
            emit loadStarted(files);
    });
    connect(m_loader, &RunLoader::progress, this, [this](int job, int done, int total) {
        if (job == m_job)
            emit loadProgress(done, total);
    });
    connect(m_loader, &RunLoader::finished, this, &RunSession::onFinished);
    connect(m_loader, &RunLoader::failed, this, [this](int job, const QString& message) {
        if (job != m_job)
            return;
        m_diagnostics->append({ makeError(QString(), QString(), message) });
        m_job = 0;
        emit loadFinished(0, 0, 1, false);
        startNext();
    });
}

bool RunSession::isLoading() const
{
    return m_job != 0 || !m_appends.isEmpty();
}

void RunSession::open(const QStringList& paths)
{
    for (const QString& path : paths) {
        const QString absolute = QFileInfo(path).absoluteFilePath();
        if (!m_opened.contains(absolute))
            m_opened << absolute;
        m_pending << absolute;
    }
    if (!isLoading())
        startNext();
}

void RunSession::reload()
{
    cancel();
    m_appends.clear();
    m_pending.clear();
    m_model->clear();
    m_diagnostics->clear();
    emit runsChanged();
    m_pending = m_opened;
    startNext();
}

void RunSession::cancel()
{
    m_pending.clear();
    if (isLoading())
        m_loader->cancel();
}

void RunSession::addRuns(const RunList& runs)
{
    if (runs.size() >= m_chunkThreshold || !m_appends.isEmpty()) {
        m_appends.append({ runs, 0, 0, 0, false, nullptr });
        m_appendTimer->start();
        return;
    }
    m_model->appendRuns(runs);
    emit runsChanged();
}

void RunSession::appendChunk()
{
    if (m_appends.isEmpty())
        return;
    Append& a = m_appends.front();
    if (a.offset == 0) {
        a.before = m_model->rowCount();
        m_model->reserve(a.before + a.runs.size()); // no chunk pays for regrowing the rows or their keys
    }
    const qsizetype n = std::min(m_chunkRows, a.runs.size() - a.offset);
    QElapsedTimer spent;
    spent.start();
    a.duplicates += m_model->appendRuns(a.runs.mid(a.offset, n));
    a.offset += n;
    // The next chunk is sized to take about kChunkNs of the GUI thread, whatever this machine's speed.
    constexpr qint64 kChunkNs = 10'000'000;
    const qint64 ns = std::max<qint64>(spent.nsecsElapsed(), 1);
    m_chunkRows = std::clamp<qsizetype>(qsizetype(double(n) * kChunkNs / ns), 1000, 50'000);
    if (a.offset >= a.runs.size()) {
        Append done = m_appends.takeFirst();
        finishAppend(done);
        // The model holds the runs now; dropping this list's references to a million of them (an atomic decrement
        // each, scattered over the heap) would stall the GUI thread (docs/benchmarks.md), so it is dropped on a
        // worker.
        const bool large = done.runs.size() > 5000;
        disposeOffThread(std::move(done.runs), large);
    }
    if (!m_appends.isEmpty())
        m_appendTimer->start();
}

void RunSession::finishAppend(Append& a)
{
    const int added = m_model->rowCount() - a.before;
    if (!a.fromLoad) {
        emit runsChanged();
        return;
    }
    const LoadResult& result = *a.result;
    m_diagnostics->append(result.diagnostics);
    int errors = 0;
    for (const Diagnostic& d : result.diagnostics)
        errors += d.isError() ? 1 : 0;
    if (added > 0)
        emit runsChanged();
    emit loadFinished(added, a.duplicates + result.duplicates, errors, result.cancelled);
    if (m_appends.isEmpty())
        startNext();
}

void RunSession::clear()
{
    cancel();
    m_appends.clear();
    m_opened.clear();
    m_model->clear();
    m_diagnostics->clear();
    emit runsChanged();
}

void RunSession::startNext()
{
    if (m_pending.isEmpty())
        return;
    const QStringList paths = m_pending;
    m_pending.clear();
    m_job = m_loader->load(paths);
}

void RunSession::onFinished(int jobId, const LoadResult& result)
{
    if (jobId != m_job)
        return; // superseded
    m_job = 0;
    if (result.runs.size() >= m_chunkThreshold || !m_appends.isEmpty()) {
        auto meta = std::make_shared<LoadResult>();
        meta->diagnostics = result.diagnostics;
        meta->duplicates = result.duplicates;
        meta->cancelled = result.cancelled;
        m_appends.append({ result.runs, 0, 0, 0, true, meta });
        m_appendTimer->start();
        return;
    }
    const int before = m_model->rowCount();
    const int duplicates = m_model->appendRuns(result.runs) + result.duplicates;
    const int added = m_model->rowCount() - before;
    m_diagnostics->append(result.diagnostics);
    int errors = 0;
    for (const Diagnostic& d : result.diagnostics)
        errors += d.isError() ? 1 : 0;
    if (added > 0)
        emit runsChanged();
    emit loadFinished(added, duplicates, errors, result.cancelled);
    startNext();
}

} // namespace kix
