// SPDX-License-Identifier: Apache-2.0
#include "ui/runexportdialog.h"

#include "model/write/runwriter.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>

namespace kix {

bool RunExportDialog::exportRuns(QWidget* parent, const RunList& runs, const QString& what, QString* written)
{
    const QString title = QStringLiteral("Export %1").arg(what);
    if (runs.isEmpty()) {
        QMessageBox::information(parent, title, QStringLiteral("There are no runs to export."));
        return false;
    }
    QSettings settings;
    const QString folder = settings.value(QStringLiteral("files/lastExportFolder"), QDir::homePath()).toString();
    QString selectedFilter;
    QString path = QFileDialog::getSaveFileName(parent, title, QDir(folder).filePath(QStringLiteral("runs.json")),
        QStringLiteral("JSON, lossless (*.json);;JSON Lines (*.jsonl);;CSV table (*.csv)"), &selectedFilter);
    if (path.isEmpty())
        return false;
    if (!exportFormatForPath(path)) // no extension typed: take the chosen filter's
        path += selectedFilter.contains(QLatin1String("*.jsonl")) ? QStringLiteral(".jsonl")
            : selectedFilter.contains(QLatin1String("*.csv"))     ? QStringLiteral(".csv")
                                                                  : QStringLiteral(".json");
    settings.setValue(QStringLiteral("files/lastExportFolder"), QFileInfo(path).absolutePath());
    QString error;
    if (!writeRuns(runs, path, *exportFormatForPath(path), &error)) {
        QMessageBox::warning(parent, title, error);
        return false;
    }
    if (written)
        *written = path;
    return true;
}

} // namespace kix
