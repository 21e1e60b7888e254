#pragma once

#include <QStringList>
#include <QTextStream>

namespace kix {

class BackendRegistry;

// Exit codes of `kix bench`.
enum BenchExit { BenchOk = 0, BenchFailure = 1, BenchUsage = 2 };

// `kix bench [options] --out DIR`; `args` are the arguments after "bench". A progress line per run on
// `err`, a table of results on `out`, one run document per (pass, shape, dtype, implementation) in DIR.
// Returns BenchOk, BenchFailure (a run failed its check or errored, no such device, a file could not be
// written) or BenchUsage (bad options or a spec refused before anything ran). `registry` defaults to
// every built-in backend.
int runBenchCommand(const QStringList& args, QTextStream& out, QTextStream& err, BackendRegistry* registry = nullptr);

// "32,64,...,2048" -> 32 64 128 ... 2048. Plain lists as they are; "a,b,...,z" is geometric when b is a
// multiple of a and z = a * (b/a)^k, else arithmetic with step b - a ending exactly at z. False with a
// message when the list is malformed.
bool parseSweepValues(const QString& text, QList<qint64>& values, QString& error);

} // namespace kix
