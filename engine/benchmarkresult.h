// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/benchmarkspec.h"
#include "engine/correctness.h"
#include "engine/deviceinfo.h"
#include "engine/samplestatistics.h"
#include "engine/timingharness.h"

#include <QDateTime>
#include <QMetaType>
#include <QString>

#include <nlohmann/json.hpp>

#include <limits>
#include <vector>

namespace kix {

// The outcome of one spec.
struct BenchmarkResult
{
    enum class Status {
        Passed, // correct and timed: a run document with timing
        Failed, // the correctness check failed: a run document with status "failed" and no timing
        Error, // refused or broken before a result (invalid spec, backend error): no document
        Cancelled, // stopped by cancel(): no document, nothing written
    };

    BenchmarkSpec spec; // implementation resolved to the backend's name
    DeviceInfo device;
    Status status = Status::Error;
    QString message; // why Failed / Error, in words for the user

    CorrectnessResult correctness;
    TimingRun timing; // samples and how the loop ended
    SampleStatistics statistics; // of timing.samplesNs (ns)
    double copyBandwidthGBs = std::numeric_limits<double>::quiet_NaN(); // the device's, measured once per session
    qint64 bytesMoved = 0; // spec.minimumBytes()
    double bandwidthGBs = std::numeric_limits<double>::quiet_NaN(); // bytesMoved / median
    double bandwidthFraction = std::numeric_limits<double>::quiet_NaN(); // of copyBandwidthGBs
    QDateTime observedAt; // UTC, when the measurement ended
    nlohmann::json deviceDetails = nlohmann::json::object(); // PreparedBenchmark::runDetails()

    nlohmann::json document; // the kernelindex document (Passed and Failed), null otherwise
    QString filePath; // where the document was written, empty when not written

    bool hasDocument() const { return status == Status::Passed || status == Status::Failed; }
};

QString statusName(BenchmarkResult::Status status); // "passed", "failed", "error", "cancelled"

} // namespace kix

Q_DECLARE_METATYPE(kix::BenchmarkResult)
