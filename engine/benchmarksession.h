// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/benchmarkresult.h"
#include "engine/timingharness.h"

#include <QHash>
#include <QString>

namespace kix {

class Backend;
class BackendRegistry;

// Runs specs one after the other on the calling thread: validate, prepare, run once, check against the
// float64 reference, time, build the document. Measures each device's copy bandwidth once per session.
// The CLI uses it directly; BenchmarkRunner runs it on a worker thread.
class BenchmarkSession
{
public:
    explicit BenchmarkSession(BackendRegistry& registry);

    // Resolves spec.device ("auto" becomes a device id) and an empty spec.implementation (the backend's
    // default), then validates. Empty when the spec can run; otherwise why not.
    QString resolve(BenchmarkSpec& spec) const;

    // One spec, start to end. Never throws: backend errors become Status::Error with the message.
    // hooks.cancel stops it between repetitions (Status::Cancelled, no document).
    BenchmarkResult run(BenchmarkSpec spec, const TimingHooks& hooks = {});

    // The device's copy bandwidth in GB/s, measured on first use.
    double copyBandwidth(Backend& backend, const DeviceInfo& device);

    // Writes result.document into `directory` (created when missing) through a QSaveFile, so a failure
    // or a crash leaves no partial file; sets result.filePath. False with a message on failure.
    static bool writeDocument(BenchmarkResult& result, const QString& directory, QString& error);

private:
    BackendRegistry& m_registry;
    QHash<QString, double> m_copyBandwidth; // by device id
};

} // namespace kix
