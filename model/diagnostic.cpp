// SPDX-License-Identifier: Apache-2.0
#include "model/diagnostic.h"

namespace kix {

QString Diagnostic::toString() const
{
    QString where = pointer.isEmpty() ? QStringLiteral("/") : pointer;
    if (line > 0 && column > 0)
        where = QStringLiteral("line %1, column %2").arg(line).arg(column);
    else if (line > 0) // a JSON Lines document, a CSV row: the pointer within it, and its line
        where += QStringLiteral(" (line %1)").arg(line);
    const QString kind = isError() ? QStringLiteral("error") : QStringLiteral("warning");
    return file + QStringLiteral(": ") + kind + QStringLiteral(": ") + where + QStringLiteral(": ") + message;
}

Diagnostic makeError(const QString& file, const QString& pointer, const QString& message)
{
    Diagnostic d;
    d.severity = Diagnostic::Severity::Error;
    d.file = file;
    d.pointer = pointer;
    d.message = message;
    return d;
}

Diagnostic makeWarning(const QString& file, const QString& pointer, const QString& message)
{
    Diagnostic d = makeError(file, pointer, message);
    d.severity = Diagnostic::Severity::Warning;
    return d;
}

} // namespace kix
