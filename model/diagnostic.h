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
    // What makes two diagnostics the same kind of problem: the severity, the pointer with its array indexes and
    // line numbers as "*", and the message with digests and numbers masked ("/*/run/spec/protocolDigest: does
    // not match the protocol ... (it digests to sha256:…)"). The file is not part of it.
    QString pattern() const;
};

using Diagnostics = QVector<Diagnostic>;

// Diagnostics as a reader can take them in: each kind (pattern()) printed for its first `perKind` occurrences,
// the rest counted. Errors are always printed: a refused input is always named.
struct GroupedDiagnostics
{
    struct Folded
    {
        QString pattern;
        qsizetype count = 0; // occurrences not printed
    };
    QVector<qsizetype> printed; // indexes into the diagnostics, in order
    QVector<Folded> folded; // in the order the kinds first appeared
};
GroupedDiagnostics groupDiagnostics(const Diagnostics& diagnostics, qsizetype perKind = 20);

Diagnostic makeError(const QString& file, const QString& pointer, const QString& message);
Diagnostic makeWarning(const QString& file, const QString& pointer, const QString& message);

} // namespace kix
