// SPDX-License-Identifier: Apache-2.0
#pragma once
// The typed Run view of one kernelindex document, read from the one JSON tree kix reads runs from.

#include "model/diagnostic.h"
#include "model/run.h"
#include "model/runfields.h" // parseWorkloadSlug, for the callers that knew it from here

#include <QString>
#include <QVector>

#include <nlohmann/json_fwd.hpp>

#include <memory>
#include <vector>

namespace simdjson::dom {
class element;
} // namespace simdjson::dom

namespace kix {

// Builds the typed view of one parsed document. Returns nullptr and an error diagnostic when the document is
// refused; warnings for documents loaded anyway are appended to `out` too. `pointer` locates the document inside
// the file ("" for the whole file, "/3" for the fourth array element, "/12" for line 13 of JSON Lines).
// The run's raw text is left empty for the caller to set; searchText and identity are set (finalize()).
// `duplicateKeys`: the document may hold a key twice (the last value is read); false reads the first match.
std::shared_ptr<Run> extractRun(const simdjson::dom::element& document, const QString& file, const QString& pointer,
    Diagnostics& out, bool duplicateKeys = true);

// The Extract stage's entry for every document the Frame stage finds in a file (a whole file, an array element, a
// line): one that is not a kernelindex document (an object with "run" or a "kind") is refused here, with why;
// else as extractRun.
std::shared_ptr<Run> extractDocument(const simdjson::dom::element& document, const QString& file,
    const QString& pointer, Diagnostics& out, bool duplicateKeys);

// The same for a document built in memory (the engine's runs, Liger rows): its compact text is read like a file's,
// and the run keeps that text as its raw document. `samplesNs`: the raw samples the document names by
// timing.rawSamples (format::RunDocument::samplesNs), kept as the run's samples when it carries none itself.
RunPtr runFromDocument(const nlohmann::json& document, const QString& file, const QString& pointer, Diagnostics& out,
    const std::vector<double>& samplesNs = {});

} // namespace kix
