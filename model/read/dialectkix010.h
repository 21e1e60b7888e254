// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model: kix 0.1.0's dialect, and the one adapter that knows it. kix 0.1.0 (our own old release)
// wrote runs that are not v1alpha1 as the format defines it: status "failed", sourceNative.engine, inline
// timing.samplesNs, and digests of its own (sha256 of nlohmann's dump of a resource, not of its JCS). The reader
// loads them as they were written: its sections call the hooks below where they meet one of those features, each
// marking the document (RunExtraction::dialectMarks); noteDialect then sets Run::dialect and warns once. What the
// core says of a run's dialect (Run::dialectName, Run::dialectNote, Run::describe) comes from here too.

#include "model/diagnostic.h"
#include "model/read/jsondom.h"
#include "model/run.h"

#include <QString>

namespace kix::extract {
struct RunExtraction;
} // namespace kix::extract

namespace kix::dialects {

// What a run's dialect is called ("kix 0.1.0"), the note shown for it ("written by kix 0.1.0 (not v1alpha1 as the
// format defines it)") and how a digest it verified is described; each empty for Dialect::Format.
QString name(Dialect d);
QString note(Dialect d);
QString ownDigestVerified(Dialect d);
// Whether `status` is a dialect's own failure status ("failed"), not one of the format's.
bool isOwnFailureStatus(const QString& status);

// The reader's hooks. readMetadata: true when the status is the dialect's own "failed" (marked; not unknown).
bool markStatus(extract::RunExtraction& x, const QString& status);
// readSourceNative: sourceNative.engine marks it.
void markSourceNative(extract::RunExtraction& x);
// readTiming: timing.samplesNs, when present, marks it and is read into the run's samples, up to the first value
// that is not a plausible latency.
void readInlineSamples(extract::RunExtraction& x);
// verifyResources: a carried resource (`what`: "protocol", ...) matched the dialect's own digest.
void markOwnDigest(extract::RunExtraction& x, const char* what);
// checkResource, when the format's digest is not the one named: VerifiedByDialect when `named` is the digest the
// dialect wrote of the whole resource or of its spec, else Mismatch.
DigestCheck checkOwnDigest(jsondom::Element resource, const QString& named);
// extractRun, after the sections: when anything marked the document, sets Run::dialect and adds one warning
// naming the marks.
void noteDialect(extract::RunExtraction& x);
// runFromDocument: a document kix builds in memory now is not a file the dialect's writer wrote: removes the
// warnings noteDialect added to out[from...].
void dropNotes(Diagnostics& out, qsizetype from);

} // namespace kix::dialects
