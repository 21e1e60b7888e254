// kix validate PATH...: one line per problem on stdout, a count on stderr.
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

namespace kix::cli {

int validateCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    CommandLine cl(QStringLiteral("validate"),
        QStringLiteral("Checks kernelindex files (.json, .jsonl, Liger .csv) and prints one line per problem on "
                       "stdout. Exit 1 when a file is refused, 0 when there are warnings only."),
        out, err);
    cl.addPaths(QStringLiteral("Files or folders (searched recursively)."));
    if (!cl.parse(args))
        return cl.exitCode();
    const LoadResult result = cl.load(&out);
    int errors = 0;
    for (const Diagnostic& d : result.diagnostics)
        errors += d.isError() ? 1 : 0;
    // Digests that do not match the resources their documents carry (each is a warning above, at its field).
    int mismatched = 0;
    for (const RunPtr& run : result.runs) {
        for (const DigestCheck c : { run->protocolCheck, run->workloadCheck, run->environmentCheck,
                 run->implementationCheck, run->operationCheck })
            mismatched += c == DigestCheck::Mismatch ? 1 : 0;
    }
    err << result.runs.size() << " runs loaded from " << result.files << " files; " << errors << " errors, "
        << (result.diagnostics.size() - errors) << " warnings";
    if (mismatched > 0)
        err << "; " << mismatched << " digest(s) do not match the resource carried";
    err << "\n";
    return cl.finish();
}

} // namespace kix::cli
