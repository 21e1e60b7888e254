// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QStringList>
#include <QTextStream>

namespace kix {
class BackendRegistry;
}

namespace kix::cli {

// `kix bench [options] --out DIR` with the backends of `registry` (null: every built-in backend, as benchCommand
// runs). A progress line per run on `err`, a table of results on `out`, one run document per (pass, shape, dtype,
// implementation) in DIR. Exit 0; 1 when a run failed its check or errored, the device is missing or a file could
// not be written; 2 for bad options or a spec refused before anything ran.
int runBench(const QStringList& args, QTextStream& out, QTextStream& err, BackendRegistry* registry);

} // namespace kix::cli
