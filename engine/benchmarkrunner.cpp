// SPDX-License-Identifier: Apache-2.0
#include "engine/benchmarkrunner.h"

#include "engine/backendregistry.h"
#include "engine/benchmarksession.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace kix {

BenchmarkRunner::BenchmarkRunner(QObject* parent)
    : BenchmarkRunner(std::make_unique<BackendRegistry>(), parent)
{
}

BenchmarkRunner::BenchmarkRunner(std::unique_ptr<BackendRegistry> registry, QObject* parent)
    : QObject(parent)
    , m_registry(std::move(registry))
{
    qRegisterMetaType<kix::BenchmarkResult>();
}

BenchmarkRunner::~BenchmarkRunner()
{
    m_cancel = true;
    m_future.waitForFinished();
}

QVector<DeviceInfo> BenchmarkRunner::devices() const
{
    return m_registry->devices();
}

QString BenchmarkRunner::deviceProblem(const QString& device) const
{
    Backend* backend = nullptr;
    DeviceInfo info;
    QString error;
    return m_registry->resolve(device, backend, info, error) ? QString() : error;
}

QStringList BenchmarkRunner::implementations(const QString& deviceId) const
{
    Backend* backend = nullptr;
    DeviceInfo device;
    QString error;
    if (!m_registry->resolve(deviceId, backend, device, error))
        return {};
    return backend->implementations();
}

void BenchmarkRunner::cancel()
{
    m_cancel = true;
}

int BenchmarkRunner::start(const QVector<BenchmarkSpec>& specs, const QString& outputDirectory)
{
    if (m_running)
        return 0;
    const int jobId = ++m_lastJob;
    m_running = true;
    m_cancel = false;

    // Refuse the whole job before anything runs when one spec is invalid.
    BenchmarkSession check(*m_registry);
    QString refusal;
    for (BenchmarkSpec spec : specs) {
        const QString error = check.resolve(spec);
        if (!error.isEmpty()) {
            refusal = QStringLiteral("%1 %2: %3").arg(passName(spec.pass), spec.workloadSlug(), error);
            break;
        }
    }
    if (!refusal.isEmpty()) {
        QMetaObject::invokeMethod(
            this,
            [this, jobId, refusal, total = specs.size()] {
                emit started(jobId, int(total));
                emit failed(jobId, refusal);
                m_running = false;
                emit finished(jobId, false);
            },
            Qt::QueuedConnection);
        return jobId;
    }
    m_future = QtConcurrent::run([this, jobId, specs, outputDirectory] { work(jobId, specs, outputDirectory); });
    return jobId;
}

void BenchmarkRunner::work(int jobId, QVector<BenchmarkSpec> specs, QString outputDirectory)
{
    const int total = int(specs.size());
    QMetaObject::invokeMethod(
        this, [this, jobId, total] { emit started(jobId, total); }, Qt::QueuedConnection);
    BenchmarkSession session(*m_registry);
    QElapsedTimer sinceProgress;
    sinceProgress.start();
    for (int index = 0; index < total && !m_cancel; ++index) {
        const BenchmarkSpec& spec = specs[index];
        const QString label
            = QStringLiteral("%1 %2 %3 %4").arg(spec.op, passName(spec.pass), spec.implementation, spec.workloadSlug());
        auto report = [&](double fraction, bool force) {
            if (!force && sinceProgress.elapsed() < 100)
                return;
            sinceProgress.restart();
            QMetaObject::invokeMethod(
                this,
                [this, jobId, index, total, fraction, label] { emit progress(jobId, index, total, fraction, label); },
                Qt::QueuedConnection);
        };
        report(0, true);
        TimingHooks hooks;
        hooks.cancel = &m_cancel;
        hooks.progress = [&](double fraction) { report(fraction, false); };
        BenchmarkResult result = session.run(spec, hooks);
        if (result.status == BenchmarkResult::Status::Cancelled)
            break;
        QString error;
        if (!outputDirectory.isEmpty() && result.hasDocument()
            && !BenchmarkSession::writeDocument(result, outputDirectory, error))
            result.message = error;
        const QString failure = result.status == BenchmarkResult::Status::Error ? result.message : error;
        QMetaObject::invokeMethod(
            this,
            [this, jobId, result, failure, label] {
                emit resultReady(jobId, result);
                if (!failure.isEmpty())
                    emit failed(jobId, label + QStringLiteral(": ") + failure);
            },
            Qt::QueuedConnection);
        report(1, true);
    }
    const bool cancelled = m_cancel;
    QMetaObject::invokeMethod(
        this,
        [this, jobId, cancelled] {
            m_running = false;
            emit finished(jobId, cancelled);
        },
        Qt::QueuedConnection);
}

void BenchmarkRunner::waitForFinished()
{
    m_future.waitForFinished();
    QCoreApplication::sendPostedEvents(this, QEvent::MetaCall);
}

} // namespace kix
