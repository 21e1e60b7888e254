// SPDX-License-Identifier: Apache-2.0
#include "model/write/runwriter.h"

#include "model/format/digest.h"
#include "model/format/documentbuilder.h"
#include "model/jobs/pools.h"
#include "model/write/cellformat.h"
#include "model/write/texttable.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <type_traits>

#include <unistd.h>

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
        QStringLiteral("workload"), QStringLiteral("metric"), QStringLiteral("statistic"), QStringLiteral("unit"),
        QStringLiteral("value"), QStringLiteral("p20"), QStringLiteral("p80"), QStringLiteral("status"),
        QStringLiteral("observed_at"), QStringLiteral("file"), QStringLiteral("author"),
        QStringLiteral("implementation"), QStringLiteral("operation"), QStringLiteral("project"),
        QStringLiteral("workload_title"), QStringLiteral("comparison_key") };
}

namespace {

// The cells of a run's row, in listColumns() order, each given to `cell` as a QString or as UTF-8 (numbers and
// times, formatted without Qt).
template<class Cell>
void listCells(const Run& run, Cell&& cell)
{
    CellBuffer buffer;
    cell(run.kernel);
    cell(run.pass);
    cell(run.provider);
    cell(run.gpuDisplayName());
    cell(run.workloadSlug);
    cell(run.metricName());
    cell(std::isnan(run.median) ? QString() : run.headlineStatistic);
    cell(run.unit);
    cell(formatNumberCell(run.median, buffer));
    cell(formatNumberCell(run.p20, buffer));
    cell(formatNumberCell(run.p80, buffer));
    cell(run.status);
    cell(formatTimeCell(run.observedAt, buffer));
    cell(QString(run.file + run.pointer));
    cell(run.authorText());
    cell(run.links().implementationTitle.isEmpty() ? QString() : run.implementationLabel());
    cell(run.links().operationTitle);
    cell(run.links().project);
    cell(run.links().workloadTitle);
    char key[71];
    if (run.links().comparisonKey.sha256Text(key))
        cell(std::string_view(key, sizeof key));
    else
        cell(run.links().comparisonKey.toString());
}

} // namespace

QStringList listRow(const Run& run)
{
    QStringList row;
    row.reserve(20);
    listCells(run, [&](const auto& text) {
        if constexpr (std::is_same_v<std::decay_t<decltype(text)>, std::string_view>)
            row.append(QString::fromUtf8(text.data(), qsizetype(text.size())));
        else
            row.append(text);
    });
    return row;
}

void appendListRow(const Run& run, TextTable& table)
{
    listCells(run, [&](const auto& text) {
        if constexpr (std::is_same_v<std::decay_t<decltype(text)>, std::string_view>)
            table.addCell(text);
        else
            table.addCell(QStringView(text));
    });
    table.endRow();
}

TextTable listTable(const RunList& runs)
{
    // Rows are built in parts, one per thread of the worker pool (the calling thread builds the first), and joined
    // in order: a part is at least kRowsPerPart rows, so that a short list never waits on a thread.
    constexpr qsizetype kRowsPerPart = 16384;
    const qsizetype parts
        = std::clamp<qsizetype>(runs.size() / kRowsPerPart, 1, std::max(1, workerPool()->maxThreadCount()));
    auto buildPart = [&runs, parts](qsizetype part) {
        const qsizetype begin = runs.size() * part / parts, end = runs.size() * (part + 1) / parts;
        TextTable table(listColumns());
        // the first part's table takes the others' rows: room for all of them, so that joining copies once
        table.reserve(std::size_t(part == 0 ? runs.size() : end - begin), 192);
        for (qsizetype i = begin; i < end; ++i)
            appendListRow(*runs[i], table);
        return table;
    };
    std::vector<QFuture<TextTable>> rest;
    for (qsizetype part = 1; part < parts; ++part)
        rest.push_back(QtConcurrent::run(workerPool(), buildPart, part));
    TextTable table = buildPart(0);
    for (QFuture<TextTable>& part : rest)
        table.appendRows(part.takeResult());
    return table;
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
        listTable(runs).writeCsv([&](std::string_view chunk) { out.append(chunk.data(), qsizetype(chunk.size())); });
        break;
    }
    return out;
}

bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error)
{
    QSaveFile file(path);
    auto fail = [&](const QString& why) {
        if (error)
            *error = QStringLiteral("%1: cannot write: %2").arg(path, why);
        file.cancelWriting();
        return false;
    };
    if (!file.open(QIODevice::WriteOnly))
        return fail(file.errorString());
    // Written with write(2) on the save file's descriptor: when the disk fills up (ENOSPC) or the file size limit
    // is reached (EFBIG), QFileDevice::write reports the short write as complete and commit() would then replace
    // the previous file with a truncated one.
    const int fd = file.handle();
    qint64 written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.constData() + written, static_cast<size_t>(bytes.size() - written));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const int code = n < 0 ? errno : ENOSPC;
            const QString reason = QString::fromLocal8Bit(std::strerror(code));
            return fail(code == ENOSPC || code == EFBIG || code == EDQUOT
                    ? reason + QStringLiteral(" (the disk is full; the previous file is unchanged)")
                    : reason);
        }
        written += n;
    }
    if (!file.commit())
        return fail(file.errorString());
    return true;
}

namespace {

// A plain file name: no folder part, not hidden, not "..": what kix itself writes as a rawSamples URI.
bool isPlainFileName(const QString& uri)
{
    return !uri.isEmpty() && !uri.contains(QLatin1Char('/')) && !uri.contains(QLatin1Char('\\'))
        && !uri.startsWith(QLatin1Char('.')) && !uri.contains(QLatin1Char(':'));
}

} // namespace

bool writeSamplesBeside(const RunList& runs, const QString& folder, QString* error)
{
    const QDir dir(folder);
    for (const RunPtr& run : runs) {
        if (run->raw.view().find("rawSamples") == std::string_view::npos)
            continue;
        const auto doc = nlohmann::json::parse(run->raw.begin(), run->raw.end(), nullptr, false);
        const nlohmann::json::json_pointer pointer("/run/spec/timing/rawSamples");
        if (!doc.is_object() || !doc.contains(pointer) || !doc.at(pointer).is_object())
            continue;
        const nlohmann::json& ref = doc.at(pointer);
        const QString uri = QString::fromStdString(ref.value("uri", std::string()));
        const std::string digest = ref.value("digest", std::string());
        if (!isPlainFileName(uri))
            continue;
        std::string bytes;
        if (!run->samples.empty())
            bytes = format::samplesArtifact(run->samples);
        if (format::sha256Digest(bytes) != digest) {
            // the file beside the document it was read from, when it is the one the document names
            QFile source(QFileInfo(run->file).dir().filePath(uri));
            bytes.clear();
            if (source.open(QIODevice::ReadOnly) && source.size() < (qint64(1) << 30))
                bytes = source.readAll().toStdString();
            if (format::sha256Digest(bytes) != digest)
                continue; // nothing kix can vouch for; the document still names its evidence
        }
        const QString target = dir.filePath(uri);
        if (QFileInfo(target).absoluteFilePath()
                == QFileInfo(QFileInfo(run->file).dir().filePath(uri)).absoluteFilePath()
            && QFileInfo::exists(target))
            continue; // already there
        if (!writeFileAtomically(target, QByteArray::fromStdString(bytes), error))
            return false;
    }
    return true;
}

bool writeRuns(const RunList& runs, const QString& path, ExportFormat format, QString* error)
{
    // a run of a streamed bundle reads its text back from the file: refused, not written wrong, if the file changed
    if (format != ExportFormat::Csv) {
        for (const RunPtr& run : runs) {
            if (!run->raw.load(error))
                return false;
        }
    }
    if (!writeFileAtomically(path, serializeRuns(runs, format), error))
        return false;
    return format == ExportFormat::Csv || writeSamplesBeside(runs, QFileInfo(path).absolutePath(), error);
}

} // namespace kix
