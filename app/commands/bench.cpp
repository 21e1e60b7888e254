// SPDX-License-Identifier: Apache-2.0
// kix bench: GroupNorm benchmarks on this machine with the engine; the request grammar is the engine's
// (engine/benchmarkrequest.h), shared with the Benchmark panel.
#include "app/commands/bench.h"

#include "app/commands/commandline.h"
#include "app/commands/commands.h"

#include "engine/backendregistry.h"
#include "engine/benchmarkrequest.h"
#include "engine/benchmarksession.h"
#include "model/write/texttable.h"

#include <QDir>
#include <QFile>

#include <cmath>
#include <memory>

#include <unistd.h>

namespace kix::cli {
namespace {

bool parseCount(const QString& text, qint64& value)
{
    bool ok = false;
    value = text.trimmed().toLongLong(&ok);
    return ok;
}

QString fixed(double value, int decimals)
{
    return std::isfinite(value) ? QString::number(value, 'f', decimals) : QStringLiteral("-");
}

bool isTerminal(QTextStream& stream)
{
    auto* file = qobject_cast<QFile*>(stream.device());
    return file && file->handle() >= 0 && isatty(file->handle());
}

void printResults(QTextStream& out, const QVector<BenchmarkResult>& results)
{
    const QStringList header = { QStringLiteral("pass"), QStringLiteral("impl"), QStringLiteral("dtype"),
        QStringLiteral("M"), QStringLiteral("C"), QStringLiteral("H"), QStringLiteral("cpg"), QStringLiteral("status"),
        QStringLiteral("median us"), QStringLiteral("p20 us"), QStringLiteral("p80 us"), QStringLiteral("GB/s"),
        QStringLiteral("% copy"), QStringLiteral("max rel err"), QStringLiteral("samples") };
    QVector<QStringList> rows { header };
    for (const BenchmarkResult& r : results) {
        const BenchmarkSpec& s = r.spec;
        const bool timed = r.status == BenchmarkResult::Status::Passed;
        rows.append({ passName(s.pass), s.implementation, dtypeName(s.dtype), QString::number(s.batch),
            QString::number(s.channels), QString::number(s.hidden), QString::number(s.channelsPerGroup),
            statusName(r.status), timed ? fixed(r.statistics.median / 1e3, 1) : QStringLiteral("-"),
            timed ? fixed(r.statistics.p20 / 1e3, 1) : QStringLiteral("-"),
            timed ? fixed(r.statistics.p80 / 1e3, 1) : QStringLiteral("-"),
            timed ? fixed(r.bandwidthGBs, 2) : QStringLiteral("-"),
            timed ? fixed(100 * r.bandwidthFraction, 1) : QStringLiteral("-"),
            r.hasDocument() ? QString::number(r.correctness.maxRelativeError, 'e', 2) : QStringLiteral("-"),
            timed ? QString::number(r.statistics.count) : QStringLiteral("-") });
    }
    // pass, impl, dtype and status read left to right; the numbers line up on their last digit
    out << QString::fromUtf8(alignedRows(rows, {}, { 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14 }));
}

const char* const kEpilog
    = "--sweep channels=32,64,...,2048 runs every value (A,B,...,Z: geometric when B is a multiple of A,\n"
      "else arithmetic with step B-A); KEY is batch (M), channels (C), hidden (H) or channels_per_group;\n"
      "repeat it to sweep more keys (the cross product). Every spec is checked before anything runs.\n"
      "--cuda-graph (CUDA devices; also KIX_CUDA_GRAPH=1) replays each repetition as one CUDA graph launch\n"
      "instead of one launch per kernel; the run's protocol records it.\n";

// The command's options, declared once and read back by name.
struct BenchOptions
{
    QCommandLineOption device { QStringLiteral("device"), QStringLiteral("auto, cpu or cuda[:N] (default auto)."),
        QStringLiteral("DEVICE"), QStringLiteral("auto") };
    QCommandLineOption pass { QStringLiteral("pass"),
        QStringLiteral("forward, backward and/or full, comma-separated (default all)."), QStringLiteral("PASSES"),
        QStringLiteral("forward,backward,full") };
    QCommandLineOption shape { QStringLiteral("shape"),
        QStringLiteral("Batch, channels, elements per channel (default 128,2048,512)."), QStringLiteral("M,C,H"),
        QStringLiteral("128,2048,512") };
    QCommandLineOption cpg { QStringLiteral("channels-per-group"), QStringLiteral("Default 4."), QStringLiteral("N"),
        QStringLiteral("4") };
    QCommandLineOption sweep { QStringLiteral("sweep"), QStringLiteral("Sweep a shape key (see below)."),
        QStringLiteral("KEY=VALUES") };
    QCommandLineOption dtype { QStringLiteral("dtype"),
        QStringLiteral("fp32, bf16 and/or fp16, comma-separated (default fp32)."), QStringLiteral("DTYPES"),
        QStringLiteral("fp32") };
    QCommandLineOption impl { QStringLiteral("impl"),
        QStringLiteral("Implementations, comma-separated, or all (default: the device's first)."),
        QStringLiteral("NAMES") };
    QCommandLineOption warmup { QStringLiteral("warmup-ms"), QStringLiteral("Warm-up time (default 25)."),
        QStringLiteral("MS"), QStringLiteral("25") };
    QCommandLineOption rep { QStringLiteral("rep-ms"), QStringLiteral("Timed repetitions' time (default 100)."),
        QStringLiteral("MS"), QStringLiteral("100") };
    QCommandLineOption noise { QStringLiteral("noise-stop"),
        QStringLiteral("Repeat past --rep-ms until the relative standard error of the mean is 0.5%.") };
    QCommandLineOption maxMs { QStringLiteral("max-ms"),
        QStringLiteral("Time cap of one run with --noise-stop (default 2000)."), QStringLiteral("MS"),
        QStringLiteral("2000") };
    QCommandLineOption outDir { QStringLiteral("out"), QStringLiteral("The folder for the run files (created)."),
        QStringLiteral("DIR") };
    QCommandLineOption cudaGraph { QStringLiteral("cuda-graph"),
        QStringLiteral("Replay each repetition as one CUDA graph.") };

    void addTo(CommandLine& cl) const
    {
        for (const QCommandLineOption* option :
            { &device, &pass, &shape, &cpg, &sweep, &dtype, &impl, &warmup, &rep, &noise, &maxMs, &outDir, &cudaGraph })
            cl.addOption(*option);
        cl.setEpilog(QString::fromLatin1(kEpilog));
    }
};

// The base spec's shape and timing from the options; a usage error (its exit code) or -1.
int readBaseSpec(CommandLine& cl, const BenchOptions& o, BenchmarkSpec& base)
{
    const QStringList dims = cl.value(o.shape).split(QLatin1Char(','));
    if (dims.size() != 3 || !parseCount(dims[0], base.batch) || !parseCount(dims[1], base.channels)
        || !parseCount(dims[2], base.hidden))
        return cl.usageError(QStringLiteral("--shape expects M,C,H (got '%1')").arg(cl.value(o.shape)));
    if (!parseCount(cl.value(o.cpg), base.channelsPerGroup))
        return cl.usageError(QStringLiteral("--channels-per-group expects an integer (got '%1')").arg(cl.value(o.cpg)));
    const std::pair<const QCommandLineOption*, double*> numbers[]
        = { { &o.warmup, &base.timing.warmupMs }, { &o.rep, &base.timing.repMs }, { &o.maxMs, &base.timing.maxMs } };
    for (const auto& [option, value] : numbers) {
        bool ok = false;
        *value = cl.value(*option).toDouble(&ok);
        if (!ok)
            return cl.usageError(
                QStringLiteral("--%1 expects a number (got '%2')").arg(option->names().first(), cl.value(*option)));
    }
    base.timing.noiseStop = cl.isSet(o.noise);
    base.timing.cudaGraph = cl.isSet(o.cudaGraph);
    return -1;
}

// Passes, dtypes and sweeps from the options; a usage error (its exit code) or -1.
int readMatrix(CommandLine& cl, const BenchOptions& o, BenchmarkRequest& request)
{
    for (const QString& p : cl.value(o.pass).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        Pass value;
        if (!parsePass(p.trimmed(), value))
            return cl.usageError(QStringLiteral("unknown pass '%1' (expected forward, backward or full)").arg(p));
        request.passes << value;
    }
    for (const QString& d : cl.value(o.dtype).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        DType value;
        if (!parseDType(d.trimmed(), value))
            return cl.usageError(QStringLiteral("unknown dtype '%1' (expected fp32, bf16 or fp16)").arg(d));
        request.dtypes << value;
    }
    if (request.passes.isEmpty() || request.dtypes.isEmpty())
        return cl.usageError(QStringLiteral("--pass and --dtype need at least one value"));
    for (const QString& s : cl.parser().values(o.sweep)) {
        SweepAxis axis;
        QString error;
        if (!parseSweepAxis(s, axis, error))
            return cl.usageError(error);
        request.sweeps << axis;
    }
    return -1;
}

// "auto" passing over a backend that is built in but unusable: say why, or the user sees CPU numbers without
// knowing the GPU was never tried.
void explainSkippedBackends(const QString& device, const BackendRegistry& registry, const Backend* chosen,
    const DeviceInfo& info, QTextStream& err)
{
    const QString wanted = device.trimmed().toLower();
    if (!wanted.isEmpty() && wanted != QStringLiteral("auto"))
        return;
    for (const auto& b : registry.backends())
        if (b.get() != chosen && b->devices().isEmpty() && !b->unavailableReason().isEmpty())
            err << "kix bench: no usable " << b->name() << " device (" << b->unavailableReason() << "); using "
                << info.id << '\n';
}

// Runs one spec with its progress line on err, writes its document into `outDir`; false when it failed.
bool runOneSpec(BenchmarkSession& session, const BenchmarkSpec& spec, const QString& label, const QString& outDir,
    QTextStream& err, BenchmarkResult& result)
{
    const bool terminal = isTerminal(err);
    err << label << (terminal ? " ..." : "\n");
    err.flush();
    TimingHooks hooks;
    int lastPercent = -1;
    if (terminal)
        hooks.progress = [&](double fraction) {
            const int percent = int(fraction * 100);
            if (percent / 5 != lastPercent / 5) {
                lastPercent = percent;
                err << '\r' << label << ' ' << percent << '%';
                err.flush();
            }
        };
    result = session.run(spec, hooks);
    bool ok = true;
    QString writeError;
    if (result.hasDocument() && !BenchmarkSession::writeDocument(result, outDir, writeError)) {
        result.message = writeError;
        ok = false;
    }
    if (terminal)
        err << '\r' << label << ' ' << statusName(result.status) << "    \n";
    if (result.status != BenchmarkResult::Status::Passed) {
        err << "  " << statusName(result.status) << ": " << result.message << '\n';
        ok = false;
    } else if (!writeError.isEmpty()) {
        err << "  " << writeError << '\n';
    }
    // Recorded in the document too; said here because a throttled GPU makes every number after it suspect.
    const auto warning = result.deviceDetails.find("warning");
    if (warning != result.deviceDetails.end() && warning->is_string() && !warning->get<std::string>().empty())
        err << "  warning: " << QString::fromStdString(warning->get<std::string>()) << '\n';
    err.flush();
    return ok;
}

// The results' table, the device's copy bandwidth and where the files went.
void printSummary(
    QTextStream& out, const QVector<BenchmarkResult>& results, const DeviceInfo& info, const QString& outDir)
{
    printResults(out, results);
    out << "copy bandwidth of " << info.id << " (" << info.name
        << "): " << fixed(results.isEmpty() ? NAN : results.first().copyBandwidthGBs, 2) << " GB/s\n";
    int written = 0;
    for (const BenchmarkResult& r : results)
        written += r.filePath.isEmpty() ? 0 : 1;
    out << written << " run file(s) written to " << QDir(outDir).absolutePath() << '\n';
    out.flush();
}

} // namespace

int runBench(const QStringList& args, QTextStream& out, QTextStream& err, BackendRegistry* registry)
{
    CommandLine cl(QStringLiteral("bench"),
        QStringLiteral("Runs GroupNorm benchmarks on this machine (CUDA or CPU) and writes one kernelindex run per "
                       "(pass, shape, dtype, implementation) into DIR."),
        out, err);
    const BenchOptions o;
    o.addTo(cl);
    if (!cl.parse(args))
        return cl.exitCode();
    if (!cl.positional().isEmpty())
        return cl.usageError(QStringLiteral("unexpected argument '%1'").arg(cl.positional().first()));
    const QString outDir = cl.value(o.outDir);
    if (outDir.isEmpty())
        return cl.usageError(QStringLiteral("--out DIR is required"));
    BenchmarkRequest request;
    if (const int code = readBaseSpec(cl, o, request.base); code >= 0)
        return code;
    if (const int code = readMatrix(cl, o, request); code >= 0)
        return code;

    std::unique_ptr<BackendRegistry> owned;
    if (!registry) {
        owned = std::make_unique<BackendRegistry>();
        registry = owned.get();
    }
    Backend* backend = nullptr;
    DeviceInfo info;
    QString error;
    if (!registry->resolve(cl.value(o.device), backend, info, error))
        return cl.fail(error);
    explainSkippedBackends(cl.value(o.device), *registry, backend, info, err);
    request.base.device = info.id;
    request.implementations = cl.value(o.impl).split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (request.implementations.isEmpty() || request.implementations == QStringList { QStringLiteral("all") })
        request.implementations = cl.isSet(o.impl) ? backend->implementations() : backend->implementations().mid(0, 1);

    // Every spec is validated before any runs.
    BenchmarkSession session(*registry);
    QVector<BenchmarkSpec> specs = expandRequest(request);
    for (BenchmarkSpec& spec : specs) {
        const QString refusal = session.resolve(spec);
        if (!refusal.isEmpty())
            return cl.usageError(QStringLiteral("%1 %2: %3").arg(passName(spec.pass), spec.workloadSlug(), refusal));
    }
    QVector<BenchmarkResult> results;
    int exitCode = ExitOk;
    for (int i = 0; i < specs.size(); ++i) {
        const BenchmarkSpec& spec = specs[i];
        const QString label = QStringLiteral("[%1/%2] %3 %4 %5 on %6")
                                  .arg(i + 1)
                                  .arg(specs.size())
                                  .arg(passName(spec.pass), spec.implementation, spec.workloadSlug(), info.id);
        BenchmarkResult result;
        if (!runOneSpec(session, spec, label, outDir, err, result))
            exitCode = ExitFailure;
        results << result;
    }
    printSummary(out, results, info, outDir);
    return exitCode;
}

int benchCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    return runBench(args, out, err, nullptr);
}

} // namespace kix::cli
