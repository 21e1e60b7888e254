// SPDX-License-Identifier: Apache-2.0
#include "engine/benchmarksession.h"

#include "engine/backend.h"
#include "engine/backendregistry.h"
#include "engine/correctness.h"
#include "engine/runbuilder.h"
#include "model/format/digest.h"
#include "model/format/documentbuilder.h"
#include "model/write/runwriter.h"

#include <QDir>
#include <QFileInfo>

#include <exception>

namespace kix {

QString statusName(BenchmarkResult::Status status)
{
    switch (status) {
    case BenchmarkResult::Status::Passed:
        return QStringLiteral("passed");
    case BenchmarkResult::Status::Failed:
        return QStringLiteral("failed");
    case BenchmarkResult::Status::Error:
        return QStringLiteral("error");
    case BenchmarkResult::Status::Cancelled:
        return QStringLiteral("cancelled");
    }
    return {};
}

BenchmarkSession::BenchmarkSession(BackendRegistry& registry)
    : m_registry(registry)
{
}

QString BenchmarkSession::resolve(BenchmarkSpec& spec) const
{
    Backend* backend = nullptr;
    DeviceInfo device;
    QString error;
    if (!m_registry.resolve(spec.device, backend, device, error))
        return error;
    spec.device = device.id;
    // KIX_CUDA_GRAPH=1 makes graph replay the default on CUDA devices (for the GUI, which has no switch for
    // it); resolved here so that the run document records what actually ran.
    if (backend->name() == QStringLiteral("cuda") && qEnvironmentVariableIntValue("KIX_CUDA_GRAPH") == 1)
        spec.timing.cudaGraph = true;
    const QStringList implementations = backend->implementations();
    if (spec.implementation.isEmpty())
        spec.implementation = implementations.value(0);
    if (!implementations.contains(spec.implementation))
        return QStringLiteral("device %1 has no implementation '%2' (available: %3)")
            .arg(device.id, spec.implementation, implementations.join(QStringLiteral(", ")));
    return validateSpec(spec, &device);
}

double BenchmarkSession::copyBandwidth(Backend& backend, const DeviceInfo& device)
{
    auto it = m_copyBandwidth.constFind(device.id);
    if (it != m_copyBandwidth.constEnd())
        return *it;
    const double bandwidth = backend.measureCopyBandwidth(device);
    m_copyBandwidth.insert(device.id, bandwidth);
    return bandwidth;
}

BenchmarkResult BenchmarkSession::run(BenchmarkSpec spec, const TimingHooks& hooks)
{
    BenchmarkResult result;
    result.message = resolve(spec);
    result.spec = spec;
    if (!result.message.isEmpty())
        return result; // Status::Error, nothing ran
    Backend* backend = nullptr;
    QString error;
    m_registry.resolve(spec.device, backend, result.device, error);
    result.bytesMoved = spec.minimumBytes();
    auto cancelled = [&] { return hooks.cancel && hooks.cancel->load(); };

    try {
        result.copyBandwidthGBs = copyBandwidth(*backend, result.device);
        if (cancelled()) {
            result.status = BenchmarkResult::Status::Cancelled;
            return result;
        }
        std::unique_ptr<PreparedBenchmark> prepared = backend->prepare(spec, result.device);
        prepared->run();
        result.correctness = checkCorrectness(*prepared, spec);
        if (result.correctness.passed) {
            result.timing = timeRepetitions(*prepared, spec.timing, hooks);
            if (result.timing.stop == TimingRun::Stop::Cancelled) {
                result.status = BenchmarkResult::Status::Cancelled;
                return result;
            }
            result.statistics = computeStatistics(result.timing.samplesNs);
            result.bandwidthGBs = static_cast<double>(result.bytesMoved) / result.statistics.median; // B/ns = GB/s
            if (result.copyBandwidthGBs > 0)
                result.bandwidthFraction = result.bandwidthGBs / result.copyBandwidthGBs;
            result.status = BenchmarkResult::Status::Passed;
        } else {
            result.status = BenchmarkResult::Status::Failed;
            result.message = QStringLiteral("correctness check failed: ") + result.correctness.summary();
        }
        result.deviceDetails = prepared->runDetails();
        result.observedAt = QDateTime::currentDateTimeUtc();
        result.document = RunBuilder(result)
                              .setEnvironment(backend->environment(result.device))
                              .setImplementation(backend->implementationInfo(spec.implementation))
                              .setTimer(backend->timerName())
                              .build();
    } catch (const std::exception& e) {
        result.status = BenchmarkResult::Status::Error;
        result.message = QString::fromUtf8(e.what());
        result.document = nullptr;
    }
    return result;
}

bool BenchmarkSession::writeDocument(BenchmarkResult& result, const QString& directory, QString& error)
{
    if (!result.hasDocument() || result.document.is_null()) {
        error = QStringLiteral("no document to write (%1)").arg(statusName(result.status));
        return false;
    }
    QDir dir(directory);
    if (!dir.mkpath(QStringLiteral("."))) {
        error = QStringLiteral("cannot create directory %1").arg(directory);
        return false;
    }
    const QString name = RunBuilder(result).fileName();
    QString path = dir.filePath(name);
    for (int n = 2; QFileInfo::exists(path); ++n) // two runs within one second: keep both
        path = dir.filePath(name.chopped(5) + QStringLiteral("-%1.json").arg(n));
    // The raw samples first, beside the document that names them (timing.rawSamples: a file name and its digest).
    const nlohmann::json* raw = nullptr;
    if (const auto timing = result.document["run"]["spec"].find("timing");
        timing != result.document["run"]["spec"].end() && timing->contains("rawSamples"))
        raw = &(*timing)["rawSamples"];
    QString createdSamples; // removed again when the document cannot be written: no evidence file without its run
    if (raw) {
        const std::string bytes = format::samplesArtifact(RunBuilder::roundedSamples(result.timing.samplesNs));
        if (format::sha256Digest(bytes) != raw->value("digest", std::string())) {
            error = QStringLiteral("the raw samples no longer match the document's timing.rawSamples digest");
            return false;
        }
        const QString samplesPath = dir.filePath(QString::fromStdString(raw->value("uri", std::string())));
        const bool existed = QFileInfo::exists(samplesPath); // the same samples of an identical run: same bytes
        if (!writeFileAtomically(samplesPath, QByteArray::fromStdString(bytes), &error))
            return false;
        if (!existed)
            createdSamples = samplesPath;
    }
    // whole or not at all, and a full disk is reported rather than committed as a truncated file
    if (!writeFileAtomically(path, QByteArray::fromStdString(result.document.dump(2) + '\n'), &error)) {
        if (!createdSamples.isEmpty())
            QFile::remove(createdSamples);
        return false;
    }
    result.filePath = path;
    return true;
}

} // namespace kix
