#pragma once

#include <QStringList>
#include <QTextStream>

namespace kix {

// `kix bench ...`: runs benchmarks with the engine (see engine/benchcli.h). `args` are the arguments after
// "bench". Exit codes: 0 ok, 1 a benchmark or device failure, 2 a usage error.
int benchCommand(const QStringList& args, QTextStream& out, QTextStream& err);

} // namespace kix
