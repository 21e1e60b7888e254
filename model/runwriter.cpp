#include "model/runwriter.h"

#include "model/csvwriter.h"

#include <QFileInfo>
#include <QSaveFile>

namespace kix {

std::optional<ExportFormat> exportFormatForPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("json"))
        return ExportFormat::Json;
    if (suffix == QLatin1String("jsonl") || suffix == QLatin1String("ndjson"))
        return ExportFormat::JsonLines;
    if (suffix == QLatin1String("csv"))
        return ExportFormat::Csv;
    return std::nullopt;
}

QStringList listColumns()
{
    return { QStringLiteral("kernel"), QStringLiteral("pass"), QStringLiteral("provider"), QStringLiteral("gpu"),
        QStringLiteral("workload"), QStringLiteral("metric"), QStringLiteral("unit"), QStringLiteral("median"),
        QStringLiteral("p20"), QStringLiteral("p80"), QStringLiteral("status"), QStringLiteral("observed_at"),
        QStringLiteral("file") };
}

static QString number(double v)
{
    return std::isnan(v) ? QString() : QString::number(v, 'g', 15);
}

QStringList listRow(const Run& run)
{
    return { run.kernel, run.pass, run.provider, run.gpuDisplayName(), run.workloadSlug,
        run.isLatency() ? QStringLiteral("latency") : QStringLiteral("memory"), run.unit, number(run.median),
        number(run.p20), number(run.p80), run.status,
        run.observedAt.isValid() ? run.observedAt.toString(Qt::ISODateWithMs) : QString(), run.file + run.pointer };
}

QByteArray serializeRuns(const RunList& runs, ExportFormat format)
{
    QByteArray out;
    switch (format) {
    case ExportFormat::Json: {
        out += '[';
        for (int i = 0; i < runs.size(); ++i) {
            out += i == 0 ? "\n" : ",\n";
            out += QByteArray::fromStdString(runs[i]->raw);
        }
        out += runs.isEmpty() ? "]\n" : "\n]\n";
        break;
    }
    case ExportFormat::JsonLines:
        for (const RunPtr& run : runs) {
            out += QByteArray::fromStdString(run->raw);
            out += '\n';
        }
        break;
    case ExportFormat::Csv:
        out += csvLine(listColumns());
        for (const RunPtr& run : runs)
            out += csvLine(listRow(*run));
        break;
    }
    return out;
}

bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
        return false;
    }
    if (file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
        file.cancelWriting();
        return false;
    }
    return true;
}

bool writeRuns(const RunList& runs, const QString& path, ExportFormat format, QString* error)
{
    return writeFileAtomically(path, serializeRuns(runs, format), error);
}

} // namespace kix
