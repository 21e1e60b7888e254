// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model/compare/comparison.h"
#include "model/read/runloader.h"

#include <QCommandLineParser>
#include <QStringList>
#include <QTextStream>

namespace kix::cli {

// Exit codes every command uses.
enum Exit {
    ExitOk = 0, // done; warnings alone still exit 0
    ExitFailure = 1, // an input refused (the rest still processed), or the work itself failed
    ExitUsage = 2, // bad arguments: one line and the usage on stderr
};

// What every command shares: argument parsing, --help, the PATH... arguments, --filter, --format, loading with
// diagnostics and the exit code that follows from them. One per command run:
//
//     CommandLine cl(QStringLiteral("list"), QStringLiteral("Lists runs."), out, err);
//     cl.addPaths();
//     cl.addFilter();
//     cl.addFormats({ "table", "csv", "json" });
//     if (!cl.parse(args))
//         return cl.exitCode();          // --help (0) or a usage error (2), already printed
//     const RunList runs = cl.loadRuns(); // diagnostics on err; a refused input makes finish() 1
//     ...
//     return cl.finish();
class CommandLine
{
public:
    CommandLine(const QString& name, const QString& description, QTextStream& out, QTextStream& err);

    // PATH... (files or folders); at least one is required.
    void addPaths(const QString& description = QStringLiteral("Run files or folders."));
    // --filter TEXT: only the runs the explorer's filter box would keep for TEXT.
    void addFilter();
    // --format NAME, the first of `formats` by default; any other value is a usage error.
    void addFormats(const QStringList& formats);
    // --alpha A: the significance level of the Mann-Whitney test, 0 < A < 1 (default 0.05); parse() refuses any
    // other value with a usage error.
    void addAlpha(
        const QString& description = QStringLiteral("Significance level of the Mann-Whitney test (default 0.05)."));
    double alpha() const { return m_alpha; }
    void addOption(const QCommandLineOption& option) { m_parser.addOption(option); }
    void addPositional(const QString& name, const QString& description, const QString& syntax = {});
    // A required argument before the PATHs (`kix resolve OPERATION PATH...`): call before addPaths(); parse()
    // refuses a command line without it, and paths() and load() skip it.
    void addLeadingArgument(const QString& name, const QString& description);
    QStringList paths() const { return positional().mid(m_leading.size()); }
    // Appended to --help after the options (defaults, grammar, examples).
    void setEpilog(const QString& text) { m_epilog = text; }

    // False when the command must stop now with exitCode(): after --help (printed on out, 0) or a usage error
    // (one line and the usage on err, 2).
    bool parse(const QStringList& args);
    int exitCode() const { return m_exitCode; }

    // Prints "kix NAME: message" and the usage on err; returns ExitUsage.
    int usageError(const QString& message);
    // Prints "kix NAME: message" on err; returns ExitFailure.
    int fail(const QString& message);
    // Names a refused input on err ("kix NAME: message") and makes finish() return ExitFailure.
    void refuse(const QString& message);

    QString usage() const;
    QString name() const { return m_name; }
    QTextStream& out() { return m_out; }
    QTextStream& err() { return m_err; }
    const QCommandLineParser& parser() const { return m_parser; }
    QString value(const QString& option) const { return m_parser.value(option); }
    QString value(const QCommandLineOption& option) const { return m_parser.value(option); }
    bool isSet(const QString& option) const { return m_parser.isSet(option); }
    bool isSet(const QCommandLineOption& option) const { return m_parser.isSet(option); }
    QStringList positional() const { return m_parser.positionalArguments(); }
    QString format() const { return m_parser.value(QStringLiteral("format")); }
    // Writes `report` on out as --format asks: toJson, toCsv or toTable (each returns UTF-8), then flushes.
    template<class Report, class Json, class Csv, class Table>
    void print(const Report& report, Json toJson, Csv toCsv, Table toTable)
    {
        const QString f = format();
        m_out << QString::fromUtf8(f == QLatin1String("json") ? toJson(report)
                : f == QLatin1String("csv")                   ? toCsv(report)
                                                              : toTable(report));
        m_out.flush();
    }

    // Loads the PATHs, prints every diagnostic on err (or on `diagnosticsTo`); an error among them (a missing,
    // unreadable or invalid input) or no run file at all makes finish() return ExitFailure. The runs of the good
    // files are returned.
    LoadResult load(QTextStream* diagnosticsTo = nullptr);
    // load(), then --filter.
    RunList loadRuns();
    // The runs of `runs` that --filter keeps (all without --filter).
    RunList filtered(const RunList& runs) const;
    // Prints diagnostics (on err, or on `to`) of a read that did not go through load(); errors count as refused
    // inputs.
    void report(const Diagnostics& diagnostics, QTextStream* to = nullptr);

    bool refused() const { return m_refused; }
    // The command's exit code: `code` when it failed itself, else ExitFailure if an input was refused, else ExitOk.
    int finish(int code = ExitOk) const { return code != ExitOk ? code : (m_refused ? ExitFailure : ExitOk); }

private:
    QString m_name;
    QTextStream& m_out;
    QTextStream& m_err;
    QCommandLineParser m_parser;
    QCommandLineOption m_help;
    QString m_epilog;
    QStringList m_formats;
    bool m_paths = false;
    QStringList m_leading; // names of the arguments before the PATHs
    bool m_filter = false;
    bool m_hasAlpha = false;
    double m_alpha = 0.05;
    bool m_refused = false;
    int m_exitCode = ExitOk;
};

// Columns padded to their widest cell, two spaces apart, the last one unpadded.
void printTable(const QStringList& header, const QVector<QStringList>& rows, QTextStream& out);

// --baseline: "huggingface", "huggingface,torch" or "run:<externalId or name>"; empty = the default. False and
// `error` when the value names nothing among the runs.
bool baselineFromOption(const QString& value, const RunList& runs, Baseline* baseline, QString* error);

} // namespace kix::cli
