// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/run.h"

#include <QString>

namespace kix {

// `kix import`'s output: the runs' kernelindex documents, one indented .json file per run in a folder (named after
// the externalId, '/' made '_'), or one JSON Lines file when `target` ends in .jsonl. Each file is written
// atomically; on failure `error` says which file and why.
bool writeImportedRuns(const RunList& runs, const QString& target, QString* error);

// The file name writeImportedRuns gives a run in a folder: "group_norm_backward_..._2026-02-28-00-23-31.json".
QString importedFileName(const Run& run);

} // namespace kix
