// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (the run extractor): what one document's reading shares between its sections
// (extractsections.h, extractmeasurements.h, extractlinks.h) and the dialect adapter's hooks (dialectkix010.h).

#include "model/read/extractfields.h"
#include "model/run.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <memory>

namespace kix::extract {

// One document being read: the field reader, the document's parts, the JSON pointers that several sections use,
// and the Run being filled. Paths refer to each other, so it stays where it was made.
struct RunExtraction
{
    RunExtraction(const Element& documentElement, const QString& file, const QString& pointer, Diagnostics& out,
        bool duplicateKeys)
        : fields(file, out, duplicateKeys)
        , file(file)
        , out(out)
        , document { documentElement, true }
        , combined(bool(fields.member(document, "run")))
        , top(pointer)
        , runMember(top, "run")
        , runPointer(combined ? runMember : top)
        , specPointer(runPointer, "spec")
        , nativePointer(specPointer, "sourceNative")
        , timingPointer(specPointer, "timing")
        , measurementsPointer(specPointer, "measurements")
        , protocolMember(top, "protocol")
        , protocolPointer(protocolMember, "spec")
        , protocolMeasurementPointer(protocolPointer, "measurement")
    {
    }
    RunExtraction(const RunExtraction&) = delete;
    RunExtraction& operator=(const RunExtraction&) = delete;

    FieldReader fields;
    const QString& file;
    Diagnostics& out;
    const JsonValue document;
    // A combined document {run, protocol, environment, workload?, operation?, implementation?}, not a bare run.
    const bool combined;
    std::shared_ptr<Run> run;

    const Path top;
    const Path runMember;
    const Path& runPointer; // runMember in a combined document, else top
    const Path specPointer;
    const Path nativePointer;
    const Path timingPointer;
    const Path measurementsPointer;
    const Path protocolMember;
    const Path protocolPointer;
    const Path protocolMeasurementPointer;

    JsonValue runObject;
    JsonValue protocol;
    JsonValue environment;
    JsonValue workloadResource;
    JsonValue operationResource;
    JsonValue implementationResource;
    JsonValue spec;
    JsonValue native; // spec.sourceNative
    JsonValue timing;
    JsonValue latencyNs;
    JsonValue protocolSpec;
    JsonValue protocolMeasurement;
    JsonValue workloadSpec;
    JsonValue implementationSpec;

    QStringList dialectMarks; // what marks the document as written in a dialect (the dialect adapter's hooks)
    bool liger = false; // the source follows Liger's externalId convention
    bool slugHeld = false; // the externalId is a Liger slug, and named kernel, pass, provider, GPU and workload
    QString protocolPrimary; // the protocol's primary statistic
    QString primary; // timing.primaryStatistic, else the protocol's
    QVector<Measurement> memory; // memory measurements, the headline when the run has no latency
    RunLinks links; // what the linked documents say
};

} // namespace kix::extract
