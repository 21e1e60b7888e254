#pragma once

#include <QStringList>
#include <QTextStream>

namespace kix {

// kix history PATH... [--filter TEXT] [--threshold PCT] [--since DATE|LABEL] [--format table|csv|json]
//                     [--fail-on regression]
// Prints every change of every series, largest first. Exit status: 0; 1 when --fail-on regression finds a
// regression above the threshold, or when a file was refused; 2 for a usage error. Qt Core only, so that the model's
// tests call it directly.
int historyCommand(const QStringList& args, QTextStream& out, QTextStream& err);

} // namespace kix
