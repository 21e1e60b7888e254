// SPDX-License-Identifier: Apache-2.0
#include "model/diagnostic.h"

namespace kix {

QString Diagnostic::toString() const
{
    QString where = pointer.isEmpty() ? QStringLiteral("/") : pointer;
    if (line > 0)
        where = QStringLiteral("line %1, column %2").arg(line).arg(column);
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
