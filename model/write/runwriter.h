// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/run.h"
#include "model/write/texttable.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace kix {

enum class ExportFormat { Json, JsonLines, Csv };

// From the file name's extension (.json, .jsonl, .csv); nothing for others.
std::optional<ExportFormat> exportFormatForPath(const QString& path);

// Each run's document as loaded: a JSON array, JSON Lines, or the list table as CSV (with a header row).
QByteArray serializeRuns(const RunList& runs, ExportFormat format);

// Writes atomically (QSaveFile): on failure the existing file is untouched and `error` says why. JSON and JSON Lines
// exports also write, beside the file, the raw-samples evidence each run names by timing.rawSamples (see
// writeSamplesBeside).
bool writeRuns(const RunList& runs, const QString& path, ExportFormat format, QString* error);
// For each run whose document names its raw samples (timing.rawSamples, a plain file name and a digest), writes that
// file into `folder`: from the run's samples, or copied from beside the file the run was read from; only bytes whose
// digest is the one the document names. False with `error` when a file cannot be written.
bool writeSamplesBeside(const RunList& runs, const QString& folder, QString* error);
bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error);

// The columns of `kix list` and of CSV exports.
QStringList listColumns();
QStringList listRow(const Run& run);
// The same rows, added to a table of listColumns() without a string list per row (kix list over 100k runs).
void appendListRow(const Run& run, TextTable& table);
TextTable listTable(const RunList& runs);

} // namespace kix
