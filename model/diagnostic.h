// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QVector>

namespace kix {

// One problem found while reading input: where (file, JSON pointer, and for syntax errors line and column)
// and what, in words a person understands.
struct Diagnostic
{
    enum class Severity { Warning, Error };

    Severity severity = Severity::Error;
    QString file;
    QString pointer; // RFC 6901 JSON pointer, "" for the whole document
    int line = 0; // 1-based, 0 when unknown
    int column = 0; // 1-based, 0 when unknown
    QString message;

    bool isError() const { return severity == Severity::Error; }
    // "PATH: error: POINTER: message" (the pointer part shows line:column for syntax errors)
    QString toString() const;
};

using Diagnostics = QVector<Diagnostic>;

Diagnostic makeError(const QString& file, const QString& pointer, const QString& message);
Diagnostic makeWarning(const QString& file, const QString& pointer, const QString& message);

} // namespace kix
