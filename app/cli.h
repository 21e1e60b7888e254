#pragma once

#include <QStringList>
#include <QTextStream>

namespace kix {

// The headless subcommands. `args` are the arguments after the subcommand's name.
int validateCommand(const QStringList& args, QTextStream& out, QTextStream& err);
int listCommand(const QStringList& args, QTextStream& out, QTextStream& err);
int exportCommand(const QStringList& args, QTextStream& out, QTextStream& err);
// kix import FILE... --out DIR|FILE.jsonl: any format kix reads, written as kernelindex documents.
int importCommand(const QStringList& args, QTextStream& out, QTextStream& err);
int importLigerCommand(const QStringList& args, QTextStream& out, QTextStream& err); // alias of import
// What `kix` prints instead of opening a window when there is no display.
int summaryCommand(const QStringList& paths, QTextStream& out, QTextStream& err);

} // namespace kix
