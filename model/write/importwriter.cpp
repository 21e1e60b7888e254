// SPDX-License-Identifier: Apache-2.0
#include "model/write/importwriter.h"

#include "model/write/runwriter.h"

#include <QDir>

#include <nlohmann/json.hpp>

namespace kix {

QString importedFileName(const Run& run)
{
    QString name = run.externalId;
    for (QChar& c : name) {
        if (c == QLatin1Char('/') || c == QLatin1Char('\\') || c == QLatin1Char(':') || c == QLatin1Char('*')
            || c == QLatin1Char('?') || c == QLatin1Char('"') || c == QLatin1Char('<') || c == QLatin1Char('>')
            || c == QLatin1Char('|'))
            c = QLatin1Char('_');
    }
    return name + QStringLiteral(".json");
}

bool writeImportedRuns(const RunList& runs, const QString& target, QString* error)
{
    if (target.endsWith(QLatin1String(".jsonl"), Qt::CaseInsensitive))
        return writeRuns(runs, target, ExportFormat::JsonLines, error);
    // a run read back from its file is refused, not written wrong, if the file changed since it was loaded
    for (const RunPtr& run : runs) {
        if (!run->raw.load(error))
            return false;
    }
    if (!QDir().mkpath(target)) {
        if (error)
            *error = QStringLiteral("%1: cannot create the folder").arg(target);
        return false;
    }
    const QDir dir(target);
    for (const RunPtr& run : runs) {
        // ordered_json keeps the document's own key order (run, protocol, environment)
        const auto doc = nlohmann::ordered_json::parse(run->raw);
        const QByteArray text = QByteArray::fromStdString(doc.dump(2)) + '\n';
        if (!writeFileAtomically(dir.filePath(importedFileName(*run)), text, error))
            return false;
    }
    return writeSamplesBeside(runs, target, error);
}

} // namespace kix
