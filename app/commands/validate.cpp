// SPDX-License-Identifier: Apache-2.0
// kix validate PATH...: one line per problem on stdout, a count on stderr. --strict: what deviates from the
// format's v1alpha1 definition, per document and JSON pointer.
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "model/format/strictcheck.h"
#include "model/read/manifesttrees.h"

namespace kix::cli {

namespace {

// Every file as written, against the format's rules (model/format/strictcheck.h).
int validateStrict(CommandLine& cl, QTextStream& out, QTextStream& err)
{
    Diagnostics listed;
    const QStringList files = expandPaths(cl.positional(), &listed);
    int deviations = 0;
    int notChecked = 0;
    int documents = 0;
    bool refused = false;
    for (const QString& file : files) {
        Diagnostics diagnostics;
        readManifestTrees(
            file, {},
            [&](const nlohmann::json& value, const QString& pointer) {
                ++documents;
                format::StrictReport report;
                format::checkStrict(value, pointer, report);
                for (const format::StrictFinding& f : report.findings)
                    diagnostics.append(makeError(file, f.pointer, f.message));
                for (const format::StrictFinding& f : report.notChecked) {
                    diagnostics.append(makeWarning(file, f.pointer, f.message));
                    ++notChecked;
                }
            },
            diagnostics);
        for (Diagnostic& d : diagnostics) {
            // a duplicate key is a deviation from the format, which refuses it
            if (!d.isError() && d.message.startsWith(QLatin1String("duplicate key")))
                d.severity = Diagnostic::Severity::Error;
            deviations += d.isError() ? 1 : 0;
            refused = refused || d.isError();
        }
        listed += diagnostics;
    }
    for (const Diagnostic& d : listed)
        out << d.toString() << "\n";
    err << documents << " documents in " << files.size() << " files; " << deviations << " deviations from v1alpha1, "
        << notChecked << " resources of kinds not checked\n";
    if (files.isEmpty())
        return cl.fail(QStringLiteral("no run files found"));
    return refused ? ExitFailure : ExitOk;
}

} // namespace

int validateCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    CommandLine cl(QStringLiteral("validate"),
        QStringLiteral("Checks kernelindex files (.json, .jsonl, .yaml, catalog exports .jsonl.zst, Liger .csv) and "
                       "prints one line per problem on stdout. Exit 1 when a file is refused, 0 when there are "
                       "warnings only."),
        out, err);
    cl.addPaths(QStringLiteral("Files or folders (searched recursively)."));
    cl.addOption({ QStringLiteral("strict"),
        QStringLiteral("List, per document and JSON pointer, everything that deviates from the format's v1alpha1 "
                       "schemas and parsing rules (unknown or missing fields, patterns, statuses, durations, "
                       "duplicate keys, sizes). Exit 1 when anything does.") });
    if (!cl.parse(args))
        return cl.exitCode();
    if (cl.isSet(QStringLiteral("strict")))
        return validateStrict(cl, out, err);
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
