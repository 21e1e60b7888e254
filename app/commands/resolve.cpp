// SPDX-License-Identifier: Apache-2.0
// kix resolve OPERATION PATH... [--axis K=V]... [--dtype D] [--gpu G] [--filter TEXT] [--format table|csv|json]:
// the measured cases nearest a workload (model/compare/resolve.h).
#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "model/compare/resolve.h"
#include "model/compare/resolvereport.h"

namespace kix::cli {

int resolveCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    CommandLine cl(QStringLiteral("resolve"),
        QStringLiteral("Finds the measured cases of a workload: OPERATION (a kernel name, an operation's title or "
                       "alias, any case) with the axis values, dtype and GPU given. Cases that match every field are "
                       "the answer, ranked as their cohort. Else, for each axis given, the measured cases nearest "
                       "below and above the value (numbers by ratio on a log scale, text exactly), each with its best "
                       "implementation and every field in which it differs from the request (requested → "
                       "observed): a near case is never an answer. A workload suite is one aggregate of N cases, "
                       "listed as such. Fields the request leaves open that vary among the cases are listed as "
                       "unconstrained (narrow them with --axis or --filter). Exit 0 when a case is found (exact or "
                       "near), 1 when none is (or an input is refused), 2 on a usage error."),
        out, err);
    cl.addLeadingArgument(QStringLiteral("OPERATION"),
        QStringLiteral("The operation: a kernel name (group_norm), an operation's title or alias, any case."));
    cl.addPaths();
    cl.addFilter();
    cl.addFormats({ QStringLiteral("table"), QStringLiteral("csv"), QStringLiteral("json") });
    const QCommandLineOption axisOption(QStringLiteral("axis"),
        QStringLiteral("An axis value the workload has, AXIS=VALUE (channels=3000, m=3000, V=100000); repeat for "
                       "several axes. Axis names as the runs spell them (kix list shows them in the workload)."),
        QStringLiteral("AXIS=VALUE"));
    const QCommandLineOption dtypeOption(QStringLiteral("dtype"),
        QStringLiteral("The data type (fp32, bf16, float16, ...: spellings of one type match)."), QStringLiteral("D"));
    const QCommandLineOption gpuOption(
        QStringLiteral("gpu"), QStringLiteral("A part of the GPU's name, any case (B200, H100)."), QStringLiteral("G"));
    cl.addOption(axisOption);
    cl.addOption(dtypeOption);
    cl.addOption(gpuOption);
    cl.setEpilog(QStringLiteral(
        "Examples (the bundled runs: GroupNorm on a B200, channels 32 to 2048):\n"
        "  kix resolve group_norm resources/runs --axis channels=2048      exact: liger and huggingface ranked\n"
        "  kix resolve group_norm resources/runs --axis channels=1500      between 1024 and 2048\n"
        "  kix resolve GROUP_NORM resources/runs --axis channels=8192 --filter pass:forward   beyond the range\n"
        "  kix resolve group_norm resources/runs --axis channels=3000 --gpu H100 --format json\n"
        "  kix resolve gemm_n4096_k4096 catalog.jsonl.zst --axis m=3000    the format's catalog export\n"));
    if (!cl.parse(args))
        return cl.exitCode();

    ResolveRequest request;
    request.operation = cl.positional().front();
    for (const QString& text : cl.parser().values(axisOption)) {
        KeyValue kv;
        QString error;
        if (!ResolveRequest::parseAxis(text, &kv, &error))
            return cl.usageError(QStringLiteral("--axis: ") + error);
        request.axes.append(kv);
    }
    request.dtype = cl.value(dtypeOption);
    request.gpu = cl.value(gpuOption);

    const RunList runs = cl.loadRuns();
    const Resolution resolution = resolveWorkload(runs, request);
    cl.print(resolution, resolutionToJson, resolutionToCsv, resolutionToTable);
    if (resolution.matchedBy.isEmpty())
        return cl.fail(QStringLiteral("no operation \"%1\" among %2 run(s)%3")
                           .arg(request.operation)
                           .arg(runs.size())
                           .arg(resolution.suggestions.isEmpty() ? QString()
                                                                 : QStringLiteral("; nearest names: ")
                                       + resolution.suggestions.join(QStringLiteral(", "))));
    if (!resolution.found())
        return cl.fail(QStringLiteral("nothing measured near the request among %1 case(s) of %2")
                           .arg(resolution.caseCount)
                           .arg(request.operation));
    return cl.finish();
}

} // namespace kix::cli
