// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QStringList>
#include <QTextStream>

#include <vector>

namespace kix::cli {

// A headless command: `args` are the arguments after its name; it writes results on `out`, diagnostics, progress
// and usage errors on `err`, and returns an Exit code (app/commands/commandline.h). Every command follows one
// policy: --help prints on out and exits 0; a usage error prints one line and the usage on err and exits 2; an
// input that is refused (missing, unreadable, invalid) is named on err, the rest is still processed, and the exit
// code is 1; warnings alone exit 0.
using CommandFunction = int (*)(const QStringList& args, QTextStream& out, QTextStream& err);

struct Command
{
    const char* name; // as typed: `kix NAME ...`
    const char* summary; // one line for `kix --help`
    CommandFunction run;
    bool needsWidgets = false; // draws with Qt Widgets/Charts: main makes a QApplication (offscreen without display)
};

// Every command, in the order `kix --help` lists them (app/commands/registry.cpp).
const std::vector<Command>& commands();
// The command called `name`, or null.
const Command* findCommand(const QString& name);
// Runs the command called `name` in-process (no QCoreApplication is created here); ExitUsage if there is none.
int runCommand(const QString& name, const QStringList& args, QTextStream& out, QTextStream& err);
// `kix --help`: how to open the window, and every command with its summary.
QString overviewUsage();

// The commands (one file each in app/commands/).
int validateCommand(const QStringList& args, QTextStream& out, QTextStream& err);
int listCommand(const QStringList& args, QTextStream& out, QTextStream& err);
int exportCommand(const QStringList& args, QTextStream& out, QTextStream& err);
int importCommand(const QStringList& args, QTextStream& out, QTextStream& err);
int importLigerCommand(const QStringList& args, QTextStream& out, QTextStream& err); // alias of import
int summaryCommand(const QStringList& args, QTextStream& out, QTextStream& err);
int compareCommand(const QStringList& args, QTextStream& out, QTextStream& err);
int diffCommand(const QStringList& args, QTextStream& out, QTextStream& err); // app/commands/diff.cpp
int rankCommand(const QStringList& args, QTextStream& out, QTextStream& err);
int recordsCommand(const QStringList& args, QTextStream& out, QTextStream& err);
int reportCommand(const QStringList& args, QTextStream& out, QTextStream& err); // app/commands/report.cpp
int resolveCommand(const QStringList& args, QTextStream& out, QTextStream& err); // app/commands/resolve.cpp
int overviewCommand(const QStringList& args, QTextStream& out, QTextStream& err);
int chartCommand(const QStringList& args, QTextStream& out, QTextStream& err);
int benchCommand(const QStringList& args, QTextStream& out, QTextStream& err);
int fleetCommand(const QStringList& args, QTextStream& out, QTextStream& err); // app/commands/fleet.cpp
int historyCommand(const QStringList& args, QTextStream& out, QTextStream& err);

} // namespace kix::cli
