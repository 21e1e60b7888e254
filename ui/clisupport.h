#pragma once

#include "model/comparison.h"
#include "model/run.h"

#include <QCommandLineParser>
#include <QStringList>
#include <QTextStream>

namespace kix {

// What `kix compare` and `kix chart` share: reading the paths, the --filter text and the --baseline choice.
class CliSupport
{
public:
    // Parses `args` (those after the subcommand); on --help prints the help to `out`. Returns -1 to go on, else the
    // exit code (0 after --help, 2 for a usage error, reported on `err`).
    static int parse(QCommandLineParser& parser, const QString& command, const QStringList& args, QTextStream& out,
        QTextStream& err);

    // Loads the paths (files, folders), prints each diagnostic on `err`, applies the filter text. `refused` is
    // set when a file had an error: the command still does its work, then exits 1.
    static RunList loadRuns(const QStringList& paths, const QString& filterText, QTextStream& err, bool* refused);

    // "huggingface", "huggingface,torch" or "run:<externalId or name>"; empty = the default. False and `error`
    // when the value names nothing among the runs.
    static bool baselineFromOption(const QString& value, const RunList& runs, Baseline* baseline, QString* error);
};

} // namespace kix
