#include "app/benchcommand.h"

#include "engine/benchcli.h"

namespace kix {

int benchCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    // The command lives in kix_engine so that its tests link the library instead of recompiling this file.
    return runBenchCommand(args, out, err);
}

} // namespace kix
