#include "app/cli.h"

#include "model/importwriter.h"
#include "model/runfilter.h"
#include "model/runloader.h"
#include "model/runwriter.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMap>

#include <nlohmann/json.hpp>

namespace kix {

namespace {

// Parses `args` (after the subcommand); on a usage error prints it and returns false with *code = 2.
bool parseArgs(QCommandLineParser& parser, const QString& name, const QStringList& args, QTextStream& err, int* code)
{
    parser.addHelpOption();
    if (!parser.parse(QStringList { QStringLiteral("kix ") + name } + args)) {
        err << "kix " << name << ": " << parser.errorText() << "\n";
        *code = 2;
        return false;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        err << parser.helpText();
        *code = 0;
        return false;
    }
    return true;
}

void printDiagnostics(const Diagnostics& diagnostics, QTextStream& err)
{
    for (const Diagnostic& d : diagnostics)
        err << d.toString() << "\n";
}

// The runs that match --filter (every one when it is not given).
RunList filtered(const RunList& runs, const QCommandLineParser& parser)
{
    RunFilter filter;
    filter.setText(parser.value(QStringLiteral("filter")));
    return filter.apply(runs);
}

int errorCount(const Diagnostics& diagnostics)
{
    int n = 0;
    for (const Diagnostic& d : diagnostics)
        n += d.isError() ? 1 : 0;
    return n;
}

void printTable(const QStringList& header, const QVector<QStringList>& rows, QTextStream& out)
{
    QVector<int> widths(header.size());
    for (int c = 0; c < header.size(); ++c)
        widths[c] = header[c].size();
    for (const QStringList& row : rows) {
        for (int c = 0; c < row.size() && c < widths.size(); ++c)
            widths[c] = std::max(widths[c], static_cast<int>(row[c].size()));
    }
    auto line = [&](const QStringList& cells) {
        QString text;
        for (int c = 0; c < cells.size(); ++c) {
            if (c > 0)
                text += QStringLiteral("  ");
            text += c + 1 == cells.size() ? cells[c] : cells[c].leftJustified(widths[c]);
        }
        out << text << "\n";
    };
    line(header);
    for (const QStringList& row : rows)
        line(row);
}

} // namespace

int validateCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Checks kernelindex files and prints one line per problem."));
    parser.addPositionalArgument(
        QStringLiteral("PATH"), QStringLiteral("Files or folders."), QStringLiteral("PATH..."));
    int code = 0;
    if (!parseArgs(parser, QStringLiteral("validate"), args, err, &code))
        return code;
    if (parser.positionalArguments().isEmpty()) {
        err << "kix validate: no PATH given\n";
        return 2;
    }
    const LoadResult result = loadPaths(parser.positionalArguments());
    for (const Diagnostic& d : result.diagnostics)
        out << d.toString() << "\n";
    const int errors = errorCount(result.diagnostics);
    err << result.runs.size() << " runs loaded from " << result.files << " files; " << errors << " errors, "
        << (result.diagnostics.size() - errors) << " warnings\n";
    return errors > 0 ? 1 : 0;
}

int listCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Lists runs: a row per run."));
    parser.addPositionalArgument(
        QStringLiteral("PATH"), QStringLiteral("Files or folders."), QStringLiteral("PATH..."));
    parser.addOption({ QStringLiteral("format"), QStringLiteral("table, csv or json."), QStringLiteral("FORMAT"),
        QStringLiteral("table") });
    parser.addOption(
        { QStringLiteral("filter"), QStringLiteral("Only runs matching every word of TEXT."), QStringLiteral("TEXT") });
    int code = 0;
    if (!parseArgs(parser, QStringLiteral("list"), args, err, &code))
        return code;
    const QString format = parser.value(QStringLiteral("format"));
    if (format != QLatin1String("table") && format != QLatin1String("csv") && format != QLatin1String("json")) {
        err << "kix list: unknown --format \"" << format << "\" (table, csv or json)\n";
        return 2;
    }
    if (parser.positionalArguments().isEmpty()) {
        err << "kix list: no PATH given\n";
        return 2;
    }
    const LoadResult result = loadPaths(parser.positionalArguments());
    printDiagnostics(result.diagnostics, err);
    const RunList runs = filtered(result.runs, parser);

    if (format == QLatin1String("csv")) {
        out << QString::fromUtf8(serializeRuns(runs, ExportFormat::Csv));
    } else if (format == QLatin1String("json")) {
        nlohmann::json rows = nlohmann::json::array();
        const QStringList columns = listColumns();
        for (const RunPtr& run : runs) {
            const QStringList cells = listRow(*run);
            nlohmann::json row = nlohmann::json::object();
            for (int c = 0; c < columns.size(); ++c) {
                const std::string key = columns[c].toStdString();
                bool numeric = false;
                const double v = cells[c].toDouble(&numeric);
                if (numeric && (key == "median" || key == "p20" || key == "p80"))
                    row[key] = v;
                else
                    row[key] = cells[c].toStdString();
            }
            row["external_id"] = run->externalId.toStdString();
            rows.push_back(std::move(row));
        }
        out << QString::fromStdString(rows.dump(2)) << "\n";
    } else {
        QVector<QStringList> rows;
        for (const RunPtr& run : runs)
            rows.append(listRow(*run));
        printTable(listColumns(), rows, out);
        err << runs.size() << " of " << result.runs.size() << " runs\n";
    }
    return errorCount(result.diagnostics) > 0 ? 1 : 0;
}

int exportCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Writes every loaded run, as loaded, to one file (.json, .jsonl, "
                                                    ".csv); the file is replaced atomically."));
    parser.addPositionalArgument(
        QStringLiteral("PATH"), QStringLiteral("Files or folders."), QStringLiteral("PATH..."));
    parser.addOption({ QStringLiteral("out"), QStringLiteral("The file to write."), QStringLiteral("FILE") });
    parser.addOption(
        { QStringLiteral("filter"), QStringLiteral("Only runs matching every word of TEXT."), QStringLiteral("TEXT") });
    int code = 0;
    if (!parseArgs(parser, QStringLiteral("export"), args, err, &code))
        return code;
    const QString target = parser.value(QStringLiteral("out"));
    if (target.isEmpty() || parser.positionalArguments().isEmpty()) {
        err << "kix export: needs PATH... and --out FILE\n";
        return 2;
    }
    const auto format = exportFormatForPath(target);
    if (!format) {
        err << "kix export: " << target << ": unknown extension (use .json, .jsonl or .csv)\n";
        return 2;
    }
    const LoadResult result = loadPaths(parser.positionalArguments());
    printDiagnostics(result.diagnostics, err);
    const RunList runs = filtered(result.runs, parser);
    QString error;
    if (!writeRuns(runs, target, *format, &error)) {
        err << "kix export: " << error << "\n";
        return 1;
    }
    out << "wrote " << runs.size() << " runs to " << target << "\n";
    return errorCount(result.diagnostics) > 0 ? 1 : 0;
}

int importCommand(const QStringList& args, QTextStream& out, QTextStream& err, const QString& name)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Turns other tools' results into kernelindex runs: a folder of .json files, or one .jsonl "
                       "file. Reads nvbench JSON, Google Benchmark JSON, pytest-benchmark JSON and Liger-Kernel's "
                       "benchmark CSV (recognised by content), and kernelindex files."));
    parser.addPositionalArgument(
        QStringLiteral("FILE"), QStringLiteral("Files or folders."), QStringLiteral("FILE..."));
    parser.addOption(
        { QStringLiteral("out"), QStringLiteral("A folder, or a .jsonl file."), QStringLiteral("DIR|FILE") });
    int code = 0;
    if (!parseArgs(parser, name, args, err, &code))
        return code;
    const QString target = parser.value(QStringLiteral("out"));
    if (parser.positionalArguments().isEmpty() || target.isEmpty()) {
        err << "kix " << name << ": needs FILE... and --out DIR|FILE.jsonl\n";
        return 2;
    }
    // Through the loader, so that exactly what kix would load is written.
    const LoadResult result = loadPaths(parser.positionalArguments());
    printDiagnostics(result.diagnostics, err);
    QString error;
    if (!writeImportedRuns(result.runs, target, &error)) {
        err << "kix " << name << ": " << error << "\n";
        return 1;
    }
    out << "imported " << result.runs.size() << " runs from " << result.files << " files into " << target << "\n";
    return errorCount(result.diagnostics) > 0 ? 1 : 0;
}

int importCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    return importCommand(args, out, err, QStringLiteral("import"));
}

int importLigerCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    return importCommand(args, out, err, QStringLiteral("import-liger"));
}

int summaryCommand(const QStringList& paths, QTextStream& out, QTextStream& err)
{
    const LoadResult result = loadPaths(paths);
    printDiagnostics(result.diagnostics, err);
    out << "kix: " << result.runs.size() << " runs from " << result.files << " files";
    if (result.duplicates > 0)
        out << " (" << result.duplicates << " duplicates kept once)";
    out << "\n";
    QMap<QString, int> groups;
    for (const RunPtr& run : result.runs)
        ++groups[run->kernel + QLatin1Char(' ') + run->pass + QStringLiteral(" on ") + run->gpuDisplayName()];
    for (auto it = groups.cbegin(); it != groups.cend(); ++it)
        out << "  " << it.value() << " × " << it.key() << "\n";
    out << "\n";
    QVector<QStringList> rows;
    const int shown = std::min<int>(result.runs.size(), 40);
    for (int i = 0; i < shown; ++i)
        rows.append(listRow(*result.runs[i]));
    printTable(listColumns(), rows, out);
    if (shown < result.runs.size())
        out << "… and " << (result.runs.size() - shown) << " more (kix list PATH for all)\n";
    return errorCount(result.diagnostics) > 0 ? 1 : 0;
}

} // namespace kix
