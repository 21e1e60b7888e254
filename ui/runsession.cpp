// SPDX-License-Identifier: Apache-2.0
#include "ui/runsession.h"

#include "model/filter/runfilterproxy.h"
#include "model/filter/runtablemodel.h"
#include "model/read/runloader.h"
#include "ui/models/diagnosticsmodel.h"

#include <QFileInfo>

namespace kix {

RunSession::RunSession(QObject* parent)
    : QObject(parent)
    , m_model(new RunTableModel(this))
    , m_proxy(new RunFilterProxy(this))
    , m_diagnostics(new DiagnosticsModel(this))
    , m_loader(new RunLoader(this))
{
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
    return m_job != 0;
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
    m_model->appendRuns(runs);
    emit runsChanged();
}

void RunSession::clear()
{
    cancel();
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
