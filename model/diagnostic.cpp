// SPDX-License-Identifier: Apache-2.0
#include "model/diagnostic.h"

#include <QHash>
#include <QRegularExpression>

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

QString Diagnostic::pattern() const
{
    static const QRegularExpression index(QStringLiteral("/[0-9]+(?=/|$)"));
    static const QRegularExpression digest(QStringLiteral("sha256:[0-9a-f]+"));
    static const QRegularExpression number(QStringLiteral("[0-9]+([.,][0-9]+)*"));
    QString where = pointer;
    where.replace(index, QStringLiteral("/*"));
    QString what = message;
    what.replace(digest, QStringLiteral("sha256:…"));
    what.replace(number, QStringLiteral("N"));
    return (isError() ? QStringLiteral("error: ") : QStringLiteral("warning: ")) + where + QStringLiteral(": ") + what;
}

GroupedDiagnostics groupDiagnostics(const Diagnostics& diagnostics, qsizetype perKind)
{
    GroupedDiagnostics out;
    QHash<QString, qsizetype> seen; // pattern -> occurrences so far
    QHash<QString, qsizetype> foldedAt; // pattern -> index into out.folded
    for (qsizetype i = 0; i < diagnostics.size(); ++i) {
        const Diagnostic& d = diagnostics[i];
        if (d.isError()) {
            out.printed << i;
            continue;
        }
        const QString kind = d.pattern();
        if (++seen[kind] <= perKind) {
            out.printed << i;
            continue;
        }
        auto at = foldedAt.constFind(kind);
        if (at == foldedAt.constEnd()) {
            at = foldedAt.insert(kind, out.folded.size());
            out.folded.append({ kind, 0 });
        }
        ++out.folded[*at].count;
    }
    return out;
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
