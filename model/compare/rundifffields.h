// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to kix_model (`kix diff`): the fields of one run, as kix read them and as its document has them, and
// how a leaf of the document is classified.

#include "model/compare/rundiff.h"
#include "model/run.h"

#include <QString>
#include <QVector>

namespace kix::rundiff {

// The fields kix read: run, links, digests, protocol, environment, workload and headline.
void addRecordFields(const Run& run, QVector<DiffField>& out);
// Every leaf of the run's document, section "json", by JSON pointer; `error` says why the document was not read.
void addDocumentFields(const Run& run, QVector<DiffField>& out, QString* error);
// The classification of a leaf of the document, at `pointer`.
DiffKind classifyJson(const QString& pointer);

} // namespace kix::rundiff
