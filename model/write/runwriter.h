#pragma once

#include "model/run.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace kix {

enum class ExportFormat { Json, JsonLines, Csv };

// From the file name's extension (.json, .jsonl, .csv); nothing for others.
std::optional<ExportFormat> exportFormatForPath(const QString& path);

// Each run's document as loaded: a JSON array, JSON Lines, or the list table as CSV (with a header row).
QByteArray serializeRuns(const RunList& runs, ExportFormat format);

// Writes atomically (QSaveFile): on failure the existing file is untouched and `error` says why.
bool writeRuns(const RunList& runs, const QString& path, ExportFormat format, QString* error);
bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error);

// The columns of `kix list` and of CSV exports.
QStringList listColumns();
QStringList listRow(const Run& run);

} // namespace kix
